/*
 * The VAX clock and timer: the two interval timers of the KA655's system
 * support chip (SSC).  Each counts its TIR register up and, when it passes
 * 0xffffffff, sets DONE, interrupts (if asked) and reloads TIR from TNIR.
 *
 *   timer 0 is the clock: free-running from 0, interrupting only when the
 *           32 bits wrap, so arch_time_ns = wraps * 2^32 + TIR0;
 *   timer 1 is the deadline: loaded with -(deadline - now), stopped after
 *           its one overflow, which is the interrupt.
 *
 * On a real KA655 the timers count microseconds.  Our SIMH (hw-models/simh/, built
 * by scripts/vax-simh.sh) makes them count exactly one per instruction at
 * every interval, never wall-clock time, and we call that one nanosecond:
 * the same deterministic clock as QEMU's -icount shift=0 on the other
 * ISAs.  (Stock SIMH counts instructions only for intervals under 10000,
 * and calibrates longer ones against the host's clock.)
 *
 * Idling (timer_idle_begin/end, from arch_idle): the VAX has no wait
 * instruction, so the idle loop spins, and the spins would count: the
 * clock when a program starts would depend on how long the host took to
 * type its command, and with it every absolute time the program sees (an
 * inode's times, the write-back flusher's alarm).  So the clock does what
 * QEMU's -icount does for an idle CPU on the other ISAs: with a deadline
 * set it jumps straight to it, without one it stands still until the
 * interrupt that ends the idling.
 */
#include "kernel.h"
#include "vax.h"
#include "fns.h"

#define SSC(off)   (*(volatile uint32 *)dev_va(SSC_PA + (off)))

static uint32 clock_wraps;        /* timer 0 overflows handled so far */
static uint64 deadline;           /* what timer 1 is set for, 0: nothing */

void timer_init(void)
{
    SSC(SSC_TIVR(0)) = SCB_TIMER0;
    SSC(SSC_TIVR(1)) = SCB_TIMER1;
    SSC(SSC_TNIR(0)) = 0;
    SSC(SSC_TCR(0)) = TCR_DONE | TCR_XFR | TCR_IE | TCR_RUN;
    arch_timer_stop();
}

uint64 arch_time_ns(void)
{
    uint32 lo = SSC(SSC_TIR(0));
    uint32 hi = clock_wraps;
    if (SSC(SSC_TCR(0)) & TCR_DONE) {
        /* It wrapped and the interrupt is still pending (the kernel runs
         * with interrupts off): count the wrap, and read TIR again, which
         * is surely past it now. */
        lo = SSC(SSC_TIR(0));
        hi++;
    }
    return ((uint64)hi << 32) | lo;
}

void timer0_intr(void)
{
    SSC(SSC_TCR(0)) = TCR_DONE | TCR_IE | TCR_RUN;     /* clear DONE, keep going */
    clock_wraps++;
}

void arch_timer_set(uint64 deadline_ns)
{
    uint64 now = arch_time_ns();
    uint64 delta = deadline_ns > now ? deadline_ns - now : 1;
    if (delta > 0xffffffffu)
        delta = 0xffffffffu;          /* fires early; timer1_intr re-arms */
    deadline = deadline_ns;
    SSC(SSC_TNIR(1)) = 0u - (uint32)delta;
    SSC(SSC_TCR(1)) = TCR_DONE | TCR_XFR | TCR_STP | TCR_IE | TCR_RUN;
}

void arch_timer_stop(void)
{
    deadline = 0;
    SSC(SSC_TCR(1)) = TCR_DONE;       /* not running, no interrupt */
}

void timer1_intr(void)
{
    SSC(SSC_TCR(1)) = TCR_DONE;
    if (deadline == 0)
        return;
    if (arch_time_ns() < deadline) {
        arch_timer_set(deadline);
        return;
    }
    deadline = 0;
    clock_tick();
}

/* Set the clock (timer 0) to t: TIR from TNIR, and TNIR back to 0 for its
 * wraps.  Clearing DONE drops a wrap not yet counted: clock_wraps is set. */
static void clock_set(uint64 t)
{
    SSC(SSC_TNIR(0)) = (uint32)t;
    SSC(SSC_TCR(0)) = TCR_DONE | TCR_XFR | TCR_IE | TCR_RUN;
    SSC(SSC_TNIR(0)) = 0;
    clock_wraps = (uint32)(t >> 32);
}

/* The idle loop is about to spin: with a deadline set, move the clock to
 * it (timer 1 then fires an instruction later).  Returns the clock. */
uint64 timer_idle_begin(void)
{
    uint64 now = arch_time_ns();
    if (deadline && deadline > now) {
        clock_set(deadline);
        arch_timer_set(deadline);
    }
    return now;
}

/* The idling is over.  Without a deadline (waiting for a key) the spin
 * took no time: back to where the clock stood. */
void timer_idle_end(uint64 began, int had_deadline)
{
    if (!had_deadline && !deadline)
        clock_set(began);
}

int timer_deadline_set(void)
{
    return deadline != 0;
}
