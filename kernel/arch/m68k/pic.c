/*
 * The goldfish interrupt controllers of QEMU's m68k virt board: six of
 * them, 0x1000 apart, each collecting 32 device lines into one 68040
 * interrupt level (controller n -> level n).  A device's interrupt number
 * from bootinfo encodes both: 8 + 32 * (controller - 1) + line.
 */
#include "kernel.h"
#include "m68k.h"
#include "fns.h"

#define PIC_PENDING 0x04
#define PIC_ENABLE  0x10

static uint32 pic_base(int level) { return gf_pic.base + (level - 1) * 0x1000; }
static int irq_level(uint32 irq)  { return (irq - 8) / 32 + 1; }
static int irq_line(uint32 irq)   { return (irq - 8) % 32; }

static void enable(uint32 irq)
{
    mmio_write(pic_base(irq_level(irq)), PIC_ENABLE, 1u << irq_line(irq));
}

void pic_init(void)
{
    enable(gf_tty.irq);
    enable(gf_rtc.irq);
}

void pic_intr(int level)
{
    uint32 pending = mmio_read(pic_base(level), PIC_PENDING);
    if (level == irq_level(gf_rtc.irq) && (pending & (1u << irq_line(gf_rtc.irq))))
        timer_intr();
    if (level == irq_level(gf_tty.irq) && (pending & (1u << irq_line(gf_tty.irq))))
        tty_intr();
}
