/*
 * SIMH's MicroVAX 3900 as a whole: bring-up order, interrupts on/off,
 * idling and power-off.  The ISA interface these implement is
 * kernel/port/arch.h.
 *
 * "Interrupts off" on the VAX is a raised interrupt priority level: the
 * kernel runs at IPL 31, which holds off everything; user mode and the
 * idle loop run at IPL 0.
 */
#include "kernel.h"
#include "vax.h"
#include "fns.h"

const char *arch_name(void) { return "vax"; }

void arch_init(void)
{
    mmu_init();                    /* entry.S already turned mapping on */
    timer_init();
    cons_init_nic();               /* and the network card (nic.c) */
}

void arch_mem_range(uintptr *start, uintptr *stop)
{
    *start = PGROUNDUP((uintptr)end);
    *stop = PHYSTOP;
}

void arch_intr_on(void)  { mtpr(0, PR_IPL); }
void arch_intr_off(void) { mtpr(IPL_HIGH, PR_IPL); }

void arch_idle(void)
{
    /* The VAX has no wait-for-interrupt instruction: lower the IPL and
     * spin until an interrupt has been handled.  The spins must not count
     * as time (their number is the host's typing speed): timer.c moves
     * the clock to the deadline first, or puts it back afterwards. */
    volatile uint32 *count = &kstats.interrupts;
    uint32 seen = *count;
    int had_deadline = timer_deadline_set();
    uint64 began = timer_idle_begin_nic();     /* nic.c: timer_idle_begin, or not */
    mtpr(0, PR_IPL);
    while (*count == seen)
        ;
    mtpr(IPL_HIGH, PR_IPL);
    timer_idle_end(began, had_deadline);
}

void arch_halt(void)
{
    /* HALT in kernel mode stops SIMH, which then runs the rest of its
     * command script (harness/guest/machines.py: show the time, exit). */
    for (;;)
        asm volatile("halt");
}
