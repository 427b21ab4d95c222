/*
 * The PC's two 8259A interrupt controllers.  We move their interrupts to
 * vectors 32-47 (0-31 belong to CPU exceptions), and let through only the
 * timer (IRQ 0), COM1 (IRQ 4) and the cascade to the second controller.
 * Every interrupt must be acknowledged (pic_eoi) or it will not come again.
 */
#include "kernel.h"
#include "x86.h"
#include "fns.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xa0
#define PIC2_DATA 0xa1
#define EOI       0x20

void pic_init(void)
{
    outb(PIC1_CMD, 0x11);        /* ICW1: edge triggered, cascade, ICW4 follows */
    outb(PIC2_CMD, 0x11);
    outb(PIC1_DATA, 32);         /* ICW2: vector base                           */
    outb(PIC2_DATA, 40);
    outb(PIC1_DATA, 1 << 2);     /* ICW3: the second PIC hangs off IRQ 2        */
    outb(PIC2_DATA, 2);
    outb(PIC1_DATA, 0x01);       /* ICW4: 8086 mode                             */
    outb(PIC2_DATA, 0x01);
    outb(PIC1_DATA, (uint8)~((1 << 0) | (1 << 2) | (1 << 4)));
    outb(PIC2_DATA, 0xff);
}

/* Take the timer's pending request without an interrupt (the CPU's are
 * off): poll the controller, which acknowledges its highest request (the
 * timer's, IRQ 0, which the caller has just made), then end it. */
void pic_drop_timer(void)
{
    outb(PIC1_CMD, 0x0c);        /* OCW3: poll                    */
    (void)inb(PIC1_CMD);         /* = acknowledge the top request */
    outb(PIC1_CMD, 0x60);        /* OCW2: specific EOI for IRQ 0  */
}

void pic_eoi(int irq)
{
    if (irq >= 8)
        outb(PIC2_CMD, EOI);
    outb(PIC1_CMD, EOI);
}
