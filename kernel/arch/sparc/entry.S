/*
 * First instructions of the SPARC kernel, at physical LOADADDR (0x4000),
 * where QEMU's sun4m loads the kernel image (kernel.bin, arch.mk).  They
 * run in supervisor mode, at address 0x4000, in one of two states:
 *   - from our PROM (prom.S, how the harness boots): just out of reset,
 *     traps off, the MMU off, RAM as QEMU left it;
 *   - from OpenBIOS (the board's own firmware, when QEMU is run without
 *     -bios): traps on with OpenBIOS's trap table and PIL 15, the MMU on
 *     with OpenBIOS's page tables in context 0, which map virtual 0x4000
 *     up to physical 0x4000 up, the kernel image.
 * Nothing here depends on which: we take the machine over whole.
 *
 * The kernel is linked to run at KERNBASE (0x80000000 up: the portable
 * kernel wants everything at USERTOP and above for itself), while RAM is
 * at physical 0.  So this file, which runs at physical addresses (kernel.ld
 * links it there), installs a boot page table that maps RAM twice, where
 * it is and at KERNBASE, and the devices at DEVBASE up, turns the MMU on
 * (or keeps it on: either way the code we run from stays where it is),
 * jumps up to KERNBASE, clears the bss and calls main().  mmu_init()
 * (mmu.c) replaces the boot table with the kernel's own, which lacks the
 * first mapping.
 */
#include "machine.h"
#include "sparc.h"

/* A level-1 page table entry that maps 16 MB at physical address pa. */
#define L1_PTE(pa, flags)   (((pa) >> 4) | ((flags) << 0) | (ACC_NONE_RWX << SRMMU_ACC_SHIFT) | SRMMU_ET_PTE)

    .section .text.boot, "ax"
    .globl _entry
_entry:
    /* Supervisor, traps off, every interrupt masked, window 0; the window
     * above it (1) is the invalid one, so there is no caller to return to.
     * (This first word is also what QEMU looks at to tell an a.out file:
     * 0x81882f80 is not one.) */
    wr    %g0, PSR_S | PSR_PIL, %psr
    wr    %g0, 1 << 1, %wim
    nop; nop; nop

    /* Context 0's entry in the context table points to the boot table. */
    set   boot_l1, %g1
    srl   %g1, 4, %g1
    or    %g1, SRMMU_ET_PTD, %g1
    set   boot_ctxtbl, %g2
    st    %g1, [%g2]
    srl   %g2, 4, %g2
    set   MMU_CTXTBL, %g3
    sta   %g2, [%g3] ASI_MMU_REGS
    set   MMU_CTX, %g3
    sta   %g0, [%g3] ASI_MMU_REGS
    set   MMU_ENTIRE, %g3
    sta   %g0, [%g3] ASI_MMU_FLUSH_PROBE    /* forget OpenBIOS's translations */
    mov   MMU_CTRL_E, %g1
    sta   %g1, [%g0] ASI_MMU_REGS       /* MMU on: we still run, mapped 1:1 */

    set   virtual_start, %g1
    jmp   %g1
     nop

    /* Aligned to their size, as the SRMMU requires.  Context 0 only. */
    .section .data.boot, "aw"
    .balign 1024
boot_ctxtbl:
    .space 1024
    .balign 1024
boot_l1:                                /* 256 entries of 16 MB each */
    .set i, 0
    .rept 256
    .if i >= (RAMBASE >> 24) && i < ((RAMBASE + RAMSIZE) >> 24)
    .word L1_PTE(i << 24, SRMMU_PTE_C)                      /* RAM, as is    */
    .elseif i >= (KERNBASE >> 24) && i < (PHYSTOP >> 24)
    .word L1_PTE((i << 24) - KERNOFF, SRMMU_PTE_C)          /* RAM, KERNBASE */
    .elseif i == (DEV(APC_REGION) >> 24)
    .word L1_PTE(APC_REGION, 0)                             /* the devices   */
    .elseif i == (DEV(SLAVIO_REGION) >> 24)
    .word L1_PTE(SLAVIO_REGION, 0)
    .elseif i == (DEV(DMA_REGION) >> 24)
    .word L1_PTE(DMA_REGION, 0)
    .else
    .word 0
    .endif
    .set i, i + 1
    .endr

    .section .text
virtual_start:
    /* The bss: zero, whatever the loader or a firmware left there. */
    set   bss_start, %g1
    set   bss_end, %g2
    clr   %g4                           /* std stores a pair: %g4, %g5 */
    clr   %g5
1:  cmp   %g1, %g2
    bgeu  2f
     nop
    std   %g4, [%g1]
    ba    1b
     add  %g1, 8, %g1
2:  set   boot_stack_top - FRAME_SIZE, %sp
    mov   0, %fp                        /* the end of every backtrace */
    set   trap_table, %g1
    wr    %g1, %tbr
    /* Traps on: the kernel takes window overflow and underflow traps from
     * its own calls from now on.  Interrupts stay masked (PIL 15). */
    wr    %g0, PSR_S | PSR_PIL | PSR_ET, %psr
    nop; nop; nop
    call  main
     nop
1:  ba    1b                            /* main() never returns */
     nop

    .section .bss
    .balign 8
boot_stack:
    .space 8192
boot_stack_top:
