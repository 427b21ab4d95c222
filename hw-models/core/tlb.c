/*
 * tlb.c: translation lookaside buffers, and what a miss costs.
 *
 * Only for a profile with a [tlb] section (hw.tlb != NULL); without one the
 * front end never calls in here and no record changes.
 *
 * A TLB is a set-associative LRU table of virtual page numbers: the same
 * rules as a cache of one-byte lines (cache.h), keyed by va >> page shift,
 * so it is one `struct cache` with line = 1 and size = entries.  There is an
 * instruction TLB and a data TLB, or one unified TLB, and optionally a data
 * TLB for large pages (the Pentium kept its 4 MB pages in a separate
 * 8-entry data TLB, and its code TLB held them as 4 KB pieces: instruction
 * fetches here always use page_size pieces).  A data access probes the
 * large-page TLB first, then the ordinary one, as the hardware probes both
 * at once; the walk says which of the two a missing page fills.
 *
 * Entries carry no address-space number: loading the page-table root
 * (x86 cr3, RISC-V satp) flushes every TLB, and so does any TLB flush
 * instruction (invlpg, sfence.vma), whole (a single-page flush of a real
 * machine drops one entry; ours are rare: munmap, exit).  With the root 0
 * paging is off and nothing is looked up.
 *
 * A miss costs a hardware walk: the page-table entries it reads, each a
 * 4-byte load through the data cache and the rest of the memory system
 * (hw_walk_read, as hw_data: so a walk that hits the cache is cheap, one that misses pays
 * the memory's latency, and the walk's reads show in the D-cache counts
 * and in the address trace), at the physical addresses the front end
 * computes from the root and the page tables themselves (isa->walk); plus
 * walk_cycles of fixed overhead.  Where the front end cannot compute them,
 * each of the ISA's walk_levels references costs the memory's latency plus
 * one bus word.  The accessed and dirty bits a real walk sets are not
 * written.  On an ISA whose TLB is refilled by software (MIPS) the model
 * only counts the refill vector's entries; the handler is charged as the
 * code it is.
 *
 * The address trace (trace=) gets "T I va shift" and "T D va shift" per
 * lookup (shift: log2 of the page it found or filled; then " last" if the
 * page was the last one looked up there, " quick" from tlb_data_quick)
 * and "T F 0 0" per flush, for tests/hwmodel_ref.py.
 */
#include <math.h>
#include <stdlib.h>

#include "model.h"

/* struct tlb is in tlb.h, where the per-access check (tlb_data_quick) sees it. */

static struct cache *table(uint32_t entries, uint32_t assoc, const char *which,
                           const char **err)
{
    static char msg[160];
    struct cache_geom g = { entries, 1, assoc, false, false };
    const char *why = NULL;
    struct cache *c = cache_new(&g, &why);
    if (!c) {
        snprintf(msg, sizeof(msg), "%s: %s", which, why);
        *err = msg;
    }
    return c;
}

const char *tlb_start(void)
{
    const struct tlb_params *p = &hw.p.tlb;
    const char *err = NULL;
    if (p->page_size == 0)
        return NULL;
    if (p->page_size & (p->page_size - 1))
        return "tlb.page_size: not a power of two";
    if (p->software) {                  /* counted at the refill vector only */
        if (!p->refill_pc)
            return "tlb.refill=software needs tlb_refill_pc (the refill vector)";
        return NULL;
    }
    struct tlb *t = calloc(1, sizeof(*t));
    t->page_shift = __builtin_ctz(p->page_size);
    t->d = table(p->d_entries, p->d_assoc, "dtlb", &err);
    t->i = p->unified ? t->d : table(p->i_entries, p->i_assoc, "itlb", &err);
    if (!err && p->large_entries) {
        if (p->large_size <= p->page_size || (p->large_size & (p->large_size - 1)))
            return "tlb.large_page_size: not a power of two above tlb.page_size";
        t->large = table(p->large_entries, p->large_assoc, "large-page dtlb", &err);
        t->large_shift = __builtin_ctz(p->large_size);
    }
    if (err)
        return err;
    t->last_i = &t->own_last_i;
    t->quick = t->i != t->d && hw.p.fast;
    t->walk_mcyc = (uint64_t)llround(p->walk_cycles * MCYC);
    t->level_mcyc = memsys_word_read_mcyc(hw.mem);
    hw.tlb = t;
    return NULL;
}

void tlb_flush(void)
{
    struct tlb *t = hw.tlb;
    t->last_d = t->last_large = *t->last_i = 0;
    cache_flush(t->d);
    if (t->i != t->d)
        cache_flush(t->i);
    if (t->large)
        cache_flush(t->large);
    if (hw.tracing)
        hw_trace_tlb('F', 0, 0, NULL);
}

void tlb_last_fetch_at(uint64_t *slot)
{
    hw.tlb->last_i = slot;
    *slot = hw.tlb->own_last_i;
}

void tlb_set_root(uint64_t root)
{
    hw.tlb->root = root;
    tlb_flush();
}

/* A missing page into its table, in place of its set's least recently
 * used (cache_access's rule for every table). */
static void fill(struct cache *table, uint64_t page)
{
    cache_access(table, page, false);
}

/* A miss: walk the page tables for va.  The stall it added (in *stall);
 * the page size it found in *shift; false if va is not translated at all
 * (walk() < 0: a Bare satp, the 68040's transparent translation). */
static bool refill(struct tlb *t, uint64_t va, uint64_t ahead, unsigned *shift,
                   uint64_t *stall)
{
    uint64_t pte[4];
    int n = hw.walk ? hw.walk(t->root, va, pte, shift) : 0;
    if (n < 0)
        return false;
    uint64_t fixed = t->walk_mcyc;
    if (n == 0) {                       /* addresses unknown: latency per level */
        *shift = t->page_shift;
        fixed += (uint64_t)hw.walk_levels * t->level_mcyc;
    }
    hw.c->stall_mcyc += fixed;
    *stall = fixed;
    for (int k = 0; k < n; k++)
        *stall += hw_walk_read(pte[k], ahead);
    return true;
}

/* Never inlined: mem_cb calls it only with a [tlb], and inlined there it
 * would make the per-access path of every profile bigger. */
__attribute__((noinline))
uint64_t tlb_data(uint64_t va, uint64_t ahead)
{
    struct tlb *t = hw.tlb;
    if (!t->root)
        return 0;
    uint64_t small = va >> t->page_shift, big = t->large ? va >> t->large_shift : 0;
    unsigned shift = t->page_shift;
    uint64_t stall = 0;
    const char *path = NULL;
    /* A page is in one table only, so the order of the probes does not
     * matter; each is a "store" into a no-allocate table: it finds, and
     * makes most recently used, without filling.  (fast=false: last_d and
     * last_large stay 0.) */
    if (small + 1 == t->last_d) {
        path = TP_LAST;                 /* the last data page: found, as it was */
    } else if (t->large && big + 1 == t->last_large) {
        shift = t->large_shift;
        path = TP_LAST;
    } else if (cache_access(t->d, small, true).hit) {
        t->last_d = small + 1;
    } else if (t->large && cache_access(t->large, big, true).hit) {
        t->last_large = big + 1;
        shift = t->large_shift;
    } else {
        if (!refill(t, va, ahead, &shift, &stall))
            return 0;
        hw.c->dtlb_miss++;
        if (t->large && shift >= t->large_shift) {
            shift = t->large_shift;
            fill(t->large, big);
            t->last_large = big + 1;
        } else {
            shift = t->page_shift;      /* a large page without a large TLB: in pieces */
            fill(t->d, small);
            t->last_d = small + 1;
        }
    }
    if (t->i == t->d)                   /* unified: a fetch's set order may be changed */
        *t->last_i = 0;
    if (hw.general)
        t->last_d = t->last_large = 0;
    if (hw.tracing)
        hw_trace_tlb('D', va, shift, path);
    return stall;
}

uint64_t tlb_fetch(uint64_t va)
{
    struct tlb *t = hw.tlb;
    if (!t->root)
        return 0;
    uint64_t stall = 0;
    const char *path = NULL;
    if (*t->last_i == (va >> t->page_shift) + 1) {
        path = TP_LAST;                 /* the same page as the last fetch: found, as it was */
    } else if (!cache_access(t->i, va >> t->page_shift, true).hit) {
        unsigned shift;
        if (!refill(t, va, 0, &shift, &stall))
            return 0;
        hw.c->itlb_miss++;
        fill(t->i, va >> t->page_shift);
    }
    *t->last_i = hw.general ? 0 : (va >> t->page_shift) + 1;   /* fast=false: never used */
    if (t->i == t->d)
        t->last_d = 0;
    if (hw.tracing)
        hw_trace_tlb('I', va, t->page_shift, path);
    return stall;
}
