/*
 * x86 page faults, for demand paging (kernel/port/paging.c): which traps
 * are page faults, and what access they were.  trap() calls user_fault()
 * for every fault from user mode and copy_fault() for a page fault inside
 * a user copy (usercopy.S); a page fault that vm_fault() serves returns to
 * the instruction that faulted, which runs again.  Linked after the rest of
 * the kernel (Makefile; paging.c, "Placement", says why).
 *
 * The address is CR2; the error code says a write (bit 1) and, with NX
 * only, a fetch (bit 4): without NX a fault at the address being executed
 * is a fetch, as trap.c's fault_name decides.
 */
#include "kernel.h"
#include "proc.h"
#include "x86.h"
#include "fns.h"

static int fault_access(uint32 err, uint32 eip, uint32 addr)
{
    if ((err & 0x10) || addr == eip)
        return FAULT_FETCH;
    return (err & 2) ? FAULT_WRITE : FAULT_READ;
}

void user_fault(const char *why, uint32 pc, uint32 addr)
{
    struct trapframe *tf = curproc->tf;
    if (tf->trapno != T_PGFLT || vm_fault(addr, fault_access(tf->err, tf->eip, addr)) < 0)
        proc_fault(why, pc, addr);
}

void copy_fault(struct trapframe *tf)
{
    uint32 addr = rcr2();
    if (vm_fault(addr, fault_access(tf->err, tf->eip, addr)) < 0)
        tf->eip = (uint32)usercopy_fault;
}
