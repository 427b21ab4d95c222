/*
 * getpid: the cost of entering and leaving the kernel (Ousterhout 1989,
 * section 4, Table 2).
 *
 * Calls getpid, which does nothing but return the caller's process id, N
 * times in a loop (default 100000; `getpid -n N`), then times an empty loop
 * of the same count.  The harness subtracts the empty loop's time.
 *
 * The two loops differ only by the call: the empty asm statement that uses
 * `i` is in both, so the compiler can neither drop the empty loop nor
 * arrange the two loops differently.
 */
#include "user.h"
#include "bench.h"

#define WARMUP 1000

static void usage(void)
{
    fprintf(2, "usage: getpid [-n ITERATIONS]\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    uint32_t n = 100000;

    for (int i = 1; i < argc; i++) {
        if (BENCH_ARG_N(argc, argv, i))
            n = atoi(argv[++i]);
        else
            usage();
    }

    int pid = getpid();
    if (pid <= 0) {
        fprintf(2, "getpid: getpid returned %d\n", pid);
        exit(1);
    }

    /* Warm-up: the first calls fault pages in and fill any caches. */
    for (uint32_t i = 0; i < WARMUP; i++) {
        getpid();
        asm volatile("" : : "r"(i));
    }

    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(1));
    for (uint32_t i = 0; i < n; i++) {
        getpid();
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(1));

    bench_span_begin(&e, BENCH_EMPTY(1));
    for (uint32_t i = 0; i < n; i++) {
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(1));

    struct bench_result r = {
        .bench = "getpid", .casename = "call", .iters = n, .bytes = 0,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
    };
    bench_report(&r);
    return 0;
}
