/*
 * swtch(from, to): save the current kernel thread's callee-saved registers
 * in *from and resume the one saved in *to.  The caller-saved registers are
 * already on the stack (the C compiler saved them around this call), so
 * ra, sp, s0-s7 and fp (s8) are all a context needs (struct context in
 * machine.h).
 */
    .set noreorder
    .text
    .globl swtch
swtch:
    sw $ra, 0($a0);   sw $sp, 4($a0)
    sw $s0, 8($a0);   sw $s1, 12($a0);  sw $s2, 16($a0);  sw $s3, 20($a0)
    sw $s4, 24($a0);  sw $s5, 28($a0);  sw $s6, 32($a0);  sw $s7, 36($a0)
    sw $fp, 40($a0)

    lw $ra, 0($a1);   lw $sp, 4($a1)
    lw $s0, 8($a1);   lw $s1, 12($a1);  lw $s2, 16($a1);  lw $s3, 20($a1)
    lw $s4, 24($a1);  lw $s5, 28($a1);  lw $s6, 32($a1);  lw $s7, 36($a1)
    jr $ra
    lw $fp, 40($a1)                   /* (delay slot) */
