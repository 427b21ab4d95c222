/*
 * fns.h: the x86 kernel's own functions and symbols, shared between its
 * files and with its assembly.  What every ISA provides the portable kernel
 * is in kernel/port/arch.h; this is the rest, and only kernel/arch/x86
 * includes it.  Every function defined in one file and used in another is
 * declared here, so the compiler checks both sides (-Wmissing-prototypes).
 */
#ifndef FNS_H
#define FNS_H

#include "types.h"

struct trapframe;

/* seg.c: the GDT with its TSS, and the IDT */
void seg_init(void);
void idt_init(void);

/* trap.c: the C half of the trap path (trapentry.S calls it) */
void trap(struct trapframe *tf);

/* mmu.c */
void mmu_init(void);

/* pic.c: the 8259 interrupt controllers */
void pic_init(void);
void pic_eoi(int irq);
void pic_drop_timer(void);

/* nic.c: a PCnet in a PCI slot (linked with the network, last): pic_init
 * and the card; pic_eoi, after the card's driver if it was its line */
void pic_init_nic(void);
void pic_eoi_nic(int irq);

/* timer.c */
void timer_intr(void);

/* trapentry.S: each vector's entry point, for the IDT */
extern uint32 trap_vectors[];

/* kernel.ld: the first address after the kernel */
extern char end[];

/* pagefault.c: a fault in a user copy: a page served, or the copy fails */
void copy_fault(struct trapframe *tf);

#endif
