/*
 * syscall.S: the system call stubs for MIPS, one per call.
 *
 * MIPS ABI of our kernel: the call number in v0, the arguments in a0-a3
 * and the fifth in t0, `syscall`, the result in v0.  The o32 calling
 * convention already put the first four arguments in a0-a3 and passes a
 * fifth on the stack, 16 bytes above sp; only select(), sendto() and
 * recvfrom() have one, so only their stubs load it.
 *
 * A negative result is -errno: the stub stores errno and returns -1, which
 * is what C callers expect (sbrk's (void *)-1 is the same bit pattern).
 * Every value a successful call returns (pids, fds, counts, user addresses
 * below 0x80000000) is non-negative, so the sign bit is unambiguous.
 *
 * Written in the assembler's reorder mode: it fills the delay slots (and
 * puts nops where it cannot) as for compiled code.
 */
#include "syscall.h"

/* The calls made here: all but the network's, which netcalls.S makes
 * from this same file (syscall.h says why they are apart). */
#ifndef SYSCALL_STUBS
#define SYSCALL_STUBS FOR_EACH_BASE_SYSCALL
#endif

    .text

/* A gas macro (for its .ifc), expanded once per call by FOR_EACH_SYSCALL.
 * (Not named SYSCALL: gas macro names ignore case, and it would replace
 * the syscall instruction inside it.) */
.macro SYSCALL_STUB name, number
    .globl \name
    .type \name, @function
\name:
    .ifc \name,select
    lw    $t0, 16($sp)            /* the fifth argument */
    .endif
    .ifc \name,sendto
    lw    $t0, 16($sp)
    .endif
    .ifc \name,recvfrom
    lw    $t0, 16($sp)
    .endif
    li    $v0, \number
    syscall
    bltz  $v0, syscall_error
    jr    $ra
.endm

#define STUB(name) SYSCALL_STUB name, SYS_##name;
SYSCALL_STUBS(STUB)         /* kernel/include/syscall.h */

/* v0 = -errno: errno = -v0; return -1.  The stubs branch here rather than
 * call, so `jr ra` goes straight back to the stub's caller. */
syscall_error:
    negu  $t0, $v0
    sw    $t0, errno
    li    $v0, -1
    jr    $ra
