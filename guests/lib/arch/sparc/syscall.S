/*
 * syscall.S: the system call stubs for SPARC, one per call.
 *
 * SPARC ABI of our kernel, as in SunOS: the call number in %g1, arguments
 * in %o0..%o4, `ta 0`, result in %o0.  The C calling convention already
 * put the arguments in the outs, so a stub only loads %g1 and traps.
 * Stubs are leaves (no save): they run in the caller's window.
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
    .type name, #function;      \
name:                           \
    mov   number, %g1;          \
    ta    0;                    \
    tst   %o0;                  \
    bl    syscall_error;        \
     nop;                       \
    retl;                       \
     nop

#define STUB(name) SYSCALL(name, SYS_##name);
SYSCALL_STUBS(STUB)         /* kernel/include/syscall.h */

/* %o0 = -errno: errno = -%o0; return -1.  The stubs branch here rather
 * than call, so retl goes straight back to the stub's caller. */
syscall_error:
    neg   %o0
    sethi %hi(errno), %g1
    st    %o0, [%g1 + %lo(errno)]
    retl
     mov  -1, %o0
