/*
 * The console: serial port A of the sun4m's Zilog 85C30 ESCC (the Slave
 * I/O chip's "ttya"; QEMU's escc.c), which QEMU connects to -serial.  The
 * Sun-4/280 had the same chip family (a Zilog 8530 SCC) for its serial
 * ports.  Output is polled; input arrives by interrupt (the Slave I/O's
 * serial source, level 12), and the handler passes the waiting character
 * to the portable console.
 *
 * An 8530 channel is two byte-wide ports: control and data.  A control
 * write either selects a register (WR0's low bits) or, right after a
 * selection, writes the register selected; a control read gives RR0 (the
 * status) unless another register was selected.  Zilog's Z8530 SCC
 * Product Specification names the registers.
 */
#include "kernel.h"
#include "fns.h"

#define SERIAL_PA   0x71100000              /* port B at +0, port A at +4 */
#define CTRL        (*(volatile uint8 *)DEV(SERIAL_PA + 4))
#define DATA        (*(volatile uint8 *)DEV(SERIAL_PA + 6))

#define RR0_RX_AVAIL    0x01                /* a received character waits  */
#define RR0_TX_EMPTY    0x04                /* the transmit buffer is free */

/* Write register reg of port A. */
static void wreg(int reg, uint8 v)
{
    CTRL = (uint8)reg;
    CTRL = v;
}

void escc_init(void)
{
    wreg(9, 0x80);          /* WR9: reset port A                                */
    wreg(4, 0x44);          /* WR4: clock x16, 1 stop bit, no parity            */
    wreg(3, 0xc1);          /* WR3: receive 8-bit characters, receiver on       */
    wreg(5, 0x68);          /* WR5: send 8-bit characters, transmitter on       */
    wreg(1, 0x10);          /* WR1: interrupt on every received character       */
    wreg(9, 0x08);          /* WR9: master interrupt enable (QEMU needs none)   */
}

void arch_console_putc(int c)
{
    while (!(CTRL & RR0_TX_EMPTY))
        ;
    DATA = (uint8)c;
}

/* The receive interrupt on or off (console.c decides): masked in the
 * interrupt controller.  The ESCC holds its request while a character
 * waits, so one that came meanwhile interrupts once unmasked. */
void arch_console_rx(int on)
{
    intctl_serial(on);
}

/* Reading the character ends the request.  (QEMU's ESCC holds one
 * character at a time: the next comes after this one is read.) */
void escc_intr(void)
{
    while (CTRL & RR0_RX_AVAIL)
        console_intr(DATA);
}
