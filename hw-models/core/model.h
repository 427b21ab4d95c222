/*
 * model.h: the pieces of the hardware model and how they fit together.
 *
 *   cache.c    one set-associative LRU cache: hit or miss, what it evicts
 *              (functional only: no time);
 *   memsys.c   the memory hierarchy in time: L1 I and D caches, optional L2,
 *              a write buffer and a memory with latency and bandwidth;
 *   isa_*.c    what one ISA's instructions are: class (branch, multiply,
 *              divide), the access size a decoder can tell, the marker
 *              encodings and where arguments are;
 *   attrib.c   optional: cycles per instruction address, for "where the
 *              time goes" (attrib=FILE);
 *   hwmodel.c  the QEMU plugin: instruments translated code, keeps the
 *              counters, logs one record per timed region.
 *
 * Time unit: the millicycle ("mcyc", 1/1000 of a processor cycle), so that
 * a fractional CPI such as 1.28 adds an exact integer per instruction and
 * every counter stays an integer: runs are bit-for-bit repeatable.
 */
#ifndef HWMODEL_MODEL_H
#define HWMODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MCYC 1000u                      /* millicycles per cycle */

/*
 * Everything counted, for the whole run.  A region's record is the
 * difference of two snapshots.  The first three are updated by inline code
 * that QEMU generates (no function call); the rest by the callbacks.
 * Modelled time is always static_mcyc + stall_mcyc.
 */
struct counters {
    uint64_t insns;                     /* inline: instructions executed      */
    uint64_t static_mcyc;               /* inline: CPI + class extras + traps */
    uint64_t traps;                     /* inline: entries to the trap vector */
    uint64_t wovf, wunf;                /* inline: register window overflow and
                                           underflow traps (SPARC) */
    uint64_t stall_mcyc;                /* memory stalls and disk waits       */
    uint64_t loads, stores;
    uint64_t imiss, dmiss, dmiss_w;     /* dmiss_w: the part of dmiss by stores */
    uint64_t writebacks;                /* dirty lines evicted from L1 D      */
    uint64_t l2miss, l2wb;
    uint64_t bytes_in, bytes_out;       /* bytes read from / written to memory */
    uint64_t wbuf_stall_mcyc;           /* part of stall_mcyc: write buffer full */
    uint64_t disk_reqs, disk_mcyc;      /* part of stall_mcyc: disk requests  */
    uint64_t attrib_on;                 /* 1 while the attributed region is open */
};

/* ------------------------------------------------------------ cache.c */

struct cache_geom {
    uint32_t size, line, assoc;         /* bytes, bytes, ways */
    bool write_back;                    /* else write-through */
    bool write_allocate;                /* a store miss fills the line */
};

struct cache {
    struct cache_geom g;
    uint32_t sets;
    unsigned line_shift;
    /* sets * assoc entries; within a set, most recently used first.
     * entry = (line number + 1) << 1 | dirty; 0 is an empty way. */
    uint64_t *way;
    /* Lines filled so far.  Only a fill evicts, so in a direct-mapped cache
     * (where a hit changes nothing) lines seen present when `fills` was N
     * are all still present while it is N: memsys_ifetch_block uses that. */
    uint64_t fills;
};

struct cache_result {
    bool hit;
    bool filled;                        /* a miss that allocated the line    */
    bool evicted_dirty;                 /* ... and pushed out a dirty line   */
    uint64_t victim;                    /* its line number                   */
};

/* NULL with a message in *err if the geometry is impossible. */
struct cache *cache_new(const struct cache_geom *g, const char **err);
void cache_flush(struct cache *c);      /* empty it, dropping dirty data */
/* The rules, which tests/hwmodel_ref.py implements again independently:
 *   - a read miss allocates the line (evicting the least recently used way);
 *   - a store that hits marks the line dirty in a write-back cache, and only
 *     refreshes it in a write-through cache (the store goes on to memory);
 *   - a store that misses allocates only with write_allocate (and the new
 *     line is dirty if write-back); otherwise the cache is left untouched;
 *   - every hit and every fill makes the line the most recently used;
 *   - evicting a dirty line is a write-back (reported to the caller). */
static inline __attribute__((always_inline))
struct cache_result cache_access(struct cache *c, uint64_t lineno, bool write)
{
    struct cache_result r = { 0 };
    uint32_t assoc = c->g.assoc;
    uint64_t *set = c->way + (lineno & (c->sets - 1)) * assoc;
    uint64_t key = (lineno + 1) << 1;
    uint64_t dirty = write && c->g.write_back;

    /* (Plain loops, not memmove: sets are a few ways, and this runs on
     * every access of the guest.) */
    for (uint32_t i = 0; i < assoc; i++) {
        if ((set[i] & ~1ull) == key) {
            uint64_t e = set[i] | dirty;
            for (uint32_t k = i; k > 0; k--)
                set[k] = set[k - 1];
            set[0] = e;
            r.hit = true;
            return r;
        }
    }
    if (write && !c->g.write_allocate)
        return r;                       /* store miss, no allocate */

    uint64_t victim = set[assoc - 1];
    if (victim & 1) {
        r.evicted_dirty = true;
        r.victim = (victim >> 1) - 1;
    }
    for (uint32_t k = assoc - 1; k > 0; k--)
        set[k] = set[k - 1];
    set[0] = key | dirty;
    r.filled = true;
    c->fills++;
    return r;
}


/* ------------------------------------------------------------ memsys.c */

struct memsys_params {
    struct cache_geom ic, dc, l2;       /* size 0: no such cache */
    bool unified;                       /* one L1 for both (ic ignored) */
    uint32_t wbuf_entries;              /* write buffer depth, 0 = none */
    double clock_mhz;
    double mem_latency_ns, mem_mbs;     /* memory: latency, bandwidth (10^6 B/s) */
    uint32_t bus_bytes;                 /* memory transfers are in these units */
    double l2_latency_ns;               /* an L2 hit */
};

struct memsys;

struct memsys *memsys_new(const struct memsys_params *p, const char **err);
void memsys_flush(struct memsys *m);
/* Time is in millicycles.  Each returns the time at which the processor may
 * go on (>= now); the difference is the stall. */
uint64_t memsys_data(struct memsys *m, struct counters *c, uint64_t now,
                     uint64_t paddr, unsigned size, bool store);
uint64_t memsys_ifetch(struct memsys *m, struct counters *c, uint64_t now, uint64_t lineno);
/* All the I-cache lines of one block, in order.  *seen caches when they were
 * last all found present (see struct cache); 0 = never. */
uint64_t memsys_ifetch_block(struct memsys *m, struct counters *c, uint64_t now,
                             const uint64_t *lines, uint32_t n, uint64_t *seen);
bool memsys_has_icache(const struct memsys *m);
unsigned memsys_iline_shift(const struct memsys *m);
uint64_t memsys_ns_to_mcyc(const struct memsys *m, double ns);

/* ------------------------------------------------------------ isa_*.c */

/*
 * Cost classes.  classify() gives an instruction's class at translation
 * time: branch, multiply, divide or other.  Loads and stores are not
 * instruction classes but data accesses: their extras are charged per
 * access, when the access happens (mem_cb), so an instruction that touches
 * memory twice (an x86 add to memory, a 68k movem, a RISC-V atomic) pays
 * twice, and one that faults before its access pays nothing for it.
 */
enum insn_class {
    CL_OTHER, CL_LOAD, CL_STORE, CL_BRANCH, CL_MUL, CL_DIV, NCLASS
};

enum marker {
    MK_NONE,
    MK_REGION,                          /* bench_region_begin/end     */
    MK_CLOCK,                           /* bench_now_ns: fill mailbox */
    MK_DISK,                            /* a disk request             */
};

struct isa {
    const char *name;
    enum insn_class (*classify)(const uint8_t *insn, size_t len);
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
    /* Instructions that routinely trap and are run again when the kernel
     * returns (MIPS: loads and stores, on a TLB miss; SPARC: save and
     * restore, on a register window overflow or underflow); NULL: none. */
    bool (*restarts)(const uint8_t *insn, size_t len);
};

extern const struct isa isa_riscv, isa_x86, isa_m68k, isa_mips, isa_sparc;

/* ------------------------------------------------------------ attrib.c */

struct attrib_insn {
    uint64_t vaddr, paddr;              /* paddr: UINT64_MAX if unknown */
    uint64_t static_mcyc;               /* per execution */
    uint64_t execs, access_mcyc, stall_mcyc;    /* while the region is open */
};

bool attrib_open(const char *path);
struct attrib_insn *attrib_insn(const void *haddr, uint64_t vaddr, uint64_t paddr,
                                uint64_t static_mcyc);
void attrib_dump(uint32_t region);
void attrib_close(void);

#endif
