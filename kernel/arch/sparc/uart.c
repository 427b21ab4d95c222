/*
 * The console: Gaisler's APBUART on the LEON3's APB bus (GRLIB IP Core
 * User's Manual).  Output is polled; input arrives by interrupt (level 3),
 * and the handler passes every waiting character to the portable console.
 */
#include "kernel.h"
#include "fns.h"

#define APBUART_PA  0x80000100
#define UART        ((volatile uint32 *)DEV(APBUART_PA))
#define DATA        0               /* word offsets */
#define STATUS      1
#define CTRL        2
#define ST_DR       (1 << 0)        /* a received character is waiting */
#define ST_TE       (1 << 2)        /* transmitter FIFO empty          */
#define CTRL_RE     (1 << 0)        /* receiver enable                 */
#define CTRL_TE     (1 << 1)        /* transmitter enable              */
#define CTRL_RI     (1 << 2)        /* receiver interrupt enable       */

void uart_init(void)
{
    UART[CTRL] = CTRL_RE | CTRL_TE | CTRL_RI;
}

void arch_console_putc(int c)
{
    while (!(UART[STATUS] & ST_TE))
        ;
    UART[DATA] = (uint8)c;
}

/* The receive interrupt on or off (console.c decides): masked in the
 * interrupt controller, which keeps one that comes meanwhile (irqmp.c). */
void arch_console_rx(int on)
{
    irqmp_uart(on);
}

void uart_intr(void)
{
    while (UART[STATUS] & ST_DR)
        console_intr(UART[DATA] & 0xff);
}
