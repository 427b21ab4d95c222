/*
 * regs.S: fill every register, trap, dump every register, for the
 * register-integrity test (guests/include/regs.h, guests/tests/t_regs.c).
 *
 * MIPS: the 30 registers at, v0-v1, a0-a3, t0-t9, s0-s7, gp, fp and ra, and
 * the multiplier's hi and lo, which a program sets with mthi/mtlo (all but
 * zero and sp, and k0/k1, which the calling convention gives the kernel:
 * its exception handlers use them before they have saved anything).  A
 * system call takes its number in v0 and arguments in a0-a2 and returns
 * its result in v0 (syscall.S); regs_spin counts down in a0 and up in a1.
 * t9 is the base register of the loads and stores, so it is loaded last
 * and stored by way of the stack; hi and lo go through t0.
 *
 * `.set noat`: $at is one of the registers, so the assembler may not use
 * it for its own purposes; it still fills load and branch delay slots.
 */
    .set noat

/* Slot of each register but t9 (24), hi (28) and lo (29). */
#define FOR_EACH_REG(X) \
    X($1, 0)   X($v0, 1)  X($v1, 2)  X($a0, 3)  X($a1, 4)  X($a2, 5) \
    X($a3, 6)  X($t0, 7)  X($t1, 8)  X($t2, 9)  X($t3, 10) X($t4, 11) \
    X($t5, 12) X($t6, 13) X($t7, 14) X($s0, 15) X($s1, 16) X($s2, 17) \
    X($s3, 18) X($s4, 19) X($s5, 20) X($s6, 21) X($s7, 22) X($t8, 23) \
    X($gp, 25) X($fp, 26) X($ra, 27)
#define T9 24
#define HI 28
#define LO 29

#define LOAD1(r, slot)  lw r, slot * 4($t9);
#define STORE1(r, slot) sw r, slot * 4($t9);

/* Stack frame: o32's 16-byte home for a0-a3, in, out, what the C
 * convention says we keep (gp too: nothing else may change it), one
 * scratch word.  The caller's fifth and sixth arguments are above it. */
#define FRAME   72
#define F_IN    16
#define F_OUT   20
#define F_T9    64
#define F_ARG5  (FRAME + 16)
#define F_ARG6  (FRAME + 20)
#define KEEP(X) X($ra, 24) X($gp, 28) X($fp, 32) X($s0, 36) X($s1, 40) X($s2, 44) \
                X($s3, 48) X($s4, 52) X($s5, 56) X($s6, 60) X($s7, 68)
#define SAVE_K(r, off)    sw r, off($sp);
#define RESTORE_K(r, off) lw r, off($sp);

.macro ENTER
    addiu $sp, $sp, -FRAME
    KEEP(SAVE_K)
    sw    $a0, F_IN($sp)
    sw    $a1, F_OUT($sp)
.endm

.macro LOAD_ALL                     /* every register from in[] */
    lw    $t9, F_IN($sp)
    lw    $t0, HI * 4($t9)
    lw    $t1, LO * 4($t9)
    mthi  $t0
    mtlo  $t1
    FOR_EACH_REG(LOAD1)
    lw    $t9, T9 * 4($t9)
.endm

.macro STORE_ALL                    /* every register into out[] */
    sw    $t9, F_T9($sp)
    lw    $t9, F_OUT($sp)
    FOR_EACH_REG(STORE1)
    mfhi  $t0
    mflo  $t1
    sw    $t0, HI * 4($t9)
    sw    $t1, LO * 4($t9)
    lw    $t0, F_T9($sp)
    sw    $t0, T9 * 4($t9)
.endm

.macro LEAVE
    KEEP(RESTORE_K)
    addiu $sp, $sp, FRAME
    jr    $ra
.endm

    .text
    .globl regs_syscall
    .type regs_syscall, @function
regs_syscall:                       /* (in, out, num, a, b, c) */
    ENTER
    sw    $a2, 1 * 4($a0)           /* v0: the number */
    sw    $a3, 3 * 4($a0)           /* a0, a1, a2: the arguments */
    lw    $t0, F_ARG5($sp)
    lw    $t1, F_ARG6($sp)
    sw    $t0, 4 * 4($a0)
    sw    $t1, 5 * 4($a0)
    LOAD_ALL
    syscall
    STORE_ALL
    lw    $v0, F_OUT($sp)
    lw    $v0, 1 * 4($v0)           /* return out[v0] */
    LEAVE

    .globl regs_spin
    .type regs_spin, @function
regs_spin:                          /* (in, out) */
    ENTER
    LOAD_ALL
1:  addiu $a1, $a1, 1
    addiu $a0, $a0, -1
    bnez  $a0, 1b
    STORE_ALL
    LEAVE

    .globl regs_touch
    .type regs_touch, @function
regs_touch:                         /* (in, out, addr) */
    ENTER
    sw    $a2, 5 * 4($a0)           /* a2: the address */
    LOAD_ALL
    sw    $a1, 0($a2)               /* acc to the page: it may fault */
    STORE_ALL
    LEAVE

    .section .rodata
    .balign 4
    .globl regs_isa
regs_isa:                           /* struct regs_isa: n, ret, count, acc, names */
    .word 30, 1, 3, 4, names
names:
    .asciz "at v0 v1 a0 a1 a2 a3 t0 t1 t2 t3 t4 t5 t6 t7 s0 s1 s2 s3 s4 s5 s6 s7 t8 t9 gp fp ra hi lo"
