/*
 * The goldfish interrupt controllers of QEMU's m68k virt board (their
 * registers and how an interrupt number names a line: gfpic.h): the
 * console's and the timer's lines, and a network card's (nic.c).
 */
#include "kernel.h"
#include "m68k.h"
#include "fns.h"
#include "gfpic.h"

void pic_init(void)
{
    pic_enable(gf_tty.irq);
    pic_enable(gf_rtc.irq);
}

void pic_intr(int level)
{
    uint32 pending = mmio_read(pic_base(level), PIC_PENDING);
    if (level == irq_level(gf_rtc.irq) && (pending & (1u << irq_line(gf_rtc.irq))))
        timer_intr();
    if (level == irq_level(gf_tty.irq) && (pending & (1u << irq_line(gf_tty.irq))))
        tty_intr();
}
