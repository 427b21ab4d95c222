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

/*
 * The FIFOs stay off (the 16450's way: one byte held each way).  QEMU's
 * 16550 with its FIFO on arms a receive timeout on its virtual clock for
 * every byte that arrives, read by its main loop at a moment the host
 * decides; under -icount that deadline ends the vCPU's run of
 * instructions at a point that differs from run to run, QEMU cuts the
 * block there short, and the model charges the cut block's instruction
 * fetches at another time: a few cycles of stall moved 4.17 ms of guest
 * time after the last byte typed (docs/network.md, "Why two runs print
 * the same numbers").  The console takes a byte at a time anyway (one
 * byte per interrupt as typed, each polled out).  0x06 clears both
 * FIFOs with the enable bit off.
 */
void uart_init(void)
{
    uart_reg_write(IER, 0);
    uart_reg_write(LCR, 0x03);          /* 8 data bits, no parity, 1 stop bit */
    uart_reg_write(FCR, 0x06);          /* FIFOs cleared and off: see above   */
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
