/*
 * MIPS address spaces: page tables of our own design and a TLB that the
 * kernel fills in software.
 *
 * The hardware walks nothing.  A user address that misses in the 16-entry
 * TLB traps to tlb_refill (trapentry.S), which reads the entry from these
 * tables and writes it into the TLB.  So the tables' format is ours to
 * choose, and the choice is the refill handler's speed:
 *
 *   struct pgdir   one per address space, one page: 512 words, one per
 *                  4 MB of user space, each the kseg0 address of a page
 *                  table; then the address space's ASID;
 *   page table     1024 entries, one per 4 KB page, each already in the
 *                  TLB's EntryLo format (PFN, cacheable, D = writable,
 *                  V = valid), so the handler copies them unchanged.  A TLB
 *                  entry maps an even/odd pair of pages: the handler loads
 *                  two neighbouring entries at once.
 *
 * A directory slot with no page table points at empty_pt, a table of
 * invalid entries, so the refill handler never tests anything.
 *
 * ASIDs.  Every TLB entry is tagged with the 8-bit address-space id of the
 * process it belongs to, so a context switch only changes EntryHi's ASID
 * and the TLB keeps every process's entries, as on the DECstation.  ASIDs
 * are handed out in generations: when all 255 are used, the whole TLB is
 * flushed and numbering starts again; an address space whose ASID is from
 * an older generation gets a new one when it next runs.  Changing a
 * mapping removes the pair's entry from the TLB (tlb_forget).
 *
 * The kernel itself lives in kseg0, which the TLB never translates.  MIPS I
 * pages have no execute permission: readable means executable. */
#include "kernel.h"
#include "mips.h"
#include "fns.h"

#define NPDE        512                     /* USERTOP / 4 MB              */
#define PDX(va)     ((va) >> 22)
#define PTX(va)     (((va) >> 12) & 0x3ff)

struct pgdir {
    uint32 pde[NPDE];                       /* read by tlb_refill          */
    uint32 asid;
    uint32 asid_gen;                        /* asid is valid if == asid_gen */
};
_Static_assert(sizeof(struct pgdir) <= PGSIZE, "a directory is one page");

static uint32 empty_pt[1024] __attribute__((aligned(PGSIZE)));   /* all invalid */
static struct pgdir boot_pgdir;             /* before the first process    */
uint32 cur_pgdir;                           /* kseg0 address: tlb_refill   */

static uint32 asid_gen = 1, next_asid = 1;  /* ASID 0 is never handed out  */

/* An EntryHi value no access can match: a kseg0 address is never looked
 * up in the TLB.  Each slot gets a different one, as the architecture
 * wants no two entries to match the same address. */
#define UNUSED_HI(i) (KERNBASE + (uint32)(i) * 2 * PGSIZE)

static void tlb_flush_all(void)
{
    uint32 hi = mfc0(C0_ENTRYHI);
    mtc0(C0_ENTRYLO0, 0);
    mtc0(C0_ENTRYLO1, 0);
    for (uint32 i = 0; i < NTLB; i++) {
        mtc0(C0_ENTRYHI, UNUSED_HI(i));
        mtc0(C0_INDEX, i);
        tlb_write_index();
    }
    mtc0(C0_ENTRYHI, hi);
}

/* Remove the TLB entry that maps va's pair of pages in pt, if any. */
static void tlb_forget(pagetable_t pt, uaddr va)
{
    if (pt->asid_gen != asid_gen)
        return;                             /* none of its entries is left */
    uint32 hi = mfc0(C0_ENTRYHI);
    mtc0(C0_ENTRYHI, (va & ~(2 * PGSIZE - 1)) | pt->asid);
    tlb_probe();
    int32 index = (int32)mfc0(C0_INDEX);    /* negative: not there         */
    if (index >= 0) {
        mtc0(C0_ENTRYLO0, 0);
        mtc0(C0_ENTRYLO1, 0);
        mtc0(C0_ENTRYHI, UNUSED_HI(index));
        tlb_write_index();
    }
    mtc0(C0_ENTRYHI, hi);
}

static void pgdir_init(struct pgdir *d)
{
    for (int i = 0; i < NPDE; i++)
        d->pde[i] = (uint32)empty_pt;
    d->asid_gen = 0;
}

void mmu_init(void)
{
    mtc0(C0_PAGEMASK, 0);                   /* 4 KB pages                  */
    mtc0(C0_WIRED, 0);                      /* tlbwr may use every slot    */
    tlb_flush_all();
    pgdir_init(&boot_pgdir);
    arch_pt_activate(&boot_pgdir);
}

pagetable_t arch_pt_create(void)
{
    struct pgdir *d = kalloc();
    if (d)
        pgdir_init(d);
    return d;
}

/* The page-table entry for va, allocating its table if `alloc`. */
static uint32 *walk(pagetable_t pt, uaddr va, int alloc)
{
    uint32 *pde = &pt->pde[PDX(va)];
    if (*pde == (uint32)empty_pt) {
        if (!alloc)
            return 0;
        void *table = kalloc();
        if (!table)
            return 0;
        *pde = (uint32)table;
    }
    return &((uint32 *)*pde)[PTX(va)];
}

int arch_pt_map(pagetable_t pt, uaddr va, paddr pa, int perm)
{
    assert(va < USERTOP);
    uint32 *pte = walk(pt, va, 1);
    if (!pte)
        return -ENOMEM;
    *pte = PA_PTE(pa) | PTE_CACHED | PTE_V | ((perm & PERM_W) ? PTE_D : 0);
    tlb_forget(pt, va);                     /* the pair may be there, this half invalid */
    return 0;
}

paddr arch_pt_lookup(pagetable_t pt, uaddr va, int *perm)
{
    uint32 *pte = walk(pt, va, 0);
    if (!pte || !(*pte & PTE_V))
        return 0;
    if (perm)
        *perm = PERM_R | PERM_X | ((*pte & PTE_D) ? PERM_W : 0);
    return PTE_PA(*pte) | (va & (PGSIZE - 1));
}

paddr arch_pt_unmap(pagetable_t pt, uaddr va)
{
    uint32 *pte = walk(pt, va, 0);
    if (!pte || !(*pte & PTE_V))
        return 0;
    paddr pa = PTE_PA(*pte);
    *pte = 0;
    tlb_forget(pt, va);
    return pa;
}

/* Its TLB entries may stay behind: their ASID is not handed out again
 * before the next flush. */
void arch_pt_destroy(pagetable_t pt)
{
    for (int i = 0; i < NPDE; i++)
        if (pt->pde[i] != (uint32)empty_pt)
            kfree((void *)pt->pde[i]);
    kfree(pt);
}

void arch_pt_activate(pagetable_t pt)
{
    if (pt->asid_gen != asid_gen) {
        if (next_asid > ASID_MASK) {        /* all used: a new generation  */
            tlb_flush_all();
            asid_gen++;
            next_asid = 1;
        }
        pt->asid = next_asid++;
        pt->asid_gen = asid_gen;
    }
    cur_pgdir = (uint32)pt;
    mtc0(C0_ENTRYHI, pt->asid);
}
