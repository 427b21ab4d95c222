/*
 * fns.h: the RISC-V kernel's own functions and symbols, shared between its
 * files and with its assembly.  What every ISA provides the portable kernel
 * is in kernel/port/arch.h; this is the rest, and only kernel/arch/riscv
 * includes it.  Every function defined in one file and used in another is
 * declared here, so the compiler checks both sides (-Wmissing-prototypes).
 */
#ifndef FNS_H
#define FNS_H

#include "types.h"

struct trapframe;

/* start.c: machine mode hands the machine over (entry.S calls
 * it), to the portable kernel's main() (kernel/port/main.c) */
void start(void);
void main(void);

/* trap.c: the C half of the trap path (trapentry.S calls it) */
void trap(struct trapframe *tf);

/* mmu.c */
void mmu_init(void);

/* plic.c: the platform-level interrupt controller */
void plic_init(void);
void plic_intr(void);

/* nic.c: the network card in a virtio-mmio slot, and its interrupt */
void plic_init_nic(void);               /* plic_init(), then the card */
void plic_other(uint32 irq);            /* a line not the UART's */

/* timer.c */
void timer_intr(void);

/* clockalign.S: go on at a fixed phase of `time`'s 100 ns steps (exec) */
void clock_align(void);

/* pagefault.c: a fault in a user copy: a page served, or the copy fails */
void copy_fault(struct trapframe *tf);

/* trapentry.S: where every trap enters (stvec) */
extern char trap_entry[];

/* kernel.ld: the first address after the kernel */
extern char end[];

#endif
