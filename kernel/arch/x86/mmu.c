/*
 * x86 paging: a page directory of 1024 entries, each pointing at a page
 * table of 1024 entries for 4 KB pages, or (with CR4.PSE) mapping a 4 MB
 * page itself (no execute permission: PERM_X is implied).
 *
 * Every address space shares the kernel half (KERNBASE and up: all RAM,
 * mapped with 4 MB global pages), so a new address space only copies those
 * directory entries.  User pages below USERTOP get page tables of their own.
 */
#include "kernel.h"
#include "x86.h"
#include "fns.h"

#define PTE_P   0x001            /* present            */
#define PTE_W   0x002            /* writable           */
#define PTE_U   0x004            /* user may access    */
#define PTE_PS  0x080            /* 4 MB page (in a PDE) */
#define PTE_G   0x100            /* global: kept in the TLB across CR3 loads */
#define PDX(va) ((va) >> 22)
#define PTX(va) (((va) >> 12) & 0x3ff)
#define PTE_ADDR(pte) ((pte) & ~0xfffu)

static uint32 kernel_pgdir[1024] __attribute__((aligned(PGSIZE)));

void mmu_init(void)
{
    for (uint32 pa = 0; pa < RAMSIZE; pa += (4u << 20))
        kernel_pgdir[PDX((uint32)P2V(pa))] = pa | PTE_PS | PTE_G | PTE_W | PTE_P;
    asm volatile("movl %%cr4, %%eax; orl $0x90, %%eax; movl %%eax, %%cr4"
                 ::: "eax");     /* PSE and PGE: 4 MB pages, global pages */
    arch_pt_activate(kernel_pgdir);
}

pagetable_t arch_pt_create(void)
{
    uint32 *pd = kalloc();
    if (!pd)
        return 0;
    for (uint32 i = PDX(USERTOP); i < 1024; i++)
        pd[i] = kernel_pgdir[i];
    return pd;
}

static uint32 *walk(pagetable_t pd, uaddr va, int alloc)
{
    uint32 *pde = &pd[PDX(va)];
    if (!(*pde & PTE_P)) {
        if (!alloc)
            return 0;
        void *pt = kalloc();
        if (!pt)
            return 0;
        *pde = V2P(pt) | PTE_U | PTE_W | PTE_P;   /* the PTEs decide */
    }
    uint32 *pt = P2V(PTE_ADDR(*pde));
    return &pt[PTX(va)];
}

int arch_pt_map(pagetable_t pd, uaddr va, paddr pa, int perm)
{
    assert(va < USERTOP);
    uint32 *pte = walk(pd, va, 1);
    if (!pte)
        return -ENOMEM;
    *pte = pa | PTE_U | PTE_P | ((perm & PERM_W) ? PTE_W : 0);
    return 0;
}

paddr arch_pt_lookup(pagetable_t pd, uaddr va, int *perm)
{
    uint32 *pte = walk(pd, va, 0);
    if (!pte || !(*pte & PTE_P))
        return 0;
    if (perm)
        *perm = PERM_R | PERM_X | ((*pte & PTE_W) ? PERM_W : 0);
    return PTE_ADDR(*pte) | (va & (PGSIZE - 1));
}

paddr arch_pt_unmap(pagetable_t pd, uaddr va)
{
    uint32 *pte = walk(pd, va, 0);
    if (!pte || !(*pte & PTE_P))
        return 0;
    paddr pa = PTE_ADDR(*pte);
    *pte = 0;
    asm volatile("invlpg (%0)" :: "r"(va) : "memory");
    return pa;
}

void arch_pt_destroy(pagetable_t pd)
{
    for (uint32 i = 0; i < PDX(USERTOP); i++)
        if (pd[i] & PTE_P)
            kfree(P2V(PTE_ADDR(pd[i])));
    kfree(pd);
}

void arch_pt_activate(pagetable_t pd)
{
    lcr3(V2P(pd));
}
