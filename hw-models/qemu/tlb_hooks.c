/*
 * tlb_hooks.c: the QEMU front end's side of the TLB model
 * (hw-models/core/tlb.c), for a profile with a [tlb]; plugin.c calls in
 * here only then, so without one nothing here is registered or run.
 *
 * What it instruments, at translation:
 *   - each block: an instruction TLB lookup for the page of its first byte
 *     (and of its last, if the block crosses into another page), once per
 *     execution (the data TLB is looked up by plugin.c's mem_cb);
 *   - the instructions that load the page-table root or flush the TLB
 *     (isa->mmu_op: x86 mov to cr3 and invlpg, RISC-V csrw satp and
 *     sfence.vma, 68040 movec to URP and pflush): the root is read from
 *     the instruction's source register before it runs;
 *   - on x86, the instructions that load a segment register (inline adds);
 *   - on MIPS, whose TLB our kernel refills, the refill vector and the user
 *     blocks after it, to count refills (below).
 * And it gives the engine the walk (hw.walk): isa->walk reading the page
 * tables straight from guest RAM on the host.
 */
#include <string.h>

#include "model.h"
#include "plugin.h"

static qemu_plugin_u64 e_segloads;

static GArray *cpu_regs;                /* kept from vcpu_init, to find registers */

static struct qemu_plugin_register *find_reg(const char *name)
{
    for (guint i = 0; cpu_regs && i < cpu_regs->len; i++) {
        qemu_plugin_reg_descriptor *d = &g_array_index(cpu_regs, qemu_plugin_reg_descriptor, i);
        if (strcmp(d->name, name) == 0)
            return d->handle;
    }
    return NULL;
}

static uint32_t read_phys32(uint64_t pa)
{
    if (!host_base || pa < hw.p.ram_base || pa - hw.p.ram_base + 4 > hw.p.ram_size)
        return 0;                           /* not RAM: an absent entry */
    return (uint32_t)guest_uint(host_base + (pa - hw.p.ram_base), 4);
}

static int walk(uint64_t root, uint64_t va, uint64_t pte_pa[4], unsigned *page_shift)
{
    return isa->walk(root, va, read_phys32, pte_pa, page_shift);
}

static void itlb_cb(unsigned int vcpu, void *ud)
{
    tlb_fetch((uintptr_t)ud);
}

/* The same, attributing the walk's stall to the block's first instruction,
 * as the I-cache's are (attrib= only). */
struct itlb_attrib {
    uint64_t va;
    struct attrib_insn *a;
};

static void itlb_attrib_cb(unsigned int vcpu, void *ud)
{
    const struct itlb_attrib *t = ud;
    uint64_t stall = tlb_fetch(t->va);
    if (hw.c->attrib_on)
        t->a->stall_mcyc += stall;
}

/* The lookup is called only when the block's page is not the page of the
 * last fetch lookup (e_last_ipage, kept by tlb.c: tlb_last_fetch_at): a
 * comparison QEMU makes inline, as most blocks run on the page before.
 * Every time with fast=false; and with trace=, where tlb_fetch makes the
 * same comparison with the same word and writes its answer to the trace,
 * which QEMU's inline one cannot (tlb.c, TP_LAST). */
static struct qemu_plugin_scoreboard *last_ipage;
static qemu_plugin_u64 e_last_ipage;

static void itlb_hook(struct qemu_plugin_tb *tb, uint64_t va, struct attrib_insn *a)
{
    uint64_t page = (va >> __builtin_ctz(hw.p.tlb.page_size)) + 1;
    if (hw.general || hw.p.trace) {
        if (a) {
            struct itlb_attrib *t = g_new(struct itlb_attrib, 1);
            *t = (struct itlb_attrib){ va, a };
            qemu_plugin_register_vcpu_tb_exec_cb(tb, itlb_attrib_cb, QEMU_PLUGIN_CB_NO_REGS, t);
        } else {
            qemu_plugin_register_vcpu_tb_exec_cb(tb, itlb_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                 (void *)(uintptr_t)va);
        }
        return;
    }
    if (!a) {
        qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, itlb_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                  QEMU_PLUGIN_COND_NE, e_last_ipage, page,
                                                  (void *)(uintptr_t)va);
        return;
    }
    struct itlb_attrib *t = g_new(struct itlb_attrib, 1);
    *t = (struct itlb_attrib){ va, a };
    qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, itlb_attrib_cb, QEMU_PLUGIN_CB_NO_REGS,
                                              QEMU_PLUGIN_COND_NE, e_last_ipage, page, t);
}

static void tlb_flush_cb(unsigned int vcpu, void *ud)
{
    tlb_flush();
}

static void tlb_root_cb(unsigned int vcpu, void *ud)
{
    tlb_set_root(read_reg(ud));             /* the source register: the new root */
}

/* MIPS refills its TLB in software: an entry to the refill vector is a
 * miss, of the instruction TLB if the kernel then returns to the address
 * that missed (BadVAddr == EPC: a fetch), else of the data TLB.  QEMU 10.0
 * lets a plugin read BadVAddr (gdb register 35) but not EPC, so the
 * refill is classified at the first user block that runs after it
 * (e_refill non-zero: a conditional callback, nothing when zero).  Our
 * kernel runs in kseg0, whose addresses never miss. */
#define MIPS_BADVADDR_REGNUM 35
#define MIPS_KSEG0 0x80000000u
static qemu_plugin_u64 e_refill;        /* BadVAddr + 1 of the refill pending */

static void refill_cb(unsigned int vcpu, void *ud)
{
    struct qemu_plugin_register *bad =
        (struct qemu_plugin_register *)(uintptr_t)(MIPS_BADVADDR_REGNUM + 1);
    if (qemu_plugin_u64_get(e_refill, 0))   /* the last one never got back to user code */
        hw.c->dtlb_miss++;
    qemu_plugin_u64_set(e_refill, 0, read_reg(bad) + 1);
}

static void after_refill_cb(unsigned int vcpu, void *ud)
{
    uint64_t bad = qemu_plugin_u64_get(e_refill, 0) - 1;
    if (bad == (uintptr_t)ud)
        hw.c->itlb_miss++;
    else
        hw.c->dtlb_miss++;
    qemu_plugin_u64_set(e_refill, 0, 0);
}

void tlb_hooks_trans(struct qemu_plugin_tb *tb, size_t n, uint8_t code[][16],
                     const size_t *code_len, struct attrib_insn *first_insn)
{
    uint64_t first = qemu_plugin_tb_vaddr(tb);
    for (size_t i = 0; isa->loads_segment && i < n; i++)
        if (isa->loads_segment(code[i], code_len[i]))
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                qemu_plugin_tb_get_insn(tb, i), QEMU_PLUGIN_INLINE_ADD_U64, e_segloads, 1);
    if (hw.p.tlb.software) {
        if (first == hw.p.tlb.refill_pc)
            qemu_plugin_register_vcpu_tb_exec_cb(tb, refill_cb, QEMU_PLUGIN_CB_R_REGS, NULL);
        else if (first < MIPS_KSEG0)
            qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, after_refill_cb,
                                                      QEMU_PLUGIN_CB_NO_REGS,
                                                      QEMU_PLUGIN_COND_NE, e_refill, 0,
                                                      (void *)(uintptr_t)first);
        return;
    }
    struct qemu_plugin_insn *last = qemu_plugin_tb_get_insn(tb, n - 1);
    uint64_t end = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last) - 1;
    itlb_hook(tb, first, first_insn);
    if ((first ^ end) >> __builtin_ctz(hw.p.tlb.page_size))
        itlb_hook(tb, end, first_insn);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const char *reg = NULL;
        enum mmu_op op = isa->mmu_op ? isa->mmu_op(code[i], code_len[i], &reg) : MMU_NONE;
        struct qemu_plugin_register *r = op == MMU_ROOT ? find_reg(reg) : NULL;
        if (op == MMU_ROOT && !r) {
            hw_warn("no_register name=%s", reg);
            op = MMU_FLUSH;
        }
        if (op == MMU_ROOT)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, tlb_root_cb, QEMU_PLUGIN_CB_R_REGS, r);
        else if (op == MMU_FLUSH)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, tlb_flush_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                   NULL);
    }
}

void tlb_hooks_registers(GArray *regs)
{
    cpu_regs = regs;
    /* (a scoreboard has its memory once the vcpu exists, not at install) */
    tlb_last_fetch_at(qemu_plugin_scoreboard_find(last_ipage, 0));
}

void tlb_hooks_install(qemu_plugin_u64 segloads)
{
    e_segloads = segloads;
    if (hw.p.tlb.software)
        e_refill = qemu_plugin_scoreboard_u64(qemu_plugin_scoreboard_new(sizeof(uint64_t)));
    if (hw.tlb) {
        hw.walk = isa->walk ? walk : NULL;
        hw.walk_levels = isa->walk_levels;
        last_ipage = qemu_plugin_scoreboard_new(sizeof(uint64_t));
        e_last_ipage = qemu_plugin_scoreboard_u64(last_ipage);
    }
}
