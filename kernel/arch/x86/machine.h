/*
 * x86 (i386, two-level paging with 4 KB pages) machine definitions used by
 * the portable kernel through arch.h.
 *
 * Physical RAM starts at 0 on a PC; the kernel sees all of it at KERNBASE +
 * physical address (the "upper half"), so user programs have everything
 * below KERNBASE.  The PC's devices we use (UART, PIC, PIT) are reached
 * through I/O ports, not memory, so there is no device window.
 */
#ifndef MACHINE_H
#define MACHINE_H

#include "types.h"

#define KERNBASE    0x80000000u
#define RAMSIZE     (128 * 1024 * 1024)                   /* qemu -m 128M */
#define PHYSTOP     (KERNBASE + RAMSIZE)                 /* as a kernel VA */
#define P2V(pa)     ((void *)((uintptr)(pa) + KERNBASE))
#define V2P(va)     ((paddr)((uintptr)(va) - KERNBASE))

/* What exec accepts: 32-bit little-endian i386 ELF files. */
#define ELF_MACHINE 3                /* EM_386 */
#define ELF_DATA    1                /* ELFDATA2LSB */

typedef uint32 *pagetable_t;         /* a page directory: 1024 PDEs */

/* Segment selectors (seg.c builds the GDT in this order). */
#define SEG_KCODE   0x08
#define SEG_KDATA   0x10
#define SEG_UCODE   (0x18 | 3)
#define SEG_UDATA   (0x20 | 3)
#define SEG_TSS     0x28

/* Saved registers, built on the kernel stack by the CPU (eip..ss) and by
 * trapentry.S (the rest).  esp and ss are only pushed on a trap from user
 * mode, which is the only time the kernel looks at them. */
struct trapframe {
    uint32 edi, esi, ebp, oesp, ebx, edx, ecx, eax;   /* pushal          */
    uint32 gs, fs, es, ds;
    uint32 trapno, err;                              /* err: 0 if none  */
    uint32 eip, cs, eflags;                          /* pushed by CPU   */
    uint32 esp, ss;                                  /* ... from user   */
};
#define TF_SIZE 76

/* Callee-saved registers kept across swtch(), and where to resume. */
struct context {
    uint32 edi, esi, ebx, ebp, esp, eip;
};

/* System calls: `int $0x80`, number in eax, arguments in ebx, ecx, edx,
 * esi, edi, result in eax.  Inline: on every system call's path. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->eax; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->eax = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->ebx; arg[1] = tf->ecx; arg[2] = tf->edx; arg[3] = tf->esi; arg[4] = tf->edi;
}

#endif
