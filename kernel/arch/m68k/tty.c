/*
 * The console on QEMU's m68k virt board: a goldfish TTY.  Output is one
 * register write per character; input raises an interrupt, and the kernel
 * asks the device to copy the waiting bytes into a buffer (by physical
 * address: ours are physical anyway), then hands them to console_intr.
 */
#include "kernel.h"
#include "m68k.h"
#include "fns.h"

#define TTY_PUT_CHAR      0x00
#define TTY_BYTES_READY   0x04
#define TTY_CMD           0x08
#define TTY_DATA_PTR      0x10
#define TTY_DATA_LEN      0x14
#define TTY_DATA_PTR_HIGH 0x18
#define CMD_INT_DISABLE   0
#define CMD_INT_ENABLE    1
#define CMD_READ_BUFFER   3

void tty_init(void)
{
    mmio_write(gf_tty.base, TTY_CMD, CMD_INT_DISABLE);
}

/* Interrupt while bytes wait, or not (console.c decides); bytes that came
 * while it was off raise it as soon as it is on. */
void arch_console_rx(int on)
{
    mmio_write(gf_tty.base, TTY_CMD, on ? CMD_INT_ENABLE : CMD_INT_DISABLE);
}

void arch_console_putc(int c)
{
    mmio_write(gf_tty.base, TTY_PUT_CHAR, (uint8)c);
}

void tty_intr(void)
{
    static char buf[64];
    uint32 n;
    while ((n = mmio_read(gf_tty.base, TTY_BYTES_READY)) > 0) {
        if (n > sizeof buf)
            n = sizeof buf;
        mmio_write(gf_tty.base, TTY_DATA_PTR, V2P(buf));
        mmio_write(gf_tty.base, TTY_DATA_PTR_HIGH, 0);
        mmio_write(gf_tty.base, TTY_DATA_LEN, n);
        mmio_write(gf_tty.base, TTY_CMD, CMD_READ_BUFFER);
        for (uint32 i = 0; i < n; i++)
            console_intr(buf[i]);
    }
}
