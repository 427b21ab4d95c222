/*
 * memsys.c: the memory hierarchy in time.
 *
 * Pieces: split L1 I and D caches (or one unified L1), an optional unified
 * L2, a write buffer, and one memory.  Any cache may be absent ("no cache"
 * is a valid machine: the MicroVAX II had none).
 *
 * The memory is a single server with a latency and a bandwidth:
 *   - a read of B bytes (a line fill, or an uncached load) starts when the
 *     memory is free, and takes latency + B / bandwidth;
 *   - a write of B bytes (a write-back, or one write-buffer entry draining)
 *     takes B / bandwidth: the write buffer hides its latency; or, given
 *     mem_write_ns, that long per bus word, for a memory whose write cycle
 *     is slower than its reads stream (the DECstation 3100's: its cached
 *     copy, write-bound, and its uncached one, reads and writes, cannot
 *     both be met with one rate);
 *   - transfers are whole bus words (bus_bytes), so a byte store costs as
 *     much memory time as a word store.
 * Requests are served in order, so a read miss waits until the writes queued
 * before it have drained: on a write-through machine a copy loop is paced by
 * the memory as soon as the write buffer is full, which is the effect the
 * paper's Tables 5 and 6 show for the DECstation.
 *
 * The write buffer holds N stores on their way to memory (or to the L2).
 * A store into a full buffer stalls the processor until the oldest entry has
 * drained; with N = 0 every such store waits for its own write.
 *
 * A write-allocate cache fetches the line on a store miss, unless the store
 * writes the whole line.
 *
 * The L2, when present, is looked up on every L1 miss and for every write
 * that leaves L1; a hit costs its latency, a miss a memory access for an L2
 * line (plus a write-back if that evicts a dirty line).
 *
 * Instruction fetch is modelled only through an I-cache: with no I-cache the
 * cost of fetching is part of the CPI.  Time is in millicycles (model.h).
 *
 * The shortcuts (memsys_data_hit, memsys_data_quick, memsys_ifetch_block,
 * next_write's inline case) give exactly what the general code
 * (memsys_data, memsys_ifetch) would; built with fast = false (the
 * model's fast=false) a memory system takes none of them but next_write's,
 * which it turns off itself, and the front end calls no other.
 */
#include <math.h>
#include <stdlib.h>

#include "model.h"

struct memsys {
    struct cache *ic, *dc, *l2;         /* ic == dc for a unified L1 */
    uint32_t bus;
    unsigned bus_shift;                 /* log2(bus) */
    double khz;                         /* processor clock */
    uint64_t word_mcyc;                 /* memory time per bus word read */
    uint64_t wword_mcyc;                /* ... and written */
    uint64_t lat;                       /* memory read latency */
    uint64_t l2_hit;
    uint64_t mem_free;                  /* the memory is busy until then */
    uint32_t wb_n, wb_head, wb_count;   /* write buffer: ring of drain times */
    uint64_t *wb_done;
    uint64_t wb_last;                   /* when the newest entry drains */
    /* L1 D's table and geometry again (dc's own never change), where
     * memsys_data_quick finds them without loading m->dc first: on the
     * per-access path every dependent load is time.  dway NULL: no D-cache. */
    uint64_t *dway;
    uint64_t dset_mask;                 /* sets - 1 */
    uint32_t dassoc;
    unsigned dshift;                    /* log2(line) */
    bool dwrite_back;
    bool dwrite_allocate;
    /* The L2's table and geometry, likewise, for next_write's usual case;
     * l2wway NULL: no L2, or a write-through one. */
    uint64_t *l2wway;
    uint64_t l2set_mask;
    uint32_t l2assoc;
    unsigned l2shift;
    bool general;                       /* fast = false: no shortcut */
};

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

uint64_t memsys_word_read_mcyc(const struct memsys *m)
{
    return m->lat + m->word_mcyc;
}

uint64_t memsys_ns_to_mcyc(const struct memsys *m, double ns)
{
    /* ns * kHz / 10^6 cycles; * 1000 for millicycles */
    return (uint64_t)llround(ns * m->khz / 1000.0);
}

/* Whole bus words for `bytes`, and their memory time.  (Shifts, not
 * divisions: this is on every store of a write-through machine.) */
static inline uint32_t bus_words(const struct memsys *m, uint32_t bytes)
{
    return (bytes + m->bus - 1) >> m->bus_shift;
}

static inline uint64_t xfer(const struct memsys *m, uint32_t bytes)
{
    return bus_words(m, bytes) * m->word_mcyc;
}

static inline uint64_t write_xfer(const struct memsys *m, uint32_t bytes)
{
    return bus_words(m, bytes) * m->wword_mcyc;
}

static inline uint32_t bus_round(const struct memsys *m, uint32_t bytes)
{
    return bus_words(m, bytes) << m->bus_shift;
}

static uint64_t mem_read(struct memsys *m, struct counters *c, uint64_t now, uint32_t bytes)
{
    uint64_t done = max64(now, m->mem_free) + m->lat + xfer(m, bytes);
    m->mem_free = done;
    c->bytes_in += bus_round(m, bytes);
    return done;
}

static uint64_t mem_write(struct memsys *m, struct counters *c, uint64_t at, uint32_t bytes)
{
    uint64_t done = max64(at, m->mem_free) + write_xfer(m, bytes);
    m->mem_free = done;
    c->bytes_out += bus_round(m, bytes);
    return done;
}

/* An L1 miss (or an uncached read) fetches `bytes` at paddr from the next
 * level.  Returns when the data is there.  (The L2's part out of line, here
 * and in next_write: inlined, it made the paths without an L2 longer.) */
static __attribute__((noinline)) uint64_t l2_read(struct memsys *m, struct counters *c,
                                                   uint64_t now, uint64_t paddr,
                                                   uint32_t bytes);
static __attribute__((noinline)) uint64_t l2_write(struct memsys *m, struct counters *c,
                                                    uint64_t at, uint64_t paddr,
                                                    uint32_t bytes);

static inline uint64_t next_read(struct memsys *m, struct counters *c, uint64_t now,
                                 uint64_t paddr, uint32_t bytes)
{
    return m->l2 ? l2_read(m, c, now, paddr, bytes) : mem_read(m, c, now, bytes);
}

static uint64_t l2_read(struct memsys *m, struct counters *c, uint64_t now,
                        uint64_t paddr, uint32_t bytes)
{
    struct cache *l2 = m->l2;
    struct cache_result r = cache_access(l2, paddr >> l2->line_shift, false);
    if (r.hit)
        return now + m->l2_hit;
    c->l2miss++;
    if (r.evicted_dirty) {
        c->l2wb++;
        mem_write(m, c, now, l2->g.line);
    }
    return mem_read(m, c, now, l2->g.line) + m->l2_hit;
}

/* `bytes` at paddr leave L1 (a write-back, or a write-through store
 * draining).  Returns when the next level has taken them. */
static inline uint64_t next_write(struct memsys *m, struct counters *c, uint64_t at,
                                  uint64_t paddr, uint32_t bytes)
{
    if (!m->l2)
        return mem_write(m, c, at, bytes);
    /* The usual case inline: a write-back L2 whose set's most recently
     * used line is this one, where cache_access would only mark it dirty
     * and l2_write would answer at + l2_hit (pc-p5: every store that
     * misses its no-allocate L1 D, a fifth of its accesses). */
    uint64_t ln = paddr >> m->l2shift;
    uint64_t *way0 = m->l2wway ? m->l2wway + (ln & m->l2set_mask) * m->l2assoc : NULL;
    if (way0 && (*way0 & ~1ull) == (ln + 1) << 1) {
        *way0 |= 1;
        return at + m->l2_hit;
    }
    return l2_write(m, c, at, paddr, bytes);
}

static uint64_t l2_write(struct memsys *m, struct counters *c, uint64_t at,
                         uint64_t paddr, uint32_t bytes)
{
    struct cache *l2 = m->l2;
    struct cache_result r = cache_access(l2, paddr >> l2->line_shift, true);
    uint64_t done = at + m->l2_hit;
    if (!r.hit) {
        c->l2miss++;
        if (r.evicted_dirty) {
            c->l2wb++;
            mem_write(m, c, at, l2->g.line);
        }
        if (r.filled)                   /* write-allocate: fetch the rest */
            done = max64(done, mem_read(m, c, at, l2->g.line));
        else
            return mem_write(m, c, at, bytes);
    }
    if (!l2->g.write_back)
        done = max64(done, mem_write(m, c, at, bytes));
    return done;
}

/* A store goes into the write buffer.  Returns when the processor may go on.
 * (Inlined: on a write-through machine this is every store's work, and GCC
 * left it a call once memsys_data_quick became its second caller.) */
static inline __attribute__((always_inline)) uint64_t wbuf_store(struct memsys *m, struct counters *c, uint64_t now,
                           uint64_t paddr, uint32_t bytes)
{
    while (m->wb_count > 0 && m->wb_done[m->wb_head] <= now) {
        if (++m->wb_head == m->wb_n)
            m->wb_head = 0;
        m->wb_count--;
    }
    if (m->wb_n == 0) {                 /* no buffer: wait for the write */
        uint64_t done = next_write(m, c, now, paddr, bytes);
        c->wbuf_stall_mcyc += done - now;
        return done;
    }
    if (m->wb_count == m->wb_n) {       /* full: wait for the oldest entry */
        uint64_t t = m->wb_done[m->wb_head];
        if (++m->wb_head == m->wb_n)
            m->wb_head = 0;
        m->wb_count--;
        c->wbuf_stall_mcyc += t - now;
        now = t;
    }
    uint64_t done = next_write(m, c, max64(now, m->wb_last), paddr, bytes);
    uint32_t tail = m->wb_head + m->wb_count;
    m->wb_done[tail >= m->wb_n ? tail - m->wb_n : tail] = done;
    m->wb_count++;
    m->wb_last = done;
    return now;
}

/* What follows an L1 D lookup of line ln (r: what cache_access did) for
 * the access of `size` at paddr: a miss counted, a dirty victim written
 * back, the line fetched unless the store writes it whole.  A store miss
 * that allocates nothing sets *to_wbuf.  Returns when the data is there.
 * (memsys_data's loop and memsys_data_quick's rarer cases both end here.) */
static inline uint64_t dline_done(struct memsys *m, struct counters *c, uint64_t now,
                                  uint64_t paddr, uint64_t ln, unsigned size, bool store,
                                  struct cache_result r, bool *to_wbuf)
{
    struct cache *dc = m->dc;
    if (r.hit)
        return now;
    c->dmiss++;
    if (store)
        c->dmiss_w++;
    if (!r.filled) {                    /* store miss, no write-allocate */
        *to_wbuf = true;
        return now;
    }
    if (r.evicted_dirty) {
        c->writebacks++;
        next_write(m, c, now, r.victim << dc->line_shift, dc->g.line);
    }
    /* A store that writes the whole line need not fetch it first
     * (one-word lines, as on the R2000, are never fetched by stores). */
    if (!(store && size >= dc->g.line && !(paddr & (dc->g.line - 1))))
        now = next_read(m, c, now, ln << dc->line_shift, dc->g.line);
    return now;
}

/* cache_access() on L1 D, out of line: for memsys_data_quick's less
 * usual cases, so that the cache's miss and reorder code stays out of the
 * per-access path.  Not a copy of it: whatever cache_access does, this
 * does. */
static __attribute__((noinline)) struct cache_result dline_access(struct cache *dc,
                                                                  uint64_t lineno, bool store)
{
    return cache_access(dc, lineno, store);
}

/* Whether the line keyed `key` is in a way of the set after way0 (the
 * first way's own test is the caller's). */
static inline bool in_other_ways(const uint64_t *way0, uint32_t assoc, uint64_t key)
{
    for (uint32_t i = 1; i < assoc; i++)
        if ((way0[i] & ~1ull) == key)
            return true;
    return false;
}

/*
 * memsys_data() for an access within one L1 D line (or with no D-cache),
 * which is nearly every access, laid out for speed: inlined into the
 * per-access callback, the usual case is a short path with few registers
 * (before, it shared one body with the rare cases and paid for their
 * stack spills), and the rest is calls.  The usual case: the line is the
 * most recently used of its set, where cache_access() would find it at
 * once and change nothing but a write-back store's dirty bit.  Anything
 * else in the cache goes to cache_access() itself (dline_access), then
 * dline_done, as in memsys_data()'s loop, so every counter and time is the
 * same.  Returns the time the processor may go on, or
 * MEMSYS_SLOW, having changed nothing, for an access across two lines
 * (memsys_data() does those).
 */
static inline void trace_data(bool store, uint64_t paddr, unsigned size, const char *path)
{
    hw_trace(store ? 'W' : 'R', paddr, size, path);
}

static inline __attribute__((always_inline))
uint64_t data_quick(struct memsys *m, struct counters *c, uint64_t now, uint64_t paddr,
                    unsigned size, bool store, const bool traced)
{
    if (!m->dway) {
        if (traced)
            trace_data(store, paddr, size, TP_QUICK);
        return store ? wbuf_store(m, c, now, paddr, size) : next_read(m, c, now, paddr, size);
    }
    unsigned shift = m->dshift;
    uint64_t ln = paddr >> shift;
    if ((paddr + size - 1) >> shift != ln)
        return MEMSYS_SLOW;
    bool to_wbuf = store && !m->dwrite_back;
    uint64_t *way0 = m->dway + (ln & m->dset_mask) * m->dassoc;
    uint64_t key = (ln + 1) << 1;
    if ((*way0 & ~1ull) == key) {
        if (traced)
            trace_data(store, paddr, size, TP_MRU);
        if (store && m->dwrite_back)
            *way0 |= 1;                         /* a write-back store hit: dirty */
    } else if (store && !m->dwrite_allocate && !in_other_ways(way0, m->dassoc, key)) {
        /* A store miss that allocates nothing (pc-p5: a fifth of all its
         * accesses, copies and clears into lines not in L1): cache_access
         * would change nothing, so only its miss is counted, here. */
        if (traced)
            trace_data(store, paddr, size, TP_NOFILL);
        c->dmiss++;
        c->dmiss_w++;
        to_wbuf = true;
    } else {
        if (traced)
            trace_data(store, paddr, size, TP_QUICK);
        now = dline_done(m, c, now, paddr, ln, size, store, dline_access(m->dc, ln, store),
                         &to_wbuf);
    }
    return to_wbuf ? wbuf_store(m, c, now, paddr, size) : now;
}

uint64_t memsys_data_quick(struct memsys *m, struct counters *c, uint64_t now,
                           uint64_t paddr, unsigned size, bool store)
{
    return data_quick(m, c, now, paddr, size, store, false);
}

uint64_t memsys_data_quick_traced(struct memsys *m, struct counters *c, uint64_t now,
                                  uint64_t paddr, unsigned size, bool store)
{
    return data_quick(m, c, now, paddr, size, store, true);
}

/* With no D-cache, no L2 and no write buffer (the Sun-3), every load and
 * store is one memory transfer: memsys_data() reduced to what it does
 * then (wbuf_store with no buffer, next_read with no L2), for a callback
 * of its own that needs no more. */
bool memsys_direct(const struct memsys *m)
{
    return !m->dc && !m->l2 && m->wb_n == 0;
}

uint64_t memsys_data_direct(struct memsys *m, struct counters *c, uint64_t now,
                            unsigned size, bool store)
{
    if (!store)
        return mem_read(m, c, now, size);
    uint64_t done = mem_write(m, c, now, size);
    c->wbuf_stall_mcyc += done - now;
    return done;
}

/* The commonest access of all: within one line of L1 D, the most recently
 * used of its set, and a load or a store into a write-back cache, which
 * memsys_data() answers with no stall, changing nothing but a store's
 * dirty bit.  True having done that; false having changed nothing.  No
 * time, no counters, no write buffer: the callback's shortest path, which
 * needs no stack frame. */
bool memsys_data_hit(struct memsys *m, uint64_t paddr, unsigned size, bool store)
{
    if (!m->dway || (store && !m->dwrite_back))
        return false;
    uint64_t ln = paddr >> m->dshift;
    if ((paddr + size - 1) >> m->dshift != ln)
        return false;
    uint64_t *way0 = m->dway + (ln & m->dset_mask) * m->dassoc;
    if ((*way0 & ~1ull) != (ln + 1) << 1)
        return false;
    if (store)
        *way0 |= 1;                             /* a write-back store hit: dirty */
    return true;
}

uint64_t memsys_data(struct memsys *m, struct counters *c, uint64_t now,
                     uint64_t paddr, unsigned size, bool store)
{
    struct cache *dc = m->dc;
    if (!dc) {
        if (store)
            return wbuf_store(m, c, now, paddr, size);
        return next_read(m, c, now, paddr, size);
    }
    unsigned shift = dc->line_shift;
    bool to_wbuf = store && !dc->g.write_back;
    for (uint64_t ln = paddr >> shift; ln <= (paddr + size - 1) >> shift; ln++)
        now = dline_done(m, c, now, paddr, ln, size, store, cache_access(dc, ln, store),
                         &to_wbuf);
    if (to_wbuf)
        now = wbuf_store(m, c, now, paddr, size);
    return now;
}

/* The I-cache missed lineno (r: what cache_access did).  (Out of line:
 * inlined into the loop over a block's lines, it made every block's
 * callback save and restore registers only a miss uses.) */
static __attribute__((noinline)) uint64_t iline_miss(struct memsys *m, struct counters *c,
                                                      uint64_t now, uint64_t lineno,
                                                      struct cache_result r)
{
    struct cache *ic = m->ic;
    c->imiss++;
    if (r.evicted_dirty) {              /* only in a unified cache */
        c->writebacks++;
        next_write(m, c, now, r.victim << ic->line_shift, ic->g.line);
    }
    return next_read(m, c, now, lineno << ic->line_shift, ic->g.line);
}

uint64_t memsys_ifetch(struct memsys *m, struct counters *c, uint64_t now, uint64_t lineno)
{
    struct cache_result r = cache_access(m->ic, lineno, false);
    return r.hit ? now : iline_miss(m, c, now, lineno, r);
}

/* A NIC's DMA (model.c, hw_net_dma): bus time only.  The caches are not
 * looked at: the model keeps no data, so a line the device overwrote
 * reads as the processor left it, as it would on a machine whose driver
 * flushes the buffer's lines, which ours need not. */
void memsys_dma(struct memsys *m, uint64_t now, uint32_t bytes, bool to_memory)
{
    m->mem_free = max64(now, m->mem_free) + (to_memory ? write_xfer(m, bytes) : xfer(m, bytes));
}

/* A block's lines in a direct-mapped I-cache with no L2 behind it, the
 * Sun-3's and the DS3100's (a quarter of the Sun-3's instructions miss its
 * 256 bytes): cache_access and iline_miss, specialised.  A miss replaces
 * the set's one line (cache_access with one way), and a clean victim
 * needs no write, so the miss is a read from memory (next_read with no
 * L2).  A dirty victim (a unified write-back L1) goes the general way. */
static inline void trace_iline(const struct cache *ic, uint64_t ln, const char *path)
{
    hw_trace('I', ln << ic->line_shift, 4, path);
}

static inline __attribute__((always_inline))
uint64_t ifetch_direct(struct memsys *m, struct counters *c, uint64_t now,
                       const struct iblock *b, const bool traced)
{
    struct cache *ic = m->ic;
    uint64_t mask = ic->sets - 1;
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t ln = b->line[i], s = ln & mask, key = (ln + 1) << 1;
        uint64_t e = ic->way[s];
        if ((e & ~1ull) == key) {
            if (traced)
                trace_iline(ic, ln, TP_MRU);
            continue;
        }
        if (e & 1) {
            if (traced)
                trace_iline(ic, ln, NULL);
            now = iline_miss(m, c, now, ln, cache_access(ic, ln, false));
            continue;
        }
        if (traced)
            trace_iline(ic, ln, TP_DMFILL);
        ic->way[s] = key;
        ic->gen[s >> ic->region_shift]++;
        c->imiss++;
        now = mem_read(m, c, now, ic->g.line);
    }
    return now;
}

/* A block's lines, looked up in order.  A line that is its set's most
 * recently used hits and changes nothing (cache_is_mru), so only the others
 * go through cache_access.  Afterwards the lines are all most recently
 * used if b->settles (each lookup made its line so, and no later one of
 * the block touched its set; a miss goes to the next level, not to L1), so
 * their regions' generations now say when that stops being true. */
static inline __attribute__((always_inline))
uint64_t ifetch_block(struct memsys *m, struct counters *c, uint64_t now, struct iblock *b,
                      const bool traced)
{
    struct cache *ic = m->ic;
    if (ic->g.assoc == 1 && !m->l2) {
        now = ifetch_direct(m, c, now, b, traced);
        b->seen = b->settles ? ic->gen[b->r0] + ic->gen[b->r1] + 1 : 0;
        return now;
    }
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t ln = b->line[i];
        if (cache_is_mru(ic, ln)) {
            if (traced)
                trace_iline(ic, ln, TP_MRU);
            continue;
        }
        if (traced)
            trace_iline(ic, ln, NULL);
        struct cache_result r = cache_access(ic, ln, false);
        if (!r.hit)
            now = iline_miss(m, c, now, ln, r);
    }
    b->seen = b->settles ? ic->gen[b->r0] + ic->gen[b->r1] + 1 : 0;
    return now;
}

uint64_t memsys_ifetch_block(struct memsys *m, struct counters *c, uint64_t now,
                             struct iblock *b)
{
    return ifetch_block(m, c, now, b, false);
}

uint64_t memsys_ifetch_block_traced(struct memsys *m, struct counters *c, uint64_t now,
                                    struct iblock *b)
{
    return ifetch_block(m, c, now, b, true);
}

void memsys_iblock_init(const struct memsys *m, struct iblock *b)
{
    const struct cache *ic = m->ic;
    b->seen = 0;
    b->settles = ic && b->n > 0 && !m->general;     /* general: never skipped */
    b->r0 = b->r1 = 0;
    if (!b->settles)
        return;
    b->r0 = b->r1 = cache_region(ic, b->line[0]);
    for (uint32_t i = 1; i < b->n && b->settles; i++) {
        uint32_t r = cache_region(ic, b->line[i]);
        if (r != b->r0 && r != b->r1) {
            if (b->r1 == b->r0)
                b->r1 = r;
            else
                b->settles = false;     /* a third region */
        }
    }
    /* No two lines in one set: rising lines spanning fewer lines than there
     * are sets cannot share one; otherwise compare (a long list: give up). */
    bool rising = true;
    for (uint32_t i = 1; i < b->n; i++)
        rising = rising && b->line[i] > b->line[i - 1];
    if (rising && b->line[b->n - 1] - b->line[0] < ic->sets)
        return;
    if (b->n > 64) {
        b->settles = false;
        return;
    }
    for (uint32_t i = 0; i < b->n && b->settles; i++)
        for (uint32_t k = i + 1; k < b->n; k++)
            if (((b->line[i] ^ b->line[k]) & (ic->sets - 1)) == 0)
                b->settles = false;
}

struct cache *memsys_icache(const struct memsys *m)
{
    return m->ic;
}

bool memsys_has_icache(const struct memsys *m)
{
    return m->ic != NULL;
}

unsigned memsys_iline_shift(const struct memsys *m)
{
    return m->ic ? m->ic->line_shift : 0;
}

void memsys_flush(struct memsys *m)
{
    if (m->ic)
        cache_flush(m->ic);
    if (m->dc && m->dc != m->ic)
        cache_flush(m->dc);
    if (m->l2)
        cache_flush(m->l2);
}

static struct cache *make(const struct cache_geom *g, const char *which, const char **err)
{
    static char msg[160];
    if (g->size == 0)
        return NULL;
    const char *why = NULL;
    struct cache *c = cache_new(g, &why);
    if (!c) {
        snprintf(msg, sizeof(msg), "%s: %s", which, why);
        *err = msg;
    }
    return c;
}

struct memsys *memsys_new(const struct memsys_params *p, bool fast, const char **err)
{
    *err = NULL;
    if (!(p->clock_mhz > 0)) {
        *err = "cpu.clock_mhz must be > 0";
        return NULL;
    }
    if (!(p->mem_mbs > 0)) {
        *err = "memory.bandwidth_mbs must be > 0";
        return NULL;
    }
    if (p->mem_latency_ns < 0 || p->l2_latency_ns < 0 || p->mem_write_ns < 0) {
        *err = "memory.latency_ns, l2.latency_ns and memory.write_ns must be >= 0";
        return NULL;
    }
    if (p->bus_bytes == 0 || (p->bus_bytes & (p->bus_bytes - 1))) {
        *err = "memory.bus_bytes must be a power of two";
        return NULL;
    }
    struct memsys *m = calloc(1, sizeof(*m));
    m->dc = make(&p->dc, "dcache", err);
    m->ic = p->unified ? m->dc : make(&p->ic, "icache", err);
    m->l2 = make(&p->l2, "l2", err);
    if (*err) {
        free(m);
        return NULL;
    }
    if (m->dc) {
        m->dway = m->dc->way;
        m->dset_mask = m->dc->sets - 1;
        m->dassoc = m->dc->g.assoc;
        m->dshift = m->dc->line_shift;
        m->dwrite_back = m->dc->g.write_back;
        m->dwrite_allocate = m->dc->g.write_allocate;
    }
    m->general = !fast;
    if (m->l2) {
        m->l2wway = m->l2->g.write_back && fast ? m->l2->way : NULL;
        m->l2set_mask = m->l2->sets - 1;
        m->l2assoc = m->l2->g.assoc;
        m->l2shift = m->l2->line_shift;
    }
    m->bus = p->bus_bytes;
    m->bus_shift = __builtin_ctz(p->bus_bytes);
    m->khz = p->clock_mhz * 1000.0;
    m->word_mcyc = (uint64_t)llround(p->bus_bytes * m->khz / p->mem_mbs);
    m->wword_mcyc = p->mem_write_ns > 0 ? memsys_ns_to_mcyc(m, p->mem_write_ns)
                                        : m->word_mcyc;
    m->lat = memsys_ns_to_mcyc(m, p->mem_latency_ns);
    m->l2_hit = memsys_ns_to_mcyc(m, p->l2_latency_ns);
    m->wb_n = p->wbuf_entries;
    m->wb_done = calloc(m->wb_n ? m->wb_n : 1, sizeof(uint64_t));
    return m;
}
