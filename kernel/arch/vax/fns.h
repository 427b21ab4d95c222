/*
 * fns.h: the VAX kernel's own functions and symbols, shared between its
 * files and with its assembly.  What every ISA provides the portable kernel
 * is in kernel/port/arch.h; this is the rest, and only kernel/arch/vax
 * includes it.  Every function defined in one file and used in another is
 * declared here, so the compiler checks both sides (-Wmissing-prototypes).
 */
#ifndef FNS_H
#define FNS_H

#include "types.h"

struct trapframe;

/* trap.c: the C half of the trap path (trapentry.S calls it) */
void trap(struct trapframe *tf);

/* mmu.c */
void mmu_init(void);
void *dev_va(paddr pa);                 /* a device register's kernel address */

/* timer.c: the KA655's interval timers */
void timer_init(void);
void timer0_intr(void);
void timer1_intr(void);
int timer_deadline_set(void);
uint64 timer_idle_begin(void);
void timer_idle_end(uint64 began, int had_deadline);

/* cons.c: the console */
void cons_init(void);
void cons_rx_intr(void);

/* nic.c: the DELQA's board part (linked with the network, last):
 * cons_init and the card; the Q-bus address of a kernel address in the
 * window qbus_map maps onto physical [lo, hi) (0, or -errno) */
void cons_init_nic(void);
uint64 timer_idle_begin_nic(void);
uint32 qbus_addr(const void *va);
int qbus_map(paddr lo, paddr hi);

/* delqa.c: the DELQA driver: whether SIMH attached the one at regs; attach
 * it (1: attached), interrupting at Q-bus vector `vector`; its interrupt */
int delqa_present(volatile uint16 *regs);
int delqa_attach(volatile uint16 *regs, uint32 vector);
void delqa_intr(void);

/* swtch.S: where a new kernel thread's first swtch() lands */
extern char proc_trampoline[];

/* kernel.ld: the first address after the kernel */
extern char end[];

/* pagefault.c: a fault in a user copy: a page served, or the copy fails */
void copy_fault(struct trapframe *tf);

#endif
