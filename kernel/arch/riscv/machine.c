/*
 * The RISC-V "virt" machine as a whole: bring-up order, interrupts on/off,
 * idling and power-off.  The ISA interface these implement is
 * kernel/port/arch.h.
 */
#include "kernel.h"
#include "riscv.h"
#include "ns16550.h"
#include "fns.h"

const char *arch_name(void) { return "riscv"; }

void arch_init(void)
{
    mmu_init();                              /* paging on: devices at DEVBASE */
    uart_init();
    plic_init_nic();                         /* and the network card (nic.c) */
    csr_write(stvec, (uint32)trap_entry);
    csr_write(sscratch, 0);                  /* "we are in the kernel"       */
    csr_write(scounteren, 0x7);              /* user may read cycle/time/instret */
    arch_timer_stop();
    csr_set(sie, SIE_SEIE | SIE_STIE);
}

void arch_mem_range(uintptr *start, uintptr *stop)
{
    *start = PGROUNDUP((uintptr)end);
    *stop = PHYSTOP;
}

void arch_intr_on(void)  { csr_set(sstatus, SSTATUS_SIE); }
void arch_intr_off(void) { csr_clear(sstatus, SSTATUS_SIE); }

/*
 * Wait for an interrupt.  WFI wakes on an interrupt that is pending and
 * enabled in sie even while sstatus.SIE is off, so it runs with interrupts
 * off and they are let in only afterwards: enabling them first would let an
 * interrupt that arrives just before the wfi be handled (waking someone)
 * and then sleep anyway, with nothing left to wake us.
 */
void arch_idle(void)
{
    asm volatile("wfi");
    csr_set(sstatus, SSTATUS_SIE);
    csr_clear(sstatus, SSTATUS_SIE);
}

void arch_halt(void)
{
    *(volatile uint32 *)DEV(TEST_PA) = 0x5555;   /* SiFive test: "pass", exit */
    for (;;)
        ;
}
