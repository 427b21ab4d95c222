/*
 * fns.h: the MIPS kernel's own functions and symbols, shared between its
 * files and with its assembly.  What every ISA provides the portable kernel
 * is in kernel/port/arch.h; this is the rest, and only kernel/arch/mips
 * includes it.  Every function defined in one file and used in another is
 * declared here, so the compiler checks both sides (-Wmissing-prototypes).
 */
#ifndef FNS_H
#define FNS_H

#include "types.h"

struct trapframe;

/* machine.c: RAM size, from QEMU's boot stub (entry.S stores it) */
extern uint32 boot_ram_size;

/* trap.c: the C half of the trap path (trapentry.S calls it), and where
 * the next trap from user mode builds its frame (trapentry.S reads it) */
void trap(struct trapframe *tf);
extern uint32 user_trapframe;

/* mmu.c */
void mmu_init(void);

/* piix4.c: the PIIX4's 8259 interrupt controllers and 8254 timer */
void pic_init(void);
void pic_intr(void);
void pit_stop(void);

/* nic.c: the PCnet in PCI slot 11 (linked with the network, last):
 * pic_init and the card; a line of the first 8259 not the UART's (the
 * card's behind the second, or `unexpected` printed as before) */
void pic_init_nic(void);
void pic_other(const char *unexpected, int irq);

/* timer.c: the CP0 Count/Compare timer and the clock built on it */
void timer_intr(void);
int  timer_freeze(void);
void timer_thaw(void);
void clock_sync(void);

/* clockalign.S: wait for Count to reach a fixed phase (timer.c) */
uint32 clock_align(void);

/* idle.S: wait for an interrupt; an interrupt taken between idle_begin and
 * idle_end returns to idle_end, past the wait (trap.c) */
void wait_for_interrupt(void);
extern char idle_begin[], idle_end[];

/* kernel.ld: the first address after the kernel */
extern char end[];

/* pagefault.c: a fault in a user copy: where it goes on, the faulting
 * instruction (a page served) or usercopy_fault (the copy fails) */
void copy_fault(struct trapframe *tf);

#endif
