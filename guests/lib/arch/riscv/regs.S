/*
 * regs.S: fill every register, trap, dump every register, for the
 * register-integrity test (guests/include/regs.h, guests/tests/t_regs.c).
 *
 * RISC-V: the 30 registers x1 and x3-x31 (all but zero and sp), in number
 * order.  A system call takes its number in a7 and arguments in a0-a2 and
 * returns its result in a0 (syscall.S); regs_spin counts down in a0 and up
 * in a1.  t6 is the base register of the loads and stores, so it is loaded
 * last and stored by way of the stack.
 */

/* Slot of each register but t6 (slot 29). */
#define FOR_EACH_REG(X) \
    X(ra, 0)   X(gp, 1)   X(tp, 2)   X(t0, 3)   X(t1, 4)   X(t2, 5) \
    X(s0, 6)   X(s1, 7)   X(a0, 8)   X(a1, 9)   X(a2, 10)  X(a3, 11) \
    X(a4, 12)  X(a5, 13)  X(a6, 14)  X(a7, 15)  X(s2, 16)  X(s3, 17) \
    X(s4, 18)  X(s5, 19)  X(s6, 20)  X(s7, 21)  X(s8, 22)  X(s9, 23) \
    X(s10, 24) X(s11, 25) X(t3, 26)  X(t4, 27)  X(t5, 28)
#define T6 29

#define LOAD1(r, slot)  lw r, slot * 4(t6);
#define STORE1(r, slot) sw r, slot * 4(t6);

/* Stack frame: in, out, then what the C convention says we keep (gp and
 * tp too: nothing else may change them), then one scratch word. */
#define FRAME   80
#define F_IN    0
#define F_OUT   4
#define F_T6    68
#define KEEP(X) X(ra, 8) X(gp, 12) X(tp, 16) X(s0, 20) X(s1, 24) X(s2, 28) \
                X(s3, 32) X(s4, 36) X(s5, 40) X(s6, 44) X(s7, 48) X(s8, 52) \
                X(s9, 56) X(s10, 60) X(s11, 64)
#define SAVE_K(r, off)    sw r, off(sp);
#define RESTORE_K(r, off) lw r, off(sp);

.macro ENTER
    addi  sp, sp, -FRAME
    KEEP(SAVE_K)
    sw    a0, F_IN(sp)
    sw    a1, F_OUT(sp)
.endm

.macro LOAD_ALL                     /* every register from in[] */
    lw    t6, F_IN(sp)
    FOR_EACH_REG(LOAD1)
    lw    t6, T6 * 4(t6)
.endm

.macro STORE_ALL                    /* every register into out[] */
    sw    t6, F_T6(sp)
    lw    t6, F_OUT(sp)
    FOR_EACH_REG(STORE1)
    lw    t0, F_T6(sp)
    sw    t0, T6 * 4(t6)
.endm

.macro LEAVE
    KEEP(RESTORE_K)
    addi  sp, sp, FRAME
    ret
.endm

    .text
    .globl regs_syscall
    .type regs_syscall, @function
regs_syscall:                       /* (in, out, num, a, b, c) */
    ENTER
    sw    a2, 15 * 4(a0)            /* a7: the number */
    sw    a3, 8 * 4(a0)             /* a0, a1, a2: the arguments */
    sw    a4, 9 * 4(a0)
    sw    a5, 10 * 4(a0)
    LOAD_ALL
    ecall
    STORE_ALL
    lw    a0, F_OUT(sp)
    lw    a0, 8 * 4(a0)             /* return out[a0] */
    LEAVE

    .globl regs_spin
    .type regs_spin, @function
regs_spin:                          /* (in, out) */
    ENTER
    LOAD_ALL
1:  addi  a1, a1, 1
    addi  a0, a0, -1
    bnez  a0, 1b
    STORE_ALL
    LEAVE

    .globl regs_touch
    .type regs_touch, @function
regs_touch:                         /* (in, out, addr) */
    ENTER
    sw    a2, 8 * 4(a0)             /* a0: the address */
    LOAD_ALL
    sw    a1, 0(a0)                 /* acc to the page: it may fault */
    STORE_ALL
    LEAVE

    .section .rodata
    .balign 4
    .globl regs_isa
regs_isa:                           /* struct regs_isa: n, ret, count, acc, names */
    .word 30, 8, 8, 9, names
names:
    .asciz "ra gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6"
