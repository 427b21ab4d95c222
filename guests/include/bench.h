/*
 * Timing for benchmarks: the one seam between a benchmark and the clock.
 *
 * Every benchmark reads time and instruction counts only through these
 * functions, and brackets its timed loop with bench_region_begin/end.  Under
 * `qemu -icount shift=0` the guest clock advances exactly with instructions,
 * so runs are bit-identical.  A hardware model (hw-models/) recognises the
 * marker executed by bench_region_begin/end and charges modelled time.
 *
 * The per-ISA parts live in guests/lib/arch/<isa>/bench_arch.S;
 * the report is in guests/lib/bench.c.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

uint64_t bench_now_ns(void);      /* guest time in nanoseconds           */
uint64_t bench_insns(void);       /* retired instructions, or 0 if unknown */

/* Mark the start and end of timed region `id` (a small integer, unique per
 * case within a run).  Cheap: one marker instruction. */
void bench_region_begin(int id);
void bench_region_end(int id);

/*
 * Region ids: case k (1, 2, 3 ... within one benchmark program) brackets its
 * timed loop as region BENCH_TIMED(k) and its empty loop, the overhead that
 * is subtracted, as region BENCH_EMPTY(k).
 */
#define BENCH_TIMED(k)  (2 * (k))
#define BENCH_EMPTY(k)  (2 * (k) + 1)

/*
 * A timed loop, the same way in every benchmark:
 *
 *      struct bench_span s;
 *      bench_span_begin(&s, BENCH_TIMED(1));
 *      for (...) ...;
 *      bench_span_end(&s, BENCH_TIMED(1));     // s.ns, s.insns: elapsed
 *
 * The markers sit outside the clock reads, so they are not timed; what the
 * reads themselves cost is the same in the empty loop and cancels out.
 */
struct bench_span {
    uint64_t ns, insns;
};

static inline void bench_span_begin(struct bench_span *s, int id)
{
    bench_region_begin(id);
    s->ns = bench_now_ns();
    s->insns = bench_insns();
}

static inline void bench_span_end(struct bench_span *s, int id)
{
    uint64_t insns = bench_insns();
    uint64_t ns = bench_now_ns();
    bench_region_end(id);
    s->ns = ns - s->ns;
    s->insns = insns - s->insns;
}

/*
 * The -n option most benchmarks take:
 *
 *      if (BENCH_ARG_N(argc, argv, i))
 *          n = atoi(argv[++i]);
 *
 * says whether argv[i] is "-n" followed by a count above zero.  A macro,
 * and only the test, on purpose: as a function (in bench.c, or inline here)
 * it changed how the compiler laid out each main() around its timed loops,
 * and the programs' sizes, and with them the results: by up to 1% under a
 * hardware model (the Sun-3's getpid), and create-delete and Andrew even
 * without one (readcache grew by a disk block, moving the files after it).
 */
#define BENCH_ARG_N(argc, argv, i) \
    (strcmp((argv)[i], "-n") == 0 && (i) + 1 < (argc) && atoi((argv)[(i) + 1]) > 0)

/* Print the protocol's RESULT line (docs/protocol.md) for one case. */
struct bench_result {
    const char *bench, *casename;
    uint32_t iters;
    uint32_t bytes;               /* 0 if not a bandwidth benchmark */
    uint64_t ns, loop_ns;
    uint64_t insns, loop_insns;
    const char *extra;            /* more " key=value" fields for the end of
                                   * the line (e.g. "dev_writes=4"), or 0 */
};
void bench_report(const struct bench_result *r);

#endif
