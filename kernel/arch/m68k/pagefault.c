/*
 * 68040 page faults, for demand paging (kernel/port/paging.c): which
 * exceptions are page faults, and what access they were.  trap() calls
 * user_fault() for every fault from user mode and copy_fault() for an
 * access fault inside a user copy (usercopy.S).  Linked after the rest of
 * the kernel (Makefile; paging.c, "Placement", says why).
 *
 * An access fault's format-7 frame (m68k.h) holds the address and the
 * special status word: its transfer modifier tells a fetch, its R/W bit a
 * read from a write.  A page fault that vm_fault() serves returns through
 * the same frame, and QEMU's 68040, which saved the faulting instruction's
 * pc there, runs the instruction again.  (A real 68040 may have finished a
 * faulting store but for its pending write-back, which the handler would
 * then have to do itself; our faults are QEMU's.)  One that is not served
 * goes to usercopy_fault with the instruction and its write-backs
 * cancelled, as before.
 */
#include "kernel.h"
#include "proc.h"
#include "m68k.h"
#include "fns.h"

static int fault_access(struct trapframe *tf)
{
    uint16 ssw = access_frame(tf)->ssw;
    if ((ssw & SSW_TM) == TM_USER_CODE)
        return FAULT_FETCH;
    return (ssw & SSW_RW) ? FAULT_READ : FAULT_WRITE;
}

/* From user mode the frame is not at curproc->tf: a format-7 frame is 30
 * words longer than the plain one p->tf is placed for, and the hardware
 * puts it lower on the kernel stack.  So the access is read from what
 * trap() passes: fault_name() names an access fault's access, and only
 * an access fault's. */
void user_fault(const char *why, uint32 pc, uint32 addr)
{
    int access = strcmp(why, "fetch_fault") == 0 ? FAULT_FETCH :
                 strcmp(why, "load_fault") == 0 ? FAULT_READ :
                 strcmp(why, "store_fault") == 0 ? FAULT_WRITE : -1;
    if (access < 0 || vm_fault(addr, access) < 0)
        proc_fault(why, pc, addr);
}

void copy_fault(struct trapframe *tf)
{
    struct access_frame *af = access_frame(tf);
    if (vm_fault(af->fa, fault_access(tf)) == 0)
        return;
    /* Resume at usercopy_fault, and tell the CPU not to finish the
     * faulting instruction or its pending writes on the way out. */
    af->ssw &= ~SSW_CONTINUE;
    af->wb1s &= ~WBS_VALID;
    af->wb2s &= ~WBS_VALID;
    af->wb3s &= ~WBS_VALID;
    tf->pc = (uint32)usercopy_fault;
}
