/*
 * How the PC reaches its 16550 UART: COM1, eight I/O ports from 0x3f8,
 * interrupt 4.  The driver itself is kernel/dev/ns16550.c.
 */
#include "kernel.h"
#include "ns16550.h"
#include "x86.h"

#define COM1 0x3f8

uint8 uart_reg_read(int reg)               { return inb(COM1 + reg); }
void  uart_reg_write(int reg, uint8 value) { outb(COM1 + reg, value); }
