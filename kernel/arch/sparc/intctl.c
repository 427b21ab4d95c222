/*
 * The sun4m interrupt controller, in the Slave I/O chip (NCR89C105; QEMU's
 * slavio_intctl.c).  Devices raise one of 32 system interrupt sources; the
 * controller maps each to a processor interrupt level (1-15, fixed: the
 * serial ports' source is level 12) and presents the highest unmasked one
 * to the processor, which traps to TT_INTR(level) when the level is above
 * PSR.PIL.  The requests are levels, not edges: a device holds its request
 * until the handler satisfies it, so nothing is acknowledged here.  Each
 * processor also has its own counter-timer (timer.c), whose interrupt,
 * level 14, only the master mask bit masks.
 *
 * Ours: the console (serial, level 12) and the processor's timer (14).
 */
#include "kernel.h"
#include "fns.h"

#define INTCTL_PA   0x71e10000              /* the system (master) registers */
#define INTCTL      ((volatile uint32 *)DEV(INTCTL_PA))
#define PENDING     0                       /* word offsets */
#define MASK_CLEAR  2                       /* write 1s: unmask those sources */
#define MASK_SET    3                       /* write 1s: mask them */
#define MASTER      (1u << 31)              /* every source and level 14 too */
#define SERIAL      (1u << 15)              /* the serial ports' source */
#define SERIAL_LEVEL 12
#define TIMER_LEVEL  14

void intctl_init(void)
{
    INTCTL[MASK_SET] = ~0u;                 /* everything masked... */
    INTCTL[MASK_CLEAR] = MASTER;            /* ... but the master bit: level 14 in */
}

/* The console's interrupt unmasked or masked (console.c decides, through
 * escc.c). */
void intctl_serial(int on)
{
    INTCTL[on ? MASK_CLEAR : MASK_SET] = SERIAL;
}

void intctl_intr(int level)
{
    kstats.interrupts++;
    if (level == SERIAL_LEVEL) {
        escc_intr();
    } else if (level == TIMER_LEVEL) {
        timer_intr();
    } else {
        /* Nobody here would satisfy the request, which would trap again at
         * once: mask whatever is asking. */
        uint32 pending = INTCTL[PENDING];
        printf("kernel: unexpected interrupt level %d (sources 0x%x masked)\n", level, pending);
        INTCTL[MASK_SET] = pending & ~(MASTER | SERIAL);
    }
}
