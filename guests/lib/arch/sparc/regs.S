/*
 * regs.S: fill every register, trap, dump every register, for the
 * register-integrity test (guests/include/regs.h, guests/tests/t_regs.c).
 *
 * SPARC: the 29 registers %g1-%g7, %o0-%o5, %o7, %l0-%l7, %i0-%i5, %i7 of
 * this function's window, and %y.  Not the stack pointer %o6, nor %i6:
 * %i6 is the caller's stack pointer (its %o6, shared through the window),
 * the place the kernel writes the caller's window to if it needs the room,
 * so a program cannot set it to anything else and live.  A system call
 * takes its number in %g1 and arguments in %o0-%o2 and returns its result
 * in %o0 (syscall.S); regs_spin counts down in %l0 and up in %l1.  %o7 is
 * the base register of the loads and stores: loaded last, stored by way of
 * the frame.
 */

/* Slot of each register but %o7 (slot 13) and %y (slot 29). */
#define FOR_EACH_REG(X) \
    X(%g1, 0)  X(%g2, 1)  X(%g3, 2)  X(%g4, 3)  X(%g5, 4)  X(%g6, 5)  X(%g7, 6) \
    X(%o0, 7)  X(%o1, 8)  X(%o2, 9)  X(%o3, 10) X(%o4, 11) X(%o5, 12) \
    X(%l0, 14) X(%l1, 15) X(%l2, 16) X(%l3, 17) X(%l4, 18) X(%l5, 19) X(%l6, 20) X(%l7, 21) \
    X(%i0, 22) X(%i1, 23) X(%i2, 24) X(%i3, 25) X(%i4, 26) X(%i5, 27) X(%i7, 28)
#define O7      13
#define Y       29
#define G1      0
#define O0      7

#define LOAD1(r, slot)  ld [%o7 + slot * 4], r;
#define STORE1(r, slot) st r, [%o7 + slot * 4];

/* Our frame: the ABI's 96 bytes, then in, out, what we must give back
 * (the return address %i7, and %g5-%g7, which the system owns), and one
 * scratch word. */
#define FRAME   128
#define F_IN    96
#define F_OUT   100
#define F_I7    104
#define F_G5    108
#define F_G6    112
#define F_G7    116
#define F_SCR   120

.macro ENTER
    save  %sp, -FRAME, %sp          /* a window of our own                 */
    st    %i0, [%sp + F_IN]
    st    %i1, [%sp + F_OUT]
    st    %i7, [%sp + F_I7]
    st    %g5, [%sp + F_G5]
    st    %g6, [%sp + F_G6]
    st    %g7, [%sp + F_G7]
.endm

.macro LOAD_ALL                     /* every register from in[]            */
    ld    [%sp + F_IN], %o7
    ld    [%o7 + Y * 4], %g1
    wr    %g1, %y
    FOR_EACH_REG(LOAD1)
    ld    [%o7 + O7 * 4], %o7
.endm

.macro STORE_ALL                    /* every register into out[]           */
    st    %o7, [%sp + F_SCR]
    ld    [%sp + F_OUT], %o7
    FOR_EACH_REG(STORE1)
    rd    %y, %g1
    st    %g1, [%o7 + Y * 4]
    ld    [%sp + F_SCR], %g1
    st    %g1, [%o7 + O7 * 4]
.endm

.macro LEAVE
    ld    [%sp + F_I7], %i7
    ld    [%sp + F_G5], %g5
    ld    [%sp + F_G6], %g6
    ld    [%sp + F_G7], %g7
    ret
     restore
.endm

    .text
    .globl regs_syscall
    .type regs_syscall, #function
regs_syscall:                       /* (in, out, num, a, b, c) */
    ENTER
    st    %i2, [%i0 + G1 * 4]       /* %g1: the number                     */
    st    %i3, [%i0 + O0 * 4]       /* %o0, %o1, %o2: the arguments        */
    st    %i4, [%i0 + (O0 + 1) * 4]
    st    %i5, [%i0 + (O0 + 2) * 4]
    LOAD_ALL
    ta    0
    STORE_ALL
    ld    [%sp + F_OUT], %g1
    ld    [%g1 + O0 * 4], %i0       /* return out[%o0]                     */
    LEAVE

    .globl regs_spin
    .type regs_spin, #function
regs_spin:                          /* (in, out) */
    ENTER
    LOAD_ALL
1:  add   %l1, 1, %l1
    subcc %l0, 1, %l0
    bne   1b
     nop
    STORE_ALL
    LEAVE

    .globl regs_touch
    .type regs_touch, #function
regs_touch:                         /* (in, out, addr) */
    ENTER
    st    %i2, [%i0 + O0 * 4]       /* %o0: the address                    */
    LOAD_ALL
    st    %l1, [%o0]                /* acc to the page: it may fault       */
    STORE_ALL
    LEAVE

    .section .rodata
    .balign 4
    .globl regs_isa
regs_isa:                           /* struct regs_isa: n, ret, count, acc, names */
    .word 30, O0, 14, 15, names
names:
    .asciz "g1 g2 g3 g4 g5 g6 g7 o0 o1 o2 o3 o4 o5 o7 l0 l1 l2 l3 l4 l5 l6 l7 i0 i1 i2 i3 i4 i5 i7 y"
