/*
 * VAX processor registers, PSL bits, page-table entries and the KA655
 * (MicroVAX 3900) devices we use, for the VAX kernel files only.  Names
 * follow the VAX Architecture Reference Manual and the KA655 manual.
 *
 * Processor registers (IPRs) are reached only with the privileged MTPR and
 * MFPR instructions; mtpr()/mfpr() wrap them.
 */
#ifndef VAX_H
#define VAX_H

/* Internal processor register numbers. */
#define PR_KSP     0x00         /* kernel stack pointer (when not current)  */
#define PR_USP     0x03         /* user stack pointer                       */
#define PR_ISP     0x04         /* interrupt stack pointer                  */
#define PR_P0BR    0x08         /* P0 (program region) base and length      */
#define PR_P0LR    0x09
#define PR_P1BR    0x0a         /* P1 (control/stack region)                */
#define PR_P1LR    0x0b
#define PR_SBR     0x0c         /* system page table: physical base, length */
#define PR_SLR     0x0d
#define PR_SCBB    0x11         /* system control block base (physical)     */
#define PR_IPL     0x12         /* interrupt priority level                 */
#define PR_RXCS    0x20         /* console receive status / data            */
#define PR_RXDB    0x21
#define PR_TXCS    0x22         /* console transmit status / data           */
#define PR_TXDB    0x23
#define PR_MAPEN   0x38         /* memory management on                     */
#define PR_TBIA    0x39         /* translation buffer: invalidate all       */
#define PR_TBIS    0x3a         /* ... invalidate one address               */

#ifndef __ASSEMBLER__
#define mtpr(val, reg) \
    asm volatile("mtpr %0, %1" :: "g"((uint32)(val)), "i"(reg) : "memory")
#define mfpr(reg) \
    ({ uint32 v_; asm volatile("mfpr %1, %0" : "=g"(v_) : "i"(reg)); v_; })
#endif

/* Interrupt priority levels.  The kernel runs at IPL_HIGH ("interrupts
 * off"); user mode and the idle loop run at 0. */
#define IPL_HIGH   0x1f

/* Processor status longword. */
#define PSL_IPL_SHIFT  16
#define PSL_PRV_SHIFT  22       /* previous mode                            */
#define PSL_CUR_SHIFT  24       /* current mode: 0 kernel ... 3 user        */
#define PSL_MODE_USER  3
#define PSL_CUR_MASK   (3u << PSL_CUR_SHIFT)
#define PSL_IS         (1u << 26)   /* running on the interrupt stack       */
#define PSL_FPD        (1u << 27)   /* first part done (an interrupted MOVC3) */
#define PSL_USER  ((PSL_MODE_USER << PSL_CUR_SHIFT) | (PSL_MODE_USER << PSL_PRV_SHIFT))

/* System control block vectors: byte offsets into the SCB. */
#define SCB_MCHK      0x04      /* machine check                           */
#define SCB_KSNV      0x08      /* kernel stack not valid                  */
#define SCB_PRIVINST  0x10      /* reserved or privileged instruction      */
#define SCB_XFC       0x14      /* customer reserved instruction (XFC)     */
#define SCB_RESOP     0x18      /* reserved operand                        */
#define SCB_RESAD     0x1c      /* reserved addressing mode                */
#define SCB_ACV       0x20      /* access control violation (2 params)     */
#define SCB_TNV       0x24      /* translation not valid (2 params)        */
#define SCB_TRACE     0x28
#define SCB_BPT       0x2c      /* breakpoint instruction                  */
#define SCB_ARITH     0x34      /* arithmetic trap (1 param)               */
#define SCB_CHMK      0x40      /* change mode to kernel (1 param: code)   */
#define SCB_TIMER0    0x78      /* KA655 SSC timers: vectors we choose     */
#define SCB_TIMER1    0x7c
#define SCB_CONS_RX   0xf8      /* console receiver                        */
#define SCB_CONS_TX   0xfc
#define SCB_VECTORS   128       /* one page: architectural + KA655 vectors */

/* Memory-management fault parameter (first word pushed on ACV/TNV). */
#define MMF_LENGTH    1         /* beyond the region's length register     */
#define MMF_PTE       2         /* the fault was on the page-table entry   */
#define MMF_WRITE     4         /* the access was a write (or modify)      */

/* Page-table entries: the hardware page is 512 bytes. */
#define VAX_PGSHIFT   9
#define VAX_PGSIZE    512
#define PTE_V         0x80000000        /* valid                          */
#define PTE_PROT(p)   ((uint32)(p) << 27)
#define PTE_M         0x04000000        /* modified                       */
#define PTE_PFN       0x001fffff        /* page frame number              */
#define PROT_KW       2         /* kernel read/write, others nothing       */
#define PROT_UW       4         /* every mode read/write                   */
#define PROT_UR       15        /* every mode read, nobody writes          */

/* Console receive/transmit status bits (RXCS, TXCS). */
#define CS_READY      0x80      /* RXCS: a character waits; TXCS: ready    */
#define CS_IE         0x40      /* interrupt when ready                    */

/* The S0 page after RAM holds device registers, one hardware page each:
 *   DEV_VA + 0       the SSC's timers (mmu.c)
 *   DEV_VA + 512 ... the DELQA, the CQBIC, its IPC register (nic.c)
 * (mmu.c puts the page-table windows after it.) */
#define DEV_VA        PHYSTOP

/* KA655 system support chip (SSC) interval timers, physical addresses.
 * A timer counts TIR up; on overflow past 0xffffffff it sets DONE,
 * interrupts through TIVR if IE, and reloads TIR from TNIR. */
#define SSC_PA        0x20140000        /* the SSC register page          */
#define SSC_TCR(n)    (0x100 + 0x10 * (n))   /* control/status             */
#define SSC_TIR(n)    (0x104 + 0x10 * (n))   /* interval count             */
#define SSC_TNIR(n)   (0x108 + 0x10 * (n))   /* next interval              */
#define SSC_TIVR(n)   (0x10c + 0x10 * (n))   /* interrupt vector           */
#define TCR_ERR       0x80000000       /* overflow while DONE: missed one */
#define TCR_DONE      0x80      /* overflowed (write 1 to clear)           */
#define TCR_IE        0x40      /* interrupt on overflow                   */
#define TCR_SGL       0x20
#define TCR_XFR       0x10      /* load TIR from TNIR                      */
#define TCR_STP       0x04      /* stop after overflow                     */
#define TCR_RUN       0x01

#endif
