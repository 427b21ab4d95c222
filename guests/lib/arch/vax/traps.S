/*
 * traps.S: ISA-specific ways for a test program to misbehave on purpose.
 *
 * void illegal_instruction(void): execute an instruction that every
 * implementation of this ISA must refuse, so the kernel kills the caller
 * (guests/tests/t_fault.c checks that it does, and only the caller).
 * On the VAX that is HALT outside kernel mode: a "reserved or privileged
 * instruction" fault on every model.
 */
    .text
    .globl illegal_instruction
    .type illegal_instruction, @function
    .balign 2
illegal_instruction:
    .word   0
    halt
    ret
