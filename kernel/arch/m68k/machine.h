/*
 * m68k (68040) machine definitions used by the portable kernel through
 * arch.h.
 *
 * The 68040 MMU keeps two root pointers, one for user accesses (URP) and
 * one for supervisor accesses (SRP): user and kernel live in separate
 * address spaces, as on the Sun-3.  The kernel does not even use page
 * tables: two transparent-translation registers make every supervisor
 * access physical (mmu.c).  So kernel virtual == physical (P2V is the
 * identity), the kernel is linked at its physical address, and user
 * programs get the whole range below USERTOP through URP.  The kernel
 * reaches user memory only with the MOVES instruction (usercopy.S).
 */
#ifndef MACHINE_H
#define MACHINE_H

#include "types.h"
#include "asm.h"

#define P2V(pa)     ((void *)(uintptr)(pa))
#define V2P(va)     ((paddr)(uintptr)(va))

/* What exec accepts: 32-bit big-endian 68k ELF files. */
#define ELF_MACHINE 4                /* EM_68K */
#define ELF_DATA    2                /* ELFDATA2MSB */

typedef uint32 *pagetable_t;         /* a root table: 128 descriptors */

/* Saved registers.  trapentry.S pushes d0-a6 and the user stack pointer
 * below the frame the CPU pushed (sr, pc, format/vector word).  System
 * calls and interrupts push a 4-word "format 0" frame, and those are the
 * only traps a process returns from, so a process's trapframe always sits
 * at the same place on its kernel stack.  (A fault pushes a longer frame,
 * but a faulting process is killed and never returns to user mode.)  The
 * m68k ABI aligns 32-bit values to 2 bytes, so pc follows sr directly. */
struct trapframe {
    uint32 usp;
    uint32 d[8];
    uint32 a[7];
    uint16 sr;
    uint32 pc;
    uint16 format_vector;            /* format in the top 4 bits */
} __attribute__((packed));

/* Callee-saved registers kept across swtch(), and where to resume. */
struct context {
    uint32 d[6];                     /* d2-d7 */
    uint32 a[5];                     /* a2-a6 */
    uint32 sp, pc;
};

/* The assembly's offsets (asm.h) are the structs'. */
_Static_assert(offsetof(struct trapframe, usp) == 0 && offsetof(struct trapframe, d) == TF_D0 &&
               offsetof(struct trapframe, a) == TF_A0, "asm.h: the registers trapentry.S pushes");
_Static_assert(offsetof(struct trapframe, sr) == TF_SR && offsetof(struct trapframe, pc) == TF_PC &&
               offsetof(struct trapframe, format_vector) == TF_FORMAT,
               "asm.h: the CPU's format-0 frame");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "asm.h: TF_SIZE");
_Static_assert(offsetof(struct context, d) == 0 && offsetof(struct context, a) == CTX_A2 &&
               offsetof(struct context, sp) == CTX_SP && offsetof(struct context, pc) == CTX_PC,
               "asm.h: context offsets");

/* System calls: `trap #0`, number in d0, arguments in d1-d5, result in d0.
 * Inline: on every system call's path. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->d[0]; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->d[0] = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->d[1]; arg[1] = tf->d[2]; arg[2] = tf->d[3]; arg[3] = tf->d[4]; arg[4] = tf->d[5];
}

/* Demand paging (kernel/port/paging.c) may leave user stack pages to be
 * mapped when first touched: every stack access here can fault. */
#define USER_STACK_FAULTS 1

/* What an instruction's address must be a multiple of, so what exec
 * demands of a program's entry point (kernel/port/exec.c, docs/
 * protection.md): instructions are whole 16-bit words on even addresses; an rte to
 * an odd one is an address error. */
#define USER_PC_ALIGN 2

#endif
