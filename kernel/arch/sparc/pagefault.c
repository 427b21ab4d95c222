/*
 * SPARC page faults, for demand paging (kernel/port/paging.c): which traps
 * are page faults, and what access they were.  trap() calls user_fault()
 * for every fault from user mode and copy_fault() for a data fault inside
 * a user copy (usercopy.S); a page fault that vm_fault() serves returns to
 * the faulting instruction (pc and npc as they were), which runs again.
 * Linked after the rest of the kernel (Makefile; paging.c, "Placement",
 * says why).
 *
 * The SRMMU's fault address register holds a data fault's address; its
 * status register, which says whether the access was a store, is cleared
 * by reading, and trap() has read it already (fault_info) and named the
 * access in `why`.  An instruction fault's address is the pc.  The user
 * stack stays mapped in full (machine.h: USER_STACK_FAULTS): the window
 * traps cannot take a page fault.
 */
#include "kernel.h"
#include "proc.h"
#include "sparc.h"
#include "fns.h"

void user_fault(const char *why, uint32 pc, uint32 addr)
{
    uint32 tt = curproc->tf->tt;
    int access = tt == TT_INSN_FAULT ? FAULT_FETCH :
                 strcmp(why, "store_fault") == 0 ? FAULT_WRITE : FAULT_READ;
    if ((tt != TT_DATA_FAULT && tt != TT_INSN_FAULT) || vm_fault(addr, access) < 0)
        proc_fault(why, pc, addr);
}

/* A copy reads or writes; vm_fault treats the two alike (it refuses only
 * fetches, and pages that are mapped). */
void copy_fault(struct trapframe *tf)
{
    if (vm_fault(mmu_read(MMU_FAR), FAULT_READ) < 0) {
        tf->pc = (uint32)usercopy_fault;
        tf->npc = tf->pc + 4;
    }
}
