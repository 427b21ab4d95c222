/*
 * The console: the 16550 UART on QEMU's virt board.  Output is polled
 * (wait until the transmit holding register is empty, then write);
 * input raises interrupt UART0_IRQ through the PLIC, and every character
 * received goes to the portable console (console_intr).
 */
#include "kernel.h"

#define RBR 0   /* receive buffer (read)          */
#define THR 0   /* transmit holding (write)       */
#define IER 1   /* interrupt enable               */
#define FCR 2   /* FIFO control (write)           */
#define LCR 3   /* line control                   */
#define LSR 5   /* line status                    */
#define LSR_RX_READY (1 << 0)
#define LSR_TX_EMPTY (1 << 5)

static volatile uint8 *uart = (volatile uint8 *)UART0_PA;   /* until paging */

void uart_init(void)
{
    uart = (volatile uint8 *)DEV(UART0_PA);
    uart[IER] = 0;
    uart[LCR] = 0x03;           /* 8 data bits, no parity, 1 stop bit */
    uart[FCR] = 0x07;           /* enable and clear the FIFOs         */
    uart[IER] = 0x01;           /* interrupt when a byte arrives      */
}

void arch_console_putc(int c)
{
    while ((uart[LSR] & LSR_TX_EMPTY) == 0)
        ;
    uart[THR] = (uint8)c;
}

void uart_intr(void)
{
    while (uart[LSR] & LSR_RX_READY)
        console_intr(uart[RBR]);
}
