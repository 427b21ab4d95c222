/*
 * syscall.S: the system call stubs for x86, one per call.
 *
 * x86 ABI of our kernel: `int $0x80` with the call number in eax and the
 * arguments in ebx, ecx, edx, esi, edi; the result comes back in eax.  The
 * C convention passes arguments on the stack, so each stub loads up to
 * five of them into registers (ebx, esi and edi are callee-saved: the stub
 * saves and restores them).
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

#define SYSCALL(name, number)   \
    .globl name;                \
    .type name, @function;      \
name:                           \
    movl  $number, %eax;        \
    jmp   do_syscall

#define STUB(name) SYSCALL(name, SYS_##name);
SYSCALL_STUBS(STUB)         /* kernel/include/syscall.h */

/* eax = the call number; the caller's arguments are at 4(%esp)...  */
do_syscall:
    pushl %ebx
    pushl %esi
    pushl %edi
    movl  16(%esp), %ebx
    movl  20(%esp), %ecx
    movl  24(%esp), %edx
    movl  28(%esp), %esi
    movl  32(%esp), %edi
    int   $0x80
    popl  %edi
    popl  %esi
    popl  %ebx
    testl %eax, %eax
    js    1f
    ret
1:  negl  %eax
    movl  %eax, errno
    movl  $-1, %eax
    ret
