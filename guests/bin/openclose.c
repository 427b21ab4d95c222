/*
 * openclose: the time to open and close a file (Ousterhout 1989, section
 * 10, Table 9), for a name of one element ("foo") and one of four
 * ("/a/b/c/foo").  Both name the same file: the program makes /a/b/c/foo
 * and works in /a/b/c, so the difference between the cases is the path
 * lookup.  Each iteration is open(name, O_RDONLY) and close; the empty loop
 * runs the same count without them.  Nothing is written, so the write
 * policy does not matter; but on a remote file system (kernel/port/rfs/)
 * the protocol does: -p nfs or -p sprite sets it and names the cases
 * after it ("foo-nfs", "/a/b/c/foo-nfs"), with the calls each made.
 *
 *   openclose [-p POLICY] [-n ITERATIONS]          default 5000
 *
 * /a/b/c/foo is removed at the end (with the directories, if it made them).
 */
#include "user.h"
#include "bench.h"
#include "fsutil.h"

#define WARMUP 100

static void usage(void)
{
    fprintf(2, "usage: openclose [-p POLICY] [-n ITERATIONS]\n");
    exit(2);
}

static void timed_case(int k, const char *name, uint32_t n, int policy)
{
    for (int i = 0; i < WARMUP; i++)
        close(open(name, O_RDONLY));

    struct io_counts io;
    struct bench_span t, e;
    if (policy >= 0)
        io_snap(&io);                   /* (not for the local cases: as before) */
    int bad = 0;
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        int fd = open(name, O_RDONLY);
        bad |= close(fd);
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));
    if (policy >= 0)
        io_since(&io);

    bench_span_begin(&e, BENCH_EMPTY(k));
    for (uint32_t i = 0; i < n; i++) {
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(k));
    if (bad) {
        fprintf(2, "openclose: open %s failed: %s\n", name, strerror(errno));
        exit(1);
    }
    char casename[48], fields[128], extra[160];
    snprintf(casename, sizeof casename, "%s%s%s", name, policy >= 0 ? "-" : "",
             policy >= 0 ? policy_name(policy) : "");
    if (policy >= 0) {
        io_fields(fields, sizeof fields, policy, &io);
        snprintf(extra, sizeof extra, "policy=%s %s", policy_name(policy), fields);
    }
    struct bench_result r = {
        .bench = "openclose", .casename = casename, .iters = n,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
        .extra = policy >= 0 ? extra : 0,
    };
    bench_report(&r);
}

int main(int argc, char *argv[])
{
    uint32_t n = 5000;
    int policy = -1;
    for (int i = 1; i < argc; i++) {
        if (BENCH_ARG_N(argc, argv, i))
            n = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && policy_by_name(argv[i + 1]) >= 0)
            policy = policy_by_name(argv[++i]);
        else
            usage();
    }
    if (policy >= 0 && policy_set(policy) < 0) {
        fprintf(2, "openclose: policy %s: %s\n", policy_name(policy), strerror(errno));
        return 1;
    }

    sync();                             /* start from a clean cache */
    const char *dirs[] = { "/a", "/a/b", "/a/b/c" };
    int made[3];
    for (int i = 0; i < 3; i++) {
        made[i] = mkdir(dirs[i]) == 0;
        if (!made[i] && errno != EEXIST) {
            fprintf(2, "openclose: mkdir %s: %s\n", dirs[i], strerror(errno));
            return 1;
        }
    }
    int fd = open("/a/b/c/foo", O_CREAT | O_WRONLY);
    if (fd < 0 || chdir("/a/b/c") < 0) {
        fprintf(2, "openclose: /a/b/c/foo: %s\n", strerror(errno));
        return 1;
    }
    close(fd);

    timed_case(1, "foo", n, policy);
    timed_case(2, "/a/b/c/foo", n, policy);

    chdir("/");
    unlink("/a/b/c/foo");
    for (int i = 2; i >= 0; i--)
        if (made[i])
            rmdir(dirs[i]);
    return 0;
}
