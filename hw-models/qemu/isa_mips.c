/*
 * isa_mips.c: MIPS I instructions as the model sees them (little-endian).
 *
 * Every MIPS instruction is one 32-bit word; the major opcode is its top 6
 * bits, and opcode 0 (SPECIAL) says more in its low 6 bits (funct).
 * classify() sorts branches and jumps (beq bne blez bgtz, the REGIMM
 * branches, j jal jr jalr), multiplies (mult multu) and divides (div divu)
 * into their classes.  A branch's delay slot is an instruction of its own
 * and pays its own CPI, as on the R2000.  mem_access() tells the size of
 * lb lh lw sb sh sw and their unsigned forms from the opcode; the unaligned
 * halves (lwl lwr swl swr) are left to QEMU to report.
 *
 * The markers are `slti $zero, $zero, IMM`: a write to $zero, which every
 * MIPS discards, so a guest runs the same with or without the model.
 *
 *      IMM     encoding    meaning                         arguments
 *      0x7e5   0x280007e5  timed region begin / end        a0 = id<<1 | end
 *      0x7e6   0x280007e6  read the modelled clock         (mailbox, below)
 *      0x7e7   0x280007e7  disk request                    a0 = sector, a1 = bytes,
 *                                                          a2 = 1 if write
 *
 * The clock marker's mailbox is the 16 bytes from 16 bytes after the marker,
 * little-endian, as on RISC-V (guests/lib/arch/mips/bench_arch.S).  C
 * functions take their first arguments in a0-a3 (o32).
 *
 * QEMU 10.0 lists no MIPS registers by name to plugins (the MIPS target has
 * no gdb XML description), so the argument registers are also given by
 * their gdb numbers: a0-a2 are general registers 4-6.
 *
 * A TLB miss on a load or store traps in the middle of a translated block
 * and the kernel's refill handler runs the instruction again: restarts()
 * tells the plugin which instructions those are (plugin.c, segments).
 */
#include "qemu_isa.h"

static uint32_t word(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

enum { SPECIAL = 0x00, REGIMM = 0x01, J = 0x02, JAL = 0x03, BEQ = 0x04, BGTZ = 0x07,
       BEQL = 0x14, BGTZL = 0x17, SLTI = 0x0a };

static enum insn_class classify(const uint8_t *insn, size_t len)
{
    if (len != 4)
        return CL_OTHER;
    uint32_t w = word(insn);
    unsigned op = w >> 26, funct = w & 0x3f;
    if (op == SPECIAL) {
        switch (funct) {
        case 0x08: case 0x09: return CL_BRANCH;     /* jr jalr     */
        case 0x18: case 0x19: return CL_MUL;        /* mult multu  */
        case 0x1a: case 0x1b: return CL_DIV;        /* div divu    */
        default:              return CL_OTHER;
        }
    }
    if (op == REGIMM) {
        unsigned rt = (w >> 16) & 0x1f;             /* bltz bgez, -al, -l: rt 0-3, 16-19 */
        return (rt & 0x0c) == 0 ? CL_BRANCH : CL_OTHER;     /* (the rest trap) */
    }
    if ((op >= J && op <= BGTZ) || (op >= BEQL && op <= BGTZL))
        return CL_BRANCH;                           /* j jal beq bne blez bgtz */
    return CL_OTHER;
}

static int mem_access(const uint8_t *insn, size_t len, bool *store)
{
    if (len != 4)
        return -1;
    switch (word(insn) >> 26) {
    case 0x20: case 0x24: *store = false; return 0; /* lb lbu */
    case 0x21: case 0x25: *store = false; return 1; /* lh lhu */
    case 0x23:            *store = false; return 2; /* lw     */
    case 0x28:            *store = true;  return 0; /* sb     */
    case 0x29:            *store = true;  return 1; /* sh     */
    case 0x2b:            *store = true;  return 2; /* sw     */
    default:              return -1;                /* lwl lwr swl swr, coprocessors */
    }
}

/* Every load and store: its TLB miss traps to our refill handler, which
 * returns to the instruction and runs it again (lb through swr, and the
 * coprocessor loads and stores, opcodes 0x20-0x3f). */
static bool restarts(const uint8_t *insn, size_t len)
{
    return len == 4 && (word(insn) >> 26) >= 0x20;
}

/* slti $zero, $zero, N: opcode SLTI, rs and rt $zero, immediate N. */
static enum marker marker(const uint8_t *insn, size_t len)
{
    if (len != 4 || (word(insn) & 0xffff0000) != SLTI << 26)
        return MK_NONE;
    return marker_of(word(insn) & 0xffff);
}

/* What may change where an address goes (isa.h): every coprocessor 0
 * instruction but mfc0: mtc0 (EntryHi's ASID, Status), the TLB's tlbwi,
 * tlbwr, tlbr, tlbp, and eret. */
static bool remaps(const uint8_t *insn, size_t len)
{
    return len == 4 && (word(insn) >> 26) == 0x10 && ((word(insn) >> 21) & 0x1f) != 0;
}

static const int arg_regnum[3] = { 4, 5, 6 };      /* gdb numbers of a0-a2 */

static const struct isa isa_mips = {
    .name = "mips",
    .classify = classify,
    .marker = marker,
    .mem_access = mem_access,
    .arg_reg = { "a0", "a1", "a2" },
    .arg_regnum = arg_regnum,
    .stack_reg = NULL,                  /* C arguments in a0-a3 */
    .big_endian = false,
    .restarts = restarts,
    .remaps = remaps,
};

/* This decoder for qemu-system-mipsel (the emulator of its registry entry). */
QEMU_TARGET("mipsel", isa_mips);
