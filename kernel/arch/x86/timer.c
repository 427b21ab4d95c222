/*
 * The x86 clock and timer.
 *
 * Clock: the time-stamp counter.  Under `-icount shift=0` QEMU makes it
 * count guest nanoseconds, one per instruction, so it is deterministic.
 *
 * Timer: channel 0 of the 8254 PIT in mode 0 ("interrupt on terminal
 * count"), a one-shot: load a count, get IRQ 0 once when it runs out.  The
 * PIT counts at 1.193182 MHz with a 16-bit counter, so the longest wait is
 * about 55 ms; a later deadline just fires early, and the portable
 * scheduler sets the timer again.  Writing the control word alone stops it.
 */
#include "kernel.h"
#include "x86.h"
#include "fns.h"

#define PIT_HZ     1193182ull
#define PIT_CH0    0x40
#define PIT_CMD    0x43
#define PIT_MODE0  0x30          /* channel 0, low then high byte, mode 0 */

uint64 arch_time_ns(void)
{
    return rdtsc();
}

void arch_timer_set(uint64 deadline_ns)
{
    uint64 now = rdtsc();
    uint64 ns = deadline_ns > now ? deadline_ns - now : 0;
    uint64 count = (ns * PIT_HZ + 999999999ull) / 1000000000ull;
    if (count == 0)
        count = 1;
    if (count > 0xffff)
        count = 0xffff;
    outb(PIT_CMD, PIT_MODE0);
    outb(PIT_CH0, count & 0xff);
    outb(PIT_CH0, count >> 8);
}

void arch_timer_stop(void)
{
    outb(PIT_CMD, PIT_MODE0);    /* counting stops until a count is loaded */
}

void timer_intr(void)
{
    clock_tick();
}
