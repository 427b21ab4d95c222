/*
 * VAX memory management: one system page table for S0 (the kernel half,
 * shared by every process) and, per address space, page tables for P0
 * (program and heap, growing up from 0) and P1 (the stack, just below
 * 0x80000000).
 *
 * The system page table (spt) is a plain array indexed by S0 page number,
 * read by the hardware at a physical address (SBR).  It maps, in order:
 *   KERNBASE ...           all of RAM, kernel read/write (P2V/V2P)
 *   DEV_VA                 the KA655's SSC registers (the timers)
 *   PTWIN_VA ...           one window per address space (below)
 *
 * Process page tables are different: P0BR and P1BR are *virtual* S0
 * addresses, and a table must be contiguous there, but kalloc hands out
 * single pages.  So each address space owns a fixed window of S0 addresses,
 * and its page-table pages are mapped into the window as it grows, as
 * 4.3BSD's Usrptmap did:
 *   P0: up to P0_MAX bytes of program + heap, table pages added on demand
 *       (P0LR says how many page-table entries are backed);
 *   P1: one page of entries covering the top P1_SPAN bytes, enough for
 *       the fixed user stack below USTACK_TOP (param.h).
 * An entry that is zero is "no access": touching it faults.
 *
 * A portable page (PGSIZE, 4 KB) is 8 hardware pages (512 bytes), always
 * mapped together, so 8 consecutive entries describe one page. */
#include "kernel.h"
#include "vax.h"
#include "fns.h"

#define HW_PER_PAGE  (PGSIZE / VAX_PGSIZE)         /* 8 */
#define PTE_PER_PAGE (PGSIZE / 4)                  /* 1024 entries per table page */
#define P0_MAX       (16u << 20)                   /* program + heap limit */
#define P0_PTPAGES   (P0_MAX / VAX_PGSIZE / PTE_PER_PAGE)
#define P1_SPAN      (PTE_PER_PAGE * VAX_PGSIZE)   /* 512 KB: one table page */
#define P1_BASE      0x40000000u
#define P1_VPNS      0x200000u                     /* hardware pages in P1 */
#define P1_FIRST     (P1_VPNS - PTE_PER_PAGE)      /* P1LR: lowest page mapped */

#define NSPACE       (NPROC + 8)                   /* exec holds two for a while */
#define WIN_PAGES    (P0_PTPAGES + 1)
#define PTWIN_VA     (DEV_VA + PGSIZE)
#define WIN_VA(i)    (PTWIN_VA + (i) * WIN_PAGES * PGSIZE)
#define SPT_RAM      (RAMSIZE / VAX_PGSIZE)
#define SPT_LEN      ((WIN_VA(NSPACE) - KERNBASE) / VAX_PGSIZE)

/* entry.S fills the RAM part before turning mapping on. */
uint32 spt[SPT_LEN] __attribute__((aligned(VAX_PGSIZE)));

struct vax_space {
    int used;
    uint32 *p0;                  /* window: P0 entries                      */
    uint32 p0len;                /* how many of them are backed by pages    */
    uint32 *p1;                  /* window: the entries for the top of P1   */
};
static struct vax_space spaces[NSPACE];
static struct vax_space *current;

_Static_assert(USTACK_TOP - USTACK_SIZE >= USERTOP - P1_SPAN, "user stack outside the P1 window");

static uint32 *spt_entry(uintptr va)
{
    return &spt[(va - KERNBASE) / VAX_PGSIZE];
}

/* Map the kernel page at physical `pa` at S0 address `va` (8 entries). */
static void s0_map(uintptr va, paddr pa)
{
    uint32 *e = spt_entry(va);
    for (int k = 0; k < HW_PER_PAGE; k++) {
        e[k] = PTE_V | PTE_PROT(PROT_KW) | PTE_M | ((pa / VAX_PGSIZE) + k);
        mtpr(va + k * VAX_PGSIZE, PR_TBIS);     /* it may have held another page */
    }
}

/* Unmap S0 page `va`; return the physical page it held. */
static paddr s0_unmap(uintptr va)
{
    uint32 *e = spt_entry(va);
    paddr pa = (e[0] & PTE_PFN) * VAX_PGSIZE;
    for (int k = 0; k < HW_PER_PAGE; k++) {
        e[k] = 0;
        mtpr(va + k * VAX_PGSIZE, PR_TBIS);
    }
    return pa;
}

void *dev_va(paddr pa)
{
    return (void *)(DEV_VA + (pa & (VAX_PGSIZE - 1)));
}

void mmu_init(void)
{
    /* The SSC registers the timers live in: one hardware page. */
    *spt_entry(DEV_VA) = PTE_V | PTE_PROT(PROT_KW) | (SSC_PA / VAX_PGSIZE);
    mtpr(SPT_LEN, PR_SLR);       /* the windows exist, all empty for now   */
    mtpr(0, PR_TBIA);
}

pagetable_t arch_pt_create(void)
{
    for (int i = 0; i < NSPACE; i++) {
        struct vax_space *s = &spaces[i];
        if (s->used)
            continue;
        void *page = kalloc();               /* zeroed: every entry invalid */
        if (!page)
            return 0;
        s->used = 1;
        s->p0 = (uint32 *)WIN_VA(i);
        s->p0len = 0;
        s->p1 = (uint32 *)(WIN_VA(i) + P0_PTPAGES * PGSIZE);
        s0_map((uintptr)s->p1, V2P(page));
        return s;
    }
    return 0;
}

/* The first of the 8 entries for the page at va, adding a P0 table page
 * if `alloc`; 0 if va is outside what this address space can map. */
static uint32 *walk(struct vax_space *s, uaddr va, int alloc)
{
    if (va < P0_MAX) {
        uint32 idx = va / VAX_PGSIZE;
        while (idx >= s->p0len) {
            void *page;
            if (!alloc || !(page = kalloc()))
                return 0;
            s0_map((uintptr)(s->p0 + s->p0len), V2P(page));
            s->p0len += PTE_PER_PAGE;
            if (s == current)
                mtpr(s->p0len, PR_P0LR);
        }
        return &s->p0[idx];
    }
    if (va >= USERTOP - P1_SPAN && va < USERTOP)
        return &s->p1[(va - P1_BASE) / VAX_PGSIZE - P1_FIRST];
    return 0;
}

int arch_pt_map(pagetable_t s, uaddr va, paddr pa, int perm)
{
    assert(va < USERTOP && (va & (PGSIZE - 1)) == 0);
    uint32 *e = walk(s, va, 1);
    if (!e)
        return -ENOMEM;
    /* The VAX has no execute permission: readable means executable. */
    uint32 prot = (perm & PERM_W) ? PROT_UW : PROT_UR;
    for (int k = 0; k < HW_PER_PAGE; k++)
        e[k] = PTE_V | PTE_PROT(prot) | PTE_M | ((pa / VAX_PGSIZE) + k);
    return 0;
}

paddr arch_pt_lookup(pagetable_t s, uaddr va, int *perm)
{
    uint32 *e = walk(s, PGROUNDDOWN(va), 0);
    if (!e || !(*e & PTE_V))
        return 0;
    if (perm)
        *perm = PERM_R | PERM_X | ((*e & PTE_PROT(15)) == PTE_PROT(PROT_UW) ? PERM_W : 0);
    return (*e & PTE_PFN) * VAX_PGSIZE + (va & (PGSIZE - 1));
}

paddr arch_pt_unmap(pagetable_t s, uaddr va)
{
    uint32 *e = walk(s, va, 0);
    if (!e || !(*e & PTE_V))
        return 0;
    paddr pa = (*e & PTE_PFN) * VAX_PGSIZE;
    for (int k = 0; k < HW_PER_PAGE; k++) {
        e[k] = 0;
        if (s == current)
            mtpr(va + k * VAX_PGSIZE, PR_TBIS);
    }
    return pa;
}

void arch_pt_destroy(pagetable_t s)
{
    for (uint32 n = 0; n < s->p0len; n += PTE_PER_PAGE)
        kfree(P2V(s0_unmap((uintptr)(s->p0 + n))));
    kfree(P2V(s0_unmap((uintptr)s->p1)));
    s->used = 0;
    if (s == current)
        current = 0;
}

/* Switching address spaces is four register writes; each of them also
 * flushes the process half of the translation buffer. */
void arch_pt_activate(pagetable_t s)
{
    current = s;
    mtpr(s->p0, PR_P0BR);
    mtpr(s->p0len, PR_P0LR);
    /* P1BR is where the entry for P1 page 0 would be; only entries from
     * P1LR up exist, and they are the window. */
    mtpr((uint32)s->p1 - P1_FIRST * 4, PR_P1BR);
    mtpr(P1_FIRST, PR_P1LR);
}
