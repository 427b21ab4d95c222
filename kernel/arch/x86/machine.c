/*
 * The PC as a whole: bring-up order, interrupts on/off, idling and
 * power-off.  The ISA interface these implement is kernel/port/arch.h.
 */
#include "kernel.h"
#include "x86.h"
#include "ns16550.h"
#include "fns.h"

const char *arch_name(void) { return "x86"; }

void arch_init(void)
{
    seg_init();
    idt_init();
    mmu_init();                  /* drop the boot mapping of low memory */
    pic_init_nic();              /* and the network card (nic.c) */
    uart_init();
    arch_timer_stop();
}

void arch_mem_range(uintptr *start, uintptr *stop)
{
    *start = PGROUNDUP((uintptr)end);
    *stop = PHYSTOP;
}

void arch_intr_on(void)  { asm volatile("sti"); }
void arch_intr_off(void) { asm volatile("cli"); }

void arch_idle(void)
{
    asm volatile("sti; hlt; cli");   /* sti takes effect after hlt starts */
}

/* QEMU's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4) ends
 * the emulator; on a real PC, or without it, we just stop. */
void arch_halt(void)
{
    outl(0xf4, 0);
    for (;;)
        asm volatile("cli; hlt");
}
