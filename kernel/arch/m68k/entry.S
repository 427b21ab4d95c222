/*
 * First instructions of the m68k kernel.  QEMU's virt board jumps here in
 * supervisor mode with the MMU off and interrupts masked, but with A7 = 0:
 * give ourselves a stack, then call main().
 */
    .section .text.entry
    .globl _entry
_entry:
    move.w  #0x2700, %sr            /* supervisor, all interrupts masked */
    lea     boot_stack_top, %sp
    jsr     main
1:  stop    #0x2700
    bra     1b

    .section .bss
    .balign 16
boot_stack:
    .space 8192
boot_stack_top:
