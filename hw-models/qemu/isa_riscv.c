/*
 * isa_riscv.c: RISC-V instructions as the model sees them.
 *
 * classify() sorts an instruction into a cost class by its major opcode
 * (the low 7 bits; RV32 base + M + A, and the C extension's jumps in case
 * compressed code ever appears).  Loads and stores are "other" here: their
 * extras are charged per access (isa.h).  mem_access() tells a load's or
 * store's size from its encoding, which spares asking QEMU at each access.
 *
 * The markers are `slti x0, x0, IMM`: writing x0 makes them no-ops (HINTs
 * in the RISC-V spec), so a guest runs the same with or without the model.
 *
 *      IMM     encoding    meaning                         arguments
 *      0x7e5   0x7e502013  timed region begin / end        a0 = id<<1 | end
 *      0x7e6   0x7e602013  read the modelled clock         (mailbox, below)
 *      0x7e7   0x7e702013  disk request                    a0 = sector (512 B),
 *                                                          a1 = bytes, a2 = 1 if write
 *
 * The clock marker's mailbox: the 16 bytes starting 16 bytes after the
 * marker (the marker is 32-byte aligned, so they are in the same page):
 * a 64-bit little-endian modelled time in ns, then a 32-bit word that the
 * plugin sets to 1.  guests/lib/arch/riscv/bench_arch.S reads it.
 *
 * For the TLB model (core/tlb.c): `csrw satp, rs` loads the page-table
 * root (other writes of satp, and sfence.vma, flush), and the walk is
 * Sv32's two levels: the entry at satp.PPN x 4096 + 4 x VPN[1], then,
 * unless that is a leaf (a 4 MB megapage: R, W or X set), the entry at its
 * PPN x 4096 + 4 x VPN[0].
 */
#include "qemu_isa.h"

static uint32_t word(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static enum insn_class classify_c(uint16_t h)
{
    unsigned quadrant = h & 3, funct3 = h >> 13;
    switch (quadrant) {
    case 1:                             /* c.jal c.j c.beqz c.bnez */
        return funct3 == 1 || funct3 == 5 || funct3 == 6 || funct3 == 7 ? CL_BRANCH : CL_OTHER;
    case 2:
        if (funct3 == 4 && ((h >> 2) & 0x1f) == 0 && ((h >> 7) & 0x1f) != 0)
            return CL_BRANCH;           /* c.jr, c.jalr */
        return CL_OTHER;
    default:
        return CL_OTHER;
    }
}

static enum insn_class classify(const uint8_t *insn, size_t len)
{
    if (len == 2)
        return classify_c(insn[0] | insn[1] << 8);
    if (len != 4)
        return CL_OTHER;
    uint32_t w = word(insn);
    switch (w & 0x7f) {
    case 0x63: case 0x67: case 0x6f:    /* BRANCH, JALR, JAL */
        return CL_BRANCH;
    case 0x33:                          /* OP: M extension has funct7 = 1 */
        if ((w >> 25) == 1)
            return ((w >> 12) & 7) < 4 ? CL_MUL : CL_DIV;
        return CL_OTHER;
    default:
        return CL_OTHER;
    }
}

static int mem_access(const uint8_t *insn, size_t len, bool *store)
{
    if (len == 2) {
        uint16_t h = insn[0] | insn[1] << 8;
        unsigned quadrant = h & 3, funct3 = h >> 13;
        if (quadrant == 1)
            return -1;
        if (funct3 == 2 || funct3 == 6) {   /* c.lw c.sw c.lwsp c.swsp */
            *store = funct3 == 6;
            return 2;
        }
        return -1;
    }
    if (len != 4)
        return -1;
    uint32_t w = word(insn);
    unsigned funct3 = (w >> 12) & 7;
    switch (w & 0x7f) {
    case 0x03:                          /* lb lh lw lbu lhu */
    case 0x23:                          /* sb sh sw */
        if ((funct3 & 3) == 3)
            return -1;
        *store = (w & 0x7f) == 0x23;
        return funct3 & 3;
    case 0x07: case 0x27:               /* flw/fsw, fld/fsd */
        if (funct3 != 2 && funct3 != 3)
            return -1;
        *store = (w & 0x7f) == 0x27;
        return funct3;
    default:
        return -1;
    }
}

/* slti x0, x0, N: opcode OP-IMM (0x13), funct3 2, rd and rs1 x0, imm N. */
static enum marker marker(const uint8_t *insn, size_t len)
{
    if (len != 4 || (word(insn) & 0xfffff) != 0x02013)
        return MK_NONE;
    return marker_of(word(insn) >> 20);
}

static enum mmu_op mmu_op(const uint8_t *insn, size_t len, const char **reg)
{
    static const char *const abi[32] = {
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3",
        "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
        "t3", "t4", "t5", "t6" };
    if (len != 4)
        return MMU_NONE;
    uint32_t w = word(insn);
    if ((w & 0x7f) != 0x73)                         /* SYSTEM */
        return MMU_NONE;
    unsigned funct3 = (w >> 12) & 7;
    if (funct3 == 0 && (w >> 25) == 0x09)           /* sfence.vma */
        return MMU_FLUSH;
    if (funct3 == 0 || (w >> 20) != 0x180)          /* not a CSR access to satp */
        return MMU_NONE;
    if (funct3 == 1) {                              /* csrrw: the root is rs1 */
        *reg = abi[(w >> 15) & 31];
        return MMU_ROOT;
    }
    return (w >> 15) & 31 || funct3 >= 5 ? MMU_FLUSH : MMU_NONE;    /* csrr reads only */
}

static int walk(uint64_t root, uint64_t va, uint32_t (*read32)(uint64_t pa),
                uint64_t pte_pa[4], unsigned *page_shift)
{
    if (!(root >> 31))
        return -1;                                  /* Bare: no translation */
    pte_pa[0] = ((root & 0x3fffff) << 12) + (((va >> 22) & 0x3ff) << 2);
    uint32_t pte = read32(pte_pa[0]);
    if (!(pte & 1))
        return 0;
    if (pte & 0xe) {                                /* a leaf: a megapage */
        *page_shift = 22;
        return 1;
    }
    pte_pa[1] = ((uint64_t)(pte >> 10) << 12) + (((va >> 12) & 0x3ff) << 2);
    *page_shift = 12;
    return 2;
}

/* What may change where an address goes (isa.h): SYSTEM-opcode instructions
 * with funct3 0 (sfence.vma, and the returns sret and mret) but ecall,
 * ebreak and wfi; and CSR instructions on satp (the page-table root) or on
 * sstatus and mstatus (SUM, MPRV: whose mapping loads and stores use). */
static bool remaps(const uint8_t *insn, size_t len)
{
    if (len != 4 || (word(insn) & 0x7f) != 0x73)
        return false;
    uint32_t w = word(insn);
    if (((w >> 12) & 7) == 0)
        return w != 0x00000073 && w != 0x00100073 && w != 0x10500073;
    unsigned csr = w >> 20;
    return csr == 0x180 || csr == 0x100 || csr == 0x300;
}

static const struct isa isa_riscv = {
    .name = "riscv",
    .classify = classify,
    .marker = marker,
    .mem_access = mem_access,
    .arg_reg = { "a0", "a1", "a2" },
    .stack_reg = NULL,                  /* C arguments in a0-a7 */
    .big_endian = false,
    .mmu_op = mmu_op,
    .walk = walk,
    .walk_levels = 2,
    .remaps = remaps,
};

/* This decoder for qemu-system-riscv32 (the emulator of its registry entry). */
QEMU_TARGET("riscv32", isa_riscv);
