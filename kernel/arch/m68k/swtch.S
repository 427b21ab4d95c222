/*
 * swtch(from, to): save the current kernel thread's callee-saved registers
 * (d2-d7, a2-a6), stack pointer and resume address in *from, and resume
 * the thread saved in *to.  (struct context in machine.h.)
 */
#include "asm.h"

    .globl swtch
swtch:
    move.l  4(%sp), %a0             /* from */
    movem.l %d2-%d7/%a2-%a6, (%a0)
    move.l  (%sp), CTX_PC(%a0)      /* resume at our return address   */
    lea     4(%sp), %a1
    move.l  %a1, CTX_SP(%a0)        /* with the stack our caller sees */
    move.l  8(%sp), %a1             /* to */
    movem.l (%a1), %d2-%d7/%a2-%a6
    move.l  CTX_SP(%a1), %sp
    move.l  CTX_PC(%a1), %a0
    jmp     (%a0)
