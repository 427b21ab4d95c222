/*
 * The clock and the timer: Gaisler's GPTIMER on the LEON3 (GRLIB IP Core
 * User's Manual).  One prescaler feeds two 32-bit down-counters; with the
 * prescaler at 0 they count at the system clock, 40 MHz: 25 ns a tick.
 * Under QEMU's -icount the ticks follow instructions exactly, so both are
 * deterministic.
 *
 *   timer 0  the clock: free-running from 2^32 - 1 down, reloading.  The
 *            ticks since it last wrapped are 2^32 minus what it reads
 *            (mod 2^32); when that goes down it has wrapped.  Its
 *            interrupt (level 6) at each wrap, every 107 s, makes sure we
 *            look at least that often.
 *            arch_time_ns() = (wraps * 2^32 + ticks) * 25 ns.
 *   timer 1  the event timer: one-shot, set for the next deadline
 *            (arch_timer_set), interrupt level 7.
 *
 * An idle CPU with no deadline stops the clock (timer_idle_begin): QEMU
 * with -icount sleep=off jumps guest time to the next timer event at
 * once, and a running clock's next wrap would be one, over and over while
 * the machine waits for a key.  No time passes while it waits, as on the
 * other ISAs, and the clock resumes where it stopped.
 */
#include "kernel.h"
#include "fns.h"

#define GPTIMER_PA  0x80000300
#define GPT         ((volatile uint32 *)DEV(GPTIMER_PA))
#define SCALER_RELOAD   1                   /* word offsets */
#define COUNTER(n)      (4 + 4 * (n))
#define RELOAD(n)       (5 + 4 * (n))
#define CTRL(n)         (6 + 4 * (n))
#define EN      (1 << 0)                    /* enable                       */
#define RS      (1 << 1)                    /* restart from reload at 0     */
#define LD      (1 << 2)                    /* load the counter from reload */
#define IE      (1 << 3)                    /* interrupt at underflow       */
#define IP      (1 << 4)                    /* underflowed (write 1: clear) */

#define CLOCK   0
#define EVENT   1
#define NS_PER_TICK 25                      /* 40 MHz */
#define CLOCK_IRQ   6
#define EVENT_IRQ   7


static uint32 wraps;                        /* timer 0 wraps since boot */
static uint32 last_ticks;                   /* ticks since the last wrap, when we last looked */
static int event_armed;
static uint32 paused_at;

void timer_init(void)
{
    GPT[SCALER_RELOAD] = 0;                 /* count at 40 MHz */
    GPT[CTRL(EVENT)] = 0;
    GPT[RELOAD(CLOCK)] = 0xffffffff;
    GPT[CTRL(CLOCK)] = EN | RS | LD | IE;
}

/* (The clock's pending bit is never cleared: on QEMU, writing a running
 * timer's control register restarts its count from the last value loaded.) */
uint64 arch_time_ns(void)
{
    uint32 t = -GPT[COUNTER(CLOCK)];
    if (t < last_ticks)
        wraps++;
    last_ticks = t;
    uint64 ticks = ((uint64)wraps << 32) | t;
    return (ticks << 4) + (ticks << 3) + ticks;        /* * 25, without a multiply */
}

void arch_timer_set(uint64 deadline_ns)
{
    uint64 now = arch_time_ns();
    uint32 ticks = 1;
    if (!time_reached(now, deadline_ns)) {
        uint64 ns = deadline_ns - now;
        if (ns > 100000000000ull)           /* 100 s: the counter holds 107 */
            ns = 100000000000ull;
        ticks = (uint32)((ns + NS_PER_TICK - 1) / NS_PER_TICK);
    }
    GPT[RELOAD(EVENT)] = ticks - 1;         /* it fires when it passes 0 */
    GPT[CTRL(EVENT)] = EN | LD | IE | IP;
    event_armed = 1;
}

void arch_timer_stop(void)
{
    GPT[CTRL(EVENT)] = IP;                  /* off, and forget a late underflow */
    irqmp_clear(EVENT_IRQ);
    event_armed = 0;
}

void timer_idle_begin(void)
{
    if (event_armed)
        return;
    paused_at = GPT[COUNTER(CLOCK)];
    GPT[CTRL(CLOCK)] = IE;                  /* stopped */
}

void timer_idle_end(void)
{
    if (event_armed || GPT[CTRL(CLOCK)] & EN)
        return;
    GPT[COUNTER(CLOCK)] = paused_at - 1;    /* QEMU resumes at counter + 1 */
    GPT[CTRL(CLOCK)] = EN | RS | IE;
}

void timer_intr(int irq)
{
    if (irq == CLOCK_IRQ) {
        (void)arch_time_ns();               /* counts the wrap */
    } else {
        arch_timer_stop();
        clock_tick();
    }
}
