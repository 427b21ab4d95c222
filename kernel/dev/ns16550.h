/*
 * NS16550 UART driver (ns16550.c) and the two register accessors each ISA
 * that has one must provide (memory-mapped or port I/O).
 */
#ifndef NS16550_H
#define NS16550_H

#include "types.h"

uint8 uart_reg_read(int reg);
void  uart_reg_write(int reg, uint8 value);

void  uart_init(void);
void  uart_intr(void);

#endif
