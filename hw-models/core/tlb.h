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

struct tlb;

#endif
