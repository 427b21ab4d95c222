/*
 * memsys.h: the memory hierarchy in time (memsys.c): L1 I and D caches (or
 * one unified L1), an optional L2, a write buffer and one memory with a
 * latency and a bandwidth.  Time is in millicycles (model.h).
 */
#ifndef HWMODEL_MEMSYS_H
#define HWMODEL_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "cache.h"

struct counters;

struct memsys_params {
    struct cache_geom ic, dc, l2;       /* size 0: no such cache */
    bool unified;                       /* one L1 for both (ic ignored) */
    uint32_t wbuf_entries;              /* write buffer depth, 0 = none */
    double clock_mhz;
    double mem_latency_ns, mem_mbs;     /* memory: latency, bandwidth (10^6 B/s) */
    double mem_write_ns;                /* time per bus word written; 0: as mem_mbs */
    uint32_t bus_bytes;                 /* memory transfers are in these units */
    double l2_latency_ns;               /* an L2 hit */
};

struct memsys;

/* fast = false: a memory system that takes no shortcut (the model's
 * fast=false); then only memsys_data, memsys_ifetch and the functions
 * that give facts may be called. */
struct memsys *memsys_new(const struct memsys_params *p, bool fast, const char **err);
void memsys_flush(struct memsys *m);
/* Time is in millicycles.  Each returns the time at which the processor may
 * go on (>= now); the difference is the stall. */
uint64_t memsys_data(struct memsys *m, struct counters *c, uint64_t now,
                     uint64_t paddr, unsigned size, bool store);
/* The common data accesses only (memsys.c says which), for the per-access
 * path: the same answer as memsys_data, or MEMSYS_SLOW having changed
 * nothing, and then memsys_data must be called.  The _traced one also
 * writes the access to the trace with the path it took (model.h). */
#define MEMSYS_SLOW UINT64_MAX
uint64_t memsys_data_quick(struct memsys *m, struct counters *c, uint64_t now,
                           uint64_t paddr, unsigned size, bool store);
uint64_t memsys_data_quick_traced(struct memsys *m, struct counters *c, uint64_t now,
                                  uint64_t paddr, unsigned size, bool store);
/* Only a hit that costs no time (memsys.c): true having done it, false
 * having changed nothing. */
bool memsys_data_hit(struct memsys *m, uint64_t paddr, unsigned size, bool store);
/* Whether the memory system is memory alone (no D-cache, L2 or write
 * buffer), and then an access's time, as memsys_data gives it. */
bool memsys_direct(const struct memsys *m);
uint64_t memsys_data_direct(struct memsys *m, struct counters *c, uint64_t now,
                            unsigned size, bool store);
uint64_t memsys_ifetch(struct memsys *m, struct counters *c, uint64_t now, uint64_t lineno);
/* A device moves `bytes` to or from memory at `now`: the memory is busy
 * for it, the processor waits only if it then needs the memory. */
void memsys_dma(struct memsys *m, uint64_t now, uint32_t bytes, bool to_memory);

/* The I-cache lines of one translated block, in the order it fetches them,
 * as a front end keeps them for memsys_ifetch_block().  The lines follow
 * the header in the same allocation, so that the callback that usually
 * only checks `seen` and, when it must, walks the lines reads one stretch
 * of memory (a pointer to a list elsewhere was a host cache miss per
 * block on the Sun-3). */
struct iblock {
    uint64_t seen;                      /* the generations of regions r0 and
                                           r1 (struct cache) summed, + 1, when
                                           the lines were last all the most
                                           recently used of their sets; 0 =
                                           not known */
    uint32_t r0, r1;                    /* the regions of the lines' sets */
    uint32_t n;
    bool settles;                       /* after a fetch of the lines they are
                                           all most recently used: no two in
                                           one set, in at most two regions */
    void *front;                        /* the front end's own (the plugin:
                                           whom fetch stalls are charged to) */
    uint64_t line[];
};

/* Fill in r0, r1 and settles for b's n lines, and clear seen. */
void memsys_iblock_init(const struct memsys *m, struct iblock *b);
/* All the I-cache lines of one block, in order; updates b->seen.  The
 * _traced one also writes each line to the trace with the path it took. */
uint64_t memsys_ifetch_block(struct memsys *m, struct counters *c, uint64_t now,
                             struct iblock *b);
uint64_t memsys_ifetch_block_traced(struct memsys *m, struct counters *c, uint64_t now,
                                    struct iblock *b);
/* Whether b's lines are known to be the most recently used of their sets
 * still, so that memsys_ifetch_block would change nothing: no set of their
 * regions has had a new most recently used line since they were. */
static inline bool memsys_ifetch_block_known(const struct cache *ic, const struct iblock *b)
{
    return b->seen == ic->gen[b->r0] + ic->gen[b->r1] + 1;
}
/* The I-cache (or unified L1), or NULL: for memsys_ifetch_block_known. */
struct cache *memsys_icache(const struct memsys *m);
bool memsys_has_icache(const struct memsys *m);
unsigned memsys_iline_shift(const struct memsys *m);
uint64_t memsys_ns_to_mcyc(const struct memsys *m, double ns);
/* One bus word read from memory, its latency included (an idle memory). */
uint64_t memsys_word_read_mcyc(const struct memsys *m);

#endif
