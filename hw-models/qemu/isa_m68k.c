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
 *
 * For the TLB model (core/tlb.c): `movec Rn, URP` loads the user root
 * (movec to SRP or TC, and pflush, flush), and the walk is the 68040's
 * three levels for 4 KB pages: root table entry at URP + 4 x (va >> 25),
 * pointer table entry at its address + 4 x (va >> 18 & 127), page entry at
 * that one's address + 4 x (va >> 12 & 63).  Our kernel reaches its own
 * memory through the transparent translation registers, never the ATC:
 * an address the user root does not map is untranslated (-1), no lookup.
 */
#include "qemu_isa.h"

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

static enum mmu_op mmu_op(const uint8_t *insn, size_t len, const char **reg)
{
    static const char *const regs[16] = { "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
                                          "a0", "a1", "a2", "a3", "a4", "a5", "a6", "sp" };
    if (len < 2)
        return MMU_NONE;
    uint16_t op = (uint16_t)(insn[0] << 8 | insn[1]);
    if ((op & 0xffe0) == 0xf500)                    /* pflush, pflushn, pflusha(n) */
        return MMU_FLUSH;
    if (op != 0x4e7b || len < 4)                    /* movec Rn, Rc */
        return MMU_NONE;
    uint16_t ext = (uint16_t)(insn[2] << 8 | insn[3]);
    unsigned rc = ext & 0xfff;
    if (rc == 0x806) {                              /* URP */
        *reg = regs[ext >> 12];
        return MMU_ROOT;
    }
    return rc == 0x807 || rc == 0x003 ? MMU_FLUSH : MMU_NONE;   /* SRP, TC */
}

static int walk(uint64_t root, uint64_t va, uint32_t (*read32)(uint64_t pa),
                uint64_t pte_pa[4], unsigned *page_shift)
{
    pte_pa[0] = (root & ~0x1ffull) + ((va >> 25) << 2);
    uint32_t rd = read32(pte_pa[0]);
    if (!(rd & 2))
        return -1;                                  /* not the user tables' */
    pte_pa[1] = (rd & ~0x1ffu) + (((va >> 18) & 0x7f) << 2);
    uint32_t pd = read32(pte_pa[1]);
    if (!(pd & 2))
        return 0;
    pte_pa[2] = (pd & ~0xffu) + (((va >> 12) & 0x3f) << 2);
    *page_shift = 12;
    return 3;
}

/* What may change where an address goes (isa.h): movec to a control
 * register (URP and SRP, the page-table roots, TC, the translation
 * control), and the MMU instructions: the 68040's pflush and ptest
 * (f5xx), the 68030's pmove and pflush (f0xx). */
static bool remaps(const uint8_t *insn, size_t len)
{
    if (len < 2)
        return false;
    uint16_t op = (uint16_t)(insn[0] << 8 | insn[1]);
    return op == 0x4e7b || (op & 0xff00) == 0xf500 || (op & 0xff00) == 0xf000;
}

static const struct isa isa_m68k = {
    .name = "m68k",
    .classify = classify,
    .marker = marker,
    .mem_access = NULL,                 /* QEMU says, at each access */
    .arg_reg = { "d0", "d1", "d2" },
    .stack_reg = "sp",
    .big_endian = true,
    .mmu_op = mmu_op,
    .walk = walk,
    .walk_levels = 3,
    .remaps = remaps,
    .shared_addresses = true,           /* a separate user space: isa.h */
};

/* This decoder for qemu-system-m68k (the emulator of its registry entry). */
QEMU_TARGET("m68k", isa_m68k);
