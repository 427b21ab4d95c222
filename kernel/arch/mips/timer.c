/*
 * The MIPS clock and timer: CP0 Count and Compare.
 *
 * Count is a 32-bit counter that runs at half the processor's clock, which
 * QEMU's Malta sets at 320 MHz: 160 MHz, one tick per 6.25 ns.  Under
 * `-icount shift=0` QEMU derives it from the instruction count (1 ns per
 * instruction), so it is deterministic.  When Count reaches Compare the
 * processor raises interrupt 7; writing Compare clears it.
 *
 * Count wraps every 26.8 s, so the 64-bit clock keeps the high half in
 * software and must see Count at least once per wrap: a disarmed timer is
 * really set half a wrap ahead, and a deadline more than a second away is
 * reached in steps of a second (timer_intr re-arms until it has passed).
 */
#include "kernel.h"
#include "mips.h"

#define NS_PER_4_TICKS 25                   /* 6.25 ns per tick           */
#define HALF_WRAP      0x80000000u          /* ticks                      */
#define MIN_TICKS      64                   /* a deadline already due: soon */
#define STEP_NS        1000000000u          /* a far deadline: 1 s at a time */

static uint32 count_high, count_last;
static uint64 deadline_ns;                  /* 0: none                    */

static uint64 ticks(void)
{
    uint32 c = mfc0(C0_COUNT);
    if (c < count_last)
        count_high++;                       /* Count wrapped since last read */
    count_last = c;
    return (uint64)count_high << 32 | c;
}

uint64 arch_time_ns(void)
{
    return ticks() * NS_PER_4_TICKS / 4;
}

/* Interrupt in `delta` ticks from now (at most half a wrap). */
static void compare_in(uint32 delta)
{
    if (delta < MIN_TICKS)
        delta = MIN_TICKS;
    mtc0(C0_COMPARE, (uint32)ticks() + delta);
}

static void arm(void)
{
    if (deadline_ns == 0) {
        compare_in(HALF_WRAP);
        return;
    }
    int64 ns = (int64)(deadline_ns - arch_time_ns());
    if (ns <= 0)
        compare_in(0);
    else if (ns >= STEP_NS)
        compare_in(STEP_NS / NS_PER_4_TICKS * 4);
    else
        compare_in(((uint32)ns * 4 + NS_PER_4_TICKS - 1) / NS_PER_4_TICKS);
}

void arch_timer_set(uint64 when_ns)
{
    deadline_ns = when_ns;
    arm();
}

void arch_timer_stop(void)
{
    deadline_ns = 0;
    arm();
}

void timer_intr(void)
{
    if (deadline_ns && time_reached(arch_time_ns(), deadline_ns)) {
        arch_timer_stop();                  /* clears the interrupt */
        clock_tick();
    } else {
        arm();                              /* not yet: clears it, goes on */
    }
}
