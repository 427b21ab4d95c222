/*
 * First instructions of the MIPS kernel.  QEMU's Malta (-kernel, no
 * firmware) loads the ELF file at its kseg0 addresses and runs a small boot
 * stub of its own, which jumps here with a0 = argc, a1 = argv, a2 = envp
 * (YAMON's conventions, unused) and a3 = the RAM size in bytes.
 *
 * The processor comes out of reset with Status.BEV and ERL set (exception
 * vectors in the boot ROM, error level): clear Status, which puts the
 * vectors at 0x80000000 where kernel.ld placed ours, and leaves kernel
 * mode with interrupts off.  Then a stack, and main().
 */
#include "asm.h"             /* kernel/arch/mips: CP0 register names */

    .set noreorder
    .section .text.entry, "ax"
    .globl _entry
_entry:
    mtc0  $zero, CP0_STATUS
    mtc0  $zero, CP0_CAUSE
    lui   $t0, %hi(boot_ram_size)
    sw    $a3, %lo(boot_ram_size)($t0)
    la    $sp, boot_stack_top
    jal   main
    addiu $sp, $sp, -16                  /* (delay slot) o32: main's a0-a3 home */
1:  b     1b                           /* main() never returns */
    nop

    .section .bss
    .balign 16
boot_stack:
    .space 4096
boot_stack_top:
