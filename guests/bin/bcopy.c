/*
 * bcopy: memory-to-memory copy bandwidth of the C library's copy routine
 * (Ousterhout 1989, section 7, Table 5).  It does not enter the kernel.
 *
 * Two cases, each several copies between the same source and destination:
 *
 *      cached     8 KB blocks (`-c SIZE`): source and destination together
 *                 fit in the data cache of a 1989 workstation
 *      uncached   4 MB blocks (`-u SIZE`, 0 to skip): far larger than any
 *                 cache, so every copy misses all the way
 *
 * By default each case copies about 32 MB in all; `-n N` makes N copies in
 * each case instead.  SIZE may end in K or M.  The buffers are 64-byte
 * aligned, so memcpy takes its fast word-at-a-time path ("aligned properly
 * to use bcopy in the most efficient way", as the paper says), and the
 * destination follows the source directly, so the two do not collide in a
 * direct-mapped cache.  The RESULT line's bytes= is the block size.
 */
#include "user.h"
#include "bench.h"

#define TOTAL_BYTES (32u << 20)         /* default bytes copied per case */
#define ALIGN 64

static void usage(void)
{
    fprintf(2, "usage: bcopy [-c SIZE] [-u SIZE] [-n COPIES]   (SIZE like 8192, 8K, 4M)\n");
    exit(2);
}

/* "8192", "8K", "4M" -> bytes; -1 if malformed. */
static long parse_size(const char *s)
{
    long v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    if (*s == 'k' || *s == 'K')
        v <<= 10, s++;
    else if (*s == 'm' || *s == 'M')
        v <<= 20, s++;
    return *s == '\0' && v < (1L << 30) ? v : -1;
}

/* Time `copies` copies of `size` bytes as case k.  Returns 0, or -1 if the
 * buffers could not be allocated. */
static int run_case(int k, const char *name, uint32_t size, uint32_t copies)
{
    char *mem = malloc(2 * (size_t)size + ALIGN);
    if (mem == NULL) {
        fprintf(2, "bcopy: %s: cannot allocate 2 x %u bytes\n", name, (unsigned)size);
        return -1;
    }
    char *src = (char *)(((uintptr_t)mem + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
    char *dst = src + size;

    /* Warm-up: touch both buffers (the kernel may map pages lazily) and
     * check that one copy really copies. */
    for (uint32_t i = 0; i < size; i++)
        src[i] = (char)(i * 7 + (i >> 9));
    memset(dst, 0, size);
    memcpy(dst, src, size);
    if (memcmp(dst, src, size) != 0) {
        fprintf(2, "bcopy: %s: memcpy copied wrongly\n", name);
        exit(1);
    }

    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < copies; i++) {
        memcpy(dst, src, size);
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));

    bench_span_begin(&e, BENCH_EMPTY(k));
    for (uint32_t i = 0; i < copies; i++) {
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(k));

    struct bench_result r = {
        .bench = "bcopy", .casename = name, .iters = copies, .bytes = size,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
    };
    bench_report(&r);
    free(mem);
    return 0;
}

static uint32_t default_copies(uint32_t size)
{
    uint32_t n = TOTAL_BYTES / size;
    return n > 0 ? n : 1;
}

int main(int argc, char *argv[])
{
    long cached = 8192, uncached = 4L << 20;
    int copies = 0;                     /* 0: the default for each size */

    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "-c") == 0)
            cached = parse_size(argv[++i]);
        else if (strcmp(argv[i], "-u") == 0)
            uncached = parse_size(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0)
            copies = atoi(argv[++i]);
        else
            usage();
    }
    if (cached <= 0 || uncached < 0 || copies < 0)
        usage();

    int failed = 0;
    if (run_case(1, "cached", cached, copies ? (uint32_t)copies : default_copies(cached)) < 0)
        failed = 1;
    if (uncached > 0 &&
        run_case(2, "uncached", uncached, copies ? (uint32_t)copies : default_copies(uncached)) < 0)
        failed = 1;
    return failed;
}
