/*
 * regions.c: timed regions.  The guest brackets each timed loop with the
 * region marker (bench_region_begin/end, guests/include/bench.h); at the
 * end the engine writes the region's HWREGION record: every counter's
 * change over the region, its modelled time marker to marker (ns), and the
 * span between its first and last clock reads (clock_ns), which is exactly
 * the span the guest printed: the harness joins RESULT lines to records by
 * that equality.
 *
 * Regions may nest or overlap (up to MAX_OPEN at once).  The traced region
 * (trace=, trace_region=) starts with empty caches, as the reference
 * simulator does (tests/hwmodel_ref.py); the attributed one (attrib=,
 * attrib_region=) switches attribution on while it is open.
 */
#include <inttypes.h>

#include "model.h"

#define MAX_OPEN 16

static struct open_region {
    bool used;
    uint32_t id;
    struct counters at;                 /* the counters when it began */
    uint64_t at_mcyc, at_ns;
    uint64_t clock_first, clock_last;
    uint32_t clock_reads;
} open_regions[MAX_OPEN];

static uint32_t region_seq;

static void region_begin(uint32_t id)
{
    struct open_region *r = NULL;
    for (int i = 0; i < MAX_OPEN && !r; i++)
        if (open_regions[i].used && open_regions[i].id == id)
            r = &open_regions[i];           /* begun again: restart it */
    for (int i = 0; i < MAX_OPEN && !r; i++)
        if (!open_regions[i].used)
            r = &open_regions[i];
    if (!r) {
        hw_warn("too_many_open_regions id=%u", id);
        return;
    }
    uint64_t now = hw_now();
    hw_clock_rebase(now);
    *r = (struct open_region){ .used = true, .id = id, .at = *hw.c, .at_mcyc = now,
                               .at_ns = hw_clock_ns(now) };
    if (hw.attributing && (int64_t)id == hw.p.attrib_region)
        hw.c->attrib_on = 1;
    if (hw.trace && (int64_t)id == hw.p.trace_region) {
        memsys_flush(hw.mem);               /* the reference simulator starts cold */
        if (hw.tlb)
            tlb_flush();                    /* (before tracing: no "T F" line) */
        hw.tracing = true;
        hw_trace_begin(id);
        r->at = *hw.c;
    }
}

static void region_end(uint32_t id)
{
    for (int i = 0; i < MAX_OPEN; i++) {
        struct open_region *r = &open_regions[i];
        if (!r->used || r->id != id)
            continue;
        char head[64], tail[96];
        snprintf(head, sizeof(head), " seq=%u id=%u", ++region_seq, id);
        snprintf(tail, sizeof(tail), " clock_reads=%u clock_ns=%" PRIu64, r->clock_reads,
                 r->clock_reads >= 2 ? r->clock_last - r->clock_first : 0);
        uint64_t now = hw_now();
        hw_record_counters("HWREGION", head, hw.c, &r->at, now, r->at_mcyc,
                           hw_clock_ns(now) - r->at_ns, tail);
        r->used = false;
        if (hw.tracing && (int64_t)id == hw.p.trace_region) {
            hw.tracing = false;
            fflush(hw.trace);
        }
        if (hw.attributing && (int64_t)id == hw.p.attrib_region) {
            hw.c->attrib_on = 0;
            attrib_dump(id);
        }
        return;
    }
    hw_warn("end_without_begin id=%u", id);
}

void hw_region_marker(uint64_t arg)
{
    if (arg & 1)
        region_end((uint32_t)(arg >> 1));
    else
        region_begin((uint32_t)(arg >> 1));
}

uint64_t hw_clock_read(void)
{
    uint64_t ns = hw_clock_ns(hw_now());
    for (int i = 0; i < MAX_OPEN; i++) {
        struct open_region *r = &open_regions[i];
        if (!r->used)
            continue;
        if (r->clock_reads++ == 0)
            r->clock_first = ns;
        r->clock_last = ns;
    }
    return ns;
}
