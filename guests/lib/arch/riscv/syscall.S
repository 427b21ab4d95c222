/*
 * syscall.S: the system call stubs for RISC-V, one per call.
 *
 * RISC-V ABI of our kernel: the call number in a7, arguments in a0..a5,
 * `ecall`, result in a0.  The C calling convention already put the
 * arguments in a0..a5, so a stub only loads a7 and traps.
 *
 * A negative result is -errno: the stub stores errno and returns -1, which
 * is what C callers expect (sbrk's (void *)-1 is the same bit pattern).
 * Every value a successful call returns (pids, fds, counts, user addresses
 * below 0x80000000) is non-negative, so the sign bit is unambiguous.
 */
#include "syscall.h"

/* The calls made here: all but the network's, which netcalls.S makes
 * from this same file (syscall.h says why they are apart). */
#ifndef SYSCALL_STUBS
#define SYSCALL_STUBS FOR_EACH_BASE_SYSCALL
#endif

    .text

#define SYSCALL(name, number)   \
    .globl name;                \
    .type name, @function;      \
name:                           \
    li a7, number;              \
    ecall;                      \
    bltz a0, syscall_error;     \
    ret

#define STUB(name) SYSCALL(name, SYS_##name);
SYSCALL_STUBS(STUB)         /* kernel/include/syscall.h */

/* a0 = -errno: errno = -a0; return -1.  The stubs branch here rather than
 * call, so `ret` goes straight back to the stub's caller. */
syscall_error:
    neg t0, a0
    la t1, errno
    sw t0, 0(t1)
    li a0, -1
    ret
