/*
 * MIPS page faults, for demand paging (kernel/port/paging.c): which
 * exceptions are page faults, and what access they were.  trap() calls
 * user_fault() for every fault from user mode and copy_fault() for a page
 * fault inside a user copy (usercopy.S); a page fault that vm_fault()
 * serves returns to EPC, which runs the faulting instruction again (or
 * the branch before it, when it sat in a delay slot: as it must).  Linked
 * after the rest of the kernel (Makefile; paging.c, "Placement", says why).
 *
 * A page not mapped reaches trap() as TLBL or TLBS (tlb_refill loaded the
 * invalid entry, mmu.c); a store to a read-only page as Mod.  A fetch is a
 * TLBL whose BadVAddr is the pc.  arch_pt_map removes the invalid entry
 * from the TLB, so the retry refills the new one.
 */
#include "kernel.h"
#include "proc.h"
#include "mips.h"
#include "fns.h"

/* FAULT_* for a page-fault exception, or -1. */
static int fault_access(const struct trapframe *tf)
{
    switch (CAUSE_EXC(tf->cause)) {
    case EXC_TLBL: return tf->badvaddr == tf->epc ? FAULT_FETCH : FAULT_READ;
    case EXC_TLBS:
    case EXC_MOD:  return FAULT_WRITE;
    default:       return -1;
    }
}

void user_fault(const char *why, uint32 pc, uint32 addr)
{
    int access = fault_access(curproc->tf);
    if (access < 0 || vm_fault(addr, access) < 0)
        proc_fault(why, pc, addr);
}

void copy_fault(struct trapframe *tf)
{
    int access = fault_access(tf);
    if (access < 0 || vm_fault(tf->badvaddr, access) < 0)
        tf->epc = (uint32)usercopy_fault;
}
