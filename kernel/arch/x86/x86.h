/*
 * x86 instructions C cannot express, as small inline functions, for the
 * x86 kernel files only.
 */
#ifndef X86_H
#define X86_H

#include "types.h"

static inline uint8 inb(uint16 port)
{
    uint8 v;
    asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outb(uint16 port, uint8 v)
{
    asm volatile("outb %0, %1" :: "a"(v), "Nd"(port));
}

static inline void outl(uint16 port, uint32 v)
{
    asm volatile("outl %0, %1" :: "a"(v), "Nd"(port));
}

static inline uint16 inw(uint16 port)
{
    uint16 v;
    asm volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline void outw(uint16 port, uint16 v)
{
    asm volatile("outw %0, %1" :: "a"(v), "Nd"(port));
}

static inline uint32 inl(uint16 port)
{
    uint32 v;
    asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

#define T_PGFLT 14                 /* the page-fault vector (trap.c, pagefault.c) */

static inline uint32 rcr2(void)
{
    uint32 v;
    asm volatile("movl %%cr2, %0" : "=r"(v));
    return v;
}

static inline void lcr3(uint32 pa)
{
    asm volatile("movl %0, %%cr3" :: "r"(pa) : "memory");
}

static inline uint64 rdtsc(void)
{
    uint32 lo, hi;
    asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64)hi << 32) | lo;
}

#define EFLAGS_IF 0x200          /* interrupts enabled */

#endif
