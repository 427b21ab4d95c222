/*
 * createdelete: the life of a temporary file (Ousterhout 1989, section 11,
 * Table 10).  Each iteration opens a new file, writes 0, 10 or 100 KB to
 * it, closes it, opens it again, reads the data back, closes it, and
 * deletes it.  The empty loop runs the same count with none of that.
 *
 * Under which write policy, is the point: UNIX (sync) writes the new
 * inode and directory entry, and on close the data, to the disk, and waits
 * for each write; Sprite (delayed) keeps it all in the cache, and a file
 * deleted within 30 s never reaches the disk.  So each case runs under
 * each policy (or the one named with -p), and the RESULT line counts the
 * disk traffic of the timed loop:
 *
 *   RESULT bench=createdelete case=10k-sync iters=... ns=... ... policy=sync
 *          dev_writes=... sync_writes=... dev_reads=...
 *
 * (case = size and policy; totals over all iterations, like ns).  With the
 * RAM disk's default latency model a write costs only a copy; set one with
 * `policy -disk ...` to see what the waiting costs.
 *
 * On a remote file system (kernel/port/rfs/), -p nfs or -p sprite: the
 * file is the server's, and the fields count the server's disk, the calls
 * made and this machine's own writes (fsutil.c's io_fields):
 *
 *   RESULT bench=createdelete case=10k-nfs ... policy=nfs dev_writes=...
 *          sync_writes=... dev_reads=... rpcs=... retrans=... local_writes=0
 *
 *   createdelete [-p sync|delayed|writethrough|nfs|sprite] [-n ITERATIONS]
 *
 * The policy in force before is restored at the end.  The file is
 * /tmp/createdelete.tmp.
 */
#include "user.h"
#include "bench.h"
#include "fsutil.h"

#define PATH "/tmp/createdelete.tmp"
#define MAXSIZE (100 * 1024)
#define WARMUP 2

static char data[MAXSIZE];

static void usage(void)
{
    fprintf(2, "usage: createdelete [-p sync|delayed|writethrough|nfs|sprite] [-n ITERATIONS]\n");
    exit(2);
}

static void die(const char *what)
{
    fprintf(2, "createdelete: %s: %s\n", what, strerror(errno));
    unlink(PATH);
    exit(1);
}

/* One iteration, exactly as the paper describes it. */
static void life(int size)
{
    int fd = open(PATH, O_CREAT | O_TRUNC | O_RDWR);
    if (fd < 0)
        die("create");
    if (size > 0 && write(fd, data, size) != size)
        die("write");
    close(fd);
    if ((fd = open(PATH, O_RDONLY)) < 0)
        die("reopen");
    for (int got = 0, n; got < size; got += n)
        if ((n = read(fd, data, size - got)) <= 0)
            die("read");
    close(fd);
    if (unlink(PATH) < 0)
        die("unlink");
}

static void timed_case(int k, int policy, int kb, uint32_t n)
{
    int size = kb * 1024;
    for (int i = 0; i < WARMUP; i++)
        life(size);

    struct io_counts io;
    struct bench_span t, e;
    io_snap(&io);
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        life(size);
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));
    io_since(&io);

    bench_span_begin(&e, BENCH_EMPTY(k));
    for (uint32_t i = 0; i < n; i++) {
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(k));

    char casename[32], fields[128], extra[160];
    snprintf(casename, sizeof casename, "%dk-%s", kb, policy_name(policy));
    io_fields(fields, sizeof fields, policy, &io);
    snprintf(extra, sizeof extra, "policy=%s %s", policy_name(policy), fields);
    struct bench_result r = {
        .bench = "createdelete", .casename = casename, .iters = n,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
        .extra = extra,
    };
    bench_report(&r);
    unsigned int per = (unsigned int)n;
    int remote = POLICY_IS_REMOTE(policy);
    unsigned int w = remote ? io.srv_writes : io.dev_writes;
    unsigned int sw = remote ? io.srv_sync_writes : io.sync_writes;
    printf("createdelete %s: %u.%02u %sdisk writes per file (%u.%02u synchronous)\n", casename,
           w / per, w * 100 / per % 100, remote ? "server " : "", sw / per, sw * 100 / per % 100);
}

int main(int argc, char *argv[])
{
    int only = -1;
    uint32_t n = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && policy_by_name(argv[i + 1]) >= 0)
            only = policy_by_name(argv[++i]);
        else if (BENCH_ARG_N(argc, argv, i))
            n = (uint32_t)atoi(argv[++i]);
        else
            usage();
    }
    for (int i = 0; i < MAXSIZE; i++)
        data[i] = (char)(i * 13);

    sync();                             /* start from a clean cache */
    int before = policy_get();
    if (before < 0)
        die("fsctl");
    static const int policies[] = { POLICY_SYNC, POLICY_DELAYED, POLICY_WRITETHROUGH };
    static const int kbs[] = { 0, 10, 100 };
    static const uint32_t iters[] = { 200, 100, 20 };
    int k = 1;
    for (int p = 0; p < 3; p++) {
        int policy = only >= 0 ? only : policies[p];   /* -p: that one alone */
        if (only >= 0 && p > 0)
            break;
        if (policy_set(policy) < 0)           /* also writes what is dirty */
            die("fsctl");
        for (int s = 0; s < 3; s++)
            timed_case(k++, policy, kbs[s], n ? n : iters[s]);
    }
    policy_set(before);
    return 0;
}
