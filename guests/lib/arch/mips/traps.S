/*
 * traps.S: ISA-specific ways for a test program to misbehave on purpose.
 *
 * void illegal_instruction(void): execute an instruction that every
 * implementation of this ISA must refuse, so the kernel kills the caller
 * (guests/tests/t_fault.c checks that it does, and only the caller).
 */
    .set noreorder
    .text
    .globl illegal_instruction
    .type illegal_instruction, @function
illegal_instruction:
    .word 0x7c000000 | 0x3f     /* SPECIAL3 opcode 31, function 63: reserved in
                                 * MIPS I and in MIPS32 release 1 */
    jr    $ra
    nop
