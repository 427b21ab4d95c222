/*
 * MIPS (MIPS I code on QEMU's Malta board with a 24Kc) machine definitions
 * used by the portable kernel through arch.h.
 *
 * MIPS fixes the address map in the processor: user space (kuseg) is the
 * lower 2 GB, mapped through the TLB; kseg0, 0x80000000-0x9fffffff, is
 * physical memory seen through the cache with no TLB at all, and kseg1,
 * 0xa0000000-0xbfffffff, the same without the cache (for devices).  That is
 * already our portable layout (USERTOP = 0x80000000): the kernel lives in
 * kseg0, so kernel virtual = physical + KERNBASE and entering the kernel
 * never needs the TLB.  Only user addresses are translated, by a TLB that
 * the kernel refills in software (trapentry.S, mmu.c).
 */
#ifndef MACHINE_H
#define MACHINE_H

#include "types.h"
#include "asm.h"

#define KERNBASE    0x80000000u             /* kseg0: RAM, cached            */
#define KSEG1       0xa0000000u             /* the same, uncached: devices   */
#define P2V(pa)     ((void *)((uintptr)(pa) + KERNBASE))
#define V2P(va)     ((paddr)((uintptr)(va) - KERNBASE))
#define DEV(pa)     (KSEG1 + (pa))
#define RAM_MAX     (256u << 20)            /* Malta's low memory: kseg0 reach */

/* Physical addresses on QEMU's Malta (hw/mips/malta.c): the PIIX4's ISA
 * I/O ports start at 0x18000000; the FPGA's software reset register. */
#define ISA_IO_PA   0x18000000u
#define UART0_PORT  0x3f8                   /* COM1, a 16550, ISA IRQ 4      */
#define UART0_IRQ   4
#define RESET_PA    0x1f000500u             /* write 0x42: reset (QEMU: exit) */

/* What exec accepts: 32-bit little-endian MIPS ELF files. */
#define ELF_MACHINE 8                /* EM_MIPS */
#define ELF_DATA    1                /* ELFDATA2LSB */

/* An address space (mmu.c): the user half's page directory, and the ASID
 * that tags its TLB entries. */
typedef struct pgdir *pagetable_t;

/* Saved user (or interrupted kernel) registers, built by trapentry.S on the
 * kernel stack, at the offsets in asm.h (checked below).  The first four words are not registers: the o32 calling convention
 * gives every callee 16 bytes above its caller's stack pointer to store
 * a0-a3 in, and trap(tf) is called with sp = tf. */
struct trapframe {
    uint32 argsave[4];                      /*   0 */
    uint32 at, v0, v1;                      /*  16 */
    uint32 a0, a1, a2, a3;                  /*  28 */
    uint32 t0, t1, t2, t3, t4, t5, t6, t7;  /*  44 */
    uint32 s0, s1, s2, s3, s4, s5, s6, s7;  /*  76 */
    uint32 t8, t9;                          /* 108 */
    uint32 gp, sp, fp, ra;                  /* 116 */
    uint32 hi, lo;                          /* 132 */
    uint32 epc, status, cause, badvaddr;    /* 140 */
};                                          /* 156 bytes: TF_SIZE in asm.h    */

/* Registers a kernel thread keeps across swtch(): the callee-saved ones. */
struct context {
    uint32 ra, sp;
    uint32 s[9];                            /* s0-s7 and fp (s8) */
};

/* The assembly's offsets (asm.h) are the structs' (a failure names the
 * member that moved). */
#define TF_AT(reg, member, off) _Static_assert(offsetof(struct trapframe, member) == (off), \
                                               "asm.h: trapframe offset of " #member)
FOR_EACH_REG(TF_AT);
_Static_assert(offsetof(struct trapframe, sp) == TF_SP, "asm.h: TF_SP");
_Static_assert(offsetof(struct trapframe, hi) == TF_HI && offsetof(struct trapframe, lo) == TF_LO,
               "asm.h: TF_HI, TF_LO");
_Static_assert(offsetof(struct trapframe, epc) == TF_EPC &&
               offsetof(struct trapframe, status) == TF_STATUS &&
               offsetof(struct trapframe, cause) == TF_CAUSE &&
               offsetof(struct trapframe, badvaddr) == TF_BADVADDR, "asm.h: the CP0 registers");
_Static_assert(sizeof(struct trapframe) <= TF_SIZE && TF_SIZE % 8 == 0, "asm.h: TF_SIZE");
_Static_assert(offsetof(struct context, ra) == CTX_RA && offsetof(struct context, sp) == CTX_SP &&
               offsetof(struct context, s[0]) == CTX_S0 && offsetof(struct context, s[8]) == CTX_FP &&
               sizeof(struct context) == CTX_SIZE, "asm.h: context offsets");

/* Where a system call's number, arguments and result live (the ISA
 * interface in arch.h): the number in v0, arguments in a0-a3 and the fifth
 * in t0 (o32 passes it on the stack; the user stub loads it), the result
 * in v0.  Inline: they are on the path of every system call. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->v0; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->v0 = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->a0; arg[1] = tf->a1; arg[2] = tf->a2; arg[3] = tf->a3; arg[4] = tf->t0;
}

/* Demand paging (kernel/port/paging.c) may leave user stack pages to be
 * mapped when first touched: every stack access here can fault. */
#define USER_STACK_FAULTS 1

/* What an instruction's address must be a multiple of, so what exec
 * demands of a program's entry point (kernel/port/exec.c, docs/
 * protection.md): every instruction is a 4-byte word on a 4-byte boundary; an eret to
 * any other address is an address error on the fetch. */
#define USER_PC_ALIGN 4

#endif
