/*
 * The SPARC Reference MMU (SRMMU): three levels of tables, 4 KB pages.
 *
 *   level 1: 256 entries, 16 MB each   (a 1 KB table)
 *   level 2:  64 entries, 256 KB each  (256 bytes)
 *   level 3:  64 entries, 4 KB each    (256 bytes)
 *
 * An entry is either a page table descriptor (PTD: the next table's
 * physical address >> 4, ET = 1) or a page table entry (PTE: the page's
 * physical address >> 4, cacheable bit, access code ACC, ET = 2).  A PTE
 * may sit at any level, mapping 16 MB or 256 KB at once: the kernel half
 * (addresses >= KERNBASE, and the device regions at DEVBASE up) is mapped with
 * 16 MB level-1 PTEs, shared by every address space, so a new address
 * space only copies those entries.  User pages get level-2 and level-3
 * tables of their own; each table takes a page of its own here, which
 * wastes most of it but keeps this file simple.
 *
 * The MMU finds the level-1 table through a context table: we use context
 * 0 only, and switch address spaces by rewriting its entry and flushing
 * the TLB.  (The Sun-4 had Sun's own MMU instead, with segment and page
 * maps in hardware and 16 contexts: hw-models/README.md says how that
 * differs.) */
#include "kernel.h"
#include "sparc.h"
#include "fns.h"

#define L1(va)      ((va) >> 24)
#define L2(va)      (((va) >> 18) & 0x3f)
#define L3(va)      (((va) >> 12) & 0x3f)
#define ET(e)       ((e) & 3)
#define PTD(pa)     (((uint32)(pa) >> 4) | SRMMU_ET_PTD)
#define PTE(pa, acc, flags) \
                    ((((uint32)(pa) >> 12) << 8) | (flags) | ((acc) << SRMMU_ACC_SHIFT) | SRMMU_ET_PTE)
#define ENTRY_PA(e) (((paddr)(e) >> 8) << 12)       /* a PTD's or PTE's address */
#define PTD_TABLE(e) ((uint32 *)P2V(((paddr)(e) & ~3u) << 4))
#define ACC(e)      (((e) >> SRMMU_ACC_SHIFT) & 7)
#define MEGA16      (16u << 20)

static uint32 ctx_table[256] __attribute__((aligned(1024)));
static uint32 kernel_pt[256] __attribute__((aligned(1024)));

void mmu_init(void)
{
    for (uint32 va = KERNBASE; va < PHYSTOP; va += MEGA16)
        kernel_pt[L1(va)] = PTE(V2P(va), ACC_NONE_RWX, SRMMU_PTE_C);
    static const paddr devices[] = { APC_REGION, SLAVIO_REGION, DMA_REGION };
    for (uint32 i = 0; i < sizeof devices / sizeof devices[0]; i++)   /* not cacheable */
        kernel_pt[L1(DEV(devices[i]))] = PTE(devices[i], ACC_NONE_RWX, 0);
    mmu_write(MMU_CTXTBL, V2P(ctx_table) >> 4);
    arch_pt_activate(kernel_pt);
}

pagetable_t arch_pt_create(void)
{
    uint32 *pt = kalloc();
    if (!pt)
        return 0;
    for (int i = L1(USERTOP); i < 256; i++)
        pt[i] = kernel_pt[i];
    return pt;
}

/* The level-3 entry for va, allocating the tables on the way if `alloc`. */
static uint32 *walk(pagetable_t pt, uaddr va, int alloc)
{
    uint32 *e = &pt[L1(va)];
    for (int level = 1; level < 3; level++) {
        if (ET(*e) != SRMMU_ET_PTD) {
            if (!alloc)
                return 0;
            uint32 *next = kalloc();
            if (!next)
                return 0;
            *e = PTD(V2P(next));
        }
        e = &PTD_TABLE(*e)[level == 1 ? L2(va) : L3(va)];
    }
    return e;
}

/* The access code for perm: the user and the kernel get the same rights
 * (the kernel reaches user memory directly, usercopy.S). */
static uint32 acc(int perm)
{
    if (perm & PERM_W)
        return (perm & PERM_X) ? ACC_RWX_RWX : ACC_RW_RW;
    return (perm & PERM_X) ? ACC_RX_RX : ACC_R_R;
}

int arch_pt_map(pagetable_t pt, uaddr va, paddr pa, int perm)
{
    assert(va < USERTOP);
    uint32 *pte = walk(pt, va, 1);
    if (!pte)
        return -ENOMEM;
    *pte = PTE(pa, acc(perm), SRMMU_PTE_C);
    return 0;
}

paddr arch_pt_lookup(pagetable_t pt, uaddr va, int *perm)
{
    uint32 *pte = walk(pt, va, 0);
    if (!pte || ET(*pte) != SRMMU_ET_PTE)
        return 0;
    if (perm) {
        static const uint8 rights[8] = {
            [ACC_R_R] = PERM_R, [ACC_RW_RW] = PERM_R | PERM_W,
            [ACC_RX_RX] = PERM_R | PERM_X, [ACC_RWX_RWX] = PERM_R | PERM_W | PERM_X,
        };
        *perm = rights[ACC(*pte)];
    }
    return ENTRY_PA(*pte) | (va & (PGSIZE - 1));
}

paddr arch_pt_unmap(pagetable_t pt, uaddr va)
{
    uint32 *pte = walk(pt, va, 0);
    if (!pte || ET(*pte) != SRMMU_ET_PTE)
        return 0;
    paddr pa = ENTRY_PA(*pte);
    *pte = 0;
    tlb_flush_all();
    return pa;
}

void arch_pt_destroy(pagetable_t pt)
{
    for (uint32 i = 0; i < L1(USERTOP); i++) {
        if (ET(pt[i]) != SRMMU_ET_PTD)
            continue;
        uint32 *l2 = PTD_TABLE(pt[i]);
        for (int j = 0; j < 64; j++)
            if (ET(l2[j]) == SRMMU_ET_PTD)
                kfree(PTD_TABLE(l2[j]));
        kfree(l2);
    }
    kfree(pt);
}

void arch_pt_activate(pagetable_t pt)
{
    ctx_table[0] = PTD(V2P(pt));
    tlb_flush_all();
}
