/*
 * 68040 helpers for the m68k kernel files: memory-mapped device registers
 * (the goldfish devices are 32-bit, big-endian like the CPU), and the
 * status-register interrupt mask.
 */
#ifndef M68K_H
#define M68K_H

#include "types.h"

static inline uint32 mmio_read(uint32 base, uint32 off)
{
    return *(volatile uint32 *)(uintptr)(base + off);
}

static inline void mmio_write(uint32 base, uint32 off, uint32 v)
{
    *(volatile uint32 *)(uintptr)(base + off) = v;
}

#define SR_SUPER   0x2000            /* supervisor mode             */
#define SR_IPL7    0x0700            /* all interrupts masked       */

#endif
