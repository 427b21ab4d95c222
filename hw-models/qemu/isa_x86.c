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
 *
 * For the TLB model (core/tlb.c): `mov %reg, %cr3` loads the page-table
 * root; invlpg and writes of cr0 and cr4 (paging, page sizes) flush.  The
 * walk is the i386's two levels: the page directory entry at cr3 + 4 x
 * (va >> 22), then, unless it maps a 4 MB page (PS, with CR4.PSE, which
 * our kernel sets), the page table entry at its frame + 4 x (va >> 12 &
 * 1023).  And for Chen et al.'s counter, the instructions that load a
 * segment register.
 */
#include <string.h>

#include "qemu_isa.h"

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

static size_t skip_prefixes(const uint8_t *insn, size_t len)
{
    size_t i = 0;
    while (i < len && is_prefix(insn[i]))
        i++;
    return i;
}

static enum mmu_op mmu_op(const uint8_t *insn, size_t len, const char **reg)
{
    static const char *const gpr[8] = { "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi" };
    size_t i = skip_prefixes(insn, len);
    if (i + 2 >= len || insn[i] != 0x0f)
        return MMU_NONE;
    uint8_t op = insn[i + 1], modrm = insn[i + 2];
    unsigned mod = modrm >> 6, r = (modrm >> 3) & 7, rm = modrm & 7;
    if (op == 0x22 && r == 3) {                     /* mov %reg, %cr3 */
        *reg = gpr[rm];
        return MMU_ROOT;
    }
    if (op == 0x22 && (r == 0 || r == 4))           /* mov %reg, %cr0 / %cr4 */
        return MMU_FLUSH;
    if (op == 0x01 && r == 7 && mod != 3)           /* invlpg m */
        return MMU_FLUSH;
    return MMU_NONE;
}

static int walk(uint64_t root, uint64_t va, uint32_t (*read32)(uint64_t pa),
                uint64_t pte_pa[4], unsigned *page_shift)
{
    pte_pa[0] = (root & ~0xfffull) + ((va >> 22) << 2);
    uint32_t pde = read32(pte_pa[0]);
    if (!(pde & 1))
        return 0;                                   /* not present: cannot tell */
    if (pde & 0x80) {                               /* PS: a 4 MB page */
        *page_shift = 22;
        return 1;
    }
    pte_pa[1] = (pde & ~0xfffu) + (((va >> 12) & 0x3ff) << 2);
    *page_shift = 12;
    return 2;
}

static bool loads_segment(const uint8_t *insn, size_t len)
{
    size_t i = skip_prefixes(insn, len);
    if (i >= len)
        return false;
    uint8_t op = insn[i];
    unsigned mod = i + 1 < len ? insn[i + 1] >> 6 : 3, r = i + 1 < len ? (insn[i + 1] >> 3) & 7 : 0;
    switch (op) {
    case 0x8e:                                      /* mov r/m16, %sreg */
    case 0x07: case 0x17: case 0x1f:                /* pop %es, %ss, %ds */
    case 0xc4: case 0xc5:                           /* les, lds */
    case 0xea: case 0x9a:                           /* ljmp, lcall ptr16:32 */
    case 0xca: case 0xcb: case 0xcf:                /* lret, iret */
        return true;
    case 0xff:                                      /* lcall, ljmp m16:32 */
        return (r == 3 || r == 5) && mod != 3;
    case 0x0f:
        if (i + 1 >= len)
            return false;
        switch (insn[i + 1]) {
        case 0xa1: case 0xa9:                       /* pop %fs, %gs */
        case 0xb2: case 0xb4: case 0xb5:            /* lss, lfs, lgs */
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* What may change where an address goes (isa.h): moves to control
 * registers (0f 22: cr0 turns paging on, cr3 is the page directory, cr4
 * page sizes), invlpg and lmsw (0f 01 /7, /6), wrmsr (0f 30); and, though
 * our kernel makes no task switch (its IDT has interrupt gates only), what
 * could switch tasks and so load cr3: iret, far jumps and calls. */
static bool remaps(const uint8_t *insn, size_t len)
{
    size_t i = skip_prefixes(insn, len);
    if (i >= len)
        return false;
    uint8_t op = insn[i];
    unsigned reg = i + 1 < len ? (insn[i + 1] >> 3) & 7 : 0;   /* ModRM.reg */
    switch (op) {
    case 0xcf: case 0xea: case 0x9a:            /* iret ljmp lcall */
        return true;
    case 0xff:                                  /* lcall, ljmp indirect */
        return reg == 3 || reg == 5;
    case 0x0f:
        if (i + 1 >= len)
            return false;
        if (insn[i + 1] == 0x22 || insn[i + 1] == 0x30)
            return true;
        return insn[i + 1] == 0x01 && i + 2 < len &&
               ((insn[i + 2] >> 3) & 7) >= 6;
    default:
        return false;
    }
}

static const struct isa isa_x86 = {
    .name = "x86",
    .classify = classify,
    .marker = marker,
    .mem_access = NULL,                 /* QEMU says, at each access */
    .arg_reg = { "eax", "edx", "ecx" },
    .stack_reg = "esp",
    .big_endian = false,
    .mmu_op = mmu_op,
    .walk = walk,
    .walk_levels = 2,
    .loads_segment = loads_segment,
    .remaps = remaps,
};

/* This decoder for qemu-system-i386 (the emulator of its registry entry). */
QEMU_TARGET("i386", isa_x86);
