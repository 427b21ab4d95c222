/*
 * The platform-level interrupt controller (PLIC) of QEMU's virt board.
 * The UART interrupts us, and a network card if there is one (nic.c);
 * both are routed to hart 0's supervisor-mode context (context 1).  plic_intr() asks the PLIC which device it was,
 * lets the driver run, and tells the PLIC it is done.
 */
#include "kernel.h"
#include "ns16550.h"
#include "fns.h"

#define PLIC             ((volatile uint32 *)DEV(PLIC_PA))
#define PLIC_PRIORITY(i) (PLIC[(i)])
#define PLIC_SENABLE     (PLIC[(0x2080) / 4])            /* context 1 */
#define PLIC_STHRESHOLD  (PLIC[(0x201000) / 4])
#define PLIC_SCLAIM      (PLIC[(0x201004) / 4])

void plic_init(void)
{
    PLIC_PRIORITY(UART0_IRQ) = 1;
    PLIC_SENABLE = 1u << UART0_IRQ;
    PLIC_STHRESHOLD = 0;
}

void plic_intr(void)
{
    uint32 irq = PLIC_SCLAIM;
    if (irq == UART0_IRQ)
        uart_intr();
    else if (irq != 0) {
        plic_other(irq);                        /* nic.c: the card, or unexpected */
        __asm__ volatile("nop; nop");           /* the size of the printf it was */
    }
    if (irq)
        PLIC_SCLAIM = irq;
}
