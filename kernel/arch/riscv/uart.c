/*
 * How the RISC-V virt board reaches its 16550 UART: memory-mapped bytes at
 * UART0_PA, seen by the kernel at DEV(UART0_PA) once paging is on.  The
 * driver itself is kernel/dev/ns16550.c.
 */
#include "kernel.h"
#include "ns16550.h"

#define UART ((volatile uint8 *)DEV(UART0_PA))

uint8 uart_reg_read(int reg)               { return UART[reg]; }
void  uart_reg_write(int reg, uint8 value) { UART[reg] = value; }
