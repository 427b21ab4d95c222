/*
 * swtch(from, to): save the current kernel thread's callee-saved registers
 * and stack pointer in *from, and resume the thread saved in *to.  The
 * return address saved as eip is where `from` will resume: right after its
 * call to swtch.  (struct context in machine.h: edi esi ebx ebp esp eip.)
 */
#include "asm.h"

    .globl swtch
swtch:
    movl  4(%esp), %eax          /* from */
    movl  8(%esp), %edx          /* to   */
    movl  %edi, CTX_EDI(%eax)
    movl  %esi, CTX_ESI(%eax)
    movl  %ebx, CTX_EBX(%eax)
    movl  %ebp, CTX_EBP(%eax)
    movl  (%esp), %ecx           /* our return address */
    movl  %ecx, CTX_EIP(%eax)
    leal  4(%esp), %ecx          /* the stack as our caller will see it */
    movl  %ecx, CTX_ESP(%eax)

    movl  CTX_EDI(%edx), %edi
    movl  CTX_ESI(%edx), %esi
    movl  CTX_EBX(%edx), %ebx
    movl  CTX_EBP(%edx), %ebp
    movl  CTX_ESP(%edx), %esp
    jmp   *CTX_EIP(%edx)
