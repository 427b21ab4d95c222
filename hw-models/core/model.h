/*
 * model.h: the hardware-model engine, which both front ends drive.
 *
 * The engine decides how long everything takes; a front end tells it what
 * the guest does.  Two front ends exist:
 *   hw-models/qemu/plugin.c   a QEMU TCG plugin (every ISA QEMU runs): it
 *                             instruments translated code and calls in here
 *                             from its callbacks;
 *   hw-models/simh/vax_model.c  hooks in our SIMH's VAX (vax-model.patch),
 *                             called per instruction, access and trap.
 * The pieces of the engine, one file each:
 *   params.def  every parameter: name, type, range, unit, default, doc;
 *   options.c   the key=value arguments, their defaults and checks, from it;
 *   model.c     start and finish; charging instructions, data accesses,
 *               instruction fetches and traps;
 *   clock.c     modelled time in ns, and the clock the guest reads;
 *   regions.c   timed regions: the markers' begin and end, clock reads;
 *   records.c   everything the model writes: the HWMODEL, HWREGION,
 *               HWTOTAL and HWWARN records, and the address trace;
 *   disk.c      the time of a disk request;
 *   attrib.c    optional: cycles per instruction ("where the time goes");
 *   memsys.c    caches, write buffer and memory in time (memsys.h);
 *   cache.c     one set-associative LRU cache (cache.h);
 *   tlb.c       optional: instruction and data TLBs and their refills (tlb.h);
 *   link.c      optional: a modelled Ethernet link's arithmetic (link.h);
 *   wire.c      ... and two machines on it, kept in step (wire.h);
 *   isa.h       what a front end must know about an instruction set.
 *
 * Time unit: the millicycle ("mcyc", 1/1000 of a processor cycle), so that
 * a fractional CPI such as 1.28 adds an exact integer per instruction and
 * every counter stays an integer: runs are bit-for-bit repeatable.
 *
 * Instruction costs are charged by the front end (QEMU adds them inline in
 * translated code, SIMH per instruction), from hw_insn_mcyc(); everything
 * else goes through the functions below.
 */
#ifndef HWMODEL_MODEL_H
#define HWMODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cache.h"
#include "isa.h"
#include "memsys.h"
#include "tlb.h"
#include "wire.h"

#define MCYC 1000u                      /* millicycles per cycle */
#define HW_MAX_TRAP_PCS 8

/*
 * Everything counted, for the whole run.  A region's record is the
 * difference of two snapshots.  Under QEMU the first three are updated by
 * inline code that QEMU generates (no function call); the rest by the
 * callbacks.  Modelled time is always static_mcyc + stall_mcyc.
 */
struct counters {
    uint64_t insns;                     /* instructions executed              */
    uint64_t static_mcyc;               /* CPI + class extras + traps + access extras */
    uint64_t traps;                     /* entries to the trap vector         */
    uint64_t wovf, wunf;                /* register window overflow and
                                           underflow traps (SPARC)            */
    uint64_t stall_mcyc;                /* memory stalls and disk waits       */
    uint64_t loads, stores;
    uint64_t imiss, dmiss, dmiss_w;     /* dmiss_w: the part of dmiss by stores */
    uint64_t writebacks;                /* dirty lines evicted from L1 D      */
    uint64_t l2miss, l2wb;
    uint64_t bytes_in, bytes_out;       /* bytes read from / written to memory */
    uint64_t wbuf_stall_mcyc;           /* part of stall_mcyc: write buffer full */
    uint64_t disk_reqs, disk_mcyc;      /* part of stall_mcyc: disk requests  */
    uint64_t attrib_on;                 /* 1 while the attributed region is open */
    /* Only with a TLB (tlb.c), and only then in the records: */
    uint64_t itlb_miss, dtlb_miss;      /* refills: walks, or MIPS's handler */
    uint64_t segloads;                  /* x86: segment register loads */
    /* Only on a wire (wire.c), and only then in the records: */
    uint64_t idle_mcyc;                 /* part of stall_mcyc: idle, waiting for
                                           a frame or a deadline */
    uint64_t dma_bytes;                 /* moved by the NIC to or from memory */
};

/* What the key=value arguments set (params.def names the field of each). */
struct hw_params {
    struct memsys_params mem;
    double cpi;
    double extra[NCLASS];               /* extra cycles by class */
    double trap_cycles;                 /* trap entry penalty */
    double disk_overhead_us, disk_seek_ms, disk_rpm, disk_mbs;
    uint64_t disk_cyl_sectors;
    uint64_t disk_pc, disk_block;       /* the kernel's disk_request(), its block size */
    uint64_t wovf_pc, wunf_pc;          /* SPARC: the window trap handlers (QEMU) */
    const char *out, *trace, *attrib;   /* files to write, or NULL */
    bool fast;                          /* the fast paths; false: the general path only */
    int64_t trace_region, attrib_region;
    /* For QEMU only, which cannot see traps or physical addresses of
     * instructions by itself (SIMH accepts these and ignores them): */
    uint64_t trap_pc[HW_MAX_TRAP_PCS];  /* the kernel's trap vector(s) */
    int n_trap_pc;
    uint64_t ram_base, ram_size;        /* guest RAM */
    uint64_t anchor, anchor_pa;         /* an instruction and its physical address */
    /* The write log (wlog.c): its file, the kernel's ramdisk_write() and
     * bdirty(), and where struct buf keeps its data pointer. */
    const char *writelog;
    uint64_t wlog_write_pc, wlog_dirty_pc, wlog_buf_data;
    struct tlb_params tlb;              /* page_size 0: no TLB */
    /* Two machines on a modelled Ethernet (wire.h): wire.path NULL: none. */
    struct wire_params wire;
    bool net_dma;                       /* the NIC moves frames to and from
                                           memory itself: charge its bus time */
    /* The QEMU front end's side of it (qemu/net.c): the socket the card's
     * netdev sends to, the netdev's id (frames enter there), and the
     * kernel's net_tx_kicked(), net_idle(), console_intr() and arch_halt(). */
    const char *net_sock, *net_dev;
    uint64_t net_tx_pc, net_idle_pc, net_cons_pc, net_halt_pc;
};

/* The engine's state: one model, one processor. */
struct hw {
    struct hw_params p;
    struct counters *c;                 /* the front end's (QEMU: a scoreboard) */
    struct memsys *mem;
    struct cache *icache;               /* memsys_icache(mem): one load less
                                           in each block's I-cache check */
    uint64_t cpi_mcyc, extra_mcyc[NCLASS], trap_mcyc;
    uint64_t clock_khz;                 /* the processor's clock rate */
    FILE *out, *trace;
    bool tracing;                       /* the traced region is open */
    bool general;                       /* fast=false: every access by the general path */
    bool attributing;                   /* attrib= given */
    bool windows;                       /* wovf_pc= or wunf_pc= given: count window traps */
    bool mem_direct;                    /* no D-cache, L2 or write buffer (memsys_direct) */
    /* Where records go when there is no out= file (QEMU: its log), or NULL
     * to drop them. */
    void (*outs)(const char *text);
    /* The TLBs (tlb.c), or NULL: no [tlb], or refilled in software. */
    struct tlb *tlb;
    bool tlb_counts;                    /* a [tlb]: its counters in the records */
    /* The front end's page-table walk (isa.h, walk), or NULL; and how many
     * references a walk makes when it cannot tell their addresses. */
    int (*walk)(uint64_t root, uint64_t va, uint64_t pte_pa[4], unsigned *page_shift);
    int walk_levels;
    bool net;                           /* on a wire: wire.c is open */
};

extern struct hw hw;

/* ------------------------------------------------------------ the trace (records.c) */

/* While the traced region is open (trace=, trace_region=), every access
 * the model is given, as it is given: "I paddr 4" per I-cache line
 * fetched, "R paddr size", "W paddr size", and with a TLB "T kind va
 * shift" per lookup (tlb.c), each followed by the name of the fast path
 * that took it, if one did (path; NULL: the general path).  The name is a
 * claim about the access, which tests/hwmodel_ref.py checks:
 *   TP_HIT     hw_access_hit (memsys_data_hit): the line was the most
 *              recently used of its set in L1 D (a store: write-back);
 *   TP_MRU     memsys_data_quick, memsys_ifetch_block: the line was the
 *              most recently used of its set;
 *   TP_NOFILL  memsys_data_quick: a store that misses a no-allocate
 *              L1 D, its line in no way of its set;
 *   TP_QUICK   memsys_data_quick's other cases (no claim); tlb_data_quick:
 *              the page was the most recently used of its set;
 *   TP_DIRECT  hw_access_direct: memory alone (no claim);
 *   TP_KNOWN   a block skipped on its record (hw_ifetch_block_known):
 *              each of its lines the most recently used of its set;
 *   TP_DMFILL  memsys_ifetch_block in a direct-mapped I-cache: a miss
 *              whose victim is clean;
 *   TP_LAST    tlb_data, tlb_fetch: the page last looked up in that
 *              table (so the most recently used of its set). */
#define TP_HIT    "hit"
#define TP_MRU    "mru"
#define TP_NOFILL "nofill"
#define TP_QUICK  "quick"
#define TP_DIRECT "direct"
#define TP_KNOWN  "known"
#define TP_DMFILL "dmfill"
#define TP_LAST   "last"
void hw_trace(char kind, uint64_t paddr, unsigned size, const char *path);
void hw_trace_tlb(char kind, uint64_t vaddr, unsigned page_shift, const char *path);

/* ------------------------------------------------------------ options.c */

void hw_defaults(void);                 /* every parameter to its default */
/* One key=value (len bytes of arg), or a comma-separated list of them.
 * Each returns an error message, or NULL. */
const char *hw_option(const char *arg, size_t len);
const char *hw_options(const char *list);
/* " name=value" for every profile parameter (params.def), into buf; its
 * length.  For the HWMODEL record. */
size_t hw_format_params(char *buf, size_t size);

/* ------------------------------------------------------------ model.c */

/* Check the parameters, build the memory system, open the files and write
 * the HWMODEL record.  An error message, or NULL.  hw.c must be set before
 * the first instruction is charged, not necessarily before this. */
const char *hw_start(const char *isa_name);
void hw_finish(void);                   /* HWTOTAL, then close the files */

static inline uint64_t hw_now(void)     /* modelled time, in millicycles */
{
    return hw.c->static_mcyc + hw.c->stall_mcyc;
}

/* The static cost of one instruction of class k: CPI and class extra. */
static inline uint64_t hw_insn_mcyc(enum insn_class k)
{
    return hw.cpi_mcyc + hw.extra_mcyc[k];
}

/* A data access: count it and charge its load or store extra. */
static inline void hw_count_access(bool store)
{
    if (store) {
        hw.c->stores++;
        hw.c->static_mcyc += hw.extra_mcyc[CL_STORE];
    } else {
        hw.c->loads++;
        hw.c->static_mcyc += hw.extra_mcyc[CL_LOAD];
    }
}

/* ... and, if it goes to RAM, its time in the memory system.  `ahead` is
 * static cost already charged for instructions after this one (QEMU adds a
 * whole segment's cost at its start), taken off the current time.  Each
 * returns the stall it added, in millicycles (for attribution). */
uint64_t hw_data(uint64_t paddr, unsigned size, bool store, uint64_t ahead);
/*
 * The fast paths.  Each does exactly what the general path (hw_data,
 * hw_ifetch, tlb_data, tlb_fetch) would have done, faster, or changes
 * nothing and says so; with fast=false (params.def) a front end never
 * takes them, and a test compares the two (tests/integration/
 * test_fast_paths.py).  While the traced region is open they run as ever
 * and write each access to the trace with the name of the path that took
 * it (records.c), which is a claim the reference simulator checks
 * (tests/hwmodel_ref.py).  A function with a `traced` argument is meant
 * to be called with a constant: the front end checks hw.tracing once and
 * runs the traced or the untraced copy of the same code.
 */
/* hw_count_access() and hw_data() in one, for the common accesses only
 * (memsys_data_quick in memsys.c lists them): true if it did all the two
 * would have done; false having changed nothing, and then the caller makes
 * the two calls.  No TLB here: the caller has looked the page up.  The
 * _traced one writes the access to the trace with the path it took. */
bool hw_access_quick(uint64_t paddr, unsigned size, bool store, uint64_t ahead);
bool hw_access_quick_traced(uint64_t paddr, unsigned size, bool store, uint64_t ahead);
/* The same for a hit that costs nothing but the access's extra
 * (memsys_data_hit): the shortest path of all. */
static inline __attribute__((always_inline))
bool hw_access_hit(uint64_t paddr, unsigned size, bool store, bool traced)
{
    if (!memsys_data_hit(hw.mem, paddr, size, store))
        return false;
    if (traced)
        hw_trace(store ? 'W' : 'R', paddr, size, TP_HIT);
    hw_count_access(store);
    return true;
}
/* hw_count_access() and hw_data() where hw.mem_direct (memory alone: the
 * address matters to nothing but the trace). */
void hw_access_direct(uint64_t paddr, unsigned size, bool store, uint64_t ahead,
                      bool traced);
/* A 4-byte read of a page-table entry by a TLB walk (tlb.c): as hw_data. */
uint64_t hw_walk_read(uint64_t paddr, uint64_t ahead);
/* Instruction fetch, by I-cache line number (paddr >> hw_iline_shift()):
 * one line, or the lines of one translated block (memsys_ifetch_block;
 * with fast=false, line by line). */
uint64_t hw_ifetch(uint64_t line);
void hw_iblock_init(struct iblock *b);  /* its n lines set: memsys_iblock_init */
uint64_t hw_ifetch_block(struct iblock *b);
/* Whether hw_ifetch_block(b) would find b's lines present again and change
 * nothing (memsys_ifetch_block_known), so that it may be skipped (never
 * with fast=false: memsys_iblock_init).  A front end that skips a block
 * so while tracing calls hw_trace_known(b). */
static inline bool hw_ifetch_block_known(const struct iblock *b)
{
    return memsys_ifetch_block_known(hw.icache, b);
}
void hw_trace_known(const struct iblock *b);
bool hw_has_icache(void);
unsigned hw_iline_shift(void);

/* Entering the trap vector: count a trap, charge its extra.  (QEMU does
 * this inline at the vector's address instead.) */
void hw_trap(void);

/* ------------------------------------------------------------ net (model.c) */

/* The wire's timeline is the model's, in millicycles (wire_open). */
/* Move the clock on to `mcyc` (if later), idle. */
void hw_net_idle_until(uint64_t mcyc);
/* The millicycles in `ns`, rounded up. */
uint64_t hw_ns_to_mcyc_ceil(uint64_t ns);
/* A frame of `bytes` moved by the NIC into memory (received) or out of
 * it (sent): counted, and its bus time charged if net_dma. */
void hw_net_dma(uint32_t bytes, bool to_memory);

/* ------------------------------------------------------------ tlb.c */

const char *tlb_start(void);            /* hw_start: an error message, or NULL */
void tlb_flush(void);                   /* every entry (hw.tlb != NULL) */
void tlb_set_root(uint64_t root);       /* a new page-table root: flush */
/* A data access at va (ahead: as for hw_data), an instruction fetch from
 * va's page: look it up, walk on a miss; the stall it added. */
uint64_t tlb_data(uint64_t va, uint64_t ahead);
/* tlb_data() for a page it would find with a lookup that changes nothing
 * (a page most recently used in its set, or the last one looked up): true
 * if so, having done what tlb_data would (note it as the last page),
 * false having changed nothing, for tlb_data to decide.  Inline, for the
 * per-access path: a call per access cost x86 a sixth of its time.  Not
 * with a unified TLB (a data lookup there must forget the last fetch's
 * page) nor with fast=false (t->quick).  The tables' entries are
 * cache.h's: (page number + 1) << 1, never dirty.  traced: as for the
 * fast paths above. */
static inline __attribute__((always_inline)) bool tlb_data_quick(uint64_t va, bool traced)
{
    struct tlb *t = hw.tlb;
    if (!t->root)
        return true;                    /* paging off: tlb_data does nothing */
    if (!t->quick)
        return false;
    uint64_t small = va >> t->page_shift, big = va >> t->large_shift;
    if (small + 1 == t->last_d) {
        if (traced)
            hw_trace_tlb('D', va, t->page_shift, TP_QUICK);
        return true;
    }
    if (t->large && big + 1 == t->last_large) {
        if (traced)
            hw_trace_tlb('D', va, t->large_shift, TP_QUICK);
        return true;
    }
    /* tlb_data's probes, in its order: the ordinary table, then (if the
     * page is in no way of that set) the large-page table. */
    const struct cache *d = t->d;
    const uint64_t *set = d->way + (small & (d->sets - 1)) * d->g.assoc;
    if (set[0] == (small + 1) << 1) {
        t->last_d = small + 1;
        if (traced)
            hw_trace_tlb('D', va, t->page_shift, TP_QUICK);
        return true;
    }
    for (uint32_t i = 1; i < d->g.assoc; i++)
        if (set[i] == (small + 1) << 1)
            return false;               /* a hit that reorders the set */
    const struct cache *L = t->large;
    if (L && L->way[(big & (L->sets - 1)) * L->g.assoc] == (big + 1) << 1) {
        t->last_large = big + 1;
        if (traced)
            hw_trace_tlb('D', va, t->large_shift, TP_QUICK);
        return true;
    }
    return false;
}

uint64_t tlb_fetch(uint64_t va);
/* Keep the page of the last fetch lookup (+ 1; 0: none) in *slot, where
 * the front end can skip calling tlb_fetch for that page again (QEMU: a
 * conditional callback), which is exact: it would be a hit that changes
 * nothing. */
void tlb_last_fetch_at(uint64_t *slot);

/* ------------------------------------------------------------ clock.c */

uint64_t hw_mcyc_to_ns(uint64_t mcyc);
uint64_t hw_clock_ns(uint64_t mcyc);    /* the guest's clock at time mcyc */
void hw_clock_rebase(uint64_t mcyc);    /* a region starts: spans count from here */

/* ------------------------------------------------------------ regions.c */

/* The region marker's argument: id << 1, | 1 at the end. */
void hw_region_marker(uint64_t arg);
/* The guest reads the clock: the time in ns, noted in the open regions. */
uint64_t hw_clock_read(void);

/* ------------------------------------------------------------ disk.c */

/* A request of `bytes` from 512-byte sector `sector`; the stall it added. */
uint64_t hw_disk(uint64_t sector, uint64_t bytes);
/* The kernel's disk_request(write, blockno, n), found at disk_pc=. */
uint64_t hw_disk_call(uint64_t blockno, uint64_t nblocks);

/* ------------------------------------------------------------ wlog.c */

const char *wlog_open(void);            /* hw_start: an error message, or NULL */
bool wlog_on(void);                     /* writelog= given and open */
/* A block written to the disk (to_disk) or changed in the cache only. */
void wlog_block(bool to_disk, uint32_t blockno, const uint8_t *data);
void wlog_trap(void);                   /* the trap vector was entered */
void wlog_close(void);

/* ------------------------------------------------------------ records.c */

/* A record, to out= or the front end's log: at most HW_SAY_MAX bytes
 * (HWMODEL, the longest, is about 1.5 KB). */
#define HW_SAY_MAX 4096
void hw_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* HWWARN what=... : something the model could not do. */
void hw_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hw_record_model(const char *isa_name);             /* HWMODEL */
void hw_record_net(void);                               /* HWNET, on a wire */
/* HWREGION (head: " seq=N id=ID", tail: the clock fields) or HWTOTAL. */
void hw_record_counters(const char *word, const char *head, const struct counters *now,
                        const struct counters *then, uint64_t mcyc_now,
                        uint64_t mcyc_then, uint64_t ns, const char *tail);
/* The address trace (trace=): "B id" where the traced region begins
 * (hw_trace, hw_trace_tlb and the TP_ names: above). */
void hw_trace_begin(uint32_t region);

/* ------------------------------------------------------------ attrib.c */

struct attrib_insn {
    uint64_t vaddr, paddr;              /* paddr: UINT64_MAX if unknown */
    uint64_t static_mcyc;               /* per execution */
    uint64_t execs, access_mcyc, stall_mcyc;    /* while the region is open */
};

bool attrib_open(const char *path);
/* The record of the instruction at `where` (a host pointer under QEMU, the
 * physical address under SIMH) executed at vaddr. */
struct attrib_insn *attrib_insn(uint64_t where, uint64_t vaddr, uint64_t paddr,
                                uint64_t static_mcyc);
void attrib_dump(uint32_t region);
void attrib_close(void);

#endif
