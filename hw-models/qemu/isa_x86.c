/*
 * isa_x86.c: i386 instructions as the model sees them.
 *
 * classify() skips the prefixes, then sorts by opcode: jumps, calls,
 * returns and loops are branches; MUL/IMUL multiply; DIV/IDIV divide.
 * Anything else, string instructions included, is "other".  (Under QEMU a
 * REP MOVSL executes once per element, so each element pays the CPI.)
 * Which instructions touch memory, and how wide, is left to QEMU to say at
 * each access: an x86 instruction may read, write, or read and write its
 * operand, and a decoder that knows which is most of an x86.
 *
 * The markers are long no-ops, `nopl IMM(%eax,%eax,1)`, 8 bytes, which
 * every x86 since the Pentium Pro executes as a no-op (and so does QEMU):
 *
 *      bytes                       meaning                     arguments
 *      0f 1f 84 00 e5 07 00 00     timed region begin / end    eax = id<<1 | end
 *      0f 1f 84 00 e6 07 00 00     read the modelled clock     (mailbox)
 *      0f 1f 84 00 e7 07 00 00     disk request                eax = sector,
 *                                                              edx = bytes, ecx = write
 *
 * The mailbox is the 16 bytes from 16 bytes after the clock marker, as on
 * RISC-V (guests/lib/arch/x86/bench_arch.S).  C functions take their
 * arguments on the stack (cdecl), above the return address.
 */
#include <string.h>

#include "isa.h"

static bool is_prefix(uint8_t b)
{
    switch (b) {
    case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:   /* segments */
    case 0x66: case 0x67:                                               /* sizes */
    case 0xf0: case 0xf2: case 0xf3:                                    /* lock, rep */
        return true;
    default:
        return false;
    }
}

static enum insn_class classify(const uint8_t *insn, size_t len)
{
    size_t i = 0;
    while (i < len && is_prefix(insn[i]))
        i++;
    if (i >= len)
        return CL_OTHER;
    uint8_t op = insn[i];
    unsigned reg = i + 1 < len ? (insn[i + 1] >> 3) & 7 : 0;   /* ModRM.reg */

    if (op >= 0x70 && op <= 0x7f)               /* jcc rel8 */
        return CL_BRANCH;
    switch (op) {
    case 0xe0: case 0xe1: case 0xe2: case 0xe3: /* loopne loope loop jecxz */
    case 0xe8: case 0xe9: case 0xea: case 0xeb: /* call jmp ljmp jmp */
    case 0xc2: case 0xc3: case 0xca: case 0xcb: /* ret lret */
    case 0xcf: case 0x9a:                       /* iret lcall */
        return CL_BRANCH;
    case 0xff:                                  /* call/jmp indirect, near and far */
        return reg >= 2 && reg <= 5 ? CL_BRANCH : CL_OTHER;
    case 0xf6: case 0xf7:                       /* group 3: mul imul div idiv */
        return reg == 4 || reg == 5 ? CL_MUL : reg >= 6 ? CL_DIV : CL_OTHER;
    case 0x69: case 0x6b:                       /* imul r, r/m, imm */
        return CL_MUL;
    case 0x0f:
        if (i + 1 >= len)
            return CL_OTHER;
        if (insn[i + 1] >= 0x80 && insn[i + 1] <= 0x8f)     /* jcc rel32 */
            return CL_BRANCH;
        if (insn[i + 1] == 0xaf)                            /* imul r, r/m */
            return CL_MUL;
        return CL_OTHER;
    default:
        return CL_OTHER;
    }
}

/* nopl N(%eax,%eax,1): 0f 1f 84 00, then N, 32 bits little-endian. */
static enum marker marker(const uint8_t *insn, size_t len)
{
    static const uint8_t head[] = { 0x0f, 0x1f, 0x84, 0x00 };
    if (len != 8 || memcmp(insn, head, 4) != 0)
        return MK_NONE;
    return marker_of(insn[4] | insn[5] << 8 | insn[6] << 16 | (uint32_t)insn[7] << 24);
}

const struct isa isa_x86 = {
    .name = "x86",
    .classify = classify,
    .marker = marker,
    .mem_access = NULL,                 /* QEMU says, at each access */
    .arg_reg = { "eax", "edx", "ecx" },
    .stack_reg = "esp",
    .big_endian = false,
};
