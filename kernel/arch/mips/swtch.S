/*
 * swtch(from, to): save the current kernel thread's callee-saved registers
 * in *from and resume the one saved in *to.  The caller-saved registers are
 * already on the stack (the C compiler saved them around this call), so
 * ra, sp, s0-s7 and fp (s8) are all a context needs (struct context in
 * machine.h).
 */
#include "asm.h"

#define S(i) (CTX_S0 + 4 * (i))

    .set noreorder
    .text
    .globl swtch
swtch:
    sw $ra, CTX_RA($a0);  sw $sp, CTX_SP($a0)
    sw $s0, S(0)($a0);    sw $s1, S(1)($a0);  sw $s2, S(2)($a0);  sw $s3, S(3)($a0)
    sw $s4, S(4)($a0);    sw $s5, S(5)($a0);  sw $s6, S(6)($a0);  sw $s7, S(7)($a0)
    sw $fp, CTX_FP($a0)

    lw $ra, CTX_RA($a1);  lw $sp, CTX_SP($a1)
    lw $s0, S(0)($a1);    lw $s1, S(1)($a1);  lw $s2, S(2)($a1);  lw $s3, S(3)($a1)
    lw $s4, S(4)($a1);    lw $s5, S(5)($a1);  lw $s6, S(6)($a1);  lw $s7, S(7)($a1)
    jr $ra
    lw $fp, CTX_FP($a1)               /* (delay slot) */
