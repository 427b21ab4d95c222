/*
 * cache.h: one set-associative LRU cache (cache.c), functional only: hit or
 * miss, and what a miss evicts.  Its time is memsys.c's business.
 * cache_access() lives here, not in cache.c, so that it is inlined into the
 * memory system's loops: it runs on every access of the guest.
 */
#ifndef HWMODEL_CACHE_H
#define HWMODEL_CACHE_H

#include <stdbool.h>
#include <stdint.h>

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
    /* Generations, one per region of REGION_BYTES of addresses' worth of
     * consecutive sets (set >> region_shift).  A set's most recently used
     * line changes only with a fill or with a hit on another way than the
     * first, and each of those adds one to its region's generation (a
     * flush to every region's).  So lines that were each the most recently
     * used of their sets when their regions' generations were G are all
     * still so while the generations are G: looking them up again would
     * hit on the first way, which changes nothing, in any associativity.
     * memsys_ifetch_block uses that to skip a block's lines. */
    uint64_t *gen;
    unsigned region_shift;
    uint32_t regions;
};

/* 128: of 64 to 1024, the size that left the fewest block fetches to walk
 * on the DS3100, pc-p5 and Sun-3 profiles.  Smaller regions put more long
 * blocks in more than two regions (memsys_iblock_init), larger ones make
 * more blocks share a generation. */
#define REGION_BYTES 128

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
    uint64_t s = lineno & (c->sets - 1);
    uint64_t *set = c->way + s * assoc;
    uint64_t key = (lineno + 1) << 1;
    uint64_t dirty = write && c->g.write_back;

    /* (Plain loops, not memmove: sets are a few ways, and this runs on
     * every access of the guest.) */
    for (uint32_t i = 0; i < assoc; i++) {
        if ((set[i] & ~1ull) == key) {
            uint64_t e = set[i] | dirty;
            if (i > 0)                  /* a new most recently used line */
                c->gen[s >> c->region_shift]++;
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
    c->gen[s >> c->region_shift]++;
    return r;
}

/* Whether lineno is the most recently used line of its set: then a read
 * of it hits and changes nothing. */
static inline bool cache_is_mru(const struct cache *c, uint64_t lineno)
{
    return (c->way[(lineno & (c->sets - 1)) * c->g.assoc] & ~1ull) == (lineno + 1) << 1;
}

static inline uint32_t cache_region(const struct cache *c, uint64_t lineno)
{
    return (uint32_t)((lineno & (c->sets - 1)) >> c->region_shift);
}

#endif
