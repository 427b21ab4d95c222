/*
 * Part of the MIPS clock (timer.c): finding a fixed phase of Count's ticks.
 */
#include "asm.h"

    .set noreorder
    .text

/*
 * uint32 clock_align(void): return at a fixed phase of CP0 Count's 25 ns
 * pattern, with the value Count had at the tick that marks it.
 *
 * Count ticks every 6.25 ns, and under -icount an instruction is 1 ns, so
 * Count changes at instants 0, 7, 13 and 19 ns into every 25 ns (the first
 * instruction at or after each 6.25 ns step).  A run reads Count at the
 * same instructions every time, but what it reads also depends on where
 * in that pattern the run happens to be, which depends on when the host
 * delivered the keys typed before: a benchmark's time could differ by a
 * tick from run to run, and its timer interrupts land a few instructions
 * earlier or later.  exec calls this (timer.c's clock_sync, through
 * arch_user_enter in trap.c), so that every program starts at the same
 * phase, as the portable kernel restarts the timer's phase there
 * (kernel/port/sched.c), and the clock counts from that tick.
 *
 * How: sample Count once per turn of a loop that takes exactly 26
 * instructions (26 ns), so each sample is 1 ns later in the pattern than
 * the one before.  Count then advances by 4 per turn, or by 5 when the
 * sample crossed one of the four changes; crossings come 7, 6, 6, 6 turns
 * apart, and the crossing 7 turns after the previous one is the sample
 * taken exactly at the change 7 ns into the pattern.  Leave there.  At
 * most about 32 turns; every path through a turn is the same length.
 */
    .globl clock_align
clock_align:
    mfc0  $t0, CP0_COUNT             /* the previous sample                 */
    li    $t3, 100                   /* turns since the last crossing: none */
1:  mfc0  $t1, CP0_COUNT             /*  1  this turn's sample              */
    nop                             /*  2  (mfc0 delay)                    */
    subu  $t2, $t1, $t0                /*  3  4, or 5 at a crossing           */
    move  $t0, $t1                    /*  4                                  */
    addiu $t2, $t2, -4                /*  5  1 at a crossing, else 0         */
    addiu $t3, $t3, 1                 /*  6                                  */
    xori  $t4, $t3, 7                 /*  7                                  */
    sltiu $t4, $t4, 1                 /*  8  t4 = 7 turns since the last one */
    and   $t4, $t4, $t2                /*  9  ... and a crossing now: found   */
    addiu $t5, $t2, -1                /* 10  0 at a crossing, else -1        */
    and   $t3, $t3, $t5                /* 11  a crossing restarts the count   */
    bnez  $t4, 2f                    /* 12                                  */
    nop                             /* 13                                  */
    nop; nop; nop; nop; nop         /* 14-18                               */
    nop; nop; nop; nop; nop         /* 19-23                               */
    nop                             /* 24                                  */
    b     1b                        /* 25                                  */
    nop                             /* 26                                  */
2:  jr    $ra
    move  $v0, $t1                  /* (delay slot) the tick's Count       */
