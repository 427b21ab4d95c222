/*
 * tlb.h: the translation lookaside buffers (tlb.c), for a profile with a
 * [tlb] section.  Without one, hw.tlb is NULL and nothing here runs.
 */
#ifndef HWMODEL_TLB_H
#define HWMODEL_TLB_H

#include <stdbool.h>
#include <stdint.h>

struct tlb_params {
    uint32_t page_size;                 /* bytes; 0: no TLB modelled */
    uint32_t i_entries, i_assoc;        /* instruction TLB */
    uint32_t d_entries, d_assoc;        /* data TLB (or both, if unified) */
    bool unified;                       /* one TLB for both (i_* ignored) */
    /* An optional data TLB for large pages (the Pentium's 8 entries for
     * 4 MB pages); 0: large pages take ordinary entries, one per page_size
     * piece.  Instruction fetches always use page_size pieces. */
    uint32_t large_entries, large_assoc, large_size;
    /* Refilled by the kernel (MIPS): the model only counts refills, found
     * by the refill vector's address; its handler is charged as code. */
    bool software;
    uint64_t refill_pc;
    double walk_cycles;                 /* fixed cycles per hardware refill */
};

/* The TLBs' state, tlb.c's own but for tlb_data_quick (model.h), which
 * reads it on every data access without a call. */
struct cache;
struct tlb {
    struct cache *i, *d, *large;        /* i == d when unified; large may be NULL */
    unsigned page_shift, large_shift;
    uint64_t root;                      /* the page-table root; 0: paging off */
    uint64_t walk_mcyc;                 /* fixed cost per refill */
    uint64_t level_mcyc;                /* one reference at an unknown address */
    /* The page last looked up in each table (page number + 1; 0: none).
     * Looking the same page up again finds it most recently used in its
     * set, and a hit there changes nothing, so it is answered here without
     * a probe: exact, and most accesses are such.  (Unified, a fetch may
     * reorder a data page's set, and the other way round: each lookup
     * forgets the other's.)  last_i may live where
     * the front end can test it without calling in (tlb_last_fetch_at). */
    uint64_t last_d, last_large, *last_i, own_last_i;
    /* Whether tlb_data_quick may answer: not for a unified TLB, nor with
     * fast=false, when the last pages are not used either. */
    bool quick;
};

#endif
