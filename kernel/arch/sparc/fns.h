/*
 * fns.h: the SPARC kernel's own functions and symbols, shared between its
 * files and with its assembly.  What every ISA provides the portable kernel
 * is in kernel/port/arch.h; this is the rest, and only kernel/arch/sparc
 * includes it.  Every function defined in one file and used in another is
 * declared here, so the compiler checks both sides (-Wmissing-prototypes).
 */
#ifndef FNS_H
#define FNS_H

#include "types.h"

struct trapframe;

/* trap.c: the C half of the trap path (trapentry.S calls both) */
void trap(struct trapframe *tf);
void bad_user_stack(struct trapframe *tf) __attribute__((noreturn));

/* windows.S: write every register window to its stack; which window a WIM
 * bit names; the user's windows still in the register file; the kernel
 * stack the next trap from user mode lands on */
void flush_windows(void);
extern uint8 wim_index[128];
extern uint32 uwin, cur_kstack;

/* mmu.c */
void mmu_init(void);

/* escc.c: the console, a Zilog ESCC serial port */
void escc_init(void);
void escc_intr(void);

/* intctl.c: the interrupt controller */
void intctl_init(void);
void intctl_serial(int on);
void intctl_intr(int level);

/* nic.c: the LANCE on the board (linked with the network, last):
 * intctl_init and the card; an interrupt, the card's or intctl_intr's */
void intctl_init_nic(void);
void intctl_intr_nic(int level);

/* timer.c: the processor's counter-timer, clock and event timer */
void timer_init(void);
void timer_intr(void);
void timer_idle_begin(void);
void timer_idle_end(void);

/* kernel.ld: the first address after the kernel */
extern char end[];

/* pagefault.c: a fault in a user copy: a page served, or the copy fails */
void copy_fault(struct trapframe *tf);

#endif
