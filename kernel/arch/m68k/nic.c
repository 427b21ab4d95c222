/*
 * The virt board's network card: QEMU's m68k virt board has 128
 * virtio-mmio slots, 0x200 apart from the base its bootinfo record
 * BI_VIRT_VIRTIO_BASE gives, slot i interrupting on that record's
 * interrupt number + i (four goldfish controllers' worth, gfpic.h); a
 * `-device virtio-net-device` on the command line fills one of them.
 * This file finds it, lets the driver (kernel/dev/virtio_net.c) take it,
 * and routes its interrupt.  Without a card every slot is empty and
 * nothing changes.
 *
 * Placement (kernel/port/paging.c explains why it matters): this file is
 * linked with the network, after everything else, and the code that was
 * there reaches it through calls of the same size as before: arch_init
 * calls pic_init_nic where it called pic_init, and trap.c pic_intr_nic
 * where it called pic_intr.  So it reads the bootinfo records itself
 * (they stay where QEMU put them, below the first free page: bootinfo.c).
 */
#include "kernel.h"
#include "virtio.h"
#include "gfpic.h"

#define BI_LAST             0x0000     /* bootinfo.c has the others */
#define BI_VIRT_VIRTIO_BASE 0x8004     /* base, interrupt number of slot 0 */
#define VIRTIO_STRIDE       0x200
#define VIRTIO_SLOTS        128

static uint32 nic_irq;                 /* 0: no card */

/* The bootinfo record with this tag (16-bit tag, 16-bit size, data), or 0. */
static const uint32 *bootinfo_find(uint16 want)
{
    const uint8 *p = (const uint8 *)(((uintptr)_end + 1) & ~1u);
    for (;;) {
        uint16 tag = *(const uint16 *)p, size = *(const uint16 *)(p + 2);
        if (tag == want)
            return (const uint32 *)(p + 4);
        if (tag == BI_LAST || size < 4)
            return 0;
        p += size;
    }
}

void pic_init_nic(void)
{
    pic_init();
    const uint32 *virtio = bootinfo_find(BI_VIRT_VIRTIO_BASE);
    if (!virtio)
        return;
    for (uint32 i = 0; i < VIRTIO_SLOTS; i++) {
        if (virtio_net_probe((volatile uint32 *)(uintptr)(virtio[0] + i * VIRTIO_STRIDE))) {
            nic_irq = virtio[1] + i;
            pic_enable(nic_irq);
            return;
        }
    }
}

void pic_intr_nic(int level)
{
    pic_intr(level);
    if (nic_irq && level == irq_level(nic_irq) && pic_pending(nic_irq))
        virtio_net_intr();
}

/* The 68040's data cache is copyback: push it to memory (and drop it)
 * before the device reads a ring, and after it wrote one.  (QEMU has no
 * cache to push; the instruction is there for the real thing.) */
void virtio_barrier(void)
{
    __asm__ volatile("cpusha %%dc" ::: "memory");
}
