/*
 * QEMU's Malta board with a MIPS 24Kc as a whole: bring-up order,
 * interrupts on/off, idling, power-off.  The ISA interface these implement
 * is kernel/port/arch.h.
 *
 * The kernel runs in kernel mode with Status.IE clear; user mode runs with
 * it set.  The interrupt mask (Status.IM) is set once here and never
 * changes: interrupt 2 (the 8259, behind it the UART) and 7 (the timer).
 */
#include "kernel.h"
#include "mips.h"
#include "ns16550.h"
#include "fns.h"

uint32 boot_ram_size;              /* bytes, from QEMU's boot stub (entry.S) */

const char *arch_name(void) { return "mips"; }

void arch_init(void)
{
    /* entry.S left us in kernel mode, interrupts off, with the
     * exception vectors in kseg0 (Status.BEV clear). */
    mmu_init();
    uart_init();
    pic_init_nic();                /* and the network card (nic.c) */
    pit_stop();
    arch_timer_stop();
    mtc0(C0_STATUS, SR_IM(IRQ_I8259) | SR_IM(IRQ_TIMER));
}

void arch_mem_range(uintptr *start, uintptr *stop)
{
    uint32 ram = boot_ram_size && boot_ram_size < RAM_MAX ? boot_ram_size : RAM_MAX;
    *start = PGROUNDUP((uintptr)end);
    *stop = KERNBASE + ram;
}

void arch_intr_on(void)  { mtc0(C0_STATUS, mfc0(C0_STATUS) | SR_IE); }
void arch_intr_off(void) { mtc0(C0_STATUS, mfc0(C0_STATUS) & ~SR_IE); }

/* Wait for an interrupt.  With no timer set only a device can end the
 * wait, and Count stands still meanwhile (timer.c says why). */
void arch_idle(void)
{
    int frozen = timer_freeze();
    wait_for_interrupt();
    if (frozen)
        timer_thaw();
}

void arch_halt(void)
{
    *(volatile uint32 *)DEV(RESET_PA) = 0x42;    /* board reset: QEMU -no-reboot exits */
    for (;;)
        ;
}
