/*
 * t_select: select reports readiness and honours its timeout.
 *
 *   - zero timeout on an empty pipe: returns 0 at once;
 *   - 50 ms timeout on an empty pipe: returns 0, after at least 50 ms;
 *   - a child writes to the pipe after sleeping 20 ms: select (with a long
 *     timeout) returns 1 with the pipe's bit set;
 *   - a pipe whose writers have all closed is readable (read won't block:
 *     it returns end of file);
 *   - the write end of a pipe with room is writable;
 *   - a descriptor that is not open gives EBADF; nfds above NOFILE (or
 *     below 0) gives EINVAL.
 *
 * Times come from bench_now_ns, the same clock the benchmarks use.
 */
#include "test.h"
#include "bench.h"

#define MS 1000000ull           /* ns */

static int sel(int fd, long usec, uint64_t *elapsed)
{
    fd_set rs;
    FD_ZERO(&rs);
    FD_SET(fd, &rs);
    struct timeval tv = { usec / 1000000, usec % 1000000 };
    uint64_t t0 = bench_now_ns();
    int r = select(fd + 1, &rs, NULL, NULL, &tv);
    *elapsed = bench_now_ns() - t0;
    if (r > 0 && !FD_ISSET(fd, &rs))
        return -100;            /* counted it but did not mark it */
    return r;
}

int main(void)
{
    test_start("t_select");

    int p[2];
    if (pipe(p) < 0) {
        test_fail("setup", "pipe: %s", strerror(errno));
        return test_summary();
    }

    uint64_t ns;
    int r = sel(p[0], 0, &ns);
    test_check("zero_timeout", r == 0, "returned %d", r);
    test_check("zero_timeout_fast", ns < 5 * MS, "took %llu ns", ns);

    r = sel(p[0], 50000, &ns);
    test_check("timeout_returns_0", r == 0, "returned %d", r);
    test_check("timeout_waits", ns >= 50 * MS, "returned after %llu ns, before 50 ms", ns);
    test_check("timeout_not_too_long", ns < 1000 * MS, "returned after %llu ns", ns);

    int pid = fork();
    if (pid == 0) {
        sleep(20000);
        exit(write(p[1], "x", 1) == 1 ? 0 : 1);
    }
    r = sel(p[0], 2000000, &ns);
    test_check("wakes_on_data", r == 1, "returned %d after %llu ns", r, ns);
    test_check("waited_for_data", ns >= 10 * MS, "returned after only %llu ns", ns);
    int status = -2;
    test_check("child_wrote", pid > 0 && wait(&status) == pid && status == 0,
               "child status %d", status);

    /* Pipe with data: ready at once, and stays so until it is read. */
    r = sel(p[0], 0, &ns);
    test_check("data_ready", r == 1, "returned %d", r);
    char c;
    read(p[0], &c, 1);

    /* Writable: the write end of a pipe with room. */
    fd_set ws;
    FD_ZERO(&ws);
    FD_SET(p[1], &ws);
    struct timeval tv0 = { 0, 0 };
    r = select(p[1] + 1, NULL, &ws, NULL, &tv0);
    test_check("writable", r == 1 && FD_ISSET(p[1], &ws), "returned %d", r);

    /* End of file counts as readable. */
    close(p[1]);
    r = sel(p[0], 0, &ns);
    test_check("eof_readable", r == 1, "returned %d", r);
    close(p[0]);

    /* Errors. */
    fd_set rs;
    FD_ZERO(&rs);
    FD_SET(NOFILE - 1, &rs);    /* not open */
    tv0.tv_sec = tv0.tv_usec = 0;
    test_errno("bad_fd", select(NOFILE, &rs, NULL, NULL, &tv0), EBADF);

    FD_ZERO(&rs);
    FD_SET(0, &rs);
    tv0.tv_sec = tv0.tv_usec = 0;
    test_errno("nfds_too_big", select(NOFILE + 1, &rs, NULL, NULL, &tv0), EINVAL);
    tv0.tv_sec = tv0.tv_usec = 0;
    test_errno("nfds_negative", select(-1, &rs, NULL, NULL, &tv0), EINVAL);

    return test_summary();
}
