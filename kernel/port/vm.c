/*
 * User address spaces, built from the ISA's page-table primitives
 * (arch_pt_*): grow and shrink a range of pages, copy an address space for
 * fork, free one at exit, and move bytes across the user/kernel boundary.
 *
 * A process's memory is two ranges: [USER_BASE, brk) for the program and
 * its heap, and the fixed stack [USTACK_TOP - USTACK_SIZE, USTACK_TOP).
 */
#include "kernel.h"
#include "proc.h"

/* Map fresh zeroed pages over [from, to).  Growth that needs more pages
 * than are free fails at once: taking and zeroing every free page before
 * giving up, and giving them back, took 98 ms with interrupts off for one
 * sbrk(1 GB) on riscv (found by the fuzzer; t_proc checks it). */
int uvm_grow(pagetable_t pt, uaddr from, uaddr to, int perm)
{
    uaddr first = PGROUNDUP(from);     /* from's own page may be mapped */
    if (to > first && (to - first - 1) / PGSIZE + 1 > kalloc_free_pages())
        return -ENOMEM;
    for (uaddr va = PGROUNDDOWN(from); va < to; va += PGSIZE) {
        if (arch_pt_lookup(pt, va, 0))
            continue;       /* already there: the last page of a heap or segment */
        void *page = kalloc_user(va);
        if (!page || arch_pt_map(pt, va, V2P(page), perm) < 0) {
            if (page)
                kfree(page);
            uvm_shrink(pt, from, va);   /* keeps the page `from` was in */
            return -ENOMEM;
        }
    }
    return 0;
}

void uvm_shrink(pagetable_t pt, uaddr from, uaddr to)
{
    for (uaddr va = PGROUNDUP(from); va < to; va += PGSIZE) {
        paddr pa = arch_pt_unmap(pt, va);
        if (pa)
            kfree(P2V(pa));
    }
}

/* Copy every mapped page of [start, end) from one address space to another. */
int uvm_copy(pagetable_t from, pagetable_t to, uaddr start, uaddr end)
{
    for (uaddr va = PGROUNDDOWN(start); va < end; va += PGSIZE) {
        int perm;
        paddr pa = arch_pt_lookup(from, va, &perm);
        if (!pa)
            continue;
        void *page = kalloc_user(va);
        if (!page)
            return -ENOMEM;
        memcpy(page, P2V(PGROUNDDOWN(pa)), PGSIZE);
        if (arch_pt_map(to, va, V2P(page), perm) < 0) {
            kfree(page);
            return -ENOMEM;
        }
    }
    return 0;
}

void uvm_destroy(pagetable_t pt, uaddr brk)
{
    uvm_shrink(pt, USER_BASE, brk);
    uvm_shrink(pt, USTACK_TOP - USTACK_SIZE, USTACK_TOP);
    arch_pt_destroy(pt);
}

/* Write into an address space that is not the current one (exec builds the
 * new image this way), through the kernel's mapping of physical memory. */
int uvm_write(pagetable_t pt, uaddr va, const void *src, uint32 n)
{
    const uint8 *s = src;
    while (n > 0) {
        paddr pa = arch_pt_lookup(pt, va, 0);
        if (!pa)
            return -EFAULT;
        uint32 chunk = PGSIZE - (va & (PGSIZE - 1));
        if (chunk > n)
            chunk = n;
        memcpy(P2V(pa), s, chunk);
        s += chunk;
        va += chunk;
        n -= chunk;
    }
    return 0;
}

/* The user range must lie wholly below USERTOP: then the only way a copy can
 * go wrong is an unmapped or read-only page, which the ISA's copy catches. */
static int user_range_ok(uaddr a, uint32 n)
{
    return a < USERTOP && n <= USERTOP - a;
}

int copyin(void *dst, uaddr usrc, uint32 n)
{
    if (!user_range_ok(usrc, n))
        return -EFAULT;
    return arch_copyin(dst, usrc, n);
}

int copyout(uaddr udst, const void *src, uint32 n)
{
    if (!user_range_ok(udst, n))
        return -EFAULT;
    return arch_copyout(udst, src, n);
}

int copyinstr(char *dst, uaddr usrc, uint32 max)
{
    if (usrc >= USERTOP)
        return -EFAULT;
    if (max > USERTOP - usrc)
        max = USERTOP - usrc;
    return arch_copy_user_str(dst, usrc, max);
}
