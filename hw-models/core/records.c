/*
 * records.c: everything the model writes, in one place, for every front
 * end.  To out=FILE (else to the front end's log, or nowhere), one line
 * each (hw-models/README.md, "What the model logs"; the harness reads them:
 * harness/model/modellog.py):
 *
 *   HWMODEL isa=... cpu.clock_mhz=...   the parameters, at start
 *   HWREGION seq=N id=ID insns=...  one per timed region, at its end
 *   HWTOTAL insns=...               the whole run, at exit
 *   HWWARN what=...                 something the model could not do
 *
 * and to trace=FILE the accesses of one region, for the reference
 * simulator (tests/hwmodel_ref.py): "B id" where it begins, then
 * "I paddr 4" per I-cache line fetched, "R paddr size", "W paddr size",
 * and with a TLB its lookups and flushes (tlb.c), each followed by the
 * fast path that took it, if one did (model.h, "the trace").
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
        char line[HW_SAY_MAX];
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

/* The parameters as the model has them, every one, by params.def's names:
 * what the harness sent, defaults filled in. */
void hw_record_model(const char *isa_name)
{
    char params[HW_SAY_MAX - 64];
    hw_format_params(params, sizeof(params));
    hw_say("HWMODEL isa=%s%s trap_pcs=%d\n", isa_name, params, hw.p.n_trap_pc);
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
    char net[96] = "";                  /* only on a wire, likewise */
    if (hw.net)
        snprintf(net, sizeof(net), " idle_ns=%" PRIu64 " dma_bytes=%" PRIu64,
                 hw_mcyc_to_ns(D(idle_mcyc)), D(dma_bytes));
    hw_say("%s%s insns=%" PRIu64 " loads=%" PRIu64 " stores=%" PRIu64
           " imiss=%" PRIu64 " dmiss=%" PRIu64 " dmiss_w=%" PRIu64 " writebacks=%" PRIu64
           " l2miss=%" PRIu64 " bytes_in=%" PRIu64 " bytes_out=%" PRIu64
           " traps=%" PRIu64 "%s disk=%" PRIu64 " disk_ns=%" PRIu64
           " stall_cycles=%" PRIu64 " wbuf_cycles=%" PRIu64
           " cycles=%" PRIu64 " ns=%" PRIu64 "%s%s%s\n",
           word, head, D(insns), D(loads), D(stores), D(imiss), D(dmiss), D(dmiss_w),
           D(writebacks), D(l2miss), D(bytes_in), D(bytes_out), D(traps), win, D(disk_reqs),
           hw_mcyc_to_ns(D(disk_mcyc)), cycles(D(stall_mcyc)), cycles(D(wbuf_stall_mcyc)),
           cycles(mcyc_now - mcyc_then), ns, tail, tlb, net);
}

/* What this node did on the wire, at the end.  The frames' counts are the
 * same every run; idle_ns and input_wakes are not: the harness types at
 * the console when the host gets there, and an idle machine's clock jumps
 * to each typed line (two runs of SUITE=net: the same frames, RESULT and
 * HWREGION lines, idle_ns some 0.03% apart). */
void hw_record_net(void)
{
    struct wire_stats s;
    wire_get_stats(&s);
    hw_say("HWNET node=%u lookahead_ns=%" PRIu64 " tx_frames=%" PRIu64 " tx_bytes=%" PRIu64
           " delivered=%" PRIu64 " dropped=%" PRIu64 " corrupted=%" PRIu64
           " oversize=%" PRIu64 " overflow=%" PRIu64 " rx_frames=%" PRIu64
           " rx_bytes=%" PRIu64 " garbage=%" PRIu64 " idle_ns=%" PRIu64
           " input_wakes=%" PRIu64 " joined_ns=%" PRIu64 " tx_unjoined=%" PRIu64 "\n",
           hw.p.wire.node, hw_mcyc_to_ns(s.lookahead), s.tx_frames, s.tx_bytes, s.fate[LINK_DELIVER],
           s.fate[LINK_DROP], s.fate[LINK_CORRUPT], s.fate[LINK_OVERSIZE],
           s.fate[LINK_OVERFLOW], s.rx_frames, s.rx_bytes, s.garbage, hw_mcyc_to_ns(s.idle),
           s.input_wakes, hw_mcyc_to_ns(s.joined), s.tx_unjoined);
    struct wire_host h;
    wire_get_host(&h);
    hw_say("HWNETHOST checks=%" PRIu64 " sleeps=%" PRIu64 " wakes=%" PRIu64
           " sleep_s=%.3f looks_won=%" PRIu64 " looks_lost=%" PRIu64 " timeouts=%" PRIu64
           " pins=%" PRIu64 " unpins=%" PRIu64 "\n",
           h.checks, h.sleeps, h.wakes, h.sleep_ns / 1e9, h.looks_won, h.looks_lost,
           h.timeouts, h.pins, h.unpins);
}

void hw_trace_begin(uint32_t region)
{
    fprintf(hw.trace, "B %u\n", region);
}

void hw_trace(char kind, uint64_t paddr, unsigned size, const char *path)
{
    fprintf(hw.trace, "%c %" PRIx64 " %u%s%s\n", kind, paddr, size, path ? " " : "",
            path ? path : "");
}

void hw_trace_tlb(char kind, uint64_t vaddr, unsigned page_shift, const char *path)
{
    fprintf(hw.trace, "T %c %" PRIx64 " %u%s%s\n", kind, vaddr, page_shift, path ? " " : "",
            path ? path : "");
}
