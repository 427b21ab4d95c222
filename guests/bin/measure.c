/*
 * measure: the standard OS measurement suite's microbenchmarks, one
 * program with a subcommand per benchmark (docs/measure.md), so that the
 * suite adds one file to /bin and not ten (each file moves the file
 * benchmarks' blocks a little).
 *
 * The methods are those of the two source documents: a CSE 221 course
 * project (shared/papers/002: time-counter read, loop overhead, procedure
 * call with 0-7 arguments, system call, process creation, RAM latency per
 * array size, RAM read and write bandwidth, file-cache size, file read
 * time sequential and random, contention among readers) and Chen et al., SOSP 1995
 * (shared/papers/004: the Null and Syscall benchmarks, Exec, memory access
 * time against array size with a 128-byte stride, the buffer-cache test
 * re-reading 128 recently created 4 KB files, the meta-data test creating
 * 128 empty files).  Every case warms up first, times N operations and an
 * empty loop of the same count, and prints the raw totals on a RESULT line
 * (docs/protocol.md); the harness divides and subtracts.
 *
 *   measure timer   [-n N]    bench=timer    cases clock, loop
 *   measure call    [-n N]    bench=call     cases a0 .. a7
 *   measure syscall [-n N]    bench=syscall  cases getpid, dup2
 *   measure proc    [-n N]    bench=proc     cases forkexit, forkexec,
 *                                            forkexit-cow, forkexec-cow, exec
 *   measure memlat  [-n REFS] bench=memlat   cases s128-512 .. s128-4m, s4-512 .. s4-4m
 *                   [-s STRIDE] [-f] [-p list|coloured|random]  (Figure 4: cmd_memlat)
 *   measure membw   [-n PASSES] bench=membw  cases read, write
 *   measure bufcache [-n PASSES] bench=bufcache cases warm, cold
 *   measure metadata          bench=metadata cases sync, delayed
 *   measure filecache [-f] [-k MAXKB]  bench=filecache cases 64k .. 2m (002 4a)
 *   measure fileread [-k KB]  bench=fileread cases seq, random (002 4b)
 *   measure fileread [-k KB] -m | -e LABEL   ... on files made first, which
 *                             may be a server's: cases seq-LABEL, random-LABEL (002 4c;
 *                             only as the tests' image's rfileread: cmd_fileread_made)
 *   measure contention [-n BLOCKS] [-j PROCS]  bench=contention cases p1 .. p4 (002 4d)
 *   measure pagefault [-n PAGES] bench=pagefault case write (demand paging)
 *   measure nop               exits at once: the trivial program `proc` execs
 *
 * `proc`'s exec case runs last: the process execs itself N times (the
 * internal subcommand `execchain` carries the count and the start time in
 * its arguments), and the last image prints the RESULT line.
 */
#include "user.h"
#include "bench.h"
#include "fsutil.h"

#define SELF "/bin/measure"

static const char *prog = "measure";

static void die(const char *what)
{
    fprintf(2, "%s: %s: %s\n", prog, what, strerror(errno));
    exit(1);
}

/*
 * A timed span, as bench.h's bench_span_begin/end time one, but with the
 * start kept apart from the result.  GCC 12's VAX back end miscompiles
 * bench_span_end's `s->ns = ns - s->ns` when it is not inlined (it stores
 * 0: a 64-bit difference written over its own operand), and this file's
 * many cases make GCC keep it out of line; a separate field compiles right.
 */
struct span {
    uint64_t ns0, insns0;           /* at the start                        */
    uint64_t ns, insns;             /* elapsed, once span_end has run       */
};

static inline void span_begin(struct span *s, int id)
{
    bench_region_begin(id);
    s->ns0 = bench_now_ns();
    s->insns0 = bench_insns();
}

static inline void span_end(struct span *s, int id)
{
    uint64_t insns = bench_insns();
    uint64_t ns = bench_now_ns();
    bench_region_end(id);
    s->ns = ns - s->ns0;
    s->insns = insns - s->insns0;
}

/* The RESULT line of one case: timed span t, empty span e. */
static void report(const char *bench, const char *casename, uint32_t iters, uint32_t bytes,
                   const struct span *t, const struct span *e, const char *extra)
{
    struct bench_result r = {
        .bench = bench, .casename = casename, .iters = iters, .bytes = bytes,
        .ns = t->ns, .loop_ns = e->ns, .insns = t->insns, .loop_insns = e->insns,
        .extra = extra,
    };
    bench_report(&r);
}

/* The empty loop every case subtracts: n iterations of nothing but the
 * counter, which the asm keeps the compiler from removing. */
static void empty_loop(struct span *e, int k, uint32_t n)
{
    span_begin(e, BENCH_EMPTY(k));
    for (uint32_t i = 0; i < n; i++)
        asm volatile("" : : "r"(i));
    span_end(e, BENCH_EMPTY(k));
}

/* The "empty loop" of a case that subtracts only the two clock reads. */
static void no_loop(struct span *e, int k)
{
    span_begin(e, BENCH_EMPTY(k));
    span_end(e, BENCH_EMPTY(k));
}

/* ---------------------------------------------------------------- timer */

/* 002, 1a: the cost of reading the time counter (`clock`: one
 * bench_now_ns(), the clock every benchmark reads), and of one iteration
 * of a minimal loop (`loop`: the timed span is the loop, the "empty" span
 * the same two clock reads around no loop at all, so what is subtracted is
 * the reading, not a loop). */
static void cmd_timer(uint32_t n)
{
    struct span t, e;
    for (uint32_t i = 0; i < 1000; i++)
        bench_now_ns();

    span_begin(&t, BENCH_TIMED(1));
    for (uint32_t i = 0; i < n; i++) {
        uint64_t now = bench_now_ns();
        asm volatile("" : : "r"(i), "r"((uint32_t)now));
    }
    span_end(&t, BENCH_TIMED(1));
    empty_loop(&e, 1, n);
    report("timer", "clock", n, 0, &t, &e, 0);

    span_begin(&t, BENCH_TIMED(2));
    for (uint32_t i = 0; i < n; i++)
        asm volatile("" : : "r"(i));
    span_end(&t, BENCH_TIMED(2));
    no_loop(&e, 2);                            /* the reads alone */
    report("timer", "loop", n, 0, &t, &e, 0);
}

/* ---------------------------------------------------------------- call */

/* 002, 1b: procedure calls with 0 to 7 integer arguments.  noipa keeps
 * GCC from inlining them, cloning them or dropping the unused arguments,
 * so each call passes every argument the C says it does. */
#define CALLEE __attribute__((noipa))
CALLEE static void f0(void) {}
CALLEE static void f1(int a) {}
CALLEE static void f2(int a, int b) {}
CALLEE static void f3(int a, int b, int c) {}
CALLEE static void f4(int a, int b, int c, int d) {}
CALLEE static void f5(int a, int b, int c, int d, int e) {}
CALLEE static void f6(int a, int b, int c, int d, int e, int f) {}
CALLEE static void f7(int a, int b, int c, int d, int e, int f, int g) {}

#define CALL_CASE(k, call)                                          \
    do {                                                            \
        for (uint32_t i = 0; i < 1000; i++)                         \
            call;                                                   \
        span_begin(&t, BENCH_TIMED(k + 1));                   \
        for (uint32_t i = 0; i < n; i++) {                          \
            call;                                                   \
            asm volatile("" : : "r"(i));                            \
        }                                                           \
        span_end(&t, BENCH_TIMED(k + 1));                     \
        empty_loop(&e, k + 1, n);                                   \
        report("call", "a" #k, n, 0, &t, &e, 0);                    \
    } while (0)

static void cmd_call(uint32_t n)
{
    struct span t, e;
    CALL_CASE(0, f0());
    CALL_CASE(1, f1(i));
    CALL_CASE(2, f2(i, i));
    CALL_CASE(3, f3(i, i, i));
    CALL_CASE(4, f4(i, i, i, i));
    CALL_CASE(5, f5(i, i, i, i, i));
    CALL_CASE(6, f6(i, i, i, i, i, i));
    CALL_CASE(7, f7(i, i, i, i, i, i, i));
}

/* ---------------------------------------------------------------- syscall */

/* 002, 1c and Chen's Syscall: the cheapest call into the kernel (getpid),
 * and one that always does work there and cannot be cached (Chen used
 * dup(); dup2 onto the last descriptor is the same work in one call that
 * can repeat forever). */
static void cmd_syscall(uint32_t n)
{
    struct span t, e;
    for (uint32_t i = 0; i < 1000; i++)
        getpid();
    span_begin(&t, BENCH_TIMED(1));
    for (uint32_t i = 0; i < n; i++) {
        getpid();
        asm volatile("" : : "r"(i));
    }
    span_end(&t, BENCH_TIMED(1));
    empty_loop(&e, 1, n);
    report("syscall", "getpid", n, 0, &t, &e, 0);

    for (uint32_t i = 0; i < 1000; i++)
        if (dup2(0, NOFILE - 1) < 0)
            die("dup2");
    span_begin(&t, BENCH_TIMED(2));
    for (uint32_t i = 0; i < n; i++) {
        dup2(0, NOFILE - 1);
        asm volatile("" : : "r"(i));
    }
    span_end(&t, BENCH_TIMED(2));
    empty_loop(&e, 2, n);
    close(NOFILE - 1);
    report("syscall", "dup2", n, 0, &t, &e, 0);
}

/* ---------------------------------------------------------------- proc */

static void reap(void)
{
    int status;
    if (wait(&status) < 0)
        die("wait");
    if (status != 0) {
        fprintf(2, "%s: child exited with status %d\n", prog, status);
        exit(1);
    }
}

/* A child that exits at once (forkexit), or runs the trivial program
 * (forkexec: Chen's Exec, "start a program in a new process, wait for it
 * to exit"). */
static void spawn(int run_nop)
{
    int pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        if (run_nop) {
            char *argv[] = { "measure", "nop", 0 };
            exec(SELF, argv);
            fprintf(2, "%s: exec %s: %s\n", prog, SELF, strerror(errno));
            exit(1);
        }
        exit(0);
    }
    reap();
}

/*
 * A 64-bit number as 16 letters, one per 4 bits ('a' + nibble), and back:
 * the exec chain's arguments.  Fixed width and no branch on the digits, so
 * that every link copies and parses the same bytes with the same
 * instructions whatever the clock read: on the VAX the clock at a command's
 * start depends on how long the guest idled at the prompt, and decimal text
 * of it made the chain's instruction count vary from run to run.
 */
static char *u64_text(char *buf, uint64_t v)
{
    for (int i = 15; i >= 0; i--, v >>= 4)
        buf[i] = (char)('a' + (v & 15));
    buf[16] = 0;
    return buf;
}

static uint64_t text_u64(const char *s)
{
    uint64_t v = 0;
    for (int i = 0; i < 16 && s[i]; i++)
        v = v << 4 | (uint64_t)(s[i] - 'a');
    return v;
}

/* One link of the exec chain: `measure execchain LEFT N NS INSNS`.  The
 * first link's span began in cmd_proc; the last ends it and reports. */
static void exec_link(uint32_t left, uint32_t n, uint64_t ns, uint64_t insns)
{
    if (left > 0) {
        char a[24], b[24], c[24], d[24];
        char *argv[] = { "measure", "execchain", u64_text(a, left - 1), u64_text(b, n),
                         u64_text(c, ns), u64_text(d, insns), 0 };
        exec(SELF, argv);
        die("exec");
    }
    struct span t = { .ns0 = ns, .insns0 = insns }, e;
    span_end(&t, BENCH_TIMED(3));
    empty_loop(&e, 3, n);
    report("proc", "exec", n, 0, &t, &e, 0);
}

/* The kernel's fork mode, or a fork count (fsctl FSCTL_PAGEPOLICY with a
 * FORK_* value: kernel/port/cow.c). */
static int fork_mode(int what)
{
    int r = fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)what);
    if (r < 0)
        die("fsctl PAGEPOLICY (fork)");
    return r;
}

/* One case of `proc`: n spawns (after 5 to warm up), fork + exit + wait
 * or, with run_nop, fork + exec + exit + wait; with cow, under
 * copy-on-write fork, and the RESULT line adds the user pages the kernel
 * copied over the timed span (by a write to a shared page: the parent's
 * stack after each fork, the child's before exec), copies=N, and the
 * writes to shared pages it served, cowfaults=N. */
static void spawn_case(uint32_t n, int run_nop, int cow, const char *name, int k)
{
    struct span t, e;
    char extra[48];
    int old = cow ? fork_mode(FORK_COW) : 0, c0 = 0, f0 = 0;
    for (int i = 0; i < 5; i++)
        spawn(run_nop);
    if (cow) {
        c0 = fork_mode(FORK_COPIES);
        f0 = fork_mode(FORK_COWFAULTS);
    }
    span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        spawn(run_nop);
        asm volatile("" : : "r"(i));
    }
    span_end(&t, BENCH_TIMED(k));
    if (cow) {
        snprintf(extra, sizeof extra, "copies=%d cowfaults=%d",
                 fork_mode(FORK_COPIES) - c0, fork_mode(FORK_COWFAULTS) - f0);
        fork_mode(old);
    }
    empty_loop(&e, k, n);
    report("proc", name, n, 0, &t, &e, cow ? extra : 0);
}

/* 002, 1d (ii): process creation as fork, exit and wait; Chen's Exec as
 * fork, exec of a trivial program, exit and wait; both again under
 * copy-on-write fork; and exec alone. */
static void cmd_proc(uint32_t n)
{
    spawn_case(n, 0, 0, "forkexit", 1);
    spawn_case(n, 1, 0, "forkexec", 2);
    spawn_case(n, 0, 1, "forkexit-cow", 4);
    spawn_case(n, 1, 1, "forkexec-cow", 5);

    struct span t;
    /* The chain warms up in the forkexec cases above (same file, same
     * image); it starts its span here and never comes back. */
    span_begin(&t, BENCH_TIMED(3));
    exec_link(n, n, t.ns0, t.insns0);
}

/* ---------------------------------------------------------------- memory */

#define MAXBYTES (4u << 20)     /* the largest array: 4 MB, above every cache */

/* A page-aligned array of MAXBYTES from the heap (not the data segment, so
 * that fork in `proc` never copies it). */
static uint32_t *big_array(void)
{
    char *p = sbrk(MAXBYTES + 4096);
    if (p == (char *)-1)
        die("sbrk");
    p = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
    memset(p, 0, MAXBYTES);
    return (uint32_t *)p;
}

/* s128-4m, s128-320k, s4-640: the stride, then the size in the largest
 * unit it is a whole number of (harness/bench/suite.py: memlat_case). */
static void size_name(char *buf, size_t len, unsigned stride, unsigned size)
{
    if (size % (1u << 20) == 0)
        snprintf(buf, len, "s%u-%um", stride, size >> 20);
    else if (size % 1024 == 0)
        snprintf(buf, len, "s%u-%uk", stride, size >> 10);
    else
        snprintf(buf, len, "s%u-%u", stride, size);
}

/* Chen's Figure 4 (lmbench's memory read latency): a ring of pointers
 * `stride` bytes apart through the first `size` bytes of the array, followed
 * p = *p, 16 loads to a loop iteration.  Each load waits for the one before,
 * so time per load is the latency of the level the ring fits in. */
#define CHASE16(p) do { p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p; \
                        p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p; \
                        p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p; \
                        p = *(void **)p; p = *(void **)p; p = *(void **)p; p = *(void **)p; \
                   } while (0)

static void memlat_case(int k, char *a, uint32_t stride, uint32_t size, uint32_t refs)
{
    uint32_t n = size / stride;
    for (uint32_t i = 0; i < n; i++)
        *(void **)(a + i * stride) = a + ((i + 1) % n) * stride;
    void *p = a;
    for (uint32_t i = 0; i < n; i++)       /* warm up: one lap of the ring */
        p = *(void **)p;

    uint32_t loops = refs / 16;
    struct span t, e;
    span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < loops; i++) {
        CHASE16(p);
        asm volatile("" : : "r"(i));
    }
    span_end(&t, BENCH_TIMED(k));
    asm volatile("" : : "r"(p));
    empty_loop(&e, k, loops);

    char casename[24], extra[48];
    size_name(casename, sizeof casename, (unsigned)stride, (unsigned)size);
    snprintf(extra, sizeof extra, "stride=%u size=%u", (unsigned)stride, (unsigned)size);
    report("memlat", casename, loops * 16, 0, &t, &e, extra);
}

/* Every power of two from 512 B to 4 MB, at 128 B and at one word, or
 * (-s) at one stride; -f adds the quarter steps between (5/4, 3/2, 7/4 of
 * each), for Figure 4's slopes.  -p sets the page policy for the array's
 * pages (kernel/port/kalloc.c) and puts the old one back at the end. */
static void cmd_memlat(uint32_t refs, int pages, uint32_t only_stride, int fine)
{
    int old = -1;
    if (pages >= 0 && (old = fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)pages)) < 0)
        die("fsctl PAGEPOLICY");
    char *a = (char *)big_array();
    int k = 1;
    static const uint32_t strides[] = { 128, sizeof(void *) };
    for (int s = 0; s < 2; s++) {
        if (only_stride && strides[s] != only_stride)
            continue;
        for (uint32_t size = 512; size <= MAXBYTES; size *= 2)
            for (uint32_t q = 4; q < (fine && size < MAXBYTES ? 8u : 5u); q++)
                memlat_case(k++, a, strides[s], size / 4 * q, refs);
    }
    if (old >= 0)
        fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)old);
}

/* 002, 2b: RAM read and write bandwidth: every word of a 4 MB array, 16
 * words to a loop iteration, read (and summed, so the loads stay) or
 * written.  Nothing is subtracted but the clock reads (no_loop): the loop's
 * instructions overlap the memory's work (a write-through machine's write
 * buffer drains while they run), so an empty loop's time is not what they
 * add, and a bandwidth is bytes over the whole time, as 002 measured it. */
static void cmd_membw(uint32_t passes)
{
    uint32_t *a = big_array();
    uint32_t words = MAXBYTES / 4;
    struct span t, e;
    uint32_t sum = 0;

    for (uint32_t *w = a; w < a + words; w += 16)      /* warm up: one pass */
        sum += w[0] + w[15];
    span_begin(&t, BENCH_TIMED(1));
    for (uint32_t p = 0; p < passes; p++)
        for (uint32_t *w = a; w < a + words; w += 16)
            sum += w[0] + w[1] + w[2] + w[3] + w[4] + w[5] + w[6] + w[7] +
                   w[8] + w[9] + w[10] + w[11] + w[12] + w[13] + w[14] + w[15];
    span_end(&t, BENCH_TIMED(1));
    asm volatile("" : : "r"(sum));
    no_loop(&e, 1);
    report("membw", "read", passes, MAXBYTES, &t, &e, 0);

    for (uint32_t *w = a; w < a + words; w += 16)
        w[0] = w[15] = 0;
    span_begin(&t, BENCH_TIMED(2));
    for (uint32_t p = 0; p < passes; p++) {
        uint32_t v = p;
        asm volatile("" : "+r"(v));
        for (volatile uint32_t *w = a; w < a + words; w += 16) {
            w[0] = v; w[1] = v; w[2] = v; w[3] = v; w[4] = v; w[5] = v; w[6] = v; w[7] = v;
            w[8] = v; w[9] = v; w[10] = v; w[11] = v; w[12] = v; w[13] = v; w[14] = v; w[15] = v;
        }
    }
    span_end(&t, BENCH_TIMED(2));
    no_loop(&e, 2);
    report("membw", "write", passes, MAXBYTES, &t, &e, 0);
}

/* ---------------------------------------------------------------- files */

#define NFILES 128
#define FILESIZE 4096

static void file_name(char *buf, const char *dir, int i)
{
    snprintf(buf, 32, "%s/f%03d", dir, i);
}

/* Read one whole file: what Chen's buffer-cache test does 128 times. */
static void read_file(const char *path, char *buf)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("open");
    if (read(fd, buf, FILESIZE) != FILESIZE)
        die("read");
    close(fd);
}

static void io_extra(char *buf, size_t len, const struct io_counts *io)
{
    snprintf(buf, len, "dev_reads=%u misses=%u dev_writes=%u", io->dev_reads, io->misses,
             io->dev_writes);
}

/* Chen's buffer-cache test: re-read 128 recently created 4 KB files.  `warm`
 * as Chen ran it, every block in the cache (dev_reads=0 shows it); `cold`
 * after FSCTL_DROPCACHE has written back and emptied the cache, so every
 * block comes from the disk once. */
static void cmd_bufcache(uint32_t passes)
{
    const char *dir = "/tmp/measure.bc";
    static char data[FILESIZE];
    char path[32], extra[80];
    for (int i = 0; i < FILESIZE; i++)
        data[i] = (char)(i * 7);
    rm_tree(dir);
    if (mkdir(dir) < 0)
        die("mkdir");
    for (int i = 0; i < NFILES; i++) {
        file_name(path, dir, i);
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY);
        if (fd < 0 || write(fd, data, FILESIZE) != FILESIZE)
            die("create");
        close(fd);
    }
    for (int i = 0; i < NFILES; i++) {                  /* warm up: one pass */
        file_name(path, dir, i);
        read_file(path, data);
    }

    struct span t, e;
    struct io_counts io;
    io_snap(&io);
    span_begin(&t, BENCH_TIMED(1));
    for (uint32_t p = 0; p < passes; p++)
        for (int i = 0; i < NFILES; i++) {
            file_name(path, dir, i);
            read_file(path, data);
        }
    span_end(&t, BENCH_TIMED(1));
    io_since(&io);
    empty_loop(&e, 1, passes * NFILES);
    io_extra(extra, sizeof extra, &io);
    report("bufcache", "warm", passes * NFILES, 0, &t, &e, extra);

    if (fsctl(FSCTL_DROPCACHE, 0) < 0)
        die("fsctl DROPCACHE");
    io_snap(&io);
    span_begin(&t, BENCH_TIMED(2));
    for (int i = 0; i < NFILES; i++) {
        file_name(path, dir, i);
        read_file(path, data);
    }
    span_end(&t, BENCH_TIMED(2));
    io_since(&io);
    empty_loop(&e, 2, NFILES);
    io_extra(extra, sizeof extra, &io);
    report("bufcache", "cold", NFILES, 0, &t, &e, extra);
    rm_tree(dir);
}

static void create_all(const char *dir)
{
    char path[32];
    for (int i = 0; i < NFILES; i++) {
        file_name(path, dir, i);
        int fd = open(path, O_CREAT | O_RDWR);
        if (fd < 0)
            die("create");
        close(fd);
    }
}

static void unlink_all(const char *dir)
{
    char path[32];
    for (int i = 0; i < NFILES; i++) {
        file_name(path, dir, i);
        if (unlink(path) < 0)
            die("unlink");
    }
}

/* Chen's meta-data test: create 128 empty files, under each write policy:
 * `sync` writes the new inode and directory entry at once and waits, as
 * FFS does; `delayed` leaves them in the cache, as FAT's disk caches did.
 * The disk writes of the timed loop go on the RESULT line. */
static void cmd_metadata(void)
{
    const char *dir = "/tmp/measure.md";
    static const int policies[] = { POLICY_SYNC, POLICY_DELAYED };
    int before = policy_get();
    if (before < 0)
        die("fsctl");
    rm_tree(dir);
    if (mkdir(dir) < 0)
        die("mkdir");
    for (int k = 1; k <= 2; k++) {
        int policy = policies[k - 1];
        if (policy_set(policy) < 0)          /* also writes what is dirty */
            die("fsctl");
        create_all(dir);                     /* warm up: the directory's blocks */
        unlink_all(dir);
        sync();

        struct span t, e;
        struct io_counts io;
        io_snap(&io);
        span_begin(&t, BENCH_TIMED(k));
        create_all(dir);
        span_end(&t, BENCH_TIMED(k));
        io_since(&io);
        empty_loop(&e, k, NFILES);
        unlink_all(dir);

        char extra[96];
        snprintf(extra, sizeof extra, "policy=%s dev_writes=%u sync_writes=%u dev_reads=%u",
                 policy_name(policy), io.dev_writes, io.sync_writes, io.dev_reads);
        report("metadata", policy_name(policy), NFILES, 0, &t, &e, extra);
    }
    policy_set(before);
    rm_tree(dir);
}

/* ---------------------------------------------------------------- file system (002, 4) */

/*
 * 002's file-system section (its 4a, 4b, 4d; 4c, over the network, reads
 * files made first: cmd_fileread_made, further down).  Every read here is
 * counted in the file system's blocks: the RESULT line's iters are blocks
 * and bytes= the block size, so the harness prints time per block as 002
 * did.  Buffers come from the heap, not from
 * static arrays: this program's image is what `proc` forks and execs, and
 * its bss would grow with them.
 */
#define FSBLOCK 1024            /* the file system's block: BSIZE (kernel/include/fsformat.h) */
#define CHUNK (16 * 1024)       /* filecache's read size: 16 blocks a call */
#define FSDIR "/tmp/measure.fs"

static char *heap(uint32_t bytes)
{
    char *p = sbrk((int)bytes);
    if (p == (char *)-1)
        die("sbrk");
    return p;
}

/* A file of `bytes` (a multiple of CHUNK) at path, written in one go so
 * that its blocks lie in a row on the disk. */
static void make_file(const char *path, uint32_t bytes, char *buf)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY);
    if (fd < 0)
        die("create");
    for (uint32_t off = 0; off < bytes; off += CHUNK) {
        for (int i = 0; i < CHUNK; i += 64)
            buf[i] = (char)(off / CHUNK + i);
        if (write(fd, buf, CHUNK) != CHUNK)
            die("write");
    }
    close(fd);
}

static void drop_cache(void)
{
    if (fsctl(FSCTL_DROPCACHE, 0) < 0)
        die("fsctl DROPCACHE");
}

/* The first `bytes` of fd's file, CHUNK at a time. */
static void read_prefix(int fd, char *buf, uint32_t bytes)
{
    if (lseek(fd, 0, SEEK_SET) < 0)
        die("lseek");
    for (uint32_t off = 0; off < bytes; off += CHUNK)
        if (read(fd, buf, CHUNK) != CHUNK)
            die("read");
}

/* 64k, 1280k, 2m: a size in the largest unit it is a whole number of. */
static void kb_name(char *buf, size_t len, uint32_t bytes)
{
    if (bytes % (1u << 20) == 0)
        snprintf(buf, len, "%um", (unsigned)(bytes >> 20));
    else
        snprintf(buf, len, "%uk", (unsigned)(bytes >> 10));
}

/*
 * 002 4a, the file-cache size: one file of maxkb, and for each size from
 * 64 KB up, doubling (-f: with the quarter steps between), its first
 * `size` bytes read twice; the second read is timed.  While the size fits
 * the buffer cache the second read finds every block there (dev_reads=0);
 * above it, the cache's LRU has thrown out the file's start by the time
 * the read comes back to it, and every block comes from the disk again.
 * The knee of time per block against size is the cache's size.
 */
static void cmd_filecache(uint32_t maxkb, int fine)
{
    char *buf = heap(CHUNK), path[48], name[16], extra[80];
    uint32_t max = maxkb * 1024;
    rm_tree(FSDIR);
    if (mkdir(FSDIR) < 0)
        die("mkdir");
    snprintf(path, sizeof path, "%s/big", FSDIR);
    make_file(path, max, buf);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("open");
    int k = 1;
    for (uint32_t size = 64 * 1024; size <= max; size *= 2)
        for (uint32_t q = 4; q < (fine && size < max ? 8u : 5u); q++, k++) {
            uint32_t bytes = size / 4 * q;
            if (bytes > max)
                break;
            read_prefix(fd, buf, bytes);               /* the first read */
            struct span t, e;
            struct io_counts io;
            io_snap(&io);
            span_begin(&t, BENCH_TIMED(k));
            read_prefix(fd, buf, bytes);               /* the second, timed */
            span_end(&t, BENCH_TIMED(k));
            io_since(&io);
            empty_loop(&e, k, bytes / CHUNK);
            kb_name(name, sizeof name, bytes);
            snprintf(extra, sizeof extra, "size=%u chunk=%u dev_reads=%u misses=%u",
                     (unsigned)bytes, (unsigned)CHUNK, io.dev_reads, io.misses);
            report("filecache", name, bytes / FSBLOCK, FSBLOCK, &t, &e, extra);
        }
    close(fd);
    rm_tree(FSDIR);
}

/* A fixed pseudo-random sequence (xorshift32), so that runs repeat. */
static uint32_t next_random(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/*
 * 002 4b, file read time, sequential against random: a file of kb, the
 * buffer cache emptied (FSCTL_DROPCACHE) before each case, then every
 * block read once, one block a call, in order (`seq`) or in a shuffled
 * order (`random`: 002 chose random offsets; a shuffle reads each block
 * once, so every read goes to the disk).  Both cases seek before each read,
 * so that they differ only in where the blocks are.  The disk's seek and
 * rotation are what tell them apart (hw-models/core/disk.c).
 */
static void cmd_fileread(uint32_t kb)
{
    uint32_t blocks = kb * 1024 / FSBLOCK, seed = 2026;
    char *buf = heap(CHUNK), path[48], extra[80];
    uint32_t *order = (uint32_t *)heap(blocks * sizeof(uint32_t));
    for (uint32_t i = 0; i < blocks; i++)
        order[i] = i;
    for (uint32_t i = blocks - 1; i > 0; i--) {       /* Fisher-Yates */
        uint32_t j = next_random(&seed) % (i + 1), b = order[i];
        order[i] = order[j];
        order[j] = b;
    }
    rm_tree(FSDIR);
    if (mkdir(FSDIR) < 0)
        die("mkdir");
    snprintf(path, sizeof path, "%s/file", FSDIR);
    make_file(path, blocks * FSBLOCK, buf);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die("open");
    read_prefix(fd, buf, blocks * FSBLOCK);           /* warm-up: one pass */
    static const char *const names[] = { "seq", "random" };
    for (int k = 1; k <= 2; k++) {
        drop_cache();
        struct span t, e;
        struct io_counts io;
        io_snap(&io);
        span_begin(&t, BENCH_TIMED(k));
        for (uint32_t i = 0; i < blocks; i++) {
            uint32_t b = k == 1 ? i : order[i];
            if (lseek(fd, (int)(b * FSBLOCK), SEEK_SET) < 0 || read(fd, buf, FSBLOCK) != FSBLOCK)
                die("read");
        }
        span_end(&t, BENCH_TIMED(k));
        io_since(&io);
        empty_loop(&e, k, blocks);
        snprintf(extra, sizeof extra, "size=%u dev_reads=%u misses=%u",
                 (unsigned)(blocks * FSBLOCK), io.dev_reads, io.misses);
        report("fileread", names[k - 1], blocks, FSBLOCK, &t, &e, extra);
    }
    close(fd);
    rm_tree(FSDIR);
}

/* One reader of `contention`: open its file, wait for the start (the
 * parent's clock reading, through the pipe), read every block, and send
 * back how long it took from that start. */
static void reader(int i, uint32_t blocks, int go, int back)
{
    char path[48], *buf = heap(FSBLOCK);
    snprintf(path, sizeof path, "%s/c%d", FSDIR, i);
    int fd = open(path, O_RDONLY);
    uint64_t t0;
    if (fd < 0 || read(go, &t0, sizeof t0) != sizeof t0)
        die("reader");
    for (uint32_t b = 0; b < blocks; b++)
        if (read(fd, buf, FSBLOCK) != FSBLOCK)
            die("read");
    uint64_t ns = bench_now_ns() - t0;
    if (write(back, &ns, sizeof ns) != sizeof ns)
        die("write");
    exit(0);
}

/*
 * 002 4d, contention: 1 .. maxprocs processes started at once, each
 * reading its own file of `blocks` blocks, cold (the cache emptied first),
 * one block a call.  Each reader times itself from the common start; the
 * RESULT line's ns is the whole span (start to the last reader reaped),
 * iters the blocks each reader reads, and proc_ns= the sum of the
 * readers' own times: 002's "average time per block" is
 * proc_ns / (procs x iters).
 */
static void cmd_contention(uint32_t blocks, uint32_t maxprocs)
{
    char *buf = heap(CHUNK), path[48], name[8], extra[96];
    blocks = (blocks + CHUNK / FSBLOCK - 1) / (CHUNK / FSBLOCK) * (CHUNK / FSBLOCK);
    rm_tree(FSDIR);
    if (mkdir(FSDIR) < 0)
        die("mkdir");
    for (uint32_t i = 0; i < maxprocs; i++) {
        snprintf(path, sizeof path, "%s/c%d", FSDIR, (int)i);
        make_file(path, blocks * FSBLOCK, buf);
    }
    for (uint32_t n = 1; n <= maxprocs; n++) {
        int go[2], back[2];
        drop_cache();
        if (pipe(go) < 0 || pipe(back) < 0)
            die("pipe");
        for (uint32_t i = 0; i < n; i++) {
            int pid = fork();
            if (pid < 0)
                die("fork");
            if (pid == 0) {
                close(go[1]);
                close(back[0]);
                reader((int)i, blocks, go[0], back[1]);
            }
        }
        close(go[0]);
        close(back[1]);
        struct span t, e;
        struct io_counts io;
        uint64_t sum = 0, ns;
        io_snap(&io);
        span_begin(&t, BENCH_TIMED(n));
        for (uint32_t i = 0; i < n; i++)
            if (write(go[1], &t.ns0, sizeof t.ns0) != sizeof t.ns0)
                die("write");
        for (uint32_t i = 0; i < n; i++) {
            if (read(back[0], &ns, sizeof ns) != sizeof ns)
                die("read");
            sum += ns;
        }
        for (uint32_t i = 0; i < n; i++)
            reap();
        span_end(&t, BENCH_TIMED(n));
        io_since(&io);
        close(go[1]);
        close(back[0]);
        empty_loop(&e, (int)n, blocks);
        snprintf(name, sizeof name, "p%u", (unsigned)n);
        snprintf(extra, sizeof extra, "procs=%u proc_ns=%llu dev_reads=%u", (unsigned)n,
                 (unsigned long long)sum, io.dev_reads);
        report("contention", name, blocks, FSBLOCK, &t, &e, extra);
    }
    rm_tree(FSDIR);
}

/* ---------------------------------------------------------------- paging */

/* The kernel's paging mode and fault counts (fsctl FSCTL_PAGEPOLICY with
 * a PAGING_* value: kernel/port/paging.c). */
static int paging(int what)
{
    int r = fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)what);
    if (r < 0)
        die("fsctl PAGEPOLICY (paging)");
    return r;
}

/* 002's page-fault service time: under demand paging, one store to each
 * of n heap pages never touched, each a fault the kernel serves with a
 * fresh zero-filled page; the "empty" span is the same stores again, to
 * pages now mapped, so that what is left is the fault.  Warmed up by a
 * smaller round first (the fault path's code and the free list).  The
 * RESULT line adds the faults the kernel counted for this process over
 * the timed span: faults=N if every store faulted once. */
static void pagefault_round(char *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        ((volatile char *)p)[i * 4096] = 1;
}

static char *fresh_pages(uint32_t n)
{
    char *p = sbrk((int)(n * 4096 + 4096));
    if (p == (char *)-1)
        die("sbrk");
    return (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
}

static void cmd_pagefault(uint32_t n)
{
    struct span t, e;
    char extra[48];
    int old = paging(PAGING_DEMAND);
    char *warm = fresh_pages(16);
    pagefault_round(warm, 16);
    char *p = fresh_pages(n);
    int f0 = paging(PAGING_MYFAULTS);
    span_begin(&t, BENCH_TIMED(1));
    pagefault_round(p, n);
    span_end(&t, BENCH_TIMED(1));
    int f1 = paging(PAGING_MYFAULTS);
    span_begin(&e, BENCH_EMPTY(1));
    pagefault_round(p, n);
    span_end(&e, BENCH_EMPTY(1));
    snprintf(extra, sizeof extra, "faults=%d", f1 - f0);
    report("pagefault", "write", n, 0, &t, &e, extra);
    paging(old);
    sbrk(-(int)((n + 16) * 4096 + 2 * 4096));     /* both rounds' pages back */
}

#ifdef MEASURE_FILES_MADE
/*
 * 002 4c, remote file read (docs/measure.md): the reads of `fileread`, on
 * files made beforehand, so that they can live on another machine.  There
 * is no O_DIRECT, and FSCTL_DROPCACHE empties only this machine's buffer
 * cache, not a remote file system's client cache nor the server's; so
 * each case reads a file of its own that no cache has seen since it was
 * made: FSDIR/<KB>k.<case>, made by `-m` on the machine whose disk holds
 * it (the server, before it serves; or this one, for the local row beside
 * the remote ones), which then empties its cache.
 *
 *   measure fileread -k KB -m        make both cases' files, empty the cache
 *   measure fileread -k KB -e LABEL  read them: cases seq-LABEL, random-LABEL
 *
 * Compiled in only with MEASURE_FILES_MADE, for the tests' image
 * (guests/testimage/rfileread.c): /bin/measure in the benchmarks' image
 * stays the same to the byte, since any change to its size moves every
 * file benchmark's blocks (docs/measure.md, "Remote file read").
 */
static void cmd_fileread_made(uint32_t kb, const char *label)
{
    uint32_t blocks = kb * 1024 / FSBLOCK, seed = 2026;
    char *buf = heap(CHUNK), path[48], name[40], extra[80];
    if (!label) {
        rm_tree(FSDIR);
        if (mkdir(FSDIR) < 0)
            die("mkdir");
        for (int k = 1; k <= 2; k++) {
            snprintf(path, sizeof path, "%s/%uk.%d", FSDIR, (unsigned)kb, k);
            make_file(path, blocks * FSBLOCK, buf);
        }
        drop_cache();
        return;
    }
    uint32_t *order = (uint32_t *)heap(blocks * sizeof(uint32_t));
    for (uint32_t i = 0; i < blocks; i++)
        order[i] = i;
    for (uint32_t i = blocks - 1; i > 0; i--) {       /* as cmd_fileread's */
        uint32_t j = next_random(&seed) % (i + 1), b = order[i];
        order[i] = order[j];
        order[j] = b;
    }
    static const char *const names[] = { "seq", "random" };
    for (int k = 1; k <= 2; k++) {
        snprintf(path, sizeof path, "%s/%uk.%d", FSDIR, (unsigned)kb, k);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            die("open (make it with -m first)");
        struct span t, e;
        struct io_counts io;
        io_snap(&io);
        span_begin(&t, BENCH_TIMED(k));
        for (uint32_t i = 0; i < blocks; i++) {
            uint32_t b = k == 1 ? i : order[i];
            if (lseek(fd, (int)(b * FSBLOCK), SEEK_SET) < 0 || read(fd, buf, FSBLOCK) != FSBLOCK)
                die("read");
        }
        span_end(&t, BENCH_TIMED(k));
        io_since(&io);
        empty_loop(&e, k, blocks);
        close(fd);
        snprintf(name, sizeof name, "%s-%s", names[k - 1], label);
        snprintf(extra, sizeof extra, "size=%u dev_reads=%u misses=%u",
                 (unsigned)(blocks * FSBLOCK), io.dev_reads, io.misses);
        report("fileread", name, blocks, FSBLOCK, &t, &e, extra);
    }
}
#endif

/* ---------------------------------------------------------------- main */

#ifdef MEASURE_FILES_MADE
#define FILEREAD_USAGE " | fileread [-k KB] [-m | -e LABEL]"
#else
#define FILEREAD_USAGE " | fileread [-k KB]"
#endif

static void usage(void)
{
    fprintf(2, "usage: measure timer|call|syscall|proc|memlat|membw|bufcache|metadata|pagefault"
            " [-n N]\n       measure memlat [-n REFS] [-s 128|4] [-f]"
            " [-p list|coloured|random]\n       measure filecache [-f] [-k MAXKB]"
            FILEREAD_USAGE " | contention [-n BLOCKS] [-j PROCS]\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    if (argc < 2)
        usage();
    const char *cmd = argv[1];
    if (strcmp(cmd, "nop") == 0)
        return 0;
    if (strcmp(cmd, "execchain") == 0 && argc == 6) {
        exec_link((uint32_t)text_u64(argv[2]), (uint32_t)text_u64(argv[3]),
                  text_u64(argv[4]), text_u64(argv[5]));
        return 0;
    }
    uint32_t n = 0, stride = 0, kb = 0, procs = 4;
    int pages = -1, fine = 0;
#ifdef MEASURE_FILES_MADE
    int made = 0;
    const char *label = 0;
#endif
    for (int i = 2; i < argc; i++) {
        if (BENCH_ARG_N(argc, argv, i))
            n = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc &&
                 (atoi(argv[i + 1]) == 128 || atoi(argv[i + 1]) == (int)sizeof(void *)))
            stride = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "-f") == 0)
            fine = 1;
#ifdef MEASURE_FILES_MADE
        else if (strcmp(argv[i], "-m") == 0 && !made)
            made = 1;
        else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc && !made) {
            made = 1;
            label = argv[++i];
        }
#endif
        else if (strcmp(argv[i], "-k") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 64 &&
                 atoi(argv[i + 1]) % (CHUNK / 1024) == 0)
            kb = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 1 &&
                 atoi(argv[i + 1]) <= 16)
            procs = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && pages < 0) {
            i++;
            pages = pages_by_name(argv[i]);
            if (pages < 0)
                usage();
        } else
            usage();
    }
#define OR(dflt) (n ? n : (dflt))
    if (strcmp(cmd, "timer") == 0)
        cmd_timer(OR(100000));
    else if (strcmp(cmd, "call") == 0)
        cmd_call(OR(100000));
    else if (strcmp(cmd, "syscall") == 0)
        cmd_syscall(OR(20000));
    else if (strcmp(cmd, "proc") == 0)
        cmd_proc(OR(50));
    else if (strcmp(cmd, "memlat") == 0)
        cmd_memlat(OR(1u << 20), pages, stride, fine);
    else if (strcmp(cmd, "membw") == 0)
        cmd_membw(OR(2));
    else if (strcmp(cmd, "bufcache") == 0)
        cmd_bufcache(OR(4));
    else if (strcmp(cmd, "metadata") == 0)
        cmd_metadata();
    else if (strcmp(cmd, "filecache") == 0)
        cmd_filecache(kb ? kb : 2048, fine);
#ifdef MEASURE_FILES_MADE
    else if (strcmp(cmd, "fileread") == 0 && made)
        cmd_fileread_made(kb ? kb : 1024, label);
#endif
    else if (strcmp(cmd, "fileread") == 0)
        cmd_fileread(kb ? kb : 1024);
    else if (strcmp(cmd, "contention") == 0)
        cmd_contention(OR(128), procs);
    else if (strcmp(cmd, "pagefault") == 0)
        cmd_pagefault(OR(256));
    else
        usage();
    return 0;
}
