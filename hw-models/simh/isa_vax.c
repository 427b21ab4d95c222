/*
 * isa_vax.c: VAX instructions as the model sees them.
 *
 * classify() sorts an instruction by its opcode (one byte, or FD and a
 * second byte): branches, jumps, calls, returns, loops and case; the
 * multiplies; the divides; everything else is "other".  The two-byte (FD)
 * opcodes, G/H floating point and a few more, are all "other".  Loads and
 * stores are charged per access (isa.h): any VAX instruction may touch
 * memory, several times, and SIMH reports each access.
 *
 * SIMH finds the markers itself: XFC (opcode FC, reserved by DEC for
 * customer extensions) with the marker's number in r1 (vax_model.c).  And
 * it knows its registers and traps, so the descriptor's register fields,
 * which QEMU needs, stay empty here.
 */
#include "isa.h"

static const uint8_t branches[] = {
    0x04, 0x05, 0x10, 0x11, 0x16, 0x17, 0x30, 0x31, 0xfa, 0xfb,     /* RET RSB BSBB BRB JSB JMP BSBW BRW CALLG CALLS */
    0x3d, 0x4f, 0x6f, 0x9d, 0xf1,                                   /* ACBW ACBF ACBD ACBB ACBL */
    0x8f, 0xaf, 0xcf,                                               /* CASEB CASEW CASEL */
    0xf2, 0xf3, 0xf4, 0xf5, 0xe8, 0xe9, 0x02,                       /* AOBLSS AOBLEQ SOBGEQ SOBGTR BLBS BLBC REI */
};
static const uint8_t muls[] = { 0x84, 0x85, 0xa4, 0xa5, 0xc4, 0xc5, 0x7a,
                                0x44, 0x45, 0x64, 0x65 };           /* MULx2/3, EMUL, MULF, MULD */
static const uint8_t divs[] = { 0x86, 0x87, 0xa6, 0xa7, 0xc6, 0xc7, 0x7b,
                                0x46, 0x47, 0x66, 0x67 };           /* DIVx2/3, EDIV, DIVF, DIVD */

static bool in(uint8_t op, const uint8_t *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (set[i] == op)
            return true;
    return false;
}

static enum insn_class classify(const uint8_t *insn, size_t len)
{
    if (len < 1 || insn[0] == 0xfd)
        return CL_OTHER;
    uint8_t op = insn[0];
    if ((op >= 0x12 && op <= 0x1f) ||                               /* Bcc */
        (op >= 0xe0 && op <= 0xe7) ||                               /* BBx */
        in(op, branches, sizeof(branches)))
        return CL_BRANCH;
    if (in(op, muls, sizeof(muls)))
        return CL_MUL;
    if (in(op, divs, sizeof(divs)))
        return CL_DIV;
    return CL_OTHER;
}

const struct isa isa_vax = {
    .name = "vax",
    .classify = classify,
    .marker = NULL,                     /* XFC, r1 = the number: vax_model.c */
    .mem_access = NULL,                 /* SIMH reports every access */
    .big_endian = false,
};
