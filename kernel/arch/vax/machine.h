/*
 * VAX machine definitions used by the portable kernel through arch.h:
 * the saved-register layouts, and how kernel virtual addresses relate to
 * physical ones.  The machine is SIMH's MicroVAX 3900 (KA655).
 *
 * The VAX splits the 4 GB address space in four: P0 (0 - 1 GB, the
 * program, growing up), P1 (1 - 2 GB, the stack, growing down), S0
 * (2 - 3 GB, the system, shared by every process) and S1 (unused).  That is
 * exactly our portable layout: user below USERTOP = 0x80000000, the kernel
 * above.  The kernel maps all of RAM at KERNBASE + physical address.
 *
 * The hardware page is 512 bytes.  The portable kernel's page (PGSIZE in
 * kernel/port/param.h, what kalloc hands out) is 4 KB, a cluster of 8
 * hardware pages always mapped together, as 4.3BSD did on the VAX.
 */
#ifndef MACHINE_H
#define MACHINE_H

#include "asm.h"
#ifndef __ASSEMBLER__
#include "types.h"
#endif

#define KERNBASE    0x80000000               /* S0 space                      */
#define RAMSIZE     (64 * 1024 * 1024)       /* SIMH `set cpu 64m`: a full KA655  */
#define PHYSTOP     (KERNBASE + RAMSIZE)     /* as a kernel VA                */
#define P2V(pa)     ((void *)((uintptr)(pa) + KERNBASE))
#define V2P(va)     ((paddr)((uintptr)(va) - KERNBASE))

#ifndef __ASSEMBLER__
/* What exec accepts: 32-bit little-endian VAX ELF files. */
#define ELF_MACHINE 75                       /* EM_VAX */
#define ELF_DATA    1                        /* ELFDATA2LSB */

/* One address space: its P0 and P1 page tables (mmu.c). */
typedef struct vax_space *pagetable_t;

/* Saved registers, on the kernel stack.  The CPU pushes psl and pc (and,
 * for some vectors, one or two parameters); the per-vector stub in
 * trapentry.S evens those out to two (a0, a1) and pushes the vector;
 * trapentry.S then pushes r0-r11, ap, fp and the user stack pointer.
 *   CHMK:           a1 = the CHMK operand (the system call number)
 *   ACV, TNV:       a0 = fault reason (MMF_*), a1 = faulting address
 *   arithmetic:     a1 = the trap code
 * The assembly's offsets are in asm.h, checked below. */
struct trapframe {
    uint32 usp;                              /*  0 */
    uint32 r[12];                            /*  4: r0-r11 */
    uint32 ap, fp;                           /* 52 */
    uint32 vec, a0, a1;                      /* 60 */
    uint32 pc, psl;                          /* 72 */
};

/* What swtch() keeps of a kernel thread: just its frame pointer.  swtch is
 * called with CALLS and its entry mask saves r2-r11, so the VAX call frame
 * it leaves on the stack already holds every register (swtch.S). */
struct context {
    uint32 fp;
};

/* The assembly's offsets (asm.h) are the structs'. */
_Static_assert(offsetof(struct trapframe, usp) == 0 && offsetof(struct trapframe, r) == TF_R0 &&
               offsetof(struct trapframe, ap) == TF_AP, "asm.h: the registers trapentry.S pushes");
_Static_assert(offsetof(struct trapframe, vec) == TF_VEC && offsetof(struct trapframe, a1) == TF_A1 &&
               offsetof(struct trapframe, pc) == TF_PC, "asm.h: the stub's words and the CPU's");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "asm.h: TF_SIZE");
_Static_assert(offsetof(struct context, fp) == CTX_FP, "asm.h: context offsets");

/* System calls: `chmk $number`, arguments in r0-r4, result in r0
 * (guests/lib/arch/vax/syscall.S).  Inline: on every system call's path. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->a1; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->r[0] = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->r[0]; arg[1] = tf->r[1]; arg[2] = tf->r[2]; arg[3] = tf->r[3]; arg[4] = tf->r[4];
}

#endif /* __ASSEMBLER__ */
/* Demand paging (kernel/port/paging.c) may leave user stack pages to be
 * mapped when first touched: every stack access here can fault. */
#define USER_STACK_FAULTS 1

/* What an instruction's address must be a multiple of, so what exec
 * demands of a program's entry point (kernel/port/exec.c, docs/
 * protection.md): an instruction may start at any byte. */
#define USER_PC_ALIGN 1

#endif
