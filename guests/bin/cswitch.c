/*
 * cswitch: context switching plus small pipe reads and writes (Ousterhout
 * 1989, section 5, Table 3).
 *
 * The parent forks a child and the two pass one byte back and forth over
 * two pipes: the parent writes it to pipe A, the child reads it and writes
 * it to pipe B, the parent reads it back.  One round trip is two context
 * switches and, in each process, one read and one write.  The parent times
 * N round trips (default 10000; `cswitch -n N`) and an empty loop of the
 * same count, which the harness subtracts.
 *
 * At the end the parent closes its end of pipe A; the child's read then
 * returns 0 (end of file) and it exits, and the parent waits for it.
 */
#include "user.h"
#include "bench.h"

#define WARMUP 100

static void usage(void)
{
    fprintf(2, "usage: cswitch [-n ROUNDTRIPS]\n");
    exit(2);
}

/* The child: echo bytes from `in` to `out` until `in` reaches end of file. */
static void echo_child(int in, int out)
{
    char c;
    int n;
    while ((n = read(in, &c, 1)) == 1) {
        if (write(out, &c, 1) != 1) {
            fprintf(2, "cswitch: child: write: %s\n", strerror(errno));
            exit(1);
        }
    }
    if (n < 0) {
        fprintf(2, "cswitch: child: read: %s\n", strerror(errno));
        exit(1);
    }
    exit(0);
}

static int child_pid;

static void die(const char *what)
{
    fprintf(2, "cswitch: %s: %s\n", what, strerror(errno));
    if (child_pid > 0) {
        int status;
        kill(child_pid);
        wait(&status);
    }
    exit(1);
}

/* One round trip: the byte out through `to` and back through `from`.
 * Checking each result costs two compare-and-branch instructions per round
 * trip: negligible next to four system calls and two context switches. */
static inline void roundtrip(int to, int from, char *c)
{
    if (write(to, c, 1) != 1)
        die("write");
    if (read(from, c, 1) != 1)
        die("read");
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

    int a[2], b[2];             /* a: parent -> child, b: child -> parent */
    if (pipe(a) < 0 || pipe(b) < 0)
        die("pipe");

    child_pid = fork();
    if (child_pid < 0)
        die("fork");
    if (child_pid == 0) {
        close(a[1]);
        close(b[0]);
        echo_child(a[0], b[1]);
    }
    close(a[0]);
    close(b[1]);

    /* Warm-up: the child is running and both processes' pages are in. */
    char c = 'x';
    for (uint32_t i = 0; i < WARMUP; i++)
        roundtrip(a[1], b[0], &c);

    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(1));
    for (uint32_t i = 0; i < n; i++) {
        roundtrip(a[1], b[0], &c);
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(1));

    bench_span_begin(&e, BENCH_EMPTY(1));
    for (uint32_t i = 0; i < n; i++) {
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&e, BENCH_EMPTY(1));

    /* Shut the child down: end of file on pipe A makes it exit. */
    close(a[1]);
    int status;
    if (wait(&status) != child_pid || status != 0)
        fprintf(2, "cswitch: child ended badly (status %d)\n", status);
    close(b[0]);

    struct bench_result r = {
        .bench = "cswitch", .casename = "roundtrip", .iters = n, .bytes = 0,
        .ns = t.ns, .loop_ns = e.ns, .insns = t.insns, .loop_insns = e.insns,
    };
    bench_report(&r);
    return 0;
}
