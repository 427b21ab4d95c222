/*
 * syscall.S: the system call stubs for m68k, one per call.
 *
 * m68k ABI of our kernel: `trap #0` with the call number in d0 and the
 * arguments in d1-d5; the result comes back in d0.  The C convention
 * passes arguments on the stack, so the stub loads up to five of them
 * (d2-d5 are callee-saved: the stub saves and restores them).
 *
 * A negative result is -errno: store errno, return -1.
 */
#include "syscall.h"

/* The calls made here: all but the network's, which netcalls.S makes
 * from this same file (syscall.h says why they are apart). */
#ifndef SYSCALL_STUBS
#define SYSCALL_STUBS FOR_EACH_BASE_SYSCALL
#endif

    .text

/* A gas macro, not a C one: `#` means "immediate" here, not "stringify". */
.macro SYSCALL name, number
    .globl \name
    .type \name, @function
\name:
    moveq   #\number, %d0
    bra     do_syscall
.endm

#define STUB(name) SYSCALL name, SYS_##name;
SYSCALL_STUBS(STUB)         /* kernel/include/syscall.h */

/* d0 = the call number; the caller's arguments are at 4(%sp)... */
do_syscall:
    movem.l %d2-%d5, -(%sp)
    move.l  20(%sp), %d1
    move.l  24(%sp), %d2
    move.l  28(%sp), %d3
    move.l  32(%sp), %d4
    move.l  36(%sp), %d5
    trap    #0
    movem.l (%sp)+, %d2-%d5
    tst.l   %d0
    bmi.s   1f
    move.l  %d0, %a0            /* pointer results (sbrk) in a0 too */
    rts
1:  neg.l   %d0
    move.l  %d0, errno
    moveq   #-1, %d0
    move.l  %d0, %a0
    rts
