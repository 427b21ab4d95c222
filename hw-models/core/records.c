/*
 * records.c: everything the model writes, in one place, for every front
 * end.  To out=FILE (else to the front end's log, or nowhere), one line
 * each (hw-models/README.md, "What the model logs"; the harness reads them:
 * harness/model/hwmodel.py):
 *
 *   HWMODEL isa=... clock_mhz=...   the parameters, at start
 *   HWREGION seq=N id=ID insns=...  one per timed region, at its end
 *   HWTOTAL insns=...               the whole run, at exit
 *   HWWARN what=...                 something the model could not do
 *
 * and to trace=FILE the accesses of one region, for the reference
 * simulator (tests/hwmodel_ref.py): "B id" where it begins, then
 * "I paddr 4" per I-cache line fetched, "R paddr size", "W paddr size",
 * and with a TLB its lookups and flushes (tlb.c).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "model.h"

void hw_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (hw.out) {
        vfprintf(hw.out, fmt, ap);
        fflush(hw.out);
    } else if (hw.outs) {
        char line[1024];                /* a record is a few hundred bytes */
        vsnprintf(line, sizeof(line), fmt, ap);
        hw.outs(line);
    }
    va_end(ap);
}

void hw_warn(const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    hw_say("HWWARN what=%s\n", what);
}

void hw_record_model(const char *isa_name)
{
    const struct hw_params *p = &hw.p;
    const struct memsys_params *m = &p->mem;
    /* The newer parameters only when set, so that the records of profiles
     * without them read as before. */
    char more[256] = "";
    if (p->extra[CL_DWORD] != 0 || m->mem_write_ns != 0)
        snprintf(more, sizeof(more), " dword=%g mem_write_ns=%g", p->extra[CL_DWORD],
                 m->mem_write_ns);
    const struct tlb_params *t = &p->tlb;
    if (t->page_size) {
        size_t at = strlen(more);
        snprintf(more + at, sizeof(more) - at,
                 " tlb=%s page=%u itlb=%u/%u dtlb=%u/%u tlb_unified=%d large=%u/%u/%u walk=%g",
                 t->software ? "software" : "walk", t->page_size, t->i_entries, t->i_assoc,
                 t->d_entries, t->d_assoc, t->unified, t->large_entries, t->large_assoc,
                 t->large_size, t->walk_cycles);
    }
    hw_say("HWMODEL isa=%s clock_mhz=%g cpi=%g load=%g store=%g branch=%g mul=%g div=%g "
           "trap=%g trap_pcs=%d ic=%u/%u/%u dc=%u/%u/%u/%s/%s unified=%d wbuf=%u "
           "l2=%u/%u/%u mem_ns=%g mem_mbs=%g bus=%u%s\n",
           isa_name, m->clock_mhz, p->cpi, p->extra[CL_LOAD], p->extra[CL_STORE],
           p->extra[CL_BRANCH], p->extra[CL_MUL], p->extra[CL_DIV], p->trap_cycles,
           p->n_trap_pc, m->ic.size, m->ic.line, m->ic.assoc, m->dc.size, m->dc.line,
           m->dc.assoc, m->dc.write_back ? "wb" : "wt",
           m->dc.write_allocate ? "alloc" : "noalloc", m->unified, m->wbuf_entries,
           m->l2.size, m->l2.line, m->l2.assoc, m->mem_latency_ns, m->mem_mbs, m->bus_bytes,
           more);
}

#define D(f) (now->f - then->f)

static uint64_t cycles(uint64_t mcyc)   /* rounded to the nearest cycle */
{
    return (mcyc + MCYC / 2) / MCYC;
}

void hw_record_counters(const char *word, const char *head, const struct counters *now,
                        const struct counters *then, uint64_t mcyc_now,
                        uint64_t mcyc_then, uint64_t ns, const char *tail)
{
    char win[64] = "";                  /* only where there are window traps */
    if (hw.windows)
        snprintf(win, sizeof(win), " wovf=%" PRIu64 " wunf=%" PRIu64, D(wovf), D(wunf));
    char tlb[96] = "";                  /* only with a [tlb]: records without read as before */
    if (hw.tlb_counts)
        snprintf(tlb, sizeof(tlb), " itlb_miss=%" PRIu64 " dtlb_miss=%" PRIu64 " segloads=%" PRIu64,
                 D(itlb_miss), D(dtlb_miss), D(segloads));
    hw_say("%s%s insns=%" PRIu64 " loads=%" PRIu64 " stores=%" PRIu64
           " imiss=%" PRIu64 " dmiss=%" PRIu64 " dmiss_w=%" PRIu64 " writebacks=%" PRIu64
           " l2miss=%" PRIu64 " bytes_in=%" PRIu64 " bytes_out=%" PRIu64
           " traps=%" PRIu64 "%s disk=%" PRIu64 " disk_ns=%" PRIu64
           " stall_cycles=%" PRIu64 " wbuf_cycles=%" PRIu64
           " cycles=%" PRIu64 " ns=%" PRIu64 "%s%s\n",
           word, head, D(insns), D(loads), D(stores), D(imiss), D(dmiss), D(dmiss_w),
           D(writebacks), D(l2miss), D(bytes_in), D(bytes_out), D(traps), win, D(disk_reqs),
           hw_mcyc_to_ns(D(disk_mcyc)), cycles(D(stall_mcyc)), cycles(D(wbuf_stall_mcyc)),
           cycles(mcyc_now - mcyc_then), ns, tail, tlb);
}

void hw_trace_begin(uint32_t region)
{
    fprintf(hw.trace, "B %u\n", region);
}

void hw_trace(char kind, uint64_t paddr, unsigned size)
{
    fprintf(hw.trace, "%c %" PRIx64 " %u\n", kind, paddr, size);
}

void hw_trace_tlb(char kind, uint64_t vaddr, unsigned page_shift)
{
    fprintf(hw.trace, "T %c %" PRIx64 " %u\n", kind, vaddr, page_shift);
}
