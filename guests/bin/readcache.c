/*
 * readcache: the bandwidth of reading from the file cache (Ousterhout 1989,
 * section 8, Table 6).
 *
 * Writes a file that fits in the buffer cache but in no hardware cache
 * (default 1 MB; the kernel's cache holds 2 MB), reads it once to be sure
 * every block is cached, then reads it over and over in 16 KB blocks into
 * the same buffer: each read is a kernel entry and a copy of 16 KB from
 * the cache.  After each pass through the file, lseek back to the start
 * (part of the timed loop, one call in 64).  The empty loop runs the same
 * count with no read.  The RESULT line also gives the buffer-cache misses
 * and disk reads during the timed loop (misses=, dev_reads=), which should
 * be 0: a miss would mean the file did not fit in the cache after all.
 *
 *   readcache [-s BYTES] [-n PASSES]       defaults: 1 MB, 8 passes
 *
 * The file is /tmp/readcache.dat, removed at the end.
 */
#include "user.h"
#include "bench.h"
#include "fsutil.h"

#define BLOCK 16384
#define PATH "/tmp/readcache.dat"

static char buf[BLOCK];

static void usage(void)
{
    fprintf(2, "usage: readcache [-s BYTES] [-n PASSES]\n");
    exit(2);
}

static void die(const char *what)
{
    fprintf(2, "readcache: %s: %s\n", what, strerror(errno));
    unlink(PATH);
    exit(1);
}

int main(int argc, char *argv[])
{
    uint32_t size = 1024 * 1024, passes = 8;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= BLOCK)
            size = (uint32_t)atoi(argv[++i]) / BLOCK * BLOCK;
        else if (BENCH_ARG_N(argc, argv, i))
            passes = (uint32_t)atoi(argv[++i]);
        else
            usage();
    }

    sync();                             /* start from a clean cache */
    int fd = open(PATH, O_CREAT | O_TRUNC | O_WRONLY);
    if (fd < 0)
        die("create " PATH);
    for (uint32_t off = 0; off < size; off += BLOCK) {
        for (int i = 0; i < BLOCK; i += 64)
            buf[i] = (char)(off / BLOCK + i);
        if (write(fd, buf, BLOCK) != BLOCK)
            die("write");
    }
    close(fd);
    if ((fd = open(PATH, O_RDONLY)) < 0)
        die("open");

    /* Warm-up: one pass brings every block (and the indirect blocks) into
     * the cache and faults in the buffer's pages. */
    int n;
    while ((n = read(fd, buf, BLOCK)) > 0)
        ;
    if (n < 0)
        die("read");

    uint32_t per_pass = size / BLOCK, iters = passes * per_pass;
    struct io_counts io;
    struct bench_span t, e;
    io_snap(&io);
    bench_span_begin(&t, BENCH_TIMED(1));
    for (uint32_t i = 0; i < iters; i++) {
        if (i % per_pass == 0)
            lseek(fd, 0, SEEK_SET);
        read(fd, buf, BLOCK);
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(1));
    io_since(&io);

    bench_span_begin(&e, BENCH_EMPTY(1));
    for (uint32_t i = 0; i < iters; i++) {
        if (i % per_pass == 0)
            asm volatile("" : : "r"(i));
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(1));
    close(fd);
    unlink(PATH);

    char casename[16];
    if (size % (1024 * 1024) == 0)
        snprintf(casename, sizeof casename, "%umb", (unsigned)(size / (1024 * 1024)));
    else
        snprintf(casename, sizeof casename, "%ukb", (unsigned)(size / 1024));
    char extra[64];
    snprintf(extra, sizeof extra, "misses=%u dev_reads=%u", io.misses, io.dev_reads);
    struct bench_result r = {
        .bench = "readcache", .casename = casename, .iters = iters, .bytes = BLOCK,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
        .extra = extra,
    };
    bench_report(&r);
    return 0;
}
