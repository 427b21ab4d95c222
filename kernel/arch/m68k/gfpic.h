/*
 * The goldfish interrupt controllers of QEMU's m68k virt board: six of
 * them, 0x1000 apart, each collecting 32 device lines into one 68040
 * interrupt level (controller n -> level n).  A device's interrupt number
 * from bootinfo encodes both: 8 + 32 * (controller - 1) + line.  For
 * pic.c and nic.c (the network card's line).
 */
#ifndef GFPIC_H
#define GFPIC_H

#include "m68k.h"
#include "fns.h"

#define PIC_PENDING 0x04
#define PIC_ENABLE  0x10

static inline uint32 pic_base(int level) { return gf_pic.base + (level - 1) * 0x1000; }
static inline int irq_level(uint32 irq)  { return (irq - 8) / 32 + 1; }
static inline int irq_line(uint32 irq)   { return (irq - 8) % 32; }

static inline void pic_enable(uint32 irq)
{
    mmio_write(pic_base(irq_level(irq)), PIC_ENABLE, 1u << irq_line(irq));
}

/* Is irq's line pending at its level? */
static inline int pic_pending(uint32 irq)
{
    return (mmio_read(pic_base(irq_level(irq)), PIC_PENDING) >> irq_line(irq)) & 1;
}

#endif
