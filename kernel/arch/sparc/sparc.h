/*
 * SPARC processor state, trap types and the Reference MMU's alternate
 * address spaces (ASIs), for the SPARC kernel files only: C and assembly
 * both.  Names follow The SPARC Architecture Manual, Version 8 (SPARC
 * International, 1992), and the SRMMU's Appendix H; the ASI numbers are
 * those of Sun's sun4m machines (Linux calls them
 * ASI_M_FLUSH_PROBE and ASI_M_MMUREGS).
 */
#ifndef SPARC_H
#define SPARC_H

/* Processor state register (%psr) */
#define PSR_CWP     0x0000001f      /* current window pointer              */
#define PSR_ET      0x00000020      /* traps enabled                       */
#define PSR_PS      0x00000040      /* supervisor mode before the trap     */
#define PSR_S       0x00000080      /* supervisor mode                     */
#define PSR_PIL     0x00000f00      /* interrupt level: only > PIL get in  */
#define PSR_EF      0x00001000      /* floating point enabled              */

/* Trap types (%tbr.tt): what the trap table is indexed by. */
#define TT_INSN_FAULT    0x01       /* instruction_access_exception        */
#define TT_ILLEGAL       0x02
#define TT_PRIVILEGED    0x03
#define TT_FP_DISABLED   0x04
#define TT_WIN_OVERFLOW  0x05
#define TT_WIN_UNDERFLOW 0x06
#define TT_UNALIGNED     0x07       /* mem_address_not_aligned             */
#define TT_FP_EXCEPTION  0x08
#define TT_DATA_FAULT    0x09       /* data_access_exception               */
#define TT_TAG_OVERFLOW  0x0a
#define TT_INTR(level)   (0x10 + (level))   /* interrupt level 1..15       */
#define TT_DIV_ZERO      0x2a       /* division_by_zero (V8 udiv/sdiv)     */
#define TT_TRAP(n)       (0x80 + (n))       /* `ta n`                      */

/* Software traps, numbered as in the SPARC ABI (SunOS): */
#define ST_SYSCALL       0          /* ta 0: system call                   */
#define ST_DIV0          2          /* ta 2: integer division by zero      */

/* Alternate address spaces of the sun4m SRMMU (lda/sta) */
#define ASI_MMU_FLUSH_PROBE 0x03    /* sta: flush the TLB; lda: probe      */
#define ASI_MMU_REGS        0x04    /* the SRMMU's registers               */

/* SRMMU registers, at these addresses in ASI_MMU_REGS */
#define MMU_CTRL    0x000           /* control: bit 0 enables              */
#define MMU_CTXTBL  0x100           /* context table pointer: PA >> 4      */
#define MMU_CTX     0x200           /* current context                     */
#define MMU_FSR     0x300           /* fault status (cleared by reading)   */
#define MMU_FAR     0x400           /* fault address                       */
#define MMU_CTRL_E  0x1             /* enable (a write also clears boot    */
                                    /* mode, bit 14: prom.S)               */

/* Flush and probe addresses: a virtual page, and in bits 11:8 the type;
 * 4 = "entire": flush the whole TLB, or probe the full table walk. */
#define MMU_ENTIRE  0x400

/* SRMMU table entries: a page table descriptor points to a table, a page
 * table entry maps a page.  The low two bits (ET) say which. */
#define SRMMU_ET_PTD    1
#define SRMMU_ET_PTE    2
#define SRMMU_PTE_C     0x80        /* cacheable                           */
#define SRMMU_ACC_SHIFT 2           /* access permissions, bits 4:2        */

/* Access permission codes (ACC): user / supervisor rights */
#define ACC_R_R         0           /* read        / read                  */
#define ACC_RW_RW       1           /* read, write / read, write           */
#define ACC_RX_RX       2           /* read, exec  / read, exec            */
#define ACC_RWX_RWX     3
#define ACC_NONE_RWX    7           /* nothing     / everything: the kernel's */

/*
 * Which (ACC << 2 | ET) values of a probed entry let the kernel write, or
 * read, a user window's 64 bytes for the user: bit n set = allowed.  A page
 * the user may not write (or read) is no place for its windows either.
 */
#define USER_WRITABLE   ((1 << (ACC_RW_RW << 2 | SRMMU_ET_PTE)) | \
                         (1 << (ACC_RWX_RWX << 2 | SRMMU_ET_PTE)))
#define USER_READABLE   ((1 << (ACC_R_R << 2 | SRMMU_ET_PTE)) | USER_WRITABLE | \
                         (1 << (ACC_RX_RX << 2 | SRMMU_ET_PTE)) | \
                         (1 << (5 << 2 | SRMMU_ET_PTE)))

#ifndef __ASSEMBLER__
#include "types.h"

static inline uint32 read_psr(void)
{
    uint32 v;
    asm volatile("rd %%psr, %0" : "=r"(v));
    return v;
}

/* %psr writes take effect up to three instructions later: the nops. */
static inline void write_psr(uint32 v)
{
    asm volatile("wr %0, %%psr; nop; nop; nop" : : "r"(v) : "memory");
}

#define ASI_STR_(n) #n
#define ASI_STR(n)  ASI_STR_(n)

static inline uint32 mmu_read(uint32 reg)
{
    uint32 v;
    asm volatile("lda [%1] " ASI_STR(ASI_MMU_REGS) ", %0" : "=r"(v) : "r"(reg) : "memory");
    return v;
}

static inline void mmu_write(uint32 reg, uint32 v)
{
    asm volatile("sta %0, [%1] " ASI_STR(ASI_MMU_REGS) : : "r"(v), "r"(reg) : "memory");
}

static inline void tlb_flush_all(void)
{
    asm volatile("sta %%g0, [%0] " ASI_STR(ASI_MMU_FLUSH_PROBE) : : "r"(MMU_ENTIRE) : "memory");
}
#endif /* __ASSEMBLER__ */
#endif
