/*
 * cache.c: one set-associative cache with LRU replacement, by line number.
 *
 * Functional only: it says hit or miss and which line a miss evicts; what
 * that costs in time is memsys.c's business.  tests/hwmodel_ref.py is an
 * independent Python version of the same rules (listed in model.h beside
 * cache_access(), which lives there to be inlined), and the tests check
 * that the two agree exactly on real address traces.
 *
 * Each set keeps its ways in recency order, most recent first, so LRU is a
 * shift of a few words: caches of the period are direct-mapped or 2-way.
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
    uint32_t region_sets = g->line >= REGION_BYTES ? 1 : REGION_BYTES / g->line;
    if (region_sets > sets)
        region_sets = sets;
    c->region_shift = __builtin_ctz(region_sets);
    c->regions = sets >> c->region_shift;
    c->gen = calloc(c->regions, sizeof(uint64_t));
    return c;
}

void cache_flush(struct cache *c)
{
    memset(c->way, 0, (size_t)c->sets * c->g.assoc * sizeof(uint64_t));
    for (uint32_t i = 0; i < c->regions; i++)
        c->gen[i]++;                    /* what was present is gone */
}
