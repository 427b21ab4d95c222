/*
 * How the Malta board reaches its 16550 UART: COM1 of the PIIX4's ISA
 * bridge, whose I/O ports appear in physical memory from ISA_IO_PA on; the
 * kernel reads and writes them through kseg1, uncached.  The driver itself
 * is kernel/dev/ns16550.c.
 */
#include "kernel.h"
#include "ns16550.h"

#define UART ((volatile uint8 *)DEV(ISA_IO_PA + UART0_PORT))

uint8 uart_reg_read(int reg)               { return UART[reg]; }
void  uart_reg_write(int reg, uint8 value) { UART[reg] = value; }
