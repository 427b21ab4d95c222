/*
 * traps.S: ISA-specific ways for a test program to misbehave on purpose.
 *
 * void illegal_instruction(void): execute an instruction that every
 * implementation of this ISA must refuse, so the kernel kills the caller
 * (guests/tests/t_fault.c checks that it does, and only the caller).
 */
    .text
    .globl illegal_instruction
    .type illegal_instruction, #function
illegal_instruction:
    unimp 0                 /* all zeros: "unimplemented", an illegal instruction trap */
    retl
     nop
