/*
 * regs.S: fill every register, trap, dump every register, for the
 * register-integrity test (guests/include/regs.h, guests/tests/t_regs.c).
 *
 * m68k: d0-d7 and a0-a6 (all but the stack pointer a7), in movem's order,
 * so one movem loads them all and one stores them all.  A system call
 * takes its number in d0 and arguments in d1-d3 and returns its result in
 * d0 (syscall.S); regs_spin counts down in d0 and up in d1.  a0 is the
 * base register of the stores, so it is stored by way of the stack.
 * (The condition codes are not checked.)
 */

/* Where the arguments are once ENTER has pushed eleven registers. */
#define A_IN    48
#define A_OUT   52
#define A_NUM   56
#define A_A     60
#define A_B     64
#define A_C     68

.macro ENTER                        /* keep what the C convention says we keep */
    movem.l %d2-%d7/%a2-%a6, -(%sp)
.endm

.macro LOAD_ALL                     /* every register from in[], a0 too */
    move.l  A_IN(%sp), %a0
    movem.l (%a0), %d0-%d7/%a0-%a6
.endm

.macro STORE_ALL                    /* every register into out[] */
    move.l  %a0, -(%sp)
    move.l  A_OUT + 4(%sp), %a0
    movem.l %d0-%d7/%a0-%a6, (%a0)
    move.l  (%sp)+, 32(%a0)         /* a0's slot: the value it had */
.endm

.macro LEAVE
    movem.l (%sp)+, %d2-%d7/%a2-%a6
    rts
.endm

    .text
    .globl regs_syscall
    .type regs_syscall, @function
regs_syscall:                       /* (in, out, num, a, b, c) */
    ENTER
    move.l  A_IN(%sp), %a0
    move.l  A_NUM(%sp), (%a0)       /* d0: the number */
    move.l  A_A(%sp), 4(%a0)        /* d1, d2, d3: the arguments */
    move.l  A_B(%sp), 8(%a0)
    move.l  A_C(%sp), 12(%a0)
    LOAD_ALL
    trap    #0
    STORE_ALL
    move.l  A_OUT(%sp), %a0
    move.l  (%a0), %d0              /* return out[d0] */
    LEAVE

    .globl regs_spin
    .type regs_spin, @function
regs_spin:                          /* (in, out) */
    ENTER
    LOAD_ALL
1:  addq.l  #1, %d1
    subq.l  #1, %d0
    bne.s   1b
    STORE_ALL
    LEAVE

    .globl regs_touch
    .type regs_touch, @function
regs_touch:                         /* (in, out, addr) */
    ENTER
    move.l  A_IN(%sp), %a0
    move.l  A_NUM(%sp), 36(%a0)     /* a1: the address */
    LOAD_ALL
    move.l  %d1, (%a1)              /* acc to the page: it may fault */
    STORE_ALL
    LEAVE

    .section .rodata
    .balign 4
    .globl regs_isa
regs_isa:                           /* struct regs_isa: n, ret, count, acc, names */
    .long 15, 0, 0, 1, names
names:
    .asciz "d0 d1 d2 d3 d4 d5 d6 d7 a0 a1 a2 a3 a4 a5 a6"
