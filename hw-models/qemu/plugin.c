/*
 * plugin.c: the hardware model as a QEMU TCG plugin (libhwmodel.so), for
 * the ISAs QEMU runs (each isa_*.c names its QEMU target: qemu_isa.h).
 * The model itself is the engine in hw-models/core (model.h); this file
 * only instruments translated code so that the engine hears of every
 * instruction, access and marker.  hw-models/README.md says how to use it;
 * the harness (harness/model/modelargs.py) turns a profile into its arguments.
 *
 * How it stays cheap.  At translation time each block is cut into segments
 * that end at a marker; the instruction count and the static cost (CPI and
 * class extras) of a segment are added by two inline operations QEMU emits
 * in front of it, with no function call.  Every memory access calls
 * mem_cb(), which charges the load or store extra and runs the cache model;
 * it receives the static cost still to come in its segment, so that it knows
 * the exact current time.  Each block with I-cache lines calls
 * tb_icache_cb() once.  Entering the trap vector (trap_pc=, the kernel's
 * symbol) adds the trap penalty inline too.  Markers call their own
 * callbacks, and only markers read registers.  A data access's physical
 * address is QEMU's answer kept per virtual page (data_paddr() below), so
 * QEMU is asked again only when the guest may have changed its mappings.
 *
 * What QEMU cannot tell a plugin, and how we learn it:
 *   - instruction physical addresses (for the I-cache): from where QEMU
 *     keeps guest RAM on the host, learnt once at anchor=ADDR, an
 *     instruction whose virtual address is also its physical one (the
 *     kernel's entry point, which runs before any address translation), or
 *     whose physical address anchor_pa= gives (on MIPS the kernel runs in
 *     kseg0, where physical = virtual - 0x80000000 with no translation);
 *   - traps: by the trap vector's address (trap_pc=); on SPARC the register
 *     window overflow and underflow handlers too (wovf_pc=, wunf_pc=),
 *     traps that are counted apart (wovf=, wunf= in the records);
 *   - disk requests: by the address of the kernel's disk_request()
 *     (disk_pc=), whose arguments are where the ISA's C calling
 *     convention puts them (isa_*.c).
 */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "model.h"
#include "plugin.h"
#include "qemu_isa.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

const struct isa *isa;                  /* plugin.h */
static struct qemu_plugin_scoreboard *score;
static qemu_plugin_u64 e_insns, e_static, e_traps, e_attrib, e_wovf, e_wunf;
static struct qemu_plugin_scoreboard *map_score;    /* one uint64_t: map_gen */
static qemu_plugin_u64 e_map_gen;
static struct qemu_plugin_register *arg_reg[3], *stack_reg, *in_reg[3];
static GByteArray *regbuf;
static GHashTable *ilines_table;        /* interned struct iblock */
static GMutex trans_lock;

/* Guest RAM as QEMU holds it on the host: one block, learnt from the
 * instruction at anchor=.  Gives instruction physical addresses. */
const uint8_t *host_base;

/* ------------------------------------------------------------ registers */

/* n bytes in the guest's byte order -> a number */
uint64_t guest_uint(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int k = 0; k < n && k < 8; k++)
        v |= (uint64_t)p[isa->big_endian ? n - 1 - k : k] << (8 * k);
    return v;
}

uint64_t read_reg(struct qemu_plugin_register *r)
{
    if (!r)
        return 0;
    g_byte_array_set_size(regbuf, 0);
    int n = qemu_plugin_read_register(r, regbuf);
    return guest_uint(regbuf->data, n);
}

/* A marker's argument i. */
static uint64_t read_arg(int i)
{
    return read_reg(arg_reg[i]);
}

/* Argument i of the C function whose first instruction is executing. */
static uint64_t read_fn_arg(int i)
{
    if (!isa->stack_reg)
        return read_arg(i);
    uint64_t addr = (read_reg(stack_reg) + 4 + 4 * i) & 0xffffffffu;
    g_byte_array_set_size(regbuf, 0);
    if (!qemu_plugin_read_memory_vaddr(addr, regbuf, 4)) {
        hw_warn("cannot_read_argument addr=0x%" PRIx64, addr);
        return 0;
    }
    return guest_uint(regbuf->data, 4);
}

/* ------------------------------------------------------------ callbacks */

static void region_cb(unsigned int vcpu, void *ud)
{
    hw_region_marker(read_arg(0));
}

/* The guest is about to read the clock: put the modelled time in the
 * mailbox after the marker (isa_riscv.c).  Writing guest RAM through the
 * instruction's host pointer is the QEMU 10.0 way; with QEMU 10.1's
 * qemu_plugin_write_memory_vaddr this is the one function to change. */
static void clock_cb(unsigned int vcpu, void *ud)
{
    uint8_t *box = (uint8_t *)ud + 16;
    uint64_t ns = hw_clock_read();
    for (int k = 0; k < 8; k++)
        box[isa->big_endian ? 7 - k : k] = (uint8_t)(ns >> (8 * k));
    for (int k = 0; k < 4; k++)
        box[8 + k] = (isa->big_endian ? k == 3 : k == 0);
}

static void charge_disk(uint64_t stall, void *ud)
{
    if (ud && hw.c->attrib_on)
        ((struct attrib_insn *)ud)->stall_mcyc += stall;
}

/* The disk marker: a0 = sector, a1 = bytes (a2 = write: the cost is the same). */
static void disk_cb(unsigned int vcpu, void *ud)
{
    charge_disk(hw_disk(read_arg(0), read_arg(1)), ud);
}

/* The entry of the kernel's disk_request(int write, uint32 blockno, uint32 n)
 * (kernel/port/ramdisk.c), found by its symbol. */
static void disk_fn_cb(unsigned int vcpu, void *ud)
{
    uint64_t block = read_fn_arg(1), n = read_fn_arg(2);
    charge_disk(hw_disk_call(block, n), ud);
}

/* The same, one instruction after a SPARC save that opens disk_request()
 * (fn_entry below): the arguments are in %i0-%i2. */
static void disk_fn_in_cb(unsigned int vcpu, void *ud)
{
    uint64_t block = read_reg(in_reg[1]), n = read_reg(in_reg[2]);
    charge_disk(hw_disk_call(block, n), ud);
}

/* Argument i of the kernel function whose entry is running (plugin.h).
 * `in_window`: the callback sits after a SPARC save (fn_entry), where the
 * arguments are in %i0-%i2. */
uint64_t fn_arg(int i, bool in_window)
{
    return in_window ? read_reg(in_reg[i]) : read_fn_arg(i);
}

/* The write log (hw-models/core/wlog.c), writelog= only: the entries of
 * the kernel's ramdisk_write(blockno, src) and bdirty(b, owner), and the
 * trap vector. */
static uint64_t guest_word(uint64_t addr)
{
    g_byte_array_set_size(regbuf, 0);
    if (!qemu_plugin_read_memory_vaddr(addr, regbuf, 4)) {
        hw_warn("writelog_cannot_read addr=0x%" PRIx64, addr);
        return 0;
    }
    return guest_uint(regbuf->data, 4);
}

static void wlog_read_block(bool to_disk, uint64_t blockno, uint64_t addr)
{
    static GByteArray *blk;
    if (!blk)
        blk = g_byte_array_new();
    g_byte_array_set_size(blk, 0);
    if (!qemu_plugin_read_memory_vaddr(addr, blk, hw.p.disk_block) ||
        blk->len < hw.p.disk_block) {
        hw_warn("writelog_cannot_read addr=0x%" PRIx64, addr);
        return;
    }
    wlog_block(to_disk, (uint32_t)blockno, blk->data);
}

static void wlog_write_cb(unsigned int vcpu, void *ud)
{
    bool w = ud != NULL;
    wlog_read_block(true, fn_arg(0, w), fn_arg(1, w));
}

static void wlog_dirty_cb(unsigned int vcpu, void *ud)
{
    uint64_t b = fn_arg(0, ud != NULL);
    wlog_read_block(false, guest_word(b), guest_word(b + hw.p.wlog_buf_data));
}

static void wlog_trap_cb(unsigned int vcpu, void *ud)
{
    wlog_trap();
}

/*
 * Where a callback at the entry of the kernel function at fn_pc goes: on
 * its first instruction (FN_ENTRY), or, where that is a SPARC save
 * (isa->opens_window), on the instruction after it (FN_AFTER_SAVE): the
 * save may take a window overflow trap and run again, which would run the
 * callback twice, and after it the arguments are in %i0-%i2 (in_reg), not
 * where read_fn_arg() looks.  *after remembers where the save ends, for the
 * block that holds the next instruction.  Used for disk_request(), the
 * write log's functions and the network's hooks (net.c).
 */
enum fn_entry fn_entry(uint64_t va, const uint8_t *code, size_t len, uint64_t fn_pc,
                       uint64_t *after)
{
    if (fn_pc && va == fn_pc) {
        if (!isa->opens_window || !isa->opens_window(code, len))
            return FN_ENTRY;
        *after = va + len;
    }
    return *after && va == *after ? FN_AFTER_SAVE : FN_NOT;
}

/* Register the write log's callback cb at the entry of the function at
 * fn_pc; ud is non-NULL after a save (fn_arg's in_window). */
static uint64_t wlog_after_pc[2];

static void wlog_hook(struct qemu_plugin_insn *insn, uint64_t va, const uint8_t *code,
                      size_t len, uint64_t fn_pc, int k, qemu_plugin_vcpu_udata_cb_t cb)
{
    enum fn_entry e = fn_entry(va, code, len, fn_pc, &wlog_after_pc[k]);
    if (e != FN_NOT)
        qemu_plugin_register_vcpu_insn_exec_cb(insn, cb, QEMU_PLUGIN_CB_R_REGS,
                                               e == FN_AFTER_SAVE ? (void *)1 : NULL);
}

/* ------------------------------------------------------------ data addresses */

/*
 * Where a data access goes in guest physical memory.  Asking QEMU
 * (qemu_plugin_get_hwaddr) looks the access up in QEMU's TLB a second
 * time, behind three calls and a host cache miss or two: a sixth of the
 * model's time once.  So the plugin keeps the answers, per 4 KB virtual page
 * and MMU mode, in a small table of its own, and asks QEMU only on a miss.
 *
 * It must forget them whenever the guest may change a mapping.  Each
 * instruction the ISA's decoder names in remaps() (a page-table base or
 * MMU register written, a TLB written or flushed: isa_*.c) adds one to
 * map_gen, inline, before it runs; an entry made in an earlier generation
 * is a miss.  The accesses of such an instruction itself are never kept
 * (the change may come after them).  The guest must flush its TLB at those
 * same instructions for QEMU's own TLB to see the change, so the table is
 * as current as QEMU's TLB.  The MMU mode (user or kernel, an override
 * such as RISC-V's MPRV) is part of the key, so changing privilege needs
 * no flush.  Pages never straddle: no mapping is finer than 4 KB in any
 * target QEMU runs for us (QEMU's TLB granule).
 *
 * The MMU mode is QEMU's mmu_idx, which the API does not give: QEMU 10.0
 * builds a meminfo as MemOpIdx | rw << 16 (include/qemu/plugin.h), and a
 * MemOpIdx as MemOp << 4 | mmu_idx (include/exec/memopidx.h).  The size
 * and direction come from the same word; every miss checks that reading
 * against the API's answers, and a mismatch (another QEMU) turns the
 * table off with a warning rather than model wrong addresses.
 */
#define PAGE_SHIFT 12
#define PAGE_SLOTS 512                  /* a power of two */

struct page_slot {
    uint64_t tag;                       /* vpage << 4 | mmu_idx; UINT64_MAX: empty */
    uint64_t gen;                       /* map_gen when it was filled */
    uint64_t frame;                     /* physical page address, or 1: device */
};

static struct page_slot pages[PAGE_SLOTS];
static const uint64_t *map_gen;         /* the scoreboard's word (vcpu_init) */
static bool pages_on;                   /* the ISA has remaps(), meminfo as expected */

static inline unsigned info_mmu_idx(qemu_plugin_meminfo_t info)
{
    return info & 15;
}

static inline bool info_is_store(qemu_plugin_meminfo_t info)
{
    return (info >> 16) & QEMU_PLUGIN_MEM_W;
}

static inline unsigned info_size_shift(qemu_plugin_meminfo_t info)
{
    return (info >> 4) & 7;             /* MemOp's MO_SIZE */
}

/* Ask QEMU; keep the answer unless `keep` is false.  false: not RAM, or no
 * answer (which QEMU reports itself). */
static bool data_paddr_slow(qemu_plugin_meminfo_t info, uint64_t vaddr, bool keep,
                            uint64_t *pa)
{
    struct qemu_plugin_hwaddr *hwa = qemu_plugin_get_hwaddr(info, vaddr);
    if (!hwa)
        return false;
    bool io = qemu_plugin_hwaddr_is_io(hwa);
    *pa = io ? 0 : qemu_plugin_hwaddr_phys_addr(hwa);
    if (!pages_on || !keep)
        return !io;
    if (info_is_store(info) != qemu_plugin_mem_is_store(info) ||
        info_size_shift(info) != qemu_plugin_mem_size_shift(info)) {
        hw_warn("meminfo_layout_unknown: physical addresses not cached");
        pages_on = false;
        return !io;
    }
    uint64_t tag = (vaddr >> PAGE_SHIFT) << 4 | info_mmu_idx(info);
    struct page_slot *sl = &pages[(tag ^ tag >> 13) & (PAGE_SLOTS - 1)];
    sl->tag = tag;
    sl->gen = *map_gen;
    sl->frame = io ? 1 : *pa & ~(uint64_t)((1u << PAGE_SHIFT) - 1);
    return !io;
}

/* data_paddr() when the table holds the page: true with *pa, else false
 * (not held, or not RAM) for data_paddr() to decide.  For mem_cb's short
 * path, which must not call out. */
static inline bool data_paddr_quick(qemu_plugin_meminfo_t info, uint64_t vaddr, uint64_t *pa)
{
#ifdef CHECK_PADDR                      /* every access through data_paddr's check */
    return false;
#endif
    uint64_t tag = (vaddr >> PAGE_SHIFT) << 4 | info_mmu_idx(info);
    const struct page_slot *sl = &pages[(tag ^ tag >> 13) & (PAGE_SLOTS - 1)];
    if (sl->tag != tag || sl->gen != *map_gen || !pages_on || (sl->frame & 1))
        return false;
    *pa = sl->frame | (vaddr & ((1u << PAGE_SHIFT) - 1));
    return true;
}

/* The physical address of the data access at vaddr; false if it is not
 * to RAM (device registers: not modelled). */
static inline bool data_paddr(qemu_plugin_meminfo_t info, uint64_t vaddr, bool keep,
                              uint64_t *pa)
{
    uint64_t tag = (vaddr >> PAGE_SHIFT) << 4 | info_mmu_idx(info);
    const struct page_slot *sl = &pages[(tag ^ tag >> 13) & (PAGE_SLOTS - 1)];
    if (sl->tag != tag || sl->gen != *map_gen || !pages_on)
        return data_paddr_slow(info, vaddr, keep, pa);
    if (sl->frame & 1)
        return false;
    *pa = sl->frame | (vaddr & ((1u << PAGE_SHIFT) - 1));
#ifdef CHECK_PADDR                      /* the table against QEMU, at every access */
    uint64_t q;
    if (!data_paddr_slow(info, vaddr, false, &q) || q != *pa)
        hw_warn("paddr_mismatch vaddr=0x%" PRIx64 " cached=0x%" PRIx64 " qemu=0x%" PRIx64,
                vaddr, *pa, q);
#endif
    return true;
}

/*
 * Every load and store.  `ud` packs what translation knew about the
 * instruction, to spare two calls into QEMU per access:
 *      bits 0-1  log2 of the access size     } valid if bit 3 is set
 *      bit 2     store                       } (else ask QEMU)
 *      bit 4     the instruction may remap: do not keep its addresses
 *      bits 5-   the static cost still to come in this instruction's
 *                segment, already added: subtract it for the exact time.
 */
#define UD_KNOWN 8u
#define UD_STORE 4u
#define UD_REMAPS 16u
#define UD_REST_SHIFT 5

static uintptr_t mem_ud(uint64_t rest, const uint8_t *bytes, size_t len)
{
    bool store = false;
    int shift = isa->mem_access ? isa->mem_access(bytes, len, &store) : -1;
    uintptr_t u = (uintptr_t)rest << UD_REST_SHIFT;
    if (shift >= 0)
        u |= UD_KNOWN | (store ? UD_STORE : 0) | (uintptr_t)shift;
    if (isa->remaps && isa->remaps(bytes, len))
        u |= UD_REMAPS;
    return u;
}

/* Every case of an access: its TLB lookup, its physical address, its
 * time in the memory system.  Out of line: mem_cb's short path below
 * handles the common cases and comes here for the rest. */
static __attribute__((noinline)) void mem_cb_full(qemu_plugin_meminfo_t info, uint64_t vaddr,
                                                  uintptr_t u)
{
    bool store;
    unsigned size;
    if (u & UD_KNOWN) {
        store = u & UD_STORE;
        size = 1u << (u & 3);
#ifdef CHECK_DECODE                     /* a new decoder's mem_access() against QEMU */
        if (store != qemu_plugin_mem_is_store(info) ||
            size != 1u << qemu_plugin_mem_size_shift(info))
            hw_warn("decode_mismatch");
#endif
    } else if (pages_on) {              /* the layout data_paddr_slow() checks */
        store = info_is_store(info);
        size = 1u << info_size_shift(info);
    } else {
        store = qemu_plugin_mem_is_store(info);
        size = 1u << qemu_plugin_mem_size_shift(info);
    }
    hw_count_access(store);
    if (hw.tlb)                             /* a [tlb] profile only (tlb.c) */
        tlb_data(vaddr, u >> UD_REST_SHIFT);
    uint64_t pa;
    if (data_paddr(info, vaddr, !(u & UD_REMAPS), &pa))
        hw_data(pa, size, store, u >> UD_REST_SHIFT);
}

/* The middle path: an access to RAM whose TLB lookup and physical
 * address mem_cb has found, but which is not a plain hit (a store into the
 * write buffer, a miss, no D-cache): the memory system's usual cases
 * (hw_access_quick), or else everything again (mem_cb_full).  Out of
 * line, so that mem_cb's own path needs no registers saved.  The _traced
 * one runs while the traced region is open (mem_cb_traced). */
static __attribute__((noinline)) void mem_cb_ram(qemu_plugin_meminfo_t info, uint64_t vaddr,
                                                 uintptr_t u, uint64_t pa, unsigned size,
                                                 bool store)
{
    if (!hw_access_quick(pa, size, store, u >> UD_REST_SHIFT))
        mem_cb_full(info, vaddr, u);
}

static __attribute__((noinline)) void mem_cb_ram_traced(qemu_plugin_meminfo_t info,
                                                        uint64_t vaddr, uintptr_t u,
                                                        uint64_t pa, unsigned size, bool store)
{
    if (!hw_access_quick_traced(pa, size, store, u >> UD_REST_SHIFT))
        mem_cb_full(info, vaddr, u);
}

/* The same with memory alone (hw.mem_direct: the Sun-3), where every
 * access is a memory transfer: a function that needs nothing more. */
static __attribute__((noinline)) void mem_cb_direct(unsigned size, bool store, uint64_t ahead)
{
    hw_access_direct(0, size, store, ahead, false);     /* (the address: for the trace only) */
}

/* The short path of every load and store (mem_cb), as a body that
 * mem_cb and mem_cb_traced each compile with `traced` constant: an
 * access whose TLB lookup is a hit that changes nothing, whose page is in
 * the table, and which hits L1 D at no cost (hw_access_hit): most loads,
 * and a write-back cache's stores.  The rest go on to mem_cb_direct,
 * mem_cb_ram or mem_cb_full, as tail calls.  Each step either does all
 * that mem_cb_full would have done for it or changes nothing
 * (tlb_data_quick may note the page it found as the last one, which is
 * what tlb_data does first anyway).  Kept apart so that this path is
 * short code: sharing one body with the rare cases, it spent much of its
 * time saving and restoring registers only they use.  The size and
 * direction come from `ud`, or, where the decoder does not tell them
 * (x86, m68k), from the meminfo word as mem_cb_full reads it: only when
 * the table is on (pages_on), which data_paddr_quick requires.  With
 * fast=false the table is off, so every access goes to mem_cb_full. */
static inline __attribute__((always_inline))
void mem_access(qemu_plugin_meminfo_t info, uint64_t vaddr, uintptr_t u, const bool traced)
{
    uint64_t pa;
#ifndef CHECK_DECODE                    /* (else every access is checked) */
    bool store = u & UD_KNOWN ? u & UD_STORE : info_is_store(info);
    unsigned size = 1u << (u & UD_KNOWN ? u & 3 : info_size_shift(info));
    if ((!hw.tlb || tlb_data_quick(vaddr, traced)) && data_paddr_quick(info, vaddr, &pa)) {
        if (hw_access_hit(pa, size, store, traced))
            return;
        if (hw.mem_direct) {
            if (traced)
                hw_access_direct(pa, size, store, u >> UD_REST_SHIFT, true);
            else
                mem_cb_direct(size, store, u >> UD_REST_SHIFT);
            return;
        }
        if (traced)
            mem_cb_ram_traced(info, vaddr, u, pa, size, store);
        else
            mem_cb_ram(info, vaddr, u, pa, size, store);
        return;
    }
#endif
    mem_cb_full(info, vaddr, u);
}

/* mem_cb while the traced region is open: the same path, each access
 * written to the trace with the name of the fast path that took it
 * (hw-models/core/model.h, "the trace"), so that the reference simulator
 * checks what the fast paths did. */
static __attribute__((noinline)) void mem_cb_traced(qemu_plugin_meminfo_t info, uint64_t vaddr,
                                                    uintptr_t u)
{
    mem_access(info, vaddr, u, true);
}

/* Every load and store comes here first.  flatten: the memory system's
 * part of the short path (memsys_data_hit) inlined here, as GCC did by
 * itself while this was its only caller; mem_cb_traced is the second. */
__attribute__((flatten))
static void mem_cb(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    if (__builtin_expect(hw.tracing, 0)) {
        mem_cb_traced(info, vaddr, (uintptr_t)ud);
        return;
    }
    mem_access(info, vaddr, (uintptr_t)ud, false);
}

/* The same, attributing the access's extra and stall to the instruction
 * (attrib= only). */
struct mem_attrib_ud {
    uintptr_t ud;                       /* as for mem_cb */
    struct attrib_insn *a;
};

static void mem_cb_attrib(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                          void *ud)
{
    const struct mem_attrib_ud *m = ud;
    uint64_t static_before = hw.c->static_mcyc, stall_before = hw.c->stall_mcyc;
    mem_cb(vcpu, info, vaddr, (void *)m->ud);
    if (hw.c->attrib_on) {
        m->a->access_mcyc += hw.c->static_mcyc - static_before;
        m->a->stall_mcyc += hw.c->stall_mcyc - stall_before;
    }
}

/*
 * The I-cache lines of a block (struct iblock, memsys.h) live in an arena:
 * chunks the plugin fills one after the other and never frees, so that a
 * block's record is one small stretch of memory, its line numbers right
 * after its `seen`, and blocks translated together lie together.  Blocks
 * whose line lists are the same share one record (a block translated again
 * after QEMU flushed its code cache, or the same code at another virtual
 * address), so that what is known about its lines carries over and the
 * arena grows with the code the guest runs, not with its translations.
 * `front` is the block's first instruction when attributing (attrib=), which
 * the fetch stalls are charged to; then blocks are never shared.
 */
#define ARENA_CHUNK (256 * 1024)

static uint8_t *arena;
static size_t arena_used = ARENA_CHUNK;

static struct iblock *iblock_alloc(uint32_t n)
{
    size_t bytes = (sizeof(struct iblock) + n * sizeof(uint64_t) + 15) & ~(size_t)15;
    if (arena_used + bytes > ARENA_CHUNK) {
        arena = g_malloc(MAX(bytes, ARENA_CHUNK));
        arena_used = 0;
    }
    struct iblock *b = (struct iblock *)(arena + arena_used);
    arena_used += bytes;
    return b;
}

/* Give back the last iblock_alloc(), a copy found interned already. */
static void iblock_unalloc(uint32_t n)
{
    arena_used -= (sizeof(struct iblock) + n * sizeof(uint64_t) + 15) & ~(size_t)15;
}

static guint iblock_hash(gconstpointer p)
{
    const struct iblock *b = p;
    uint64_t h = b->n;
    for (uint32_t i = 0; i < b->n; i++)
        h = (h ^ b->line[i]) * 0x9e3779b97f4a7c15ull;
    return (guint)(h ^ h >> 32);
}

static gboolean iblock_equal(gconstpointer p, gconstpointer q)
{
    const struct iblock *a = p, *b = q;
    return a->n == b->n && memcmp(a->line, b->line, a->n * sizeof(uint64_t)) == 0;
}

static void tb_icache_cb(unsigned int vcpu, void *ud)
{
    struct iblock *b = ud;
    if (hw_ifetch_block_known(b)) {
#ifdef CHECK_ICACHE                     /* the shortcut against the cache, every time */
        for (uint32_t i = 0; i < b->n; i++)
            if (!cache_is_mru(hw.icache, b->line[i]))
                hw_warn("icache_shortcut_wrong line=0x%" PRIx64, b->line[i]);
#endif
        if (__builtin_expect(hw.tracing, 0))
            hw_trace_known(b);
        return;
    }
    uint64_t stall = hw_ifetch_block(b);
    if (b->front && hw.c->attrib_on)
        ((struct attrib_insn *)b->front)->stall_mcyc += stall;
}

/* A segment of a block (see tb_trans) ran while the attributed region was
 * open: count its instructions. */
struct tb_attrib {
    uint32_t n;
    struct attrib_insn *a[];
};

static void tb_attrib_cb(unsigned int vcpu, void *ud)
{
    const struct tb_attrib *T = ud;
    for (uint32_t i = 0; i < T->n; i++)
        T->a[i]->execs++;
}

/* ------------------------------------------------------------ translation */

#define NO_PADDR UINT64_MAX

static uint64_t insn_paddr(const uint8_t *h, uint64_t vaddr)
{
    if (!h)
        return NO_PADDR;
    if (!host_base && vaddr == hw.p.anchor)
        host_base = h - (hw.p.anchor_pa - hw.p.ram_base);
    if (!host_base || h < host_base || (uint64_t)(h - host_base) >= hw.p.ram_size)
        return NO_PADDR;                    /* ROM, or RAM not located yet */
    return hw.p.ram_base + (uint64_t)(h - host_base);
}

/* An instruction's address as the kernel's hooks see it: its virtual
 * address, or NOT_KERNEL for a user program's where the two share
 * addresses (isa.h, shared_addresses).  Before RAM is located only the
 * kernel runs. */
#define NOT_KERNEL UINT64_MAX

static uint64_t kernel_va(uint64_t va, uint64_t pa)
{
    if (!isa->shared_addresses || pa == NO_PADDR || pa == va)
        return va;
    return NOT_KERNEL;
}

/* The record for a block with these lines: one interned already, or new. */
static struct iblock *intern_ilines(const uint64_t *lines, uint32_t n,
                                    struct attrib_insn *a)
{
    struct iblock *b = iblock_alloc(n);
    b->front = a;
    b->n = n;
    memcpy(b->line, lines, n * sizeof(uint64_t));
    hw_iblock_init(b);
    if (a)                                  /* attributing: one per block, not shared */
        return b;
    struct iblock *old = g_hash_table_lookup(ilines_table, b);
    if (old) {
        iblock_unalloc(n);
        return old;
    }
    g_hash_table_add(ilines_table, b);
    return b;
}

static bool is_trap_pc(uint64_t vaddr)
{
    for (int i = 0; i < hw.p.n_trap_pc; i++)
        if (hw.p.trap_pc[i] == vaddr)
            return true;
    return false;
}

/* The window trap handlers: trap entries too, counted apart. */
static bool is_window_pc(uint64_t vaddr)
{
    return hw.windows && (vaddr == hw.p.wovf_pc || vaddr == hw.p.wunf_pc);
}

/*
 * Translating a block.  tb_trans() reads the block once (tb_read) and then
 * instruments it in passes, each a function below, in this order:
 *
 *   tb_attrib_records  attrib= only: each instruction's record;
 *   tb_icache          the block's I-cache lines, fetched as it starts;
 *   tlb_hooks_trans    a [tlb] profile only (tlb_hooks.c);
 *   tb_segments        the instruction count and static cost, added
 *                      inline per segment, and every load's and store's
 *                      callback, told the static cost still to come
 *                      (on a wire, net_segment: the count to its next
 *                      check point, net.c);
 *   net_trans          on a wire only (net.c): the block's check point
 *                      and the kernel's network hooks;
 *   tb_events          single instructions the model must see run: MMU
 *                      changes, trap entries, disk requests, the write
 *                      log's functions, markers.
 *
 * QEMU runs an instruction's inline operations and callbacks in the order
 * they were registered, so the order of the passes is part of the model:
 * a marker's callback (tb_events) comes after the inline adds of its
 * segment (tb_segments), and so sees its own segment counted.
 */

/* What tb_read() learnt about the block's instructions: arrays of n, on
 * tb_trans's stack. */
struct tb_view {
    struct qemu_plugin_tb *tb;
    size_t n;
    uint8_t (*code)[16];                /* each instruction's bytes ... */
    size_t *len;                        /* ... and how many */
    uint64_t *vaddr;
    uint64_t *pa;                       /* physical address, or NO_PADDR */
    uint64_t *kva;                      /* vaddr if the kernel's, else NOT_KERNEL */
    uint64_t *cost;                     /* static cost (mcyc): CPI, class, trap entry */
    enum marker *mk;
    struct attrib_insn **rec;           /* attrib= only (else NULL): its record */
};

/* Instruction i's attribution record, or NULL when not attributing: what
 * the callbacks that charge stalls to an instruction take as `ud`. */
static struct attrib_insn *insn_rec(const struct tb_view *t, size_t i)
{
    return t->rec ? t->rec[i] : NULL;
}

/* What each instruction is: its bytes, its static cost (the CPI and its
 * class's extra, plus the trap penalty where a trap vector or window
 * handler begins: charged inline with the rest, not by a callback), its
 * marker and its physical address.  Also learns where guest RAM is on the
 * host, at the anchor (insn_paddr). */
static void tb_read(struct tb_view *t)
{
    for (size_t i = 0; i < t->n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(t->tb, i);
        size_t len = t->len[i] = qemu_plugin_insn_data(insn, t->code[i], sizeof(t->code[i]));
        uint64_t va = t->vaddr[i] = qemu_plugin_insn_vaddr(insn);
        t->pa[i] = insn_paddr(qemu_plugin_insn_haddr(insn), va);
        uint64_t kva = t->kva[i] = kernel_va(va, t->pa[i]);
        t->cost[i] = hw_insn_mcyc(isa->classify(t->code[i], len));
        if (is_trap_pc(kva) || is_window_pc(kva))
            t->cost[i] += hw.trap_mcyc;
        t->mk[i] = isa->marker(t->code[i], len);
    }
}

/* attrib= only: each instruction's record (attrib.c), which its accesses,
 * fetch stalls, disk requests and executions are charged to. */
static void tb_attrib_records(struct tb_view *t)
{
    for (size_t i = 0; i < t->n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(t->tb, i);
        t->rec[i] = attrib_insn((uintptr_t)qemu_plugin_insn_haddr(insn), t->vaddr[i],
                                t->pa[i], t->cost[i]);
    }
}

/* The I-cache lines the block's instructions lie in, in order, a line
 * repeated only if another came between: of each instruction the lines
 * of its first and last bytes (an x86 or 68k instruction may straddle two;
 * not two pages, whose frames need not follow one another).  An
 * instruction with no physical address (ROM, or RAM not located yet) has
 * none.  At most 2n; returns how many. */
static uint32_t tb_ilines(const struct tb_view *t, uint64_t *lines)
{
    unsigned shift = hw_iline_shift();
    uint32_t nlines = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->pa[i] == NO_PADDR)
            continue;
        uint64_t last = t->pa[i] + (t->len[i] ? t->len[i] - 1 : 0);
        bool one_page = ((t->pa[i] ^ last) >> 12) == 0;
        for (int end = 0; end < 1 + one_page; end++) {
            uint64_t line = (end ? last : t->pa[i]) >> shift;
            if (nlines == 0 || lines[nlines - 1] != line)
                lines[nlines++] = line;
        }
    }
    return nlines;
}

/* The block's instruction fetches: one callback as the block starts
 * (tb_icache_cb), with the block's lines interned, so that a block whose
 * lines all hit as last time costs one comparison.  Its fetch stalls are
 * charged to the block's first instruction when attributing. */
static void tb_icache(const struct tb_view *t)
{
    if (!hw_has_icache())
        return;
    uint64_t lines[2 * t->n];
    uint32_t nlines = tb_ilines(t, lines);
    if (nlines > 0)
        qemu_plugin_register_vcpu_tb_exec_cb(t->tb, tb_icache_cb, QEMU_PLUGIN_CB_NO_REGS,
                                             intern_ilines(lines, nlines, insn_rec(t, 0)));
}

/*
 * Whether a segment ends at instruction i.  A segment's instructions and
 * static cost are added inline on its first instruction, all at once, so a
 * segment ends at each marker (whose callback must see the time up to and
 * including itself) and at the block's end.  An exception in the middle of
 * a segment leaves the instructions after it counted but not run; where
 * that is routine (isa->restarts: the loads and stores whose TLB misses
 * MIPS refills in software, SPARC's save and restore on register window
 * overflow and underflow) a segment also ends at each such instruction, so
 * that only the instruction the kernel restarts is counted again (the
 * processor issues it twice).
 */
static bool ends_segment(const struct tb_view *t, size_t i)
{
    return t->mk[i] != MK_NONE || i == t->n - 1 ||
           (isa->restarts && isa->restarts(t->code[i], t->len[i]));
}

/* The instructions s..e, one segment: two inline adds on its first
 * instruction (the count and the static cost), its executions when
 * attributing (counted as the segment is, while the attributed region is
 * open), and each instruction's memory callback.  That callback learns the
 * static cost still to come in the segment (mem_ud), added already but not
 * yet spent, to know the exact time of its access. */
static void tb_segment(const struct tb_view *t, size_t s, size_t e)
{
    uint64_t sum = 0;
    for (size_t k = s; k <= e; k++)
        sum += t->cost[k];
    struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(t->tb, s);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                        e_insns, e - s + 1);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                        e_static, sum);
    if (hw.net)
        net_segment(first, sum);
    if (t->rec) {
        struct tb_attrib *seg = g_malloc(sizeof(*seg) + (e - s + 1) * sizeof(seg->a[0]));
        seg->n = e - s + 1;
        for (size_t k = s; k <= e; k++)
            seg->a[k - s] = t->rec[k];
        qemu_plugin_register_vcpu_insn_exec_cond_cb(first, tb_attrib_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                    QEMU_PLUGIN_COND_NE, e_attrib, 0, seg);
    }
    uint64_t rest = sum;
    for (size_t k = s; k <= e; k++) {
        rest -= t->cost[k];
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(t->tb, k);
        uintptr_t u = mem_ud(rest, t->code[k], t->len[k]);
        if (t->rec) {
            struct mem_attrib_ud *m = g_new(struct mem_attrib_ud, 1);
            *m = (struct mem_attrib_ud){ u, t->rec[k] };
            qemu_plugin_register_vcpu_mem_cb(insn, mem_cb_attrib, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, m);
        } else {
            qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, (void *)u);
        }
    }
}

/* The block cut into segments (ends_segment), each instrumented. */
static void tb_segments(const struct tb_view *t)
{
    size_t s = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (ends_segment(t, i)) {
            tb_segment(t, s, i);
            s = i + 1;
        }
    }
}

static void count_inline(struct qemu_plugin_insn *insn, qemu_plugin_u64 counter)
{
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                        counter, 1);
}

/* The entry of the kernel's disk_request() (disk_pc=): its callback, on
 * the first instruction or after a SPARC save (fn_entry). */
static uint64_t disk_after_pc;

static void disk_hook(const struct tb_view *t, size_t i, struct qemu_plugin_insn *insn)
{
    enum fn_entry e = fn_entry(t->kva[i], t->code[i], t->len[i], hw.p.disk_pc, &disk_after_pc);
    if (e != FN_NOT)
        qemu_plugin_register_vcpu_insn_exec_cb(insn, e == FN_ENTRY ? disk_fn_cb : disk_fn_in_cb,
                                               QEMU_PLUGIN_CB_R_REGS, insn_rec(t, i));
}

/* A marker's callback: read its arguments (region, disk), or fill the
 * clock's mailbox, which needs the instruction's host address (so not in
 * ROM, where it has no physical address either). */
static void marker_hook(const struct tb_view *t, size_t i, struct qemu_plugin_insn *insn)
{
    switch (t->mk[i]) {
    case MK_REGION:
        qemu_plugin_register_vcpu_insn_exec_cb(insn, region_cb, QEMU_PLUGIN_CB_R_REGS, NULL);
        break;
    case MK_CLOCK:
        if (t->pa[i] != NO_PADDR)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, clock_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                   qemu_plugin_insn_haddr(insn));
        break;
    case MK_DISK:
        qemu_plugin_register_vcpu_insn_exec_cb(insn, disk_cb, QEMU_PLUGIN_CB_R_REGS,
                                               insn_rec(t, i));
        break;
    case MK_NONE:
        break;
    }
}

/* The instructions the model must see run, one by one, each after its
 * segment's inline adds: those that may remap (a new generation of
 * data_paddr's table, before they run), trap entries and window traps
 * (counted), disk_request(), the write log's functions and the trap vector
 * (writelog= only), and markers. */
static void tb_events(const struct tb_view *t)
{
    for (size_t i = 0; i < t->n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(t->tb, i);
        uint64_t va = t->kva[i];
        if (isa->remaps && isa->remaps(t->code[i], t->len[i]))
            count_inline(insn, e_map_gen);
        if (is_trap_pc(va))
            count_inline(insn, e_traps);
        if (is_window_pc(va))
            count_inline(insn, va == hw.p.wovf_pc ? e_wovf : e_wunf);
        disk_hook(t, i, insn);
        if (wlog_on()) {
            wlog_hook(insn, va, t->code[i], t->len[i], hw.p.wlog_write_pc, 0, wlog_write_cb);
            wlog_hook(insn, va, t->code[i], t->len[i], hw.p.wlog_dirty_pc, 1, wlog_dirty_cb);
            if (is_trap_pc(va))
                qemu_plugin_register_vcpu_insn_exec_cb(insn, wlog_trap_cb,
                                                       QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
        marker_hook(t, i, insn);
    }
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint8_t code[n][16];
    size_t len[n];
    uint64_t vaddr[n], pa[n], kva[n], cost[n];
    enum marker mk[n];
    struct attrib_insn *rec[n];
    struct tb_view t = {
        .tb = tb, .n = n, .code = code, .len = len, .vaddr = vaddr, .pa = pa, .kva = kva,
        .cost = cost, .mk = mk, .rec = hw.attributing ? rec : NULL,
    };

    g_mutex_lock(&trans_lock);          /* host_base, the lines' arena and table, attrib's */
    tb_read(&t);
    if (t.rec)
        tb_attrib_records(&t);
    tb_icache(&t);
    g_mutex_unlock(&trans_lock);
    if (hw.tlb_counts)
        tlb_hooks_trans(tb, n, code, len, insn_rec(&t, 0));
    tb_segments(&t);
    if (hw.net)
        net_trans(tb, n, code, len, kva);
    tb_events(&t);
}

/* ------------------------------------------------------------ setup */

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
    hw.c = qemu_plugin_scoreboard_find(score, 0);
    map_gen = qemu_plugin_scoreboard_find(map_score, 0);
    if (vcpu != 0)
        return;
    if (hw.net)
        net_vcpu_init();
    GArray *regs = qemu_plugin_get_registers();
    for (guint i = 0; i < regs->len; i++) {
        qemu_plugin_reg_descriptor *d = &g_array_index(regs, qemu_plugin_reg_descriptor, i);
        for (int k = 0; k < 3; k++)
            if (strcmp(d->name, isa->arg_reg[k]) == 0)
                arg_reg[k] = d->handle;
        if (isa->stack_reg && strcmp(d->name, isa->stack_reg) == 0)
            stack_reg = d->handle;
    }
    if (hw.tlb)
        tlb_hooks_registers(regs);          /* kept, to find the roots' registers */
    else
        g_array_free(regs, true);
    /* A target with no register names (MIPS): a register's handle is its
     * gdb number + 1 (QEMU 10.0, plugins/api.c create_register_handles),
     * and qemu_plugin_read_register reads core registers by that number
     * whether or not they are listed. */
    for (int k = 0; k < 3; k++) {
        if (!arg_reg[k] && isa->arg_regnum)
            arg_reg[k] = (struct qemu_plugin_register *)(uintptr_t)(isa->arg_regnum[k] + 1);
        if (isa->in_regnum)
            in_reg[k] = (struct qemu_plugin_register *)(uintptr_t)(isa->in_regnum[k] + 1);
    }
    for (int k = 0; k < 3; k++)
        if (!arg_reg[k])
            hw_warn("no_register name=%s", isa->arg_reg[k]);
    if (isa->stack_reg && !stack_reg)
        hw_warn("no_register name=%s", isa->stack_reg);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    if (!host_base)
        hw_warn("anchor_never_ran anchor=0x%" PRIx64, hw.p.anchor);
    if (hw.net)
        net_exit();
    hw_finish();
}

static int refuse(const char *why)
{
    fprintf(stderr, "hwmodel: %s\n", why);
    return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    hw_defaults();
    for (int i = 0; i < argc; i++) {
        const char *err = hw_option(argv[i], strlen(argv[i]));
        if (err)
            return refuse(err);
    }
    /* The decoder for QEMU's target: each isa_*.c names its own (qemu_isa.h). */
    for (const struct qemu_target *t = __start_qemu_targets; t < __stop_qemu_targets && !isa; t++)
        if (strcmp(info->target_name, t->name) == 0)
            isa = t->isa;
    if (!isa) {
        fprintf(stderr, "hwmodel: no instruction classes for target %s (these have them:",
                info->target_name);
        for (const struct qemu_target *t = __start_qemu_targets; t < __stop_qemu_targets; t++)
            fprintf(stderr, " %s", t->name);
        fprintf(stderr, ")\n");
        return -1;
    }
    if (!info->system_emulation || info->system.max_vcpus != 1)
        return refuse("models one processor in system emulation (-smp 1)");
    if (!hw.p.anchor)
        return refuse("anchor=ADDR is needed (the kernel's entry point)");
    if (hw.p.anchor_pa == UINT64_MAX)
        hw.p.anchor_pa = hw.p.anchor;       /* it runs before any translation */
    hw.outs = qemu_plugin_outs;
    const char *err = hw_start(isa->name);
    if (err || (hw.net && (err = net_install()) != NULL))
        return refuse(err);

    score = qemu_plugin_scoreboard_new(sizeof(struct counters));  /* hw.c: in vcpu_init */
    e_insns = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, insns);
    e_static = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, static_mcyc);
    e_traps = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, traps);
    e_attrib = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, attrib_on);
    e_wovf = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, wovf);
    e_wunf = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, wunf);
    if (hw.tlb_counts)
        tlb_hooks_install(qemu_plugin_scoreboard_u64_in_struct(score, struct counters, segloads));
    map_score = qemu_plugin_scoreboard_new(sizeof(uint64_t));
    e_map_gen = qemu_plugin_scoreboard_u64(map_score);
    for (size_t i = 0; i < G_N_ELEMENTS(pages); i++)
        pages[i].tag = UINT64_MAX;
    pages_on = isa->remaps != NULL && hw.p.fast;   /* fast=false: QEMU asked every time */
    regbuf = g_byte_array_new();
    ilines_table = g_hash_table_new(iblock_hash, iblock_equal);

    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
