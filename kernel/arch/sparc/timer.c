/*
 * The clock and the timer: the sun4m counter-timers of the Slave I/O chip
 * (NCR89C105; QEMU's slavio_timer.c).  A counter counts up in steps of
 * 500 ns (its bit 9; bits 8-0 read 0).  QEMU derives it from the virtual
 * clock, which under -icount shift=0 is the instruction count: the time
 * read and every interrupt fall at the same instruction run after run.
 *
 * There are two: a system timer and one per processor.  The system timer
 * is of no use to us, for one reason: QEMU cannot stop it, and a running
 * timer is a timer event every 2.1 s at the least, which QEMU's -icount
 * sleep=off jumps to at once when the machine idles, over and over while
 * the machine waits for a key.  So timer_init() stops it for good, the
 * only way QEMU allows: a limit of one step, which its timer code takes
 * for none and disables (saying "Timer with delta zero, disabling" once on
 * QEMU's stderr).
 *
 * The processor's timer does everything, in one of two modes:
 *
 *   CLOCK  "user" mode: a free-running 64-bit counter, no interrupt.
 *          Stoppable: an idle CPU with no deadline stops it
 *          (timer_idle_begin), so that no time passes while the machine
 *          waits for a key, as on the other ISAs, and nothing is left for
 *          QEMU to jump to.
 *   EVENT  counter mode: it counts up to a limit, interrupts (level 14),
 *          and starts again from 0; the deadline set (arch_timer_set) is
 *          the limit.  A new limit starts the count from 0.
 *
 * The time is the time of the counter's last start (`base`) plus its
 * count, plus one period if it passed the limit and the interrupt is not
 * yet taken.  Starting the counter again rounds the time up to the next
 * 500 ns step: that, and the few instructions between reading the count
 * and starting again, is the clock's only error.
 */
#include "kernel.h"
#include "fns.h"

#define COUNTER_PA  0x71d00000              /* processor 0's counter-timer */
#define SYSTIMER_PA 0x71d10000              /* the system counter-timer */
#define PT          ((volatile uint32 *)DEV(COUNTER_PA))
#define ST          ((volatile uint32 *)DEV(SYSTIMER_PA))
#define LIMIT       0       /* word offsets.  EVENT: the limit; reading it ends
                             * the interrupt and clears REACHED.  CLOCK: the
                             * count's high word */
#define COUNT       1       /* EVENT: the count and REACHED; CLOCK: its low word */
#define RUN         3       /* CLOCK: 1 runs, 0 stops */
#define MODE        4       /* (system timer) bit n: processor n's timer in CLOCK mode */
#define REACHED     0x80000000u
#define STEP_SHIFT  9       /* the count's 500 ns bit */
#define MAX_STEPS   0x3ffffe                /* the longest EVENT period, 2.1 s */

static enum { CLOCK, PAUSED, EVENT } mode;
static uint64 base;                         /* ns: the count's last start */
static uint32 period;                       /* EVENT: steps to the limit */

/* steps * 500, without a multiply (V7 has none): 512 - 8 - 4 = 500. */
static uint64 steps_ns(uint64 steps)
{
    return (steps << 9) - (steps << 3) - (steps << 2);
}

/* ns since the count's last start. */
static uint64 counted(void)
{
    if (mode == EVENT) {
        uint32 v = PT[COUNT];
        uint32 steps = (v & ~REACHED) >> STEP_SHIFT;
        if (v & REACHED)                    /* passed the limit, not taken yet */
            steps += period;
        return steps_ns(steps);
    }
    uint32 hi, lo;
    do {
        hi = PT[LIMIT];
        lo = PT[COUNT];
    } while (hi != PT[LIMIT]);
    return steps_ns((((uint64)(hi & ~REACHED) << 32) | lo) >> STEP_SHIFT);
}

void timer_init(void)
{
    ST[LIMIT] = 1 << STEP_SHIFT;            /* the system timer: stopped (above) */
    (void)ST[LIMIT];                        /* ... and its parting interrupt ended */
    PT[RUN] = 1;
    ST[MODE] = 0;                           /* (as it was out of reset) */
    ST[MODE] = 1;                           /* CLOCK, counting from 0 */
    mode = CLOCK;
    base = 0;
}

uint64 arch_time_ns(void)
{
    return base + counted();
}

void arch_timer_set(uint64 deadline_ns)
{
    uint64 now = base + counted();
    uint32 steps = 1;
    if (!time_reached(now, deadline_ns)) {
        uint64 ns = deadline_ns - now;
        if (ns > steps_ns(MAX_STEPS))
            ns = steps_ns(MAX_STEPS);       /* wake early; clock_tick sets it again */
        steps = ((uint32)ns + 499) / 500;
    }
    base += counted();
    if (mode != EVENT)
        ST[MODE] = 0;
    /* QEMU's counter starts again at the limit's step before the limit
     * itself (a real one would reach it): steps + 1 for `steps`. */
    PT[LIMIT] = (steps + 1) << STEP_SHIFT;
    (void)PT[LIMIT];                        /* forget a limit the old period reached */
    period = steps;
    mode = EVENT;
}

/* No deadline: CLOCK mode, which ends a pending interrupt too. */
void arch_timer_stop(void)
{
    if (mode != EVENT)
        return;
    base += counted();
    PT[RUN] = 1;
    ST[MODE] = 1;
    mode = CLOCK;
}

void timer_idle_begin(void)
{
    if (mode == CLOCK) {
        PT[RUN] = 0;
        mode = PAUSED;
    }
}

/* (QEMU starts the count again a step ahead: the wait costs 500 ns at
 * most.) */
void timer_idle_end(void)
{
    if (mode == PAUSED) {
        PT[RUN] = 1;
        mode = CLOCK;
    }
}

/* The limit was reached: the count started again from 0 a period after
 * its last start.  (Had the kernel kept interrupts masked for a whole
 * period more, the count would have passed the limit twice and the clock
 * lost a period: the kernel's masked stretches are far shorter than its
 * 10 ms tick, and a shorter deadline is only set just before idling, with
 * interrupts let in.) */
void timer_intr(void)
{
    if (mode != EVENT)
        return;
    (void)PT[LIMIT];
    base += steps_ns(period);
    clock_tick();
}
