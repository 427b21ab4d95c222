/*
 * VAX page faults, for demand paging (kernel/port/paging.c): which
 * exceptions are page faults, and what access they were.  trap() calls
 * user_fault() for every fault from user mode and copy_fault() for a fault
 * inside a user copy (usercopy.S); a page fault that vm_fault() serves
 * returns by REI to the faulting instruction, which runs again (a MOVC3
 * interrupted half way goes on where it stopped: PSL<FPD>).  Linked after
 * the rest of the kernel (Makefile; paging.c, "Placement", says why).
 *
 * A page not mapped is a translation-not-valid fault; an address past the
 * end of the P0 page table (P0LR) an access-control violation, which
 * vm_fault's mapping cures by extending the table (mmu.c).  The fault's
 * parameter word says a write; the address is the second parameter.  The
 * VAX has no execute permission (readable is executable), so a fetch is a
 * read here.
 */
#include "kernel.h"
#include "proc.h"
#include "vax.h"
#include "fns.h"

static int page_fault(struct trapframe *tf)
{
    return tf->vec == SCB_ACV || tf->vec == SCB_TNV;
}

static int fault_access(struct trapframe *tf)
{
    return (tf->a0 & MMF_WRITE) ? FAULT_WRITE : FAULT_READ;
}

void user_fault(const char *why, uint32 pc, uint32 addr)
{
    struct trapframe *tf = curproc->tf;
    if (!page_fault(tf) || vm_fault(addr, fault_access(tf)) < 0)
        proc_fault(why, pc, addr);
}

void copy_fault(struct trapframe *tf)
{
    if (vm_fault(tf->a1, fault_access(tf)) == 0)
        return;
    /* Resume at usercopy_fault, and forget that the interrupted MOVC3 was
     * half done (PSL<FPD>): the next instruction is another one. */
    tf->pc = (uint32)usercopy_fault;
    tf->psl &= ~PSL_FPD;
}
