/*
 * isa_sparc.c: SPARC instructions as the model sees them.
 *
 * Every SPARC instruction is one 32-bit big-endian word; the top two bits
 * (op) say its format.  classify(): call, the conditional branches (Bicc,
 * FBfcc, CBccc), jmpl and rett are branches; V8's umul/smul multiply and
 * udiv/sdiv divide (our code is V7 and has none: it calls .umul and .div,
 * whose instructions, mostly MULScc steps and shifts, are charged like any
 * other); save and restore are "other", one cycle like an add.  mem_access()
 * tells the size of a load or store from op3, ldd/std being one 8-byte
 * access; ldstub, swap and alternate-space accesses are left to QEMU.
 *
 * The markers are `or %g0, IMM, %g0`: writing %g0 makes them no-ops.
 *
 *      IMM     encoding    meaning                         arguments
 *      0x7e5   0x801027e5  timed region begin / end        [%sp+68] = id<<1 | end
 *      0x7e6   0x801027e6  read the modelled clock         (mailbox)
 *      0x7e7   0x801027e7  disk request                    [%sp+68] = sector,
 *                                                          [%sp+72] = bytes,
 *                                                          [%sp+76] = 1 if write
 *
 * QEMU 10.0 gives plugins no SPARC registers (the SPARC target has no GDB
 * register description, which the plugin register API is built on), so a
 * marker's arguments travel in memory: the guest stores argument i into
 * the SPARC ABI's argument slot [%sp + 68 + 4i] just before the marker.
 * arg_store() recognises those stores, `st %rN, [%sp + 68 + 4i]`, and the
 * plugin keeps the values they store (hwmodel.c).  GCC never stores into
 * these slots of the current frame (they belong to the callee), so the
 * only such stores are the markers' (kernel/arch/sparc/hwmarker.h,
 * guests/lib/arch/sparc/bench_arch.S).
 *
 * The clock marker's mailbox is the 16 bytes from 16 bytes after it, as on
 * RISC-V, big-endian.
 */
#include "model.h"

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
    default:
        return CL_OTHER;                        /* loads and stores: per access */
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

static enum marker marker(const uint8_t *insn, size_t len)
{
    if (len != 4)
        return MK_NONE;
    switch (word(insn)) {
    case 0x801027e5: return MK_REGION;
    case 0x801027e6: return MK_CLOCK;
    case 0x801027e7: return MK_DISK;
    default:         return MK_NONE;
    }
}

/* `st %rN, [%sp + 68 + 4i]` -> i; else -1.  (op 3, op3 4, rs1 = %o6 = 14,
 * immediate form; rd is whatever register the compiler chose.) */
static int arg_store(const uint8_t *insn, size_t len)
{
    if (len != 4)
        return -1;
    uint32_t w = word(insn) & ~(0x1fu << 25);
    for (int i = 0; i < 3; i++)
        if (w == (3u << 30 | 0x04u << 19 | 14u << 14 | 1u << 13 | (uint32_t)(68 + 4 * i)))
            return i;
    return -1;
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

const struct isa isa_sparc = {
    .name = "sparc",
    .classify = classify,
    .marker = marker,
    .mem_access = mem_access,
    .arg_store = arg_store,             /* no registers: arguments by store */
    .restarts = restarts,
    .stack_reg = NULL,
    .big_endian = true,
};
