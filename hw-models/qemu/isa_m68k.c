/*
 * isa_m68k.c: 68020/68040 instructions as the model sees them.
 *
 * classify() looks at the first 16-bit word: Bcc/BRA/BSR, DBcc, JMP, JSR
 * and the returns are branches; MULU/MULS (word and long) multiply;
 * DIVU/DIVS (word and long) divide; everything else is "other".  Memory
 * accesses are left to QEMU to report (a 68k instruction may make several:
 * MOVEM moves up to sixteen registers), each paying the load or store extra.
 *
 * The markers are `trapf.l #IMM`, "trap never" with a 32-bit operand
 * (6 bytes: 51fb, then IMM).  It does nothing, not even to the condition
 * codes, on any 68020 or later:
 *
 *      bytes               meaning                     arguments
 *      51fb 0000 07e5      timed region begin / end    d0 = id<<1 | end
 *      51fb 0000 07e6      read the modelled clock     (mailbox)
 *      51fb 0000 07e7      disk request                d0 = sector, d1 = bytes,
 *                                                      d2 = write
 *
 * The mailbox is the 16 bytes from 16 bytes after the clock marker, as on
 * RISC-V, big-endian (guests/lib/arch/m68k/bench_arch.S).  C functions take
 * their arguments on the stack, above the return address.
 */
#include "isa.h"

static enum insn_class classify(const uint8_t *insn, size_t len)
{
    if (len < 2)
        return CL_OTHER;
    uint16_t op = (uint16_t)(insn[0] << 8 | insn[1]);

    if ((op & 0xf000) == 0x6000)                /* Bcc BRA BSR */
        return CL_BRANCH;
    if ((op & 0xf0f8) == 0x50c8)                /* DBcc */
        return CL_BRANCH;
    if ((op & 0xff80) == 0x4e80)                /* JSR JMP (0x4e80, 0x4ec0) */
        return CL_BRANCH;
    switch (op) {
    case 0x4e73: case 0x4e74: case 0x4e75: case 0x4e77:    /* RTE RTD RTS RTR */
        return CL_BRANCH;
    }
    if ((op & 0xf1c0) == 0xc0c0 || (op & 0xf1c0) == 0xc1c0 ||  /* MULU.W MULS.W */
        (op & 0xffc0) == 0x4c00)                                /* MULx.L */
        return CL_MUL;
    if ((op & 0xf1c0) == 0x80c0 || (op & 0xf1c0) == 0x81c0 ||  /* DIVU.W DIVS.W */
        (op & 0xffc0) == 0x4c40)                                /* DIVx.L */
        return CL_DIV;
    return CL_OTHER;
}

/* trapf.l #N: 51fb, then N, 32 bits big-endian. */
static enum marker marker(const uint8_t *insn, size_t len)
{
    if (len != 6 || insn[0] != 0x51 || insn[1] != 0xfb)
        return MK_NONE;
    return marker_of((uint32_t)insn[2] << 24 | insn[3] << 16 | insn[4] << 8 | insn[5]);
}

const struct isa isa_m68k = {
    .name = "m68k",
    .classify = classify,
    .marker = marker,
    .mem_access = NULL,                 /* QEMU says, at each access */
    .arg_reg = { "d0", "d1", "d2" },
    .stack_reg = "sp",
    .big_endian = true,
};
