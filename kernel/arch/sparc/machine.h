/*
 * SPARC machine definitions used by the portable kernel through arch.h:
 * the saved-register layouts, and how kernel virtual addresses relate to
 * physical ones.  The machine is QEMU's sun4m SPARCclassic (-M
 * SPARCClassic): a TI MicroSPARC-I (SPARC V8) with the SPARC Reference
 * MMU and 7 register windows, like the Sun-4/280's MB86900, compiled as
 * SPARC V7 code (arch.mk).
 *
 * RAM is at physical 0.  The kernel half of every address space starts at
 * KERNBASE = 0x80000000 and maps RAM there (kernel VA = PA + 0x80000000).
 * The board's devices sit in three 16 MB regions of the physical address
 * space (0x6a..., 0x71..., 0x78...); the kernel sees each at the same
 * offset in 0xf0000000-0xffffffff: DEV(pa) = 0xf0000000 | (pa & 0x0fffffff).
 *
 * Parts of this file are read by the assembly files too (the trapframe
 * offsets, the window count): those parts are outside the C-only block.
 */
#ifndef MACHINE_H
#define MACHINE_H

#define RAMBASE     0x00000000                /* physical address of RAM       */
#define RAMSIZE     (128 * 1024 * 1024)       /* qemu -m 128M                  */
#define KERNBASE    0x80000000                /* RAM as the kernel sees it     */
#define KERNOFF     (KERNBASE - RAMBASE)      /* kernel VA - PA                */
#define PHYSTOP     (KERNBASE + RAMSIZE)      /* end of RAM, as a kernel VA    */
#define P2V(pa)     ((void *)((uintptr)(pa) + KERNOFF))
#define V2P(va)     ((paddr)((uintptr)(va) - KERNOFF))

/* Where QEMU's sun4m puts the kernel image (-kernel: KERNEL_LOAD_ADDR in
 * hw/sparc/sun4m.c), and where our PROM (prom.S) jumps. */
#define LOADADDR    0x00004000

/* The device regions (physical; mmu.c maps each with one 16 MB entry):
 *   0x6a000000  the APC: power management, the CPU's idle (machine.c)
 *   0x71000000  the Slave I/O chip: serial ports, counter-timers,
 *               interrupt controller, auxiliary registers (power off)
 *   0x78000000  DMA engines, SCSI, the LANCE Ethernet (nic.c, which maps
 *               the IOMMU and fw_cfg's registers too) */
#define APC_REGION      0x6a000000
#define SLAVIO_REGION   0x71000000
#define DMA_REGION      0x78000000
#define DEVBASE     0xf0000000                /* where the kernel sees them    */
#define DEV(pa)     (DEVBASE | ((pa) & 0x0fffffff))

/* Register windows.  The Sun-4/280 had 7, as the MicroSPARC-I has
 * (machine.c checks).  One is always kept invalid, so six hold live frames
 * at any time. */
#define NWINDOWS    7

/* The trapframe (struct trapframe below), by byte offset, for the assembly
 * (checked below), and struct context's, for swtch.S. */
#define TF_PSR      0
#define TF_PC       4
#define TF_NPC      8
#define TF_Y        12
#define TF_G        16                        /* %g0-%g7: 8 words              */
#define TF_O        48                        /* %o0-%o7: 8 words              */
#define TF_TT       80
#define TF_WFAULT   84
#define TF_SIZE     96
#define CTX_SP      0
#define CTX_PC      4

/* Every call frame starts with room for its window (16 words), the hidden
 * struct-return word and six argument words: 92 bytes, 96 to keep the
 * stack 8-byte aligned (the SPARC ABI's minimum frame). */
#define FRAME_SIZE  96

#ifndef __ASSEMBLER__
#include "types.h"

/* What exec accepts: 32-bit big-endian SPARC ELF files. */
#define ELF_MACHINE 2                /* EM_SPARC (not EM_SPARC32PLUS: V8+ code) */
#define ELF_DATA    2                /* ELFDATA2MSB */

typedef uint32 *pagetable_t;         /* an SRMMU level-1 table: 256 entries */

/*
 * Saved registers, built by trapentry.S at the top of the process's kernel
 * stack (or below the interrupted kernel code's stack, for a trap taken in
 * the kernel).  Only what the trap window does not keep by itself: the
 * processor state, the globals, and the interrupted code's outs (which are
 * our trap window's ins).  The interrupted code's locals and ins stay in
 * their register window, or are written to its own stack when the window
 * is needed (windows.S): that is the SPARC way, and its cost.
 */
struct trapframe {
    uint32 psr, pc, npc, y;          /*  0: state at the trap                  */
    uint32 g[8];                     /* 16: %g0 (unused) - %g7                 */
    uint32 o[8];                     /* 48: %o0-%o7: o[6] is the stack pointer */
    uint32 tt;                       /* 80: the trap type                      */
    uint32 wfault;                   /* 84: a window of ours was lost (windows.S) */
    uint32 pad[2];
};

/* What a kernel thread keeps across swtch(): where its stack and its
 * return address are.  swtch writes all of its windows to its stack first,
 * so the rest of its registers are there. */
struct context {
    uint32 sp, pc;
};

/* The assembly's offsets (above) are the structs'. */
_Static_assert(offsetof(struct trapframe, psr) == TF_PSR && offsetof(struct trapframe, pc) == TF_PC &&
               offsetof(struct trapframe, npc) == TF_NPC && offsetof(struct trapframe, y) == TF_Y,
               "TF_PSR, TF_PC, TF_NPC, TF_Y");
_Static_assert(offsetof(struct trapframe, g) == TF_G && offsetof(struct trapframe, o) == TF_O,
               "TF_G, TF_O");
_Static_assert(offsetof(struct trapframe, tt) == TF_TT &&
               offsetof(struct trapframe, wfault) == TF_WFAULT, "TF_TT, TF_WFAULT");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "TF_SIZE");
_Static_assert(offsetof(struct context, sp) == CTX_SP && offsetof(struct context, pc) == CTX_PC,
               "CTX_SP, CTX_PC");

/* System calls: `ta 0`, the number in %g1, arguments in %o0-%o4, the
 * result in %o0, as in SunOS (guests/lib/arch/sparc/syscall.S).  Inline:
 * on every system call's path. */
static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->g[1]; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->o[0] = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    arg[0] = tf->o[0]; arg[1] = tf->o[1]; arg[2] = tf->o[2]; arg[3] = tf->o[3]; arg[4] = tf->o[4];
}

#endif /* __ASSEMBLER__ */
/* Demand paging (kernel/port/paging.c) leaves the user stack mapped in
 * full here: the window traps (windows.S) write and read the user's stack
 * with traps off, where a page fault cannot be taken, so a window bound for
 * a page not mapped yet would be lost.  The heap is paged on demand. */
#define USER_STACK_FAULTS 0

/* What an instruction's address must be a multiple of, so what exec
 * demands of a program's entry point (kernel/port/exec.c, docs/
 * protection.md): every instruction is a 4-byte word on a 4-byte boundary, and a rett
 * to any other address traps while traps are still off, which is error
 * mode: the processor stops (QEMU aborts).  This is the rule that must
 * never be left to the hardware. */
#define USER_PC_ALIGN 4

#endif
