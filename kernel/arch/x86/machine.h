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
#include "asm.h"

#define KERNBASE    0x80000000u
#define RAMSIZE     (128 * 1024 * 1024)                   /* qemu -m 128M */
#define PHYSTOP     (KERNBASE + RAMSIZE)                 /* as a kernel VA */
#define P2V(pa)     ((void *)((uintptr)(pa) + KERNBASE))
#define V2P(va)     ((paddr)((uintptr)(va) - KERNBASE))

/* What exec accepts: 32-bit little-endian i386 ELF files. */
#define ELF_MACHINE 3                /* EM_386 */
#define ELF_DATA    1                /* ELFDATA2LSB */

typedef uint32 *pagetable_t;         /* a page directory: 1024 PDEs */

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

/* Callee-saved registers kept across swtch(), and where to resume. */
struct context {
    uint32 edi, esi, ebx, ebp, esp, eip;
};

/* The assembly's offsets (asm.h) are the structs'. */
_Static_assert(offsetof(struct trapframe, edi) == 0 &&
               offsetof(struct trapframe, eax) == TF_EAX, "asm.h: pushal's registers");
_Static_assert(offsetof(struct trapframe, gs) == TF_GS &&
               offsetof(struct trapframe, ds) == TF_DS, "asm.h: segment registers");
_Static_assert(offsetof(struct trapframe, trapno) == TF_TRAPNO &&
               offsetof(struct trapframe, err) == TF_ERR, "asm.h: vector and error code");
_Static_assert(offsetof(struct trapframe, eip) == TF_EIP &&
               offsetof(struct trapframe, esp) == TF_ESP, "asm.h: the CPU's part");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "asm.h: TF_SIZE");
_Static_assert(offsetof(struct context, edi) == CTX_EDI && offsetof(struct context, esi) == CTX_ESI &&
               offsetof(struct context, ebx) == CTX_EBX && offsetof(struct context, ebp) == CTX_EBP &&
               offsetof(struct context, esp) == CTX_ESP && offsetof(struct context, eip) == CTX_EIP,
               "asm.h: context offsets");

/* System calls: `int $0x80`, number in eax, arguments in ebx, ecx, edx,
 * esi, edi, result in eax.  Inline: on every system call's path. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->eax; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->eax = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->ebx; arg[1] = tf->ecx; arg[2] = tf->edx; arg[3] = tf->esi; arg[4] = tf->edi;
}

/* Demand paging (kernel/port/paging.c) may leave user stack pages to be
 * mapped when first touched: every stack access here can fault. */
#define USER_STACK_FAULTS 1

/* What an instruction's address must be a multiple of, so what exec
 * demands of a program's entry point (kernel/port/exec.c, docs/
 * protection.md): an instruction may start at any byte. */
#define USER_PC_ALIGN 1

#endif
