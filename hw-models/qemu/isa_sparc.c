/*
 * isa_sparc.c: SPARC instructions as the model sees them.
 *
 * Every SPARC instruction is one 32-bit big-endian word; the top two bits
 * (op) say its format.  classify(): call, the conditional branches (Bicc,
 * FBfcc, CBccc), jmpl and rett are branches; V8's umul/smul multiply and
 * udiv/sdiv divide (our code is V7 and has none: it calls .umul and .div,
 * whose instructions, mostly MULScc steps and shifts, are charged like any
 * other); save and restore are "other", one cycle like an add; ldd and std
 * (and their FPU forms) are doubleword accesses (CL_DWORD), which the
 * MB86900 took a cycle longer than ld and st.  mem_access()
 * tells the size of a load or store from op3, ldd/std being one 8-byte
 * access; ldstub, swap and alternate-space accesses are left to QEMU.
 *
 * The markers are `or %g0, IMM, %g0`: writing %g0 makes them no-ops.
 *
 *      IMM     encoding    meaning                         arguments
 *      0x7e5   0x801027e5  timed region begin / end        %o0 = id<<1 | end
 *      0x7e6   0x801027e6  read the modelled clock         (mailbox)
 *      0x7e7   0x801027e7  disk request                    %o0 = sector, %o1 = bytes,
 *                                                          %o2 = 1 if write
 *
 * QEMU 10.0 lists no SPARC registers to plugins (its SPARC target has no
 * GDB register description), so the argument registers are also given by
 * their GDB numbers, as on MIPS (hwmodel.c makes the handles): %o0-%o2 are
 * 8-10.  The markers' arguments are in %o0-%o2 (leaf routines: no save
 * before them), and so are a C function's at its first instruction; once
 * its save has run they are in %i0-%i2 (24-26).  A save or restore may
 * take a window trap and run again: restarts() names them.
 *
 * The clock marker's mailbox is the 16 bytes from 16 bytes after it, as on
 * RISC-V, big-endian.
 */
#include "qemu_isa.h"

static uint32_t word(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

#define OP(w)   ((w) >> 30)
#define OP2(w)  (((w) >> 22) & 7)
#define OP3(w)  (((w) >> 19) & 0x3f)

static enum insn_class classify(const uint8_t *insn, size_t len)
{
    if (len != 4)
        return CL_OTHER;
    uint32_t w = word(insn);
    switch (OP(w)) {
    case 1:                                     /* call */
        return CL_BRANCH;
    case 0:                                     /* Bicc, FBfcc, CBccc */
        return OP2(w) == 2 || OP2(w) == 6 || OP2(w) == 7 ? CL_BRANCH : CL_OTHER;
    case 2:
        switch (OP3(w)) {
        case 0x38: case 0x39:                   /* jmpl, rett */
            return CL_BRANCH;
        case 0x0a: case 0x0b: case 0x1a: case 0x1b:     /* umul smul (cc) */
            return CL_MUL;
        case 0x0e: case 0x0f: case 0x1e: case 0x1f:     /* udiv sdiv (cc) */
            return CL_DIV;
        default:
            return CL_OTHER;
        }
    case 3:
        switch (OP3(w)) {
        case 0x03: case 0x23: case 0x07: case 0x27:    /* ldd lddf std stdf */
            return CL_DWORD;        /* the second word's bus cycle */
        default:
            return CL_OTHER;        /* other loads and stores: per access */
        }
    default:
        return CL_OTHER;
    }
}

static int mem_access(const uint8_t *insn, size_t len, bool *store)
{
    if (len != 4)
        return -1;
    uint32_t w = word(insn);
    if (OP(w) != 3)
        return -1;
    switch (OP3(w)) {
    case 0x01: case 0x09: *store = false; return 0;     /* ldub ldsb */
    case 0x02: case 0x0a: *store = false; return 1;     /* lduh ldsh */
    case 0x00: case 0x20: *store = false; return 2;     /* ld ldf */
    case 0x03: case 0x23: *store = false; return 3;     /* ldd lddf */
    case 0x05:            *store = true;  return 0;     /* stb */
    case 0x06:            *store = true;  return 1;     /* sth */
    case 0x04: case 0x24: *store = true;  return 2;     /* st stf */
    case 0x07: case 0x27: *store = true;  return 3;     /* std stdf */
    default:              return -1;        /* ldstub, swap, alternate spaces */
    }
}

/* or %g0, N, %g0: op 2, rd %g0, op3 OR, rs1 %g0, i = 1, simm13 N. */
static enum marker marker(const uint8_t *insn, size_t len)
{
    if (len != 4 || (word(insn) & ~0x1fffu) != 0x80102000u)
        return MK_NONE;
    return marker_of(word(insn) & 0x1fff);
}

/* save and restore: they trap when they meet the invalid window, and run
 * again when the window handler returns. */
static bool restarts(const uint8_t *insn, size_t len)
{
    if (len != 4)
        return false;
    uint32_t w = word(insn);
    return OP(w) == 2 && (OP3(w) == 0x3c || OP3(w) == 0x3d);
}

/* What may change where an address goes (isa.h): a store to an alternate
 * space (sta stba stha stda, ldstuba, swapa), which is how the SRMMU's
 * registers are written and its TLB flushed (ASIs 3 and 4 on the sun4m). */
static bool remaps(const uint8_t *insn, size_t len)
{
    if (len != 4 || OP(word(insn)) != 3)
        return false;
    unsigned op3 = OP3(word(insn));
    return (op3 >= 0x14 && op3 <= 0x17) || op3 == 0x1d || op3 == 0x1f;
}

static const int arg_regnum[3] = { 8, 9, 10 };     /* gdb numbers of %o0-%o2 */
static const int in_regnum[3] = { 24, 25, 26 };     /* ... and of %i0-%i2 */

/* save: the caller's %o0-%o2 become the callee's %i0-%i2. */
static bool opens_window(const uint8_t *insn, size_t len)
{
    return len == 4 && OP(word(insn)) == 2 && OP3(word(insn)) == 0x3c;
}

static const struct isa isa_sparc = {
    .name = "sparc",
    .classify = classify,
    .marker = marker,
    .mem_access = mem_access,
    .arg_reg = { "o0", "o1", "o2" },
    .arg_regnum = arg_regnum,
    .opens_window = opens_window,
    .in_regnum = in_regnum,
    .restarts = restarts,
    .stack_reg = NULL,
    .big_endian = true,
    .remaps = remaps,
};

/* This decoder for qemu-system-sparc (the emulator of its registry entry). */
QEMU_TARGET("sparc", isa_sparc);
