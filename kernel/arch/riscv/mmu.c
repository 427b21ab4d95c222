/*
 * Sv32 paging: two levels of 1024 four-byte entries, 4 KB pages.  Every
 * address space shares the kernel half (addresses >= KERNBASE, plus the
 * device window at DEVBASE), mapped with 4 MB "megapages" straight from the
 * root table, so a new address space only copies those root entries.  User
 * pages below USERTOP get second-level tables of their own.
 */
#include "kernel.h"
#include "riscv.h"
#include "fns.h"

#define MEGA        (4u << 20)
#define L1(va)      ((va) >> 22)
#define L2(va)      (((va) >> 12) & 0x3ff)
#define PTE2PA(pte) (((paddr)(pte) >> 10) << 12)
#define PA2PTE(pa)  (((uint32)(pa) >> 12) << 10)

static uint32 kernel_pt[1024] __attribute__((aligned(PGSIZE)));

static void map_mega(uint32 va, paddr pa, uint32 flags)
{
    kernel_pt[L1(va)] = PA2PTE(pa) | flags | PTE_A | PTE_D | PTE_G | PTE_V;
}

void mmu_init(void)
{
    for (uint32 pa = KERNBASE; pa < PHYSTOP; pa += MEGA)
        map_mega(pa, pa, PTE_R | PTE_W | PTE_X);
    map_mega(DEV(0), 0, PTE_R | PTE_W);                 /* test device */
    map_mega(DEV(PLIC_PA), PLIC_PA, PTE_R | PTE_W);
    map_mega(DEV(UART0_PA), UART0_PA, PTE_R | PTE_W);
    arch_pt_activate(kernel_pt);
}

pagetable_t arch_pt_create(void)
{
    uint32 *pt = kalloc();
    if (!pt)
        return 0;
    for (int i = L1(USERTOP); i < 1024; i++)
        pt[i] = kernel_pt[i];
    return pt;
}

/* The second-level entry for va, allocating its table if `alloc`. */
static uint32 *walk(pagetable_t pt, uaddr va, int alloc)
{
    uint32 *l1 = &pt[L1(va)];
    if (!(*l1 & PTE_V)) {
        if (!alloc)
            return 0;
        void *l2 = kalloc();
        if (!l2)
            return 0;
        *l1 = PA2PTE(V2P(l2)) | PTE_V;
    }
    uint32 *l2 = P2V(PTE2PA(*l1));
    return &l2[L2(va)];
}

int arch_pt_map(pagetable_t pt, uaddr va, paddr pa, int perm)
{
    assert(va < USERTOP);
    uint32 *pte = walk(pt, va, 1);
    if (!pte)
        return -ENOMEM;
    uint32 flags = PTE_U | PTE_A | PTE_D | PTE_V;
    if (perm & PERM_R) flags |= PTE_R;
    if (perm & PERM_W) flags |= PTE_W | PTE_R;
    if (perm & PERM_X) flags |= PTE_X;
    *pte = PA2PTE(pa) | flags;
    return 0;
}

paddr arch_pt_lookup(pagetable_t pt, uaddr va, int *perm)
{
    uint32 *pte = walk(pt, va, 0);
    if (!pte || !(*pte & PTE_V))
        return 0;
    if (perm)
        *perm = ((*pte & PTE_R) ? PERM_R : 0) | ((*pte & PTE_W) ? PERM_W : 0) |
                ((*pte & PTE_X) ? PERM_X : 0);
    return PTE2PA(*pte) | (va & (PGSIZE - 1));
}

paddr arch_pt_unmap(pagetable_t pt, uaddr va)
{
    uint32 *pte = walk(pt, va, 0);
    if (!pte || !(*pte & PTE_V))
        return 0;
    paddr pa = PTE2PA(*pte);
    *pte = 0;
    sfence_vma();
    return pa;
}

void arch_pt_destroy(pagetable_t pt)
{
    for (int i = 0; i < (int)L1(USERTOP); i++)
        if (pt[i] & PTE_V)
            kfree(P2V(PTE2PA(pt[i])));
    kfree(pt);
}

void arch_pt_activate(pagetable_t pt)
{
    csr_write(satp, SATP_SV32 | (V2P(pt) >> PGSHIFT));
    sfence_vma();
}
