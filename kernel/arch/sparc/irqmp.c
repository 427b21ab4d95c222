/*
 * The LEON3's interrupt controller, Gaisler's IRQMP (GRLIB IP Core User's
 * Manual): it latches each device's interrupt request at a level 1-15 and
 * presents the highest unmasked one to the processor, which traps to
 * TT_INTR(level) when the level is above PSR.PIL.  Taking the trap
 * acknowledges it.  Ours: the console (3) and the two timers (6, 7).
 */
#include "kernel.h"
#include "fns.h"

#define IRQMP_PA    0x80000200
#define IRQMP       ((volatile uint32 *)DEV(IRQMP_PA))
#define CLEAR       (0x0c / 4)
#define MASK0       (0x40 / 4)              /* processor 0's mask */
#define UART_IRQ    3
#define CLOCK_IRQ   6
#define EVENT_IRQ   7


static uint32 mask = 1 << CLOCK_IRQ | 1 << EVENT_IRQ;

void irqmp_init(void)
{
    IRQMP[CLEAR] = 0xfffe;
    IRQMP[MASK0] = mask;
}

/* The console's interrupt unmasked or masked (console.c decides, through
 * uart.c).  Here rather than in the UART: the APBUART only pulses its
 * line when a character arrives, and a pulse while the UART's own enable
 * was off would be lost; the IRQMP latches it as pending whatever the
 * mask, and presents it once unmasked. */
void irqmp_uart(int on)
{
    mask = on ? mask | 1u << UART_IRQ : mask & ~(1u << UART_IRQ);
    IRQMP[MASK0] = mask;
}

/* Drop a request that is latched but no longer wanted. */
void irqmp_clear(int irq)
{
    IRQMP[CLEAR] = 1u << irq;
}

void irqmp_intr(int level)
{
    kstats.interrupts++;
    if (level == UART_IRQ)
        uart_intr();
    else if (level == CLOCK_IRQ || level == EVENT_IRQ)
        timer_intr(level);
    else
        printf("kernel: unexpected interrupt level %d\n", level);
}
