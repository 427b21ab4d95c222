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
 * scheduler sets the timer again.
 *
 * Stopping it (an idle CPU with nothing to wake for) is less simple than
 * it should be.  On a real 8254 writing the control word alone stops the
 * count; QEMU's goes on, and the count loaded last still fires.  With
 * -icount sleep=off an idle guest's time jumps to that moment at once, and
 * the tick re-arms the timer for the next: ticks one after another for as
 * long as the machine waits for a key, as many as the host's timing allows,
 * each leaving its code in a hardware model's caches (pc-p5's getpid came
 * out 960 ns apart from boot to boot).  So arch_timer_stop lets the timer
 * fire at once instead, with a count of 1 (838 ns), waits until its output
 * rises, and takes the request from the interrupt controller without
 * running the handler (pic_drop_timer): after that the one-shot is spent,
 * and nothing comes until a count is loaded again.
 */
#include "kernel.h"
#include "x86.h"
#include "fns.h"

#define PIT_HZ     1193182ull
#define PIT_CH0    0x40
#define PIT_CMD    0x43
#define PIT_MODE0  0x30          /* channel 0, low then high byte, mode 0 */
#define PIT_STATUS0 0xe2         /* read-back: latch channel 0's status only */
#define PIT_OUT    0x80          /* status: the output pin is high */

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
    outb(PIT_CMD, PIT_MODE0);    /* a real 8254 stops here; QEMU's does not: */
    outb(PIT_CH0, 1);            /* fire now, once (see the top) */
    outb(PIT_CH0, 0);
    do
        outb(PIT_CMD, PIT_STATUS0);
    while (!(inb(PIT_CH0) & PIT_OUT));
    pic_drop_timer();
}

void timer_intr(void)
{
    clock_tick();
}
