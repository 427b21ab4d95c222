/*
 * First instructions of the SPARC kernel.  QEMU's leon3_generic has no
 * PROM of ours: a stub QEMU writes enables the UART, starts timer 0 and
 * jumps to the ELF entry point, _entry, at its physical address, in
 * supervisor mode with the MMU off and traps disabled.
 *
 * The kernel is linked to run at KERNBASE (0x80000000 up: the portable
 * kernel wants everything at USERTOP and above for itself), while RAM is
 * at physical 0x40000000.  So this file, which runs at physical addresses
 * (kernel.ld links it there), turns the MMU on with a boot page table that
 * maps RAM twice, where it is and at KERNBASE, jumps up to KERNBASE, and
 * calls main().  mmu_init() (mmu.c) replaces the boot table with the
 * kernel's own, which lacks the first mapping.
 */
#include "machine.h"
#include "sparc.h"

/* A level-1 page table entry that maps 16 MB at physical address pa. */
#define L1_PTE(pa, flags)   (((pa) >> 4) | ((flags) << 0) | (ACC_NONE_RWX << SRMMU_ACC_SHIFT) | SRMMU_ET_PTE)

    .section .text.boot, "ax"
    .globl _entry
_entry:
    /* Supervisor, traps off, every interrupt masked, window 0; the window
     * above it (1) is the invalid one, so there is no caller to return to. */
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
    .elseif i == (DEVBASE >> 24)
    .word L1_PTE(IOBASE, 0)                                 /* the devices   */
    .else
    .word 0
    .endif
    .set i, i + 1
    .endr

    .section .text
virtual_start:
    set   boot_stack_top - FRAME_SIZE, %sp
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
