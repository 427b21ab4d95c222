/*
 * syscall.S: the system call stubs for the VAX, one per call.
 *
 * VAX ABI of our kernel: `chmk $number` (change mode to kernel: the CPU
 * hands the number to the kernel as the exception's parameter), the
 * arguments in r0-r4, the result in r0.  The C convention passes arguments
 * on the stack (4(ap), 8(ap), ...), so a stub loads five of them whatever
 * the call takes: three instructions, and reading past a short argument
 * list only reads the caller's own stack frame, which is always there.
 * r0-r5 are scratch in the VAX C convention: nothing to save.
 *
 * A negative result is -errno: the stub stores errno and returns -1, which
 * is what C callers expect (sbrk's (void *)-1 is the same bit pattern).
 * Every value a successful call returns is non-negative.
 */
#include "syscall.h"

/* The calls made here: all but the network's, which netcalls.S makes
 * from this same file (syscall.h says why they are apart). */
#ifndef SYSCALL_STUBS
#define SYSCALL_STUBS FOR_EACH_BASE_SYSCALL
#endif

    .text

.macro SYSCALL name, number
    .globl \name
    .type \name, @function
    .balign 2
\name:
    .word   0                   /* entry mask: save no registers */
    movq    4(%ap), %r0         /* arguments 1 and 2 */
    movq    12(%ap), %r2        /* 3 and 4 */
    movl    20(%ap), %r4        /* 5 */
    chmk    $\number
    tstl    %r0                 /* REI restored our condition codes: test */
    blss    1f
    ret
1:  mnegl   %r0, errno
    mnegl   $1, %r0
    ret
.endm

#define STUB(name) SYSCALL name, SYS_##name;
SYSCALL_STUBS(STUB)         /* kernel/include/syscall.h */
