/*
 * fns.h: the m68k kernel's own functions and symbols, shared between its
 * files and with its assembly.  What every ISA provides the portable kernel
 * is in kernel/port/arch.h; this is the rest, and only kernel/arch/m68k
 * includes it.  Every function defined in one file and used in another is
 * declared here, so the compiler checks both sides (-Wmissing-prototypes).
 */
#ifndef FNS_H
#define FNS_H

#include "types.h"

struct trapframe;

/* bootinfo.c: the devices and RAM size QEMU's bootinfo records give */
struct gf_device { uint32 base, irq; };
extern struct gf_device gf_pic, gf_rtc, gf_tty, virt_ctrl;
extern uint32 ram_size;

/* trap.c: the C half of the trap path (trapentry.S calls it) */
void trap(struct trapframe *tf);

/* mmu.c */
void mmu_init(void);

/* pic.c: the goldfish interrupt controller */
void pic_init(void);
void pic_intr(int level);

/* nic.c: the network card in a virtio-mmio slot, and its interrupt */
void pic_init_nic(void);                /* pic_init(), then the card */
void pic_intr_nic(int level);           /* pic_intr(), then the card */

/* tty.c: the goldfish console */
void tty_init(void);
void tty_intr(void);

/* timer.c */
void timer_intr(void);

/* trapentry.S: where every trap enters (all 256 vectors) */
extern char trap_entry[];

/* kernel.ld: the first address after the kernel; QEMU puts the bootinfo
 * records there */
extern char _end[];

/* pagefault.c: a fault in a user copy: a page served, or the copy fails */
void copy_fault(struct trapframe *tf);

#endif
