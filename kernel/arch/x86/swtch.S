/*
 * swtch(from, to): save the current kernel thread's callee-saved registers
 * and stack pointer in *from, and resume the thread saved in *to.  The
 * return address saved as eip is where `from` will resume: right after its
 * call to swtch.  (struct context in machine.h: edi esi ebx ebp esp eip.)
 */
    .globl swtch
swtch:
    movl  4(%esp), %eax          /* from */
    movl  8(%esp), %edx          /* to   */
    movl  %edi, 0(%eax)
    movl  %esi, 4(%eax)
    movl  %ebx, 8(%eax)
    movl  %ebp, 12(%eax)
    movl  (%esp), %ecx           /* our return address */
    movl  %ecx, 20(%eax)
    leal  4(%esp), %ecx          /* the stack as our caller will see it */
    movl  %ecx, 16(%eax)

    movl  0(%edx), %edi
    movl  4(%edx), %esi
    movl  8(%edx), %ebx
    movl  12(%edx), %ebp
    movl  16(%edx), %esp
    jmp   *20(%edx)
