/*
 * First instructions of the VAX kernel.  SIMH's script loads kernel.bin at
 * physical 0x1000 and starts it there: kernel mode, on the interrupt stack,
 * IPL 31, memory mapping off.  The kernel is linked at KERNBASE + 0x1000
 * (S0 space), so until mapping is on every address must be formed
 * PC-relative (`movab sym, ...`), which comes out physical here.
 *
 *  1. zero the bss (the raw image does not contain it);
 *  2. fill the system page table: S0 page i -> physical page i, for RAM;
 *  3. turn mapping on.  The next instruction is fetched at a physical
 *     (= P0) address, so for that moment P0 maps like S0: P0BR points at
 *     the system page table's own S0 address.  Then jump to S0 for good;
 *  4. point SCBB at the SCB (trapentry.S), set the stacks, leave the
 *     interrupt stack for the kernel stack with REI, and call main().
 */
#include "vax.h"
#include "machine.h"

    .set SPT_RAM, RAMSIZE / VAX_PGSIZE  /* system page table entries for RAM */
    .set PTE_KERNEL, PTE_V | (PROT_KW << 27) | PTE_M
    .set PSL_BOOT, IPL_HIGH << PSL_IPL_SHIFT   /* kernel mode, IPL 31, not IS */

    .section .text.entry
    .globl _entry
_entry:
    movab   boot_istack_top, %sp        /* physical, for now */

    movab   bss_start, %r0              /* 1. zero the bss */
    movab   bss_end, %r1                /* (the network's code follows it) */
1:  clrl    (%r0)+
    cmpl    %r0, %r1
    blssu   1b

    movab   spt, %r1                    /* 2. mmu.c: uint32 spt[] */
    clrl    %r0                         /* page frame number */
2:  bisl3   $PTE_KERNEL, %r0, (%r1)+
    aoblss  $SPT_RAM, %r0, 2b

    movab   spt, %r1                    /* 3. mapping on */
    mtpr    %r1, $PR_SBR
    mtpr    $SPT_RAM, $PR_SLR
    addl3   $KERNBASE, %r1, %r0
    mtpr    %r0, $PR_P0BR               /* P0 page i -> physical page i */
    mtpr    $SPT_RAM, $PR_P0LR
    mtpr    $1, $PR_MAPEN
    movl    $mapped, %r0            /* the absolute (S0) address */
    jmp     (%r0)

mapped:
    mtpr    $0, $PR_P0LR                /* no user space yet */
    mtpr    $0x200000, $PR_P1LR
    movab   scb, %r0                    /* 4. the SCB's physical address */
    subl2   $KERNBASE, %r0
    mtpr    %r0, $PR_SCBB
    movab   boot_istack_top, %sp        /* the interrupt stack, now in S0 */
    movab   boot_stack_top, %r0
    mtpr    %r0, $PR_KSP
    pushl   $PSL_BOOT
    pushab  3f
    rei
3:  calls   $0, main                    /* kernel/port/main.c: never returns */
    halt

    .section .bss
    .balign 16
boot_istack:                            /* only if the kernel stack fails */
    .space 1024
boot_istack_top:
boot_stack:                             /* main() and the scheduler */
    .space 4096
boot_stack_top:
