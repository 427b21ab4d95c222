/*
 * The virt board's network card: QEMU gives it eight virtio-mmio slots,
 * VIRTIO_SLOTS pages from VIRTIO0_PA, slot i interrupting on PLIC line
 * VIRTIO0_IRQ + i (as QEMU's board source has it); a `-device
 * virtio-net-device` on the command line fills one of them.  This file finds it, lets the
 * driver (kernel/dev/virtio_net.c) take it, and routes its interrupt.
 * Without a card every slot is empty and nothing changes.
 *
 * Placement (kernel/port/paging.c explains why it matters): this file is
 * linked with the network, after everything else.  The code that was
 * there reaches it through calls of the same size as before: arch_init
 * calls plic_init_nic where it called plic_init, and plic_intr calls
 * plic_other for a line that is not the UART's where it called printf.
 */
#include "kernel.h"
#include "virtio.h"
#include "fns.h"

#define VIRTIO0_PA    0x10001000u       /* in the UART's megapage: mapped */
#define VIRTIO_STRIDE 0x1000u
#define VIRTIO_SLOTS  8
#define VIRTIO0_IRQ   1

#define PLIC             ((volatile uint32 *)DEV(PLIC_PA))
#define PLIC_PRIORITY(i) (PLIC[(i)])
#define PLIC_SENABLE     (PLIC[(0x2080) / 4])            /* context 1 */

static uint32 nic_irq;                  /* 0: no card */

void plic_init_nic(void)
{
    plic_init();
    for (uint32 i = 0; i < VIRTIO_SLOTS; i++) {
        volatile uint32 *regs = (volatile uint32 *)DEV(VIRTIO0_PA + i * VIRTIO_STRIDE);
        if (virtio_net_probe(regs)) {
            nic_irq = VIRTIO0_IRQ + i;
            PLIC_PRIORITY(nic_irq) = 1;
            PLIC_SENABLE |= 1u << nic_irq;
            return;
        }
    }
}

void plic_other(uint32 irq)
{
    if (irq == nic_irq)
        virtio_net_intr();
    else
        printf("kernel: unexpected interrupt irq=%u\n", irq);
}

void virtio_barrier(void)
{
    __asm__ volatile("fence iorw, iorw" ::: "memory");
}
