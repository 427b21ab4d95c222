/*
 * RISC-V page faults, for demand paging (kernel/port/paging.c): which
 * traps are page faults, and what access they were.  trap() calls
 * user_fault() for every fault from user mode and copy_fault() for a fault
 * inside a user copy (usercopy.S); a page fault that vm_fault() serves
 * returns to the instruction that faulted, which runs again.  Linked after
 * the rest of the kernel (Makefile; paging.c says why).
 *
 * Only the page-fault causes count: an access fault is the PMP's, not the
 * page table's.  A store-or-AMO fault is a write.
 */
#include "kernel.h"
#include "proc.h"
#include "riscv.h"
#include "fns.h"

/* FAULT_* for a page-fault cause, or -1. */
static int fault_access(uint32 cause)
{
    switch (cause) {
    case CAUSE_LOAD_PAGE:  return FAULT_READ;
    case CAUSE_STORE_PAGE: return FAULT_WRITE;
    case CAUSE_FETCH_PAGE: return FAULT_FETCH;
    default:               return -1;
    }
}

void user_fault(const char *why, uint32 pc, uint32 addr)
{
    int access = fault_access(curproc->tf->scause);
    if (access < 0 || vm_fault(addr, access) < 0)
        proc_fault(why, pc, addr);
}

void copy_fault(struct trapframe *tf)
{
    int access = fault_access(tf->scause);
    if (access < 0 || vm_fault(tf->stval, access) < 0)
        tf->sepc = (uint32)usercopy_fault;
}
