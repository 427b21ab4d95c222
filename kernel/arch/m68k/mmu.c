/*
 * 68040 paging with 4 KB pages: three levels of tables.  A user virtual
 * address splits into a 7-bit root index, a 7-bit pointer-table index, a
 * 6-bit page-table index and a 12-bit offset.  Table descriptors point at
 * the next table; page descriptors hold the physical page and a
 * write-protect bit.
 *
 * Only user accesses go through these tables (URP).  Supervisor accesses
 * match the transparent-translation registers set up in mmu_init and reach
 * physical memory directly, so the kernel needs no mapping of its own.
 * Every table takes a whole page (a pointer table needs 512 bytes, a page
 * table 256: simpler so). */
#include "kernel.h"
#include "fns.h"

#define ROOT_IDX(va)  ((va) >> 25)
#define PTR_IDX(va)   (((va) >> 18) & 0x7f)
#define PAGE_IDX(va)  (((va) >> 12) & 0x3f)
#define DESC_RESIDENT 0x2            /* table descriptor: UDT = resident   */
#define PAGE_RESIDENT 0x1            /* page descriptor: PDT = resident    */
#define DESC_WP       0x4            /* write protected                    */
#define PAGE_USED     0x8
#define PAGE_MODIFIED 0x10
#define PAGE_COPYBACK 0x20           /* cache mode: copyback               */

/* Transparent translation (MC68040 UM 3.2): address base, address mask,
 * enable, supervisor-only, cache mode. */
#define TTR_RAM   0x007fa020         /* 0x00000000-0x7fffffff, copyback    */
#define TTR_IO    0x807fa040         /* 0x80000000-0xffffffff, uncached    */
#define TC_ENABLE 0x8000             /* 4 KB pages                         */

static uint32 empty_root[128] __attribute__((aligned(512)));

void mmu_init(void)
{
    asm volatile(
        "movec %0, %%itt0\n\t"
        "movec %0, %%dtt0\n\t"
        "movec %1, %%dtt1\n\t"
        "moveq #0, %%d0\n\t"
        "movec %%d0, %%itt1\n\t"
        "movec %2, %%srp\n\t"
        "movec %2, %%urp\n\t"
        "moveq #1, %%d0\n\t"             /* MOVES uses function code 1: user data */
        "movec %%d0, %%sfc\n\t"
        "movec %%d0, %%dfc\n\t"
        "pflusha\n\t"
        "movec %3, %%tc"
        :: "d"(TTR_RAM), "d"(TTR_IO), "a"(empty_root), "d"(TC_ENABLE) : "d0", "memory");
}

pagetable_t arch_pt_create(void)
{
    return kalloc();                 /* an empty root: no user pages yet */
}

/* The next-level table a descriptor points at, allocating it if `alloc`. */
static uint32 *next_table(uint32 *desc, uint32 addr_mask, int alloc)
{
    if (!(*desc & DESC_RESIDENT)) {
        if (!alloc)
            return 0;
        uint32 *t = kalloc();
        if (!t)
            return 0;
        *desc = V2P(t) | DESC_RESIDENT;
    }
    return P2V(*desc & addr_mask);
}

static uint32 *walk(pagetable_t root, uaddr va, int alloc)
{
    uint32 *ptr = next_table(&root[ROOT_IDX(va)], ~0x1ffu, alloc);
    if (!ptr)
        return 0;
    uint32 *pt = next_table(&ptr[PTR_IDX(va)], ~0xffu, alloc);
    if (!pt)
        return 0;
    return &pt[PAGE_IDX(va)];
}

int arch_pt_map(pagetable_t root, uaddr va, paddr pa, int perm)
{
    assert(va < USERTOP);
    uint32 *pte = walk(root, va, 1);
    if (!pte)
        return -ENOMEM;
    *pte = pa | PAGE_RESIDENT | PAGE_USED | PAGE_MODIFIED | PAGE_COPYBACK |
           ((perm & PERM_W) ? 0 : DESC_WP);
    return 0;
}

paddr arch_pt_lookup(pagetable_t root, uaddr va, int *perm)
{
    uint32 *pte = walk(root, va, 0);
    if (!pte || !(*pte & PAGE_RESIDENT))
        return 0;
    if (perm)
        *perm = PERM_R | PERM_X | ((*pte & DESC_WP) ? 0 : PERM_W);
    return (*pte & ~0xfffu) | (va & (PGSIZE - 1));
}

paddr arch_pt_unmap(pagetable_t root, uaddr va)
{
    uint32 *pte = walk(root, va, 0);
    if (!pte || !(*pte & PAGE_RESIDENT))
        return 0;
    paddr pa = *pte & ~0xfffu;
    *pte = 0;
    asm volatile("pflusha" ::: "memory");
    return pa;
}

void arch_pt_destroy(pagetable_t root)
{
    for (uint32 i = 0; i < ROOT_IDX(USERTOP); i++) {
        if (!(root[i] & DESC_RESIDENT))
            continue;
        uint32 *ptr = P2V(root[i] & ~0x1ffu);
        for (int j = 0; j < 128; j++)
            if (ptr[j] & DESC_RESIDENT)
                kfree(P2V(ptr[j] & ~0xffu));
        kfree(ptr);
    }
    kfree(root);
}

void arch_pt_activate(pagetable_t root)
{
    asm volatile("movec %0, %%urp\n\tpflusha" :: "a"(V2P(root)) : "memory");
}
