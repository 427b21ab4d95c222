/*
 * The console: the VAX's console terminal registers, reached with MTPR and
 * MFPR like any processor register (SIMH connects them to its own stdin and
 * stdout).  Output is polled: wait until TXCS says ready, write TXDB.
 * Input interrupts (SCB vector 0xf8) and cons_rx_intr hands each character
 * to console_intr.
 */
#include "kernel.h"
#include "vax.h"
#include "fns.h"

void cons_init(void)
{
    mtpr(0, PR_RXCS);
}

/* Interrupt when a character arrives, or not (console.c decides).  Setting
 * IE while RXCS says a character is waiting (DONE) interrupts at once, as
 * on every DEC device. */
void arch_console_rx(int on)
{
    mtpr(on ? CS_IE : 0, PR_RXCS);
}

void arch_console_putc(int c)
{
    while (!(mfpr(PR_TXCS) & CS_READY))
        ;
    mtpr(c & 0xff, PR_TXDB);
}

void cons_rx_intr(void)
{
    while (mfpr(PR_RXCS) & CS_READY)
        console_intr(mfpr(PR_RXDB) & 0xff);
}
