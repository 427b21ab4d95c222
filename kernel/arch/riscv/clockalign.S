/*
 * Part of the RISC-V clock (timer.c): starting a program at a fixed phase
 * of the `time` counter's 100 ns steps.
 *
 * `time` counts at 10 MHz, and under -icount shift=0 an instruction is
 * 1 ns, so `time` steps once every 100 instructions.  A run executes the
 * same instructions every time, but where in that 100-instruction pattern
 * a program starts depends on when the host delivered the keys typed
 * before it.  exec restarts the timer there (kernel/port/sched.c), so the
 * first tick's deadline, rounded up to a 100 ns step, came 0-99
 * instructions later or earlier in the program from run to run: cswitch's
 * ping-pong then met a tick in a different half of its cycle about one
 * boot in three, and did one more or one fewer yield (514 instructions).
 * exec calls this first (arch_user_enter in trap.c), so every program
 * starts at the same phase and its ticks land at the same instructions.
 *
 * void clock_align(void)
 *
 * How: sample `time` once per turn of a loop that takes exactly 101
 * instructions, so each sample is 1 ns later in the 100 ns pattern than
 * the one before.  `time` then advances by 1 per turn, or by 2 on the turn
 * whose sample is the first instruction of a new step: leave there.  At
 * most 101 turns (10 us); every path through a turn is the same length,
 * and the kernel runs with interrupts off, so nothing else takes a turn's
 * time.  A turn limit keeps it finite should the clock not step as above
 * (another clock rate, or no -icount): then it only costs a bounded delay.
 */
    .section .text
    .globl clock_align
    .balign 4
clock_align:
    rdtime t0                       /* the previous sample                 */
    li    t3, 256                   /* turns left                          */
1:  rdtime t1                       /*   1  this turn's sample             */
    sub   t2, t1, t0                /*   2  1, or 2 at the step's start    */
    mv    t0, t1                    /*   3                                  */
    addi  t2, t2, -2                /*   4                                  */
    beqz  t2, 2f                    /*   5  sampled at the phase: done      */
    addi  t3, t3, -1                /*   6                                  */
    beqz  t3, 2f                    /*   7  the limit (never under -icount) */
    .rept 93                        /*   8..100                             */
    nop
    .endr
    j     1b                        /* 101                                  */
2:  ret
