/*
 * select: the cost of a select call that never waits (Ousterhout 1989,
 * section 6, Table 4).
 *
 * Makes 10 pipes and calls select with a zero timeout on their read ends,
 * N times per case (default 10000; `select -n N`):
 *
 *      1empty    one empty pipe                select returns 0
 *      10empty   ten empty pipes               select returns 0
 *      10full    ten pipes holding one byte    select returns 10
 *
 * select overwrites the descriptor set and may overwrite the timeout, so
 * both are set again before each call; that is part of what a program
 * pays per call, as it was in 1989.  Every return value is checked, and a
 * wrong one stops the benchmark: a fast wrong answer is not a result.
 */
#include "user.h"
#include "bench.h"

#define NPIPE  10
#define WARMUP 100

static void usage(void)
{
    fprintf(2, "usage: select [-n ITERATIONS]\n");
    exit(2);
}

/* Time case k: select on the read ends in `set` (highest fd below nfds),
 * which should report `expect` of them readable. */
static void run_case(int k, const char *name, int nfds, fd_set set, int expect, uint32_t n)
{
    fd_set rs;
    struct timeval tv;
    int r, wrong = expect;

    for (uint32_t i = 0; i < WARMUP; i++) {
        rs = set;
        tv.tv_sec = tv.tv_usec = 0;
        select(nfds, &rs, NULL, NULL, &tv);
    }

    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        rs = set;
        tv.tv_sec = tv.tv_usec = 0;
        r = select(nfds, &rs, NULL, NULL, &tv);
        if (r != expect)
            wrong = r;          /* keep timing; complain afterwards */
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));

    bench_span_begin(&e, BENCH_EMPTY(k));
    for (uint32_t i = 0; i < n; i++) {
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(k));

    if (wrong != expect) {
        fprintf(2, "select: case %s: select returned %d (%s), expected %d\n",
                name, wrong, wrong < 0 ? strerror(errno) : "wrong count", expect);
        exit(1);
    }
    /* The set that came back must name exactly the readable pipes. */
    if (rs.bits != (expect ? set.bits : 0)) {
        fprintf(2, "select: case %s: returned set %x, expected %x\n",
                name, rs.bits, expect ? set.bits : 0);
        exit(1);
    }

    struct bench_result res = {
        .bench = "select", .casename = name, .iters = n, .bytes = 0,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
    };
    bench_report(&res);
}

int main(int argc, char *argv[])
{
    uint32_t n = 10000;

    for (int i = 1; i < argc; i++) {
        if (BENCH_ARG_N(argc, argv, i))
            n = atoi(argv[++i]);
        else
            usage();
    }

    int p[NPIPE][2];
    int nfds = 0;
    fd_set one, all;
    FD_ZERO(&one);
    FD_ZERO(&all);
    for (int i = 0; i < NPIPE; i++) {
        if (pipe(p[i]) < 0) {
            fprintf(2, "select: pipe: %s\n", strerror(errno));
            exit(1);
        }
        FD_SET(p[i][0], &all);
        if (p[i][0] >= nfds)
            nfds = p[i][0] + 1;
    }
    FD_SET(p[0][0], &one);

    run_case(1, "1empty", p[0][0] + 1, one, 0, n);
    run_case(2, "10empty", nfds, all, 0, n);

    for (int i = 0; i < NPIPE; i++) {
        if (write(p[i][1], "x", 1) != 1) {
            fprintf(2, "select: write: %s\n", strerror(errno));
            exit(1);
        }
    }
    run_case(3, "10full", nfds, all, NPIPE, n);
    return 0;
}
