/*
 * cache.c: one set-associative cache with LRU replacement, by line number.
 *
 * Functional only: it says hit or miss and which line a miss evicts; what
 * that costs in time is memsys.c's business.  tests/hwmodel_ref.py is an
 * independent Python version of the same rules, and the tests check that
 * the two agree exactly on real address traces.
 *
 * The rules:
 *   - a read miss allocates the line (evicting the least recently used way);
 *   - a store that hits marks the line dirty in a write-back cache, and only
 *     refreshes it in a write-through cache (the store goes on to memory);
 *   - a store that misses allocates only with write_allocate (and the new
 *     line is dirty if write-back); otherwise the cache is left untouched;
 *   - every hit and every fill makes the line the most recently used;
 *   - evicting a dirty line is a write-back (reported to the caller).
 *
 * Each set keeps its ways in recency order, most recent first, so LRU is a
 * memmove of a few words: caches of the period are direct-mapped or 2-way.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static bool pow2(uint32_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

struct cache *cache_new(const struct cache_geom *g, const char **err)
{
    if (!pow2(g->line)) {
        *err = "line size is not a power of two";
        return NULL;
    }
    if (g->assoc == 0) {
        *err = "associativity is zero";
        return NULL;
    }
    if (g->size < g->line * g->assoc || g->size % (g->line * g->assoc) != 0) {
        *err = "size is not a whole number of sets (line x associativity)";
        return NULL;
    }
    uint32_t sets = g->size / (g->line * g->assoc);
    if (!pow2(sets)) {
        *err = "number of sets (size / line / associativity) is not a power of two";
        return NULL;
    }
    struct cache *c = calloc(1, sizeof(*c));
    c->g = *g;
    c->sets = sets;
    c->line_shift = __builtin_ctz(g->line);
    c->way = calloc((size_t)sets * g->assoc, sizeof(uint64_t));
    return c;
}

void cache_flush(struct cache *c)
{
    memset(c->way, 0, (size_t)c->sets * c->g.assoc * sizeof(uint64_t));
}

struct cache_result cache_access(struct cache *c, uint64_t lineno, bool write)
{
    struct cache_result r = { 0 };
    uint32_t assoc = c->g.assoc;
    uint64_t *set = c->way + (lineno & (c->sets - 1)) * assoc;
    uint64_t key = (lineno + 1) << 1;
    uint64_t dirty = write && c->g.write_back;

    for (uint32_t i = 0; i < assoc; i++) {
        if ((set[i] & ~1ull) == key) {
            uint64_t e = set[i] | dirty;
            memmove(set + 1, set, i * sizeof(uint64_t));
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
    memmove(set + 1, set, (assoc - 1) * sizeof(uint64_t));
    set[0] = key | dirty;
    r.filled = true;
    return r;
}
