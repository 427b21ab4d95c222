/*
 * The NS16550 UART, the console on both the RISC-V virt board (memory
 * mapped) and the PC (COM1, I/O ports).  The chip is the same, only the way
 * to reach its registers differs, so the ISA provides uart_reg_read/write
 * and this driver does the rest: polled output, and input by interrupt,
 * every character received going to the portable console (console_intr).
 */
#include "kernel.h"
#include "ns16550.h"

#define RBR 0   /* receive buffer (read)          */
#define THR 0   /* transmit holding (write)       */
#define IER 1   /* interrupt enable               */
#define FCR 2   /* FIFO control (write)           */
#define LCR 3   /* line control                   */
#define MCR 4   /* modem control                  */
#define LSR 5   /* line status                    */
#define LSR_RX_READY (1 << 0)
#define LSR_TX_EMPTY (1 << 5)

void uart_init(void)
{
    uart_reg_write(IER, 0);
    uart_reg_write(LCR, 0x03);          /* 8 data bits, no parity, 1 stop bit */
    uart_reg_write(FCR, 0x07);          /* enable and clear the FIFOs         */
    uart_reg_write(MCR, 0x08);          /* OUT2: lets the PC's UART interrupt */
}

/* Interrupt when a byte arrives, or not (console.c decides).  Turned on
 * with a byte already waiting, the chip interrupts at once. */
void arch_console_rx(int on)
{
    uart_reg_write(IER, on ? 0x01 : 0);
}

void arch_console_putc(int c)
{
    while ((uart_reg_read(LSR) & LSR_TX_EMPTY) == 0)
        ;
    uart_reg_write(THR, (uint8)c);
}

void uart_intr(void)
{
    while (uart_reg_read(LSR) & LSR_RX_READY)
        console_intr(uart_reg_read(RBR));
}
