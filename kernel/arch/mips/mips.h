/*
 * MIPS coprocessor 0 (the system control coprocessor): register numbers,
 * bits, and accessors as small inline functions, for the MIPS kernel files
 * only.  Names follow the MIPS32 architecture manual, vol. III.
 *
 * The code is MIPS I (-march=r3000), but QEMU has no R2000 or R3000: the
 * processor is a MIPS32 24Kc (16 TLB entries, no FPU, like the 4Kc, plus
 * release 2's Cause.DC, which timer.c needs), so the privileged parts are
 * MIPS32's: exceptions set Status.EXL and return with `eret` (the R3000's
 * KU/IE stack and `rfe` do not exist on it), the TLB holds pairs of pages,
 * and there is a Count/Compare timer.  `.set mips32` lets the assembler accept eret,
 * wait and the `sel` field in an otherwise MIPS I file.
 */
#ifndef MIPS_H
#define MIPS_H

#include "types.h"

/* CP0 register numbers (select 0). */
#define C0_INDEX     0
#define C0_RANDOM    1
#define C0_ENTRYLO0  2
#define C0_ENTRYLO1  3
#define C0_CONTEXT   4
#define C0_PAGEMASK  5
#define C0_WIRED     6
#define C0_BADVADDR  8
#define C0_COUNT     9
#define C0_ENTRYHI  10
#define C0_COMPARE  11
#define C0_STATUS   12
#define C0_CAUSE    13
#define C0_EPC      14

/* Status */
#define SR_IE        (1u << 0)      /* interrupts enabled                   */
#define SR_EXL       (1u << 1)      /* exception level: kernel mode, no ints */
#define SR_ERL       (1u << 2)      /* error level (set at reset)           */
#define SR_UM        (1u << 4)      /* user mode (KSU = 10) when EXL is 0   */
#define SR_IM(n)     (1u << (8 + (n)))   /* interrupt n let through         */
#define SR_BEV       (1u << 22)     /* boot exception vectors (in ROM)      */

/* Cause */
#define CAUSE_EXC(c) (((c) >> 2) & 0x1f)
#define CAUSE_IP(n)  (1u << (8 + (n)))   /* interrupt n pending             */
#define CAUSE_BD     (1u << 31)     /* the exception hit a branch delay slot */

/* Exception codes (Cause.ExcCode) */
#define EXC_INT      0              /* interrupt                            */
#define EXC_MOD      1              /* store to a page whose D bit is 0     */
#define EXC_TLBL     2              /* TLB miss or invalid: load or fetch   */
#define EXC_TLBS     3              /* ... store                            */
#define EXC_ADEL     4              /* address error: load or fetch         */
#define EXC_ADES     5              /* ... store                            */
#define EXC_IBE      6              /* bus error: fetch                     */
#define EXC_DBE      7              /* ... data                             */
#define EXC_SYS      8              /* syscall                              */
#define EXC_BP       9              /* break                                */
#define EXC_RI      10              /* reserved instruction                 */
#define EXC_CPU     11              /* coprocessor unusable                 */
#define EXC_OV      12              /* arithmetic overflow                  */
#define EXC_TR      13              /* trap instruction                     */

/* Interrupt lines on QEMU's Malta board with a 24Kc */
#define IRQ_I8259    2              /* the PIIX4's 8259 pair (the UART)     */
#define IRQ_TIMER    7              /* Count == Compare                     */

/* TLB entries (EntryLo0/1): PFN << 6 | cache attribute | D | V | G.  Our
 * page-table entries have exactly this format, so the refill handler
 * copies them into the TLB untouched. */
#define PTE_G        (1u << 0)      /* global: ignore the ASID              */
#define PTE_V        (1u << 1)      /* valid                                */
#define PTE_D        (1u << 2)      /* "dirty": writes allowed              */
#define PTE_CACHED   (3u << 3)      /* cacheable                            */
#define PTE_PFN_SHIFT 6
#define PTE_PA(pte)  ((paddr)((pte) >> PTE_PFN_SHIFT) << 12)
#define PA_PTE(pa)   ((uint32)((pa) >> 12) << PTE_PFN_SHIFT)

#define ASID_MASK    0xffu          /* EntryHi: 8-bit address-space id      */
#define NTLB         16             /* the 24Kc's TLB: 16 pairs of pages    */

/* A CP0 read has a delay slot on the R3000, like a load: the nop fills it
 * (the compiler does not know the inline asm needs one).  A write, and a
 * TLB instruction after it, are followed by a nop for the same reason. */
#define mfc0(reg) ({ uint32 v_; asm volatile("mfc0 %0, $%1; nop" : "=r"(v_) : "i"(reg)); v_; })
#define mtc0(reg, v) asm volatile("mtc0 %0, $%1; nop" :: "r"((uint32)(v)), "i"(reg) : "memory")

static inline void tlb_probe(void)       { asm volatile("nop; tlbp; nop" ::: "memory"); }
static inline void tlb_write_index(void) { asm volatile("nop; tlbwi; nop" ::: "memory"); }

#endif
