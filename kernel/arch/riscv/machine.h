/*
 * RISC-V (rv32, Sv32) machine definitions used by the portable kernel
 * through arch.h: the saved-register layouts, and how kernel virtual
 * addresses relate to physical ones.
 *
 * QEMU's `virt` board puts RAM at physical 0x80000000, which is also where
 * our kernel half of every address space starts, so kernel virtual = physical
 * for RAM.  The devices sit at low physical addresses that belong to user
 * space, so the kernel maps them at DEVBASE + physical address.
 */
#ifndef MACHINE_H
#define MACHINE_H

#include "types.h"
#include "asm.h"

#define KERNBASE    0x80000000u              /* RAM, kernel VA == PA          */
#define PHYSTOP     (KERNBASE + 128 * 1024 * 1024)   /* qemu -m 128M         */
#define DEVBASE     0xC0000000u              /* devices: VA = DEVBASE + PA    */
#define P2V(pa)     ((void *)(uintptr)(pa))
#define V2P(va)     ((paddr)(uintptr)(va))
#define DEV(pa)     (DEVBASE + (pa))

/* Physical addresses of the virt board's devices (QEMU hw/riscv/virt.c). */
#define UART0_PA    0x10000000u             /* 16550, interrupt 10            */
#define UART0_IRQ   10
#define PLIC_PA     0x0c000000u
#define TEST_PA     0x00100000u             /* SiFive test device: power off  */

/* What exec accepts: 32-bit little-endian RISC-V ELF files. */
#define ELF_MACHINE 243              /* EM_RISCV */
#define ELF_DATA    1                /* ELFDATA2LSB */

typedef uint32 *pagetable_t;                /* Sv32 root: 1024 PTEs           */

/* Saved user (or interrupted kernel) registers, built by trapentry.S on the
 * kernel stack, at the offsets in asm.h (checked below). */
struct trapframe {
    uint32 ra, sp, gp, tp;                  /*   0 */
    uint32 t0, t1, t2;                      /*  16 */
    uint32 s0, s1;                          /*  28 */
    uint32 a0, a1, a2, a3, a4, a5, a6, a7;  /*  36 */
    uint32 s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;   /* 68 */
    uint32 t3, t4, t5, t6;                  /* 108 */
    uint32 sepc, sstatus, scause, stval;    /* 124 */
};                                          /* 140 bytes: TF_SIZE in asm.h    */

/* Registers a kernel thread keeps across swtch(): the callee-saved ones. */
struct context {
    uint32 ra, sp;
    uint32 s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
};

/* The assembly's offsets (asm.h) are the structs' (a failure names the
 * member that moved). */
#define TF_AT(reg, off) _Static_assert(offsetof(struct trapframe, reg) == (off), \
                                       "asm.h: trapframe offset of " #reg)
#define CTX_AT(reg, off) _Static_assert(offsetof(struct context, reg) == (off), \
                                        "asm.h: context offset of " #reg)
FOR_EACH_REG(TF_AT);
TF_AT(ra, TF_RA);
TF_AT(sp, TF_SP);
TF_AT(sepc, TF_SEPC);
TF_AT(sstatus, TF_SSTATUS);
TF_AT(scause, TF_SCAUSE);
TF_AT(stval, TF_STVAL);
_Static_assert(sizeof(struct trapframe) <= TF_SIZE && TF_SIZE % 16 == 0, "asm.h: TF_SIZE");
FOR_EACH_CTX_REG(CTX_AT);
_Static_assert(sizeof(struct context) == CTX_SIZE, "asm.h: CTX_SIZE");

/* Where a system call's number, arguments and result travel (the ISA
 * interface in arch.h).  Inline: they are on the path of every system call. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->a7; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->a0 = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->a0; arg[1] = tf->a1; arg[2] = tf->a2; arg[3] = tf->a3; arg[4] = tf->a4;
}

/* Demand paging (kernel/port/paging.c) may leave user stack pages to be
 * mapped when first touched: every stack access here can fault. */
#define USER_STACK_FAULTS 1

/* What an instruction's address must be a multiple of, so what exec
 * demands of a program's entry point (kernel/port/exec.c, docs/
 * protection.md): RV32I without the C extension (arch.mk's -march): every instruction
 * is 4 bytes on a 4-byte boundary; sret to any other address would trap
 * as a misaligned fetch in the new program. */
#define USER_PC_ALIGN 4

#endif
