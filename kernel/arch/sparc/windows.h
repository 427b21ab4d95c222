/*
 * Assembly macros for moving a register window between the register file
 * and its stack (windows.S, trapentry.S).  A window's 16 registers, locals
 * then ins, live in the first 64 bytes of its frame, at its own %sp: the
 * SPARC ABI reserves that space in every frame for exactly this.
 */
#ifndef WINDOWS_H
#define WINDOWS_H

#include "machine.h"
#include "sparc.h"

#define SPILL_WINDOW                \
    std   %l0, [%sp + 0];           \
    std   %l2, [%sp + 8];           \
    std   %l4, [%sp + 16];          \
    std   %l6, [%sp + 24];          \
    std   %i0, [%sp + 32];          \
    std   %i2, [%sp + 40];          \
    std   %i4, [%sp + 48];          \
    std   %i6, [%sp + 56]

#define FILL_WINDOW                 \
    ldd   [%sp + 0], %l0;           \
    ldd   [%sp + 8], %l2;           \
    ldd   [%sp + 16], %l4;          \
    ldd   [%sp + 24], %l6;          \
    ldd   [%sp + 32], %i0;          \
    ldd   [%sp + 40], %i2;          \
    ldd   [%sp + 48], %i4;          \
    ldd   [%sp + 56], %i6

/*
 * The page holding addr: may the user write it (mask USER_WRITABLE) or read
 * it (USER_READABLE)?  The SRMMU's probe walks the page table and returns
 * the entry (0 if none); its ACC and ET bits index the mask.  A probe never
 * faults, which matters: these run with traps off, where a fault would
 * stop the processor.  Scratch registers a and b; branches to bad if not.
 */
#define PROBE_USER_PAGE(addr, mask, a, b, bad)  \
    andn  addr, 0xfff, a;                       \
    or    a, MMU_ENTIRE, a;                     \
    lda   [a] ASI_MMU_FLUSH_PROBE, a;           \
    and   a, 0x1f, a;                           \
    set   mask, b;                              \
    srl   b, a, b;                              \
    andcc b, 1, %g0;                            \
    be    bad;                                  \
     nop

/*
 * May this window's 64 bytes at %sp be written (read) for the user?  The
 * stack pointer must be 8-byte aligned (std, ldd), the 64 bytes below
 * KERNBASE (= USERTOP: trap.c checks), and on pages the user may write
 * (read): the first, and the next one if the 64 bytes cross into it.  The
 * user chooses %sp, so all of that is checked before the kernel touches
 * the memory with its own rights.  Scratch registers a, b, c.
 */
#define CHECK_USER_STACK(mask, a, b, c, bad)    \
    andcc %sp, 7, %g0;                          \
    bne   bad;                                  \
     nop;                                       \
    set   KERNBASE - 64, a;                     \
    cmp   %sp, a;                               \
    bgu   bad;                                  \
     nop;                                       \
    PROBE_USER_PAGE(%sp, mask, a, b, bad);      \
    and   %sp, 0xfff, a;                        \
    cmp   a, 0x1000 - 64;                       \
    bleu  9f;                                   \
     add  %sp, 64, c;                           \
    PROBE_USER_PAGE(c, mask, a, b, bad);        \
9:

#endif
