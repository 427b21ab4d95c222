/*
 * memwalk: memory access patterns that tell cache and TLB policies apart,
 * the workload the hardware model is checked against its reference
 * simulator with (tests/integration/test_hwmodel_plugin.py,
 * test_tlb_model.py).  A test program only: it lives in the test image
 * (guests/testimage/, built into build/<isa>/test/kernel.elf), not in the
 * image the benchmarks run from, where every file moves the file
 * benchmarks' blocks and the image's size moves the kernel's data.
 *
 *   memwalk -l LINE -w WAYBYTES -a WAYS [-t TLBSETS -u TLBWAYS] [-n ROUNDS]
 *
 * LINE, WAYBYTES (sets x line) and WAYS are the D-cache's geometry the
 * patterns are sized to; WAYBYTES must be at most a page, so that a line's
 * set follows from its virtual address.  TLBSETS and TLBWAYS size the TLB
 * patterns (default 4 and 2).  The patterns, ROUNDS times (default 4), all
 * in one timed region (BENCH_TIMED(1)), each built so that the policy it
 * is named for changes which accesses miss:
 *   - conflict: in every set, WAYS lines, the first again, a line more,
 *     the first again: with LRU the first stays, with FIFO it is the one
 *     the extra line pushes out;
 *   - store after load: a load brings a line in clean, a store to it hits,
 *     WAYS more lines of its set push it out: a write-back then, if and
 *     only if the store marked it dirty; and a store to a line not
 *     present, then a load of it: a hit with write-allocate, a miss
 *     without;
 *   - strides of a line, two lines, half a way and a way and a line over
 *     twice the cache, loads and stores;
 *   - a pseudo-random walk over four times the cache, a third stores;
 *   - copies between places that start just short of a page's end, a
 *     quarter page of bytes and two pages of words;
 *   - the conflict pattern again over pages in one TLB set (one word per
 *     page, at offsets that spread them over the cache's sets).
 * It prints one RESULT line (bench=memwalk case=all) with the region's
 * span; the numbers that matter are the model's (HWREGION) and the trace.
 */
#include "user.h"
#include "bench.h"

#define PAGE 4096u
#define BUFBYTES (1024u * 1024u)

static char buf[BUFBYTES] __attribute__((aligned(4096)));

static uint32_t line = 16, way = 1024, ways = 2, tlbsets = 4, tlbways = 2;

static void usage(void)
{
    fprintf(2, "usage: memwalk -l LINE -w WAYBYTES -a WAYS [-t TLBSETS -u TLBWAYS] "
               "[-n ROUNDS]\n");
    exit(2);
}

/* One access: a load (its value kept) or a store of v. */
static inline uint32_t load(const volatile char *p)
{
    return *(const volatile uint32_t *)p;
}

static inline void store(volatile char *p, uint32_t v)
{
    *(volatile uint32_t *)p = v;
}

/* Line k of set s: the lines WAYBYTES apart share a set. */
static volatile char *at(uint32_t k, uint32_t s)
{
    return buf + k * way + s * line;
}

static uint32_t conflict(void)
{
    uint32_t sum = 0;
    for (uint32_t s = 0; s < way / line; s++) {
        for (uint32_t k = 0; k < ways; k++)
            sum += load(at(k, s));
        sum += load(at(0, s));
        sum += load(at(ways, s));
        sum += load(at(0, s));
        sum += load(at(1, s));
    }
    return sum;
}

static void store_after_load(uint32_t v)
{
    for (uint32_t s = 0; s < way / line; s++) {
        (void)load(at(0, s));
        store(at(0, s) + 4, v);
        for (uint32_t k = 1; k <= ways; k++)
            (void)load(at(k, s));
        store(at(ways + 1, s) + 8, v);
        (void)load(at(ways + 1, s));
    }
}

static uint32_t strides(uint32_t v)
{
    uint32_t span = 2 * ways * way, sum = 0;
    uint32_t step[] = { line, 2 * line, way / 2, way + line };
    for (uint32_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
        if (step[i] < 4)
            continue;
        for (uint32_t off = 0, n = 0; off + 4 <= span; off += step[i], n++) {
            if (n % 2)
                store(buf + off, v);
            else
                sum += load(buf + off);
        }
    }
    return sum;
}

static uint32_t random_walk(uint32_t seed)
{
    uint32_t words = 4 * ways * way / 4, x = seed | 1, sum = 0;
    for (uint32_t i = 0; i < 2048; i++) {
        x = x * 1103515245u + 12345u;
        volatile char *p = buf + ((x >> 8) % words) * 4;
        if ((x >> 4) % 3 == 0)
            store(p, x);
        else
            sum += load(p);
    }
    return sum;
}

static void copies(void)
{
    volatile char *src = buf + 8 * PAGE - 3 * line - 1;
    volatile char *dst = buf + 12 * PAGE - 5 * line - 3;
    for (uint32_t i = 0; i < PAGE / 4 + 7 * line; i++)
        dst[i] = src[i];
    src = buf + 16 * PAGE - 2 * line;
    dst = buf + 20 * PAGE - 6 * line;
    for (uint32_t i = 0; i + 4 <= 2 * PAGE + 7 * line; i += 4)
        store(dst + i, load(src + i));
}

/* Page k of TLB set s, and a word in it away from the other pages' lines. */
static volatile char *page(uint32_t k, uint32_t s)
{
    uint32_t first = 24;                        /* clear of the other patterns */
    return buf + (first + k * tlbsets + s) * PAGE + ((k * tlbsets + s) * 3 * line) % PAGE;
}

static uint32_t tlb_conflict(void)
{
    uint32_t sum = 0;
    for (uint32_t s = 0; s < tlbsets; s++) {
        for (uint32_t k = 0; k < tlbways; k++)
            sum += load(page(k, s));
        sum += load(page(0, s));
        sum += load(page(tlbways, s));
        sum += load(page(0, s));
        sum += load(page(1, s));
    }
    return sum;
}

int main(int argc, char *argv[])
{
    uint32_t rounds = 4;
    for (int i = 1; i < argc; i++) {
        uint32_t *v = strcmp(argv[i], "-l") == 0 ? &line : strcmp(argv[i], "-w") == 0 ? &way :
                      strcmp(argv[i], "-a") == 0 ? &ways : strcmp(argv[i], "-t") == 0 ? &tlbsets :
                      strcmp(argv[i], "-u") == 0 ? &tlbways :
                      strcmp(argv[i], "-n") == 0 ? &rounds : 0;
        if (!v || i + 1 >= argc || atoi(argv[i + 1]) <= 0)
            usage();
        *v = (uint32_t)atoi(argv[++i]);
    }
    /* Room for every pattern: the cache's (a random walk over four times
     * it, WAYS + 2 ways of conflict), the copies' 22 pages, the TLB's. */
    if (line < 4 || way < line || way > PAGE || (ways + 2) * way > 8 * PAGE ||
        4 * ways * way > 8 * PAGE || (24 + (tlbways + 1) * tlbsets) * PAGE > BUFBYTES)
        usage();

    for (uint32_t i = 0; i < BUFBYTES; i += PAGE)      /* every page present first */
        buf[i] = 1;

    uint32_t sum = 0;
    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(1));
    for (uint32_t r = 0; r < rounds; r++) {
        sum += conflict();
        store_after_load(r);
        sum += strides(r);
        sum += random_walk(r * 7919 + 1);
        copies();
        sum += tlb_conflict();
    }
    bench_span_end(&t, BENCH_TIMED(1));
    asm volatile("" : : "r"(sum));
    bench_span_begin(&e, BENCH_EMPTY(1));
    bench_span_end(&e, BENCH_EMPTY(1));

    struct bench_result res = {
        .bench = "memwalk", .casename = "all", .iters = rounds, .bytes = 0,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
    };
    bench_report(&res);
    return 0;
}
