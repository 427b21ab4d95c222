/*
 * The legacy PC devices in the Malta board's PIIX4 south bridge that
 * matter to us, reached through ISA I/O ports in kseg1:
 *
 *  - its two 8259A interrupt controllers, whose output is the processor's
 *    interrupt 2.  Only COM1 (IRQ 4, the console) is let through.  There is
 *    no interrupt-acknowledge cycle to read a vector from, so pic_intr()
 *    asks the 8259 which line it is with the poll command (OCW3), runs the
 *    driver and ends the interrupt (EOI).  The network card (nic.c) adds
 *    the second 8259's line it interrupts on;
 *  - its 8254 timer, which we do not use (our clock is CP0 Count/Compare,
 *    timer.c).  After reset its channel 0 runs on its own, which under
 *    QEMU's -icount keeps a deadline pending even when our kernel has
 *    none; pit_stop() turns it into a one-shot that has already fired.
 */
#include "kernel.h"
#include "ns16550.h"
#include "fns.h"

#define PORT(p)    (*(volatile uint8 *)DEV(ISA_IO_PA + (p)))
#define PIC1_CMD   0x20
#define PIC1_DATA  0x21
#define PIC2_CMD   0xa0
#define PIC2_DATA  0xa1
#define OCW3_POLL  0x0c
#define EOI        0x20
#define PIT_CH0    0x40
#define PIT_MODE   0x43

void pic_init(void)
{
    PORT(PIC1_CMD) = 0x11;          /* ICW1: edge triggered, cascade, ICW4 */
    PORT(PIC2_CMD) = 0x11;
    PORT(PIC1_DATA) = 0;            /* ICW2: vector base (unused on MIPS)  */
    PORT(PIC2_DATA) = 8;
    PORT(PIC1_DATA) = 1 << 2;       /* ICW3: the second 8259 on IRQ 2      */
    PORT(PIC2_DATA) = 2;
    PORT(PIC1_DATA) = 0x01;         /* ICW4: 8086 mode, normal EOI         */
    PORT(PIC2_DATA) = 0x01;
    PORT(PIC1_DATA) = (uint8)~(1 << UART0_IRQ);
    PORT(PIC2_DATA) = 0xff;
}

void pic_intr(void)
{
    PORT(PIC1_CMD) = OCW3_POLL;
    uint8 poll = PORT(PIC1_CMD);    /* bit 7: an interrupt; bits 0-2: which */
    if (!(poll & 0x80))
        return;                     /* gone already (spurious)             */
    int irq = poll & 7;
    if (irq == UART0_IRQ)
        uart_intr();
    else        /* nic.c: the network card, or printf(fmt, irq) as before */
        pic_other("kernel: unexpected interrupt irq=%d\n", irq);
    PORT(PIC1_CMD) = EOI;
}

void pit_stop(void)
{
    PORT(PIT_MODE) = 0x30;          /* channel 0, low then high byte, mode 0 */
    PORT(PIT_CH0) = 1;              /* count 1: fires at once, then stays idle */
    PORT(PIT_CH0) = 0;
}
