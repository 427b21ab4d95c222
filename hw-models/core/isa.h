/*
 * isa.h: what the model needs to know about one instruction set.
 *
 * Each ISA has one descriptor, `const struct isa isa_<name>`, in its own
 * decoder file: hw-models/qemu/isa_<name>.c for the ISAs QEMU runs, which
 * also names the QEMU target it decodes (qemu/qemu_isa.h), and in the SIMH
 * front end for the ISA SIMH runs (hw-models/simh/).  A new ISA is one such
 * file: nothing here or in the front ends lists the ISAs.
 *
 * The decoders work on an instruction's bytes, as the emulator found them in
 * guest memory, and answer at translation time (QEMU) or once per opcode
 * (SIMH), never per execution.
 */
#ifndef HWMODEL_ISA_H
#define HWMODEL_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Cost classes.  classify() gives an instruction's class: branch, multiply,
 * divide, doubleword memory access or other.  Loads and stores are not instruction classes but data
 * accesses: their extras are charged per access, when the access happens,
 * so an instruction that touches memory twice (an x86 add to memory, a 68k
 * movem, a RISC-V atomic, a VAX CALLS) pays twice, and one that faults
 * before its access pays nothing for it.
 */
enum insn_class {
    CL_OTHER, CL_LOAD, CL_STORE, CL_BRANCH, CL_MUL, CL_DIV,
    /* A doubleword load or store (SPARC ldd, std): one access, but its
     * second word takes the bus one more cycle (the MB86900's ldd is 3
     * cycles to ld's 2, std 4 to st's 3), charged as the class's extra on
     * top of the access's own load or store extra. */
    CL_DWORD,
    NCLASS
};

/*
 * Markers: instructions that do nothing, which the model recognises
 * (hw-models/README.md, "Markers").  Every ISA carries the same numbers,
 * each in its own harmless instruction (an immediate, or on the VAX r1).
 */
#define MARK_REGION 0x7e5               /* a timed region begins or ends   */
#define MARK_CLOCK  0x7e6               /* read the modelled clock         */
#define MARK_DISK   0x7e7               /* a disk request                  */
#define MARK_INSNS  0x7e8               /* read the instruction count (VAX) */

enum marker {
    MK_NONE,
    MK_REGION,                          /* bench_region_begin/end     */
    MK_CLOCK,                           /* bench_now_ns: fill mailbox */
    MK_DISK,                            /* a disk request             */
};

/* A marker's number -> what it is (MK_NONE for any other number). */
static inline enum marker marker_of(uint32_t number)
{
    switch (number) {
    case MARK_REGION: return MK_REGION;
    case MARK_CLOCK:  return MK_CLOCK;
    case MARK_DISK:   return MK_DISK;
    default:          return MK_NONE;
    }
}

enum mmu_op { MMU_NONE, MMU_FLUSH, MMU_ROOT };

struct isa {
    const char *name;                   /* as in HWMODEL isa=... */
    enum insn_class (*classify)(const uint8_t *insn, size_t len);
    /* Which marker this instruction is, if any.  NULL: the emulator
     * recognises the markers itself (SIMH's XFC handler). */
    enum marker (*marker)(const uint8_t *insn, size_t len);
    /* log2 of the bytes a load or store moves, and which it is; -1 if the
     * decoder does not say.  NULL, or -1: QEMU is asked at each access. */
    int (*mem_access)(const uint8_t *insn, size_t len, bool *store);
    const char *arg_reg[3];             /* registers holding marker arguments */
    /* Their gdb register numbers, for a QEMU target that lists no register
     * names to plugins (MIPS and SPARC in QEMU 10.0); NULL: found by name. */
    const int *arg_regnum;
    /* Where a C function finds its arguments at its first instruction:
     * NULL: in arg_reg (a register ABI); else on the stack, the first one
     * 4 bytes above this stack pointer (past the return address). */
    const char *stack_reg;
    bool big_endian;                    /* byte order of the mailbox and the stack */
    /* SPARC: the instruction that opens a function's register window (save),
     * after which its arguments are in in_regnum's registers (%i0-%i2), not
     * in arg_reg.  A save may trap and run again (window overflow), so a
     * callback at a function's entry goes on the instruction after it. */
    bool (*opens_window)(const uint8_t *insn, size_t len);
    const int *in_regnum;
    /* The 68040: the kernel and user programs each have an address space of
     * their own over the same virtual addresses (a program's code from
     * 0x1000 up, the kernel's too).  The kernel runs where it was loaded,
     * virtual = physical, so an instruction is the kernel's only if its
     * physical address is its virtual one: the hooks at kernel addresses
     * (the trap vector, disk_request, the write log's, the wire's) take no
     * other.  (Without it a program's instruction at console_intr's
     * address counted as a console character taken: m68k's SUITE=net.) */
    bool shared_addresses;
    /* Instructions that routinely trap and are run again when the kernel
     * returns (MIPS: loads and stores, on a TLB miss; SPARC: save and
     * restore, on a register window overflow or underflow); NULL: none. */
    bool (*restarts)(const uint8_t *insn, size_t len);
    /* The MMU, for the TLB model (core/tlb.c; only with a [tlb] profile).
     * mmu_op: whether this instruction loads the page-table root (MMU_ROOT:
     * x86 mov to cr3, RISC-V csrw satp; its new value is in the register
     * *reg names) or drops TLB entries (MMU_FLUSH: invlpg, sfence.vma,
     * pflush, a context switch whose new root the model cannot read).
     * NULL: the model never flushes.
     * walk: the physical addresses of the page-table entries a hardware
     * walk for va reads, in order, given the root and a reader of guest
     * physical memory; their number (0: cannot tell), and in *page_shift
     * the size of the page they map.  NULL: walk_levels references at
     * unknown addresses. */
    enum mmu_op (*mmu_op)(const uint8_t *insn, size_t len, const char **reg);
    int (*walk)(uint64_t root, uint64_t va, uint32_t (*read32)(uint64_t pa),
                uint64_t pte_pa[4], unsigned *page_shift);
    int walk_levels;
    /* x86: instructions that load a segment register (Chen et al.'s event
     * counter); NULL elsewhere. */
    bool (*loads_segment)(const uint8_t *insn, size_t len);
    /* Instructions that may change where virtual addresses go: a write to a
     * page-table base or another MMU register, a TLB flush or write.  The
     * QEMU plugin keeps data accesses' physical addresses per page and
     * forgets them at each of these (plugin.c); a decoder may name more
     * than needed, never fewer.  NULL: the plugin asks QEMU at every access. */
    bool (*remaps)(const uint8_t *insn, size_t len);
};

#endif
