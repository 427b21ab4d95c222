/*
 * hwmodel.c: a QEMU TCG plugin that times a guest as if it ran on a given
 * machine (a DECstation 3100, a Sun-4, ...).  Built as libhwmodel.so;
 * hw-models/README.md says how to use it, and the harness (harness/hwmodel.py)
 * turns a profile (hw-models/profiles/NAME.toml) into its arguments.
 *
 * How time is modelled.  Each instruction costs CPI cycles plus an extra for
 * its class (branch, multiply, divide), and each data access the extra of a
 * load or a store; entering the trap vector costs a trap penalty; caches,
 * the write buffer and memory add stall cycles (memsys.c); a disk request
 * adds the disk's time.  QEMU itself still runs
 * with -icount, which keeps the run deterministic; the model's clock is its
 * own and is read by the guest through the clock marker's mailbox.
 *
 * How it stays cheap.  At translation time each block is cut into segments
 * that end at a marker; the instruction count and the static cost (CPI and
 * class extras) of a segment are added by two inline operations QEMU emits
 * in front of it, with no function call.  Every memory access calls
 * mem_cb(), which charges the load or store extra and runs the cache model;
 * it receives the static cost still to come in its segment, so that it knows
 * the exact current time.  Each block
 * with I-cache lines calls tb_icache_cb() once.  Markers call their own
 * callbacks, and only markers read registers.
 *
 * What it writes (to out=FILE, else QEMU's log), one line each:
 *   HWMODEL key=value ...          the parameters, at start
 *   HWREGION seq=N id=ID insns=... one record per timed region (at its end)
 *   HWTOTAL insns=...              the whole run, at exit
 *   HWWARN what=...                something the model could not do
 *
 * For checking the cache model (tests/hwmodel_ref.py), trace=FILE and
 * trace_region=ID write every access of region ID to FILE, one per line:
 * "B id" where the region begins (the caches are emptied there), then
 * "I paddr 4" per I-cache line fetched, "R paddr size", "W paddr size".
 *
 * attrib=FILE and attrib_region=ID attribute region ID's cycles to
 * instruction addresses (attrib.c).
 *
 * On SPARC, wovf_pc=ADDR and wunf_pc=ADDR name the register window overflow
 * and underflow handlers: they are traps too (charged the trap penalty),
 * counted apart from the others (wovf=, wunf= in the records).
 *
 * Disk requests are charged at the disk marker, or, with disk_pc=ADDR, at
 * the entry of the kernel's disk_request() (every request of the storage
 * layer passes through it; its arguments are where the ISA's C calling
 * convention puts them: isa_*.c).
 *
 * Instruction physical addresses (for the I-cache) come from where QEMU
 * keeps guest RAM on the host: the plugin learns that once, at anchor=ADDR,
 * an instruction whose virtual address is also its physical one (the
 * kernel's entry point, which runs before any address translation), or
 * whose physical address anchor_pa= gives (on MIPS the kernel runs in
 * kseg0, where physical = virtual - 0x80000000 with no translation).
 */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "model.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_TRAP_PCS 8
#define MAX_OPEN     16

/* ------------------------------------------------------------ parameters */

static struct {
    struct memsys_params mem;
    double cpi;
    double extra[NCLASS];               /* extra cycles by class */
    double trap_cycles;                 /* trap entry penalty */
    uint64_t trap_pc[MAX_TRAP_PCS];
    int n_trap_pc;
    uint64_t ram_base, ram_size;        /* guest RAM, for instruction paddrs */
    uint64_t anchor, anchor_pa;         /* an instruction and its physical address */
    double disk_overhead_us, disk_seek_ms, disk_rpm, disk_mbs;
    uint64_t disk_cyl_sectors;
    uint64_t disk_pc, disk_block;       /* the kernel's disk_request(), its block size */
    uint64_t wovf_pc, wunf_pc;          /* SPARC: the window trap handlers */
    const char *out, *trace, *attrib;
    int64_t trace_region, attrib_region;
} P = {
    .cpi = 1.0,
    .mem = { .bus_bytes = 4 },
    .ram_base = 0x80000000, .ram_size = 128 << 20,
    .anchor_pa = UINT64_MAX,
    .disk_cyl_sectors = 1,
    .disk_block = 1024,
    .trace_region = -1,
    .attrib_region = -1,
};

enum type { T_U64, T_U32, T_F64, T_BOOL, T_STR, T_PC, T_I64 };

static const struct opt {
    const char *key;
    enum type type;
    void *p;
} opts[] = {
    { "clock_mhz", T_F64, &P.mem.clock_mhz },
    { "cpi", T_F64, &P.cpi },
    { "load", T_F64, &P.extra[CL_LOAD] },
    { "store", T_F64, &P.extra[CL_STORE] },
    { "branch", T_F64, &P.extra[CL_BRANCH] },
    { "mul", T_F64, &P.extra[CL_MUL] },
    { "div", T_F64, &P.extra[CL_DIV] },
    { "trap", T_F64, &P.trap_cycles },
    { "trap_pc", T_PC, NULL },
    { "ic_size", T_U32, &P.mem.ic.size },
    { "ic_line", T_U32, &P.mem.ic.line },
    { "ic_assoc", T_U32, &P.mem.ic.assoc },
    { "dc_size", T_U32, &P.mem.dc.size },
    { "dc_line", T_U32, &P.mem.dc.line },
    { "dc_assoc", T_U32, &P.mem.dc.assoc },
    { "dc_wb", T_BOOL, &P.mem.dc.write_back },
    { "dc_alloc", T_BOOL, &P.mem.dc.write_allocate },
    { "unified", T_BOOL, &P.mem.unified },
    { "wbuf", T_U32, &P.mem.wbuf_entries },
    { "l2_size", T_U32, &P.mem.l2.size },
    { "l2_line", T_U32, &P.mem.l2.line },
    { "l2_assoc", T_U32, &P.mem.l2.assoc },
    { "l2_wb", T_BOOL, &P.mem.l2.write_back },
    { "l2_alloc", T_BOOL, &P.mem.l2.write_allocate },
    { "l2_ns", T_F64, &P.mem.l2_latency_ns },
    { "mem_ns", T_F64, &P.mem.mem_latency_ns },
    { "mem_mbs", T_F64, &P.mem.mem_mbs },
    { "bus", T_U32, &P.mem.bus_bytes },
    { "disk_overhead_us", T_F64, &P.disk_overhead_us },
    { "disk_seek_ms", T_F64, &P.disk_seek_ms },
    { "disk_rpm", T_F64, &P.disk_rpm },
    { "disk_mbs", T_F64, &P.disk_mbs },
    { "disk_cyl_sectors", T_U64, &P.disk_cyl_sectors },
    { "disk_pc", T_U64, &P.disk_pc },
    { "disk_block", T_U64, &P.disk_block },
    { "wovf_pc", T_U64, &P.wovf_pc },
    { "wunf_pc", T_U64, &P.wunf_pc },
    { "ram_base", T_U64, &P.ram_base },
    { "ram_size", T_U64, &P.ram_size },
    { "anchor", T_U64, &P.anchor },
    { "anchor_pa", T_U64, &P.anchor_pa },
    { "out", T_STR, &P.out },
    { "trace", T_STR, &P.trace },
    { "trace_region", T_I64, &P.trace_region },
    { "attrib", T_STR, &P.attrib },
    { "attrib_region", T_I64, &P.attrib_region },
};

/* key=value -> P.  Returns an error message or NULL. */
static const char *parse_arg(const char *arg)
{
    static char msg[200];
    const char *eq = strchr(arg, '=');
    if (!eq) {
        snprintf(msg, sizeof(msg), "argument %s is not key=value", arg);
        return msg;
    }
    size_t klen = eq - arg;
    const char *val = eq + 1;
    for (size_t i = 0; i < G_N_ELEMENTS(opts); i++) {
        const struct opt *o = &opts[i];
        if (strlen(o->key) != klen || strncmp(o->key, arg, klen) != 0)
            continue;
        char *end = NULL;
        switch (o->type) {
        case T_F64:
            *(double *)o->p = strtod(val, &end);
            break;
        case T_U64:
            *(uint64_t *)o->p = strtoull(val, &end, 0);
            break;
        case T_I64:
            *(int64_t *)o->p = strtoll(val, &end, 0);
            break;
        case T_U32:
            *(uint32_t *)o->p = (uint32_t)strtoul(val, &end, 0);
            break;
        case T_PC:
            if (P.n_trap_pc == MAX_TRAP_PCS)
                return "too many trap_pc arguments";
            P.trap_pc[P.n_trap_pc++] = strtoull(val, &end, 0);
            break;
        case T_BOOL:
            if (!qemu_plugin_bool_parse(o->key, val, (bool *)o->p))
                goto bad;
            return NULL;
        case T_STR:
            *(const char **)o->p = val;
            return NULL;
        }
        if (end == val || *end != '\0')
            goto bad;
        return NULL;
    bad:
        snprintf(msg, sizeof(msg), "bad value for %s: %s", o->key, val);
        return msg;
    }
    snprintf(msg, sizeof(msg), "unknown argument %.*s", (int)klen, arg);
    return msg;
}

/* ------------------------------------------------------------ state */

static const struct isa *isa;
static struct memsys *mem;
static struct qemu_plugin_scoreboard *score;
static struct counters *C;              /* vCPU 0's entry in `score` */
static qemu_plugin_u64 e_insns, e_static, e_traps, e_attrib, e_wovf, e_wunf;
static bool windows;                    /* wovf_pc or wunf_pc given */
static bool attributing;                /* attrib= given */
static uint64_t cpi_mcyc, extra_mcyc[NCLASS], trap_mcyc;
static uint64_t clock_khz;
static struct qemu_plugin_register *arg_reg[3], *stack_reg, *in_reg[3];
static GByteArray *regbuf;
static FILE *out, *trace;
static bool tracing;
static GHashTable *ilines_table;        /* interned tb_ilines */
static GMutex trans_lock;

/* Guest RAM as QEMU holds it on the host: one block, learnt from the
 * instruction at P.anchor.  Gives instruction physical addresses. */
static const uint8_t *host_base;

static uint64_t mcyc_to_ns(uint64_t mcyc)
{
    return (uint64_t)((unsigned __int128)mcyc * 1000 / clock_khz);
}

/*
 * The clock the guest reads, in whole ns.  Rounding the absolute time down
 * would make a region's span depend on where the run happened to be when it
 * began (how many interrupts the typing cost, say), by a nanosecond either
 * way; so the clock counts from a base that moves to each region's start:
 * spans inside a region then depend only on the region, and repeat exactly.
 */
static uint64_t clock_base_mcyc, clock_base_ns;

static uint64_t clock_ns(uint64_t mcyc)
{
    return clock_base_ns + mcyc_to_ns(mcyc - clock_base_mcyc);
}

static void clock_rebase(uint64_t mcyc)
{
    clock_base_ns = clock_ns(mcyc);
    clock_base_mcyc = mcyc;
}

static uint64_t now_mcyc(void)
{
    return C->static_mcyc + C->stall_mcyc;
}

static void say(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (out) {
        vfprintf(out, fmt, ap);
        fflush(out);
    } else {
        char *s = g_strdup_vprintf(fmt, ap);
        qemu_plugin_outs(s);
        g_free(s);
    }
    va_end(ap);
}

/* ------------------------------------------------------------ regions */

struct open_region {
    bool used;
    uint32_t id;
    struct counters at;
    uint64_t at_mcyc, at_ns;
    uint64_t clock_first, clock_last;
    uint32_t clock_reads;
};

static struct open_region open_regions[MAX_OPEN];
static uint32_t region_seq;

#define D(f) (now->f - then->f)

static void print_counters(const char *word, const char *head, const struct counters *now,
                           const struct counters *then, uint64_t mcyc_now, uint64_t mcyc_then,
                           uint64_t ns, const char *tail)
{
    uint64_t cyc = (mcyc_now - mcyc_then + MCYC / 2) / MCYC;
    char win[64] = "";                  /* only where there are window traps */
    if (windows)
        snprintf(win, sizeof(win), " wovf=%" PRIu64 " wunf=%" PRIu64, D(wovf), D(wunf));
    say("%s%s insns=%" PRIu64 " loads=%" PRIu64 " stores=%" PRIu64
        " imiss=%" PRIu64 " dmiss=%" PRIu64 " dmiss_w=%" PRIu64 " writebacks=%" PRIu64
        " l2miss=%" PRIu64 " bytes_in=%" PRIu64 " bytes_out=%" PRIu64
        " traps=%" PRIu64 "%s disk=%" PRIu64 " disk_ns=%" PRIu64
        " stall_cycles=%" PRIu64 " wbuf_cycles=%" PRIu64
        " cycles=%" PRIu64 " ns=%" PRIu64 "%s\n",
        word, head, D(insns), D(loads), D(stores), D(imiss), D(dmiss), D(dmiss_w),
        D(writebacks), D(l2miss), D(bytes_in), D(bytes_out), D(traps), win, D(disk_reqs),
        mcyc_to_ns(D(disk_mcyc)), (D(stall_mcyc) + MCYC / 2) / MCYC,
        (D(wbuf_stall_mcyc) + MCYC / 2) / MCYC, cyc, ns, tail);
}

static void region_begin(uint32_t id)
{
    struct open_region *r = NULL;
    for (int i = 0; i < MAX_OPEN && !r; i++)
        if (open_regions[i].used && open_regions[i].id == id)
            r = &open_regions[i];           /* begun again: restart it */
    for (int i = 0; i < MAX_OPEN && !r; i++)
        if (!open_regions[i].used)
            r = &open_regions[i];
    if (!r) {
        say("HWWARN what=too_many_open_regions id=%u\n", id);
        return;
    }
    uint64_t now = now_mcyc();
    clock_rebase(now);
    *r = (struct open_region){ .used = true, .id = id, .at = *C, .at_mcyc = now,
                               .at_ns = clock_ns(now) };
    if (attributing && (int64_t)id == P.attrib_region)
        C->attrib_on = 1;
    if (trace && (int64_t)id == P.trace_region) {
        memsys_flush(mem);                  /* the reference simulator starts cold */
        tracing = true;
        fprintf(trace, "B %u\n", id);
        r->at = *C;
    }
}

static void region_end(uint32_t id)
{
    for (int i = 0; i < MAX_OPEN; i++) {
        struct open_region *r = &open_regions[i];
        if (!r->used || r->id != id)
            continue;
        char head[64], tail[96];
        snprintf(head, sizeof(head), " seq=%u id=%u", ++region_seq, id);
        snprintf(tail, sizeof(tail), " clock_reads=%u clock_ns=%" PRIu64, r->clock_reads,
                 r->clock_reads >= 2 ? r->clock_last - r->clock_first : 0);
        uint64_t now = now_mcyc();
        print_counters("HWREGION", head, C, &r->at, now, r->at_mcyc, clock_ns(now) - r->at_ns,
                       tail);
        r->used = false;
        if (tracing && (int64_t)id == P.trace_region) {
            tracing = false;
            fflush(trace);
        }
        if (attributing && (int64_t)id == P.attrib_region) {
            C->attrib_on = 0;
            attrib_dump(id);
        }
        return;
    }
    say("HWWARN what=end_without_begin id=%u\n", id);
}

/* ------------------------------------------------------------ callbacks */

/* n bytes in the guest's byte order -> a number */
static uint64_t guest_uint(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int k = 0; k < n && k < 8; k++)
        v |= (uint64_t)p[isa->big_endian ? n - 1 - k : k] << (8 * k);
    return v;
}

static uint64_t read_reg(struct qemu_plugin_register *r)
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
        say("HWWARN what=cannot_read_argument addr=0x%" PRIx64 "\n", addr);
        return 0;
    }
    return guest_uint(regbuf->data, 4);
}

static void region_cb(unsigned int vcpu, void *ud)
{
    uint64_t a0 = read_arg(0);
    if (a0 & 1)
        region_end((uint32_t)(a0 >> 1));
    else
        region_begin((uint32_t)(a0 >> 1));
}

/* The guest is about to read the clock: put the modelled time in the
 * mailbox after the marker (isa_riscv.c).  Writing guest RAM through the
 * instruction's host pointer is the QEMU 10.0 way; with QEMU 10.1's
 * qemu_plugin_write_memory_vaddr this is the one function to change. */
static void clock_cb(unsigned int vcpu, void *ud)
{
    uint8_t *box = (uint8_t *)ud + 16;
    uint64_t ns = clock_ns(now_mcyc());
    for (int k = 0; k < 8; k++)
        box[isa->big_endian ? 7 - k : k] = (uint8_t)(ns >> (8 * k));
    for (int k = 0; k < 4; k++)
        box[8 + k] = (isa->big_endian ? k == 3 : k == 0);
    for (int i = 0; i < MAX_OPEN; i++) {
        struct open_region *r = &open_regions[i];
        if (!r->used)
            continue;
        if (r->clock_reads++ == 0)
            r->clock_first = ns;
        r->clock_last = ns;
    }
}

/* A disk request: the process waits for it (a synchronous read or write),
 * so its time is added to the clock.  Seek when the cylinder changes, half
 * a rotation unless the request continues where the last one ended, then
 * the transfer. */
static uint64_t disk_next_sector = UINT64_MAX, disk_cyl = UINT64_MAX;

static void disk_charge(uint64_t sector, uint64_t bytes, void *ud)
{
    double ns = P.disk_overhead_us * 1e3;
    if (sector != disk_next_sector) {
        uint64_t cyl = sector / P.disk_cyl_sectors;
        if (cyl != disk_cyl)
            ns += P.disk_seek_ms * 1e6;
        ns += P.disk_rpm > 0 ? 0.5 * 60e9 / P.disk_rpm : 0;
        disk_cyl = cyl;
    }
    ns += P.disk_mbs > 0 ? bytes * 1e3 / P.disk_mbs : 0;
    disk_next_sector = sector + (bytes + 511) / 512;
    uint64_t m = memsys_ns_to_mcyc(mem, ns);
    C->stall_mcyc += m;
    C->disk_mcyc += m;
    C->disk_reqs++;
    if (ud && C->attrib_on)
        ((struct attrib_insn *)ud)->stall_mcyc += m;
}

/* The disk marker: a0 = sector, a1 = bytes (a2 = write: the cost is the same). */
static void disk_cb(unsigned int vcpu, void *ud)
{
    disk_charge(read_arg(0), read_arg(1), ud);
}

/* The entry of the kernel's disk_request(int write, uint32 blockno, uint32 n)
 * (kernel/port/ramdisk.c), found by its symbol. */
static void disk_fn_cb(unsigned int vcpu, void *ud)
{
    uint64_t block = read_fn_arg(1), n = read_fn_arg(2);
    disk_charge(block * (P.disk_block / 512), n * P.disk_block, ud);
}

/* The same, one instruction later, where disk_request() begins with a
 * SPARC save (isa->opens_window): the save may take a window overflow
 * trap and run again, which would charge the request twice, and after it
 * the arguments are in %i0-%i2. */
static uint64_t disk_after_pc;

static void disk_fn_in_cb(unsigned int vcpu, void *ud)
{
    uint64_t block = read_reg(in_reg[1]), n = read_reg(in_reg[2]);
    disk_charge(block * (P.disk_block / 512), n * P.disk_block, ud);
}

/*
 * Every load and store.  `ud` packs what translation knew about the
 * instruction, to spare two calls into QEMU per access:
 *      bits 0-1  log2 of the access size     } valid if bit 3 is set
 *      bit 2     store                       } (else ask QEMU)
 *      bits 4-   the static cost still to come in this instruction's
 *                segment, already added: subtract it for the exact time.
 */
#define UD_KNOWN 8u
#define UD_STORE 4u

static uintptr_t mem_ud(uint64_t rest, const uint8_t *bytes, size_t len)
{
    bool store = false;
    int shift = isa->mem_access ? isa->mem_access(bytes, len, &store) : -1;
    uintptr_t u = (uintptr_t)rest << 4;
    if (shift >= 0)
        u |= UD_KNOWN | (store ? UD_STORE : 0) | (uintptr_t)shift;
    return u;
}

static uint64_t load_mcyc, store_mcyc;  /* the extras of one access */

static void mem_cb(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    uintptr_t u = (uintptr_t)ud;
    bool store;
    unsigned size;
    if (u & UD_KNOWN) {
        store = u & UD_STORE;
        size = 1u << (u & 3);
#ifdef CHECK_DECODE
        if (store != qemu_plugin_mem_is_store(info) ||
            size != 1u << qemu_plugin_mem_size_shift(info))
            say("HWWARN what=decode_mismatch\n");
#endif
    } else {
        store = qemu_plugin_mem_is_store(info);
        size = 1u << qemu_plugin_mem_size_shift(info);
    }
    if (store) {
        C->stores++;
        C->static_mcyc += store_mcyc;
    } else {
        C->loads++;
        C->static_mcyc += load_mcyc;
    }
#ifdef STUB_LEVEL
    if (STUB_LEVEL == 0) return;
#endif
    struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
    if (!hw || qemu_plugin_hwaddr_is_io(hw))
        return;                             /* device registers: not modelled */
    uint64_t pa = qemu_plugin_hwaddr_phys_addr(hw);
    if (tracing)
        fprintf(trace, "%c %" PRIx64 " %u\n", store ? 'W' : 'R', pa, size);
#ifdef STUB_LEVEL
    if (STUB_LEVEL == 1) { C->bytes_in += pa & 1; return; }
#endif
    uint64_t now = now_mcyc() - (u >> 4);
    C->stall_mcyc += memsys_data(mem, C, now, pa, size, store) - now;
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
    uint64_t static_before = C->static_mcyc, stall_before = C->stall_mcyc;
    mem_cb(vcpu, info, vaddr, (void *)m->ud);
    if (C->attrib_on) {
        m->a->access_mcyc += C->static_mcyc - static_before;
        m->a->stall_mcyc += C->stall_mcyc - stall_before;
    }
}

/* The I-cache lines one block touches, in order.  `a` (attrib= only) is the
 * block's first instruction, which the fetch stalls are charged to. */
struct tb_ilines {
    struct attrib_insn *a;
    uint64_t seen;                      /* for memsys_ifetch_block */
    uint32_t n;
    uint64_t line[];
};

static void tb_icache_cb(unsigned int vcpu, void *ud)
{
    struct tb_ilines *L = ud;
    uint64_t now = now_mcyc();
    uint64_t t = now;
    if (tracing) {
        for (uint32_t i = 0; i < L->n; i++) {
            fprintf(trace, "I %" PRIx64 " 4\n", L->line[i] << memsys_iline_shift(mem));
            t = memsys_ifetch(mem, C, t, L->line[i]);
        }
        L->seen = 0;
    } else {
        t = memsys_ifetch_block(mem, C, t, L->line, L->n, &L->seen);
    }
    C->stall_mcyc += t - now;
    if (L->a && C->attrib_on)
        L->a->stall_mcyc += t - now;
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
    if (!host_base && vaddr == P.anchor)
        host_base = h - (P.anchor_pa - P.ram_base);
    if (!host_base || h < host_base || (uint64_t)(h - host_base) >= P.ram_size)
        return NO_PADDR;                    /* ROM, or RAM not located yet */
    return P.ram_base + (uint64_t)(h - host_base);
}

static struct tb_ilines *intern_ilines(const uint64_t *lines, uint32_t n,
                                             struct attrib_insn *a)
{
    if (a) {                                /* attributing: one per block, not shared */
        struct tb_ilines *L = g_malloc(sizeof(*L) + n * sizeof(uint64_t));
        L->a = a;
        L->seen = 0;
        L->n = n;
        memcpy(L->line, lines, n * sizeof(uint64_t));
        return L;
    }
    GBytes *key = g_bytes_new(lines, n * sizeof(uint64_t));
    struct tb_ilines *L = g_hash_table_lookup(ilines_table, key);
    if (L) {
        g_bytes_unref(key);
        return L;
    }
    L = g_malloc(sizeof(*L) + n * sizeof(uint64_t));
    L->a = NULL;
    L->seen = 0;
    L->n = n;
    memcpy(L->line, lines, n * sizeof(uint64_t));
    g_hash_table_insert(ilines_table, key, L);
    return L;
}

static bool is_trap_pc(uint64_t vaddr)
{
    for (int i = 0; i < P.n_trap_pc; i++)
        if (P.trap_pc[i] == vaddr)
            return true;
    return false;
}

/* The window trap handlers: trap entries too, counted apart. */
static bool is_window_pc(uint64_t vaddr)
{
    return windows && (vaddr == P.wovf_pc || vaddr == P.wunf_pc);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint64_t cost[n];
    enum marker mk[n];
    uint8_t code[n][16];
    size_t code_len[n];
    struct tb_attrib *ta = NULL;
    uint64_t pa[n];
    uint64_t lines[2 * n];
    uint32_t nlines = 0;
    bool icache = memsys_has_icache(mem);
    unsigned ishift = memsys_iline_shift(mem);

    g_mutex_lock(&trans_lock);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint8_t *bytes = code[i];
        size_t len = code_len[i] = qemu_plugin_insn_data(insn, bytes, sizeof(code[i]));
        cost[i] = cpi_mcyc + extra_mcyc[isa->classify(bytes, len)];
        if ((P.n_trap_pc && is_trap_pc(qemu_plugin_insn_vaddr(insn))) ||
            is_window_pc(qemu_plugin_insn_vaddr(insn)))
            cost[i] += trap_mcyc;
        mk[i] = isa->marker(bytes, len);
        pa[i] = insn_paddr(qemu_plugin_insn_haddr(insn), qemu_plugin_insn_vaddr(insn));
        /* the lines of its first and last bytes (an x86 or 68k instruction
         * may straddle two; not two pages, whose frames need not follow) */
        uint64_t last = pa[i] + (len ? len - 1 : 0);
        bool one_page = ((pa[i] ^ last) >> 12) == 0;
        for (int end = 0; icache && pa[i] != NO_PADDR && end < 1 + one_page; end++) {
            uint64_t line = (end ? last : pa[i]) >> ishift;
            if (nlines == 0 || lines[nlines - 1] != line)
                lines[nlines++] = line;
        }
    }
    if (attributing) {
        ta = g_malloc(sizeof(*ta) + n * sizeof(ta->a[0]));
        ta->n = n;
        for (size_t i = 0; i < n; i++) {
            struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
            ta->a[i] = attrib_insn(qemu_plugin_insn_haddr(insn), qemu_plugin_insn_vaddr(insn),
                                   pa[i] == NO_PADDR ? UINT64_MAX : pa[i], cost[i]);
        }
    }
    if (nlines > 0)
        qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_icache_cb, QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)intern_ilines(lines, nlines,
                                                                   ta ? ta->a[0] : NULL));
    g_mutex_unlock(&trans_lock);

    /* Segments: up to and including each marker, and the rest.  The inline
     * adds go on a segment's first instruction and are registered before any
     * callback on it, so a marker's callback sees its own segment counted.
     * An exception in the middle of a segment leaves the instructions after
     * it counted but not run; where that is routine (isa->restarts: the
     * loads and stores whose TLB misses MIPS refills in software, SPARC's
     * save and restore on register window overflow and underflow) a segment
     * also ends at each such instruction, so that only the instruction the
     * kernel restarts is counted again (the processor issues it twice). */
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
        bool restarts = isa->restarts && isa->restarts(code[i], code_len[i]);
        if (mk[i] == MK_NONE && i != n - 1 && !restarts)
            continue;
        uint64_t sum = 0;
        for (size_t k = s; k <= i; k++)
            sum += cost[k];
        struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, s);
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                            e_insns, i - s + 1);
        qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                            e_static, sum);
        if (ta) {                       /* executions, counted as the segment is */
            struct tb_attrib *seg = g_malloc(sizeof(*seg) + (i - s + 1) * sizeof(seg->a[0]));
            seg->n = i - s + 1;
            for (size_t k = s; k <= i; k++)
                seg->a[k - s] = ta->a[k];
            qemu_plugin_register_vcpu_insn_exec_cond_cb(first, tb_attrib_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                        QEMU_PLUGIN_COND_NE, e_attrib, 0, seg);
        }
        /* each instruction's memory callback learns what is still to come */
        uint64_t rest = sum;
        for (size_t k = s; k <= i; k++) {
            rest -= cost[k];
            struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
            uintptr_t u = mem_ud(rest, code[k], code_len[k]);
            if (ta) {
                struct mem_attrib_ud *m = g_new(struct mem_attrib_ud, 1);
                *m = (struct mem_attrib_ud){ u, ta->a[k] };
                qemu_plugin_register_vcpu_mem_cb(insn, mem_cb_attrib, QEMU_PLUGIN_CB_NO_REGS,
                                                 QEMU_PLUGIN_MEM_RW, m);
            } else {
                qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                 QEMU_PLUGIN_MEM_RW, (void *)u);
            }
        }
        s = i + 1;
    }

    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (P.n_trap_pc && is_trap_pc(qemu_plugin_insn_vaddr(insn)))
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                                e_traps, 1);
        if (is_window_pc(qemu_plugin_insn_vaddr(insn)))
            qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(
                insn, QEMU_PLUGIN_INLINE_ADD_U64,
                qemu_plugin_insn_vaddr(insn) == P.wovf_pc ? e_wovf : e_wunf, 1);
        uint64_t va = qemu_plugin_insn_vaddr(insn);
        if (P.disk_pc && va == P.disk_pc) {
            if (isa->opens_window && isa->opens_window(code[i], code_len[i]))
                disk_after_pc = va + code_len[i];
            else
                qemu_plugin_register_vcpu_insn_exec_cb(insn, disk_fn_cb, QEMU_PLUGIN_CB_R_REGS,
                                                       ta ? ta->a[i] : NULL);
        }
        if (disk_after_pc && va == disk_after_pc)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, disk_fn_in_cb, QEMU_PLUGIN_CB_R_REGS,
                                                   ta ? ta->a[i] : NULL);
        switch (mk[i]) {
        case MK_REGION:
            qemu_plugin_register_vcpu_insn_exec_cb(insn, region_cb, QEMU_PLUGIN_CB_R_REGS, NULL);
            break;
        case MK_CLOCK:
            if (pa[i] != NO_PADDR)
                qemu_plugin_register_vcpu_insn_exec_cb(insn, clock_cb, QEMU_PLUGIN_CB_NO_REGS,
                                                       qemu_plugin_insn_haddr(insn));
            break;
        case MK_DISK:
            qemu_plugin_register_vcpu_insn_exec_cb(insn, disk_cb, QEMU_PLUGIN_CB_R_REGS,
                                                   ta ? ta->a[i] : NULL);
            break;
        case MK_NONE:
            break;
        }
    }
}

/* ------------------------------------------------------------ setup */

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
    C = qemu_plugin_scoreboard_find(score, 0);
    if (vcpu != 0)
        return;
    GArray *regs = qemu_plugin_get_registers();
    for (guint i = 0; i < regs->len; i++) {
        qemu_plugin_reg_descriptor *d = &g_array_index(regs, qemu_plugin_reg_descriptor, i);
        for (int k = 0; k < 3; k++)
            if (strcmp(d->name, isa->arg_reg[k]) == 0)
                arg_reg[k] = d->handle;
        if (isa->stack_reg && strcmp(d->name, isa->stack_reg) == 0)
            stack_reg = d->handle;
    }
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
            say("HWWARN what=no_register name=%s\n", isa->arg_reg[k]);
    if (isa->stack_reg && !stack_reg)
        say("HWWARN what=no_register name=%s\n", isa->stack_reg);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    struct counters zero = { 0 };
    print_counters("HWTOTAL", "", C, &zero, now_mcyc(), 0, clock_ns(now_mcyc()), "");
    if (!host_base)
        say("HWWARN what=anchor_never_ran anchor=0x%" PRIx64 "\n", P.anchor);
    if (out)
        fclose(out);
    if (trace)
        fclose(trace);
    if (attributing)
        attrib_close();
}

static uint64_t cycles_to_mcyc(double c)
{
    return (uint64_t)llround(c * MCYC);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *err = parse_arg(argv[i]);
        if (err) {
            fprintf(stderr, "hwmodel: %s\n", err);
            return -1;
        }
    }
    static const struct { const char *target; const struct isa *isa; } targets[] = {
        { "riscv32", &isa_riscv }, { "i386", &isa_x86 }, { "m68k", &isa_m68k },
        { "mipsel", &isa_mips },
        { "sparc", &isa_sparc },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(targets) && !isa; i++)
        if (strcmp(info->target_name, targets[i].target) == 0)
            isa = targets[i].isa;
    if (!isa) {
        fprintf(stderr, "hwmodel: no instruction classes for target %s "
                "(riscv32, i386, m68k, mipsel and sparc have them)\n", info->target_name);
        return -1;
    }
    if (!info->system_emulation || info->system.max_vcpus != 1) {
        fprintf(stderr, "hwmodel: models one processor in system emulation (-smp 1)\n");
        return -1;
    }
    if (!(P.cpi > 0)) {
        fprintf(stderr, "hwmodel: cpi must be > 0\n");
        return -1;
    }
    windows = P.wovf_pc || P.wunf_pc;
    if (!P.anchor) {
        fprintf(stderr, "hwmodel: anchor=ADDR is needed (the kernel's entry point)\n");
        return -1;
    }
    if (P.anchor_pa == UINT64_MAX)
        P.anchor_pa = P.anchor;             /* it runs before any translation */
    const char *err;
    mem = memsys_new(&P.mem, &err);
    if (!mem) {
        fprintf(stderr, "hwmodel: %s\n", err);
        return -1;
    }
    if (P.out && !(out = fopen(P.out, "w"))) {
        fprintf(stderr, "hwmodel: cannot write %s\n", P.out);
        return -1;
    }
    if (P.trace && !(trace = fopen(P.trace, "w"))) {
        fprintf(stderr, "hwmodel: cannot write %s\n", P.trace);
        return -1;
    }
    if (P.attrib && !(attributing = attrib_open(P.attrib))) {
        fprintf(stderr, "hwmodel: cannot write %s\n", P.attrib);
        return -1;
    }

    clock_khz = (uint64_t)llround(P.mem.clock_mhz * 1000);
    cpi_mcyc = cycles_to_mcyc(P.cpi);
    for (int k = 0; k < NCLASS; k++)
        extra_mcyc[k] = cycles_to_mcyc(P.extra[k]);
    /* classify() never says load or store: those extras go per access */
    load_mcyc = extra_mcyc[CL_LOAD];
    store_mcyc = extra_mcyc[CL_STORE];
    trap_mcyc = cycles_to_mcyc(P.trap_cycles);

    score = qemu_plugin_scoreboard_new(sizeof(struct counters));  /* C: in vcpu_init */
    e_insns = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, insns);
    e_static = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, static_mcyc);
    e_traps = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, traps);
    e_attrib = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, attrib_on);
    e_wovf = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, wovf);
    e_wunf = qemu_plugin_scoreboard_u64_in_struct(score, struct counters, wunf);
    regbuf = g_byte_array_new();
    ilines_table = g_hash_table_new(g_bytes_hash, g_bytes_equal);

    say("HWMODEL isa=%s clock_mhz=%g cpi=%g load=%g store=%g branch=%g mul=%g div=%g trap=%g "
        "trap_pcs=%d ic=%u/%u/%u dc=%u/%u/%u/%s/%s unified=%d wbuf=%u l2=%u/%u/%u "
        "mem_ns=%g mem_mbs=%g bus=%u\n",
        isa->name, P.mem.clock_mhz, P.cpi, P.extra[CL_LOAD], P.extra[CL_STORE],
        P.extra[CL_BRANCH], P.extra[CL_MUL], P.extra[CL_DIV], P.trap_cycles, P.n_trap_pc,
        P.mem.ic.size, P.mem.ic.line, P.mem.ic.assoc, P.mem.dc.size, P.mem.dc.line,
        P.mem.dc.assoc, P.mem.dc.write_back ? "wb" : "wt",
        P.mem.dc.write_allocate ? "alloc" : "noalloc", P.mem.unified, P.mem.wbuf_entries,
        P.mem.l2.size, P.mem.l2.line, P.mem.l2.assoc, P.mem.mem_latency_ns, P.mem.mem_mbs,
        P.mem.bus_bytes);

    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
