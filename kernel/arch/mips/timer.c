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
 *
 * Idling with no deadline, the kernel stops Count (Cause.DC, from MIPS32
 * release 2 on: the reason we run a 24Kc rather than a 4Kc), so that no
 * time passes, as on our other ISAs: QEMU's clock then has no deadline to
 * run to and the emulator sleeps until a key arrives.  Count cannot be
 * stopped on a release-1 processor, and QEMU keeps a deadline pending for
 * it at all times; under -icount with sleep=off an idle guest then makes
 * QEMU advance its clock from one Count deadline to the next as fast as it
 * can: a host core busy, guest time racing ahead, and the moment a key
 * arrives (so the guest's history) depending on the host.
 */
#include "kernel.h"
#include "mips.h"
#include "fns.h"

#define CAUSE_DC       (1u << 27)           /* Count stopped              */
#define NS_PER_4_TICKS 25                   /* 6.25 ns per tick           */
#define HALF_WRAP      0x80000000u          /* ticks                      */
#define MIN_TICKS      64                   /* a deadline already due: soon */
#define STEP_NS        1000000000u          /* a far deadline: 1 s at a time */

static uint32 count_high, count_last;
static uint64 base_ticks, base_ns;          /* the clock counts from here */
static uint64 deadline_ns;                  /* 0: none                    */

/* A value Count had just now, as a 64-bit tick count. */
static uint64 extend(uint32 c)
{
    if (c < count_last)
        count_high++;                       /* Count wrapped since last read */
    count_last = c;
    return (uint64)count_high << 32 | c;
}

static uint64 ticks(void)
{
    return extend(mfc0(C0_COUNT));
}

static uint64 to_ns(uint64 t)
{
    return base_ns + (t - base_ticks) * NS_PER_4_TICKS / 4;
}

uint64 arch_time_ns(void)
{
    return to_ns(ticks());
}

/* exec (trap.c): go on at a fixed phase of Count's ticks and count time
 * from there, so that a program reads the same times in every run whatever
 * came before (clockalign.S). */
void clock_sync(void)
{
    uint64 t = extend(clock_align());
    base_ns = to_ns(t);
    base_ticks = t;
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

/* Stop Count if no deadline is set (machine.c, arch_idle); 1 if it did. */
int timer_freeze(void)
{
    if (deadline_ns)
        return 0;
    mtc0(C0_CAUSE, mfc0(C0_CAUSE) | CAUSE_DC);
    return 1;
}

void timer_thaw(void)
{
    mtc0(C0_CAUSE, mfc0(C0_CAUSE) & ~CAUSE_DC);
}
