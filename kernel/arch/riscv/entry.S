/*
 * First instructions of the RISC-V kernel.  QEMU (`-bios none -kernel`)
 * jumps to 0x80000000 in machine mode with a0 = hart id, a1 = device tree.
 * Give ourselves a stack and call start() (kernel/arch/riscv/start.c), which
 * sets up machine mode and drops to supervisor mode for the kernel proper.
 */
    .section .text.entry
    .globl _entry
_entry:
    la   sp, boot_stack_top
    call start
1:  wfi                          /* start() never returns */
    j    1b

    .section .bss
    .balign 16
boot_stack:
    .space 4096
boot_stack_top:
