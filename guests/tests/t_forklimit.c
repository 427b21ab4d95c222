/*
 * t_forklimit: running out of process slots is an error, not a crash.
 *
 * Forks children that each block reading a pipe, until fork fails; the
 * failure must be -1 with errno EAGAIN.  Then closes the pipe: every child
 * sees end of file and exits, and all of them must be waited for.  After
 * that, fork must work again.
 */
#include "test.h"

#define MAXTRY 10000            /* no limit at all would be a failure too */

int main(void)
{
    test_start("t_forklimit");

    int p[2];
    if (pipe(p) < 0) {
        test_fail("setup", "pipe: %s", strerror(errno));
        return test_summary();
    }

    int made = 0, pid = 0;
    while (made < MAXTRY) {
        pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            char c;
            close(p[1]);        /* else this child would keep its own pipe alive */
            exit(read(p[0], &c, 1) == 0 ? 0 : 1);
        }
        made++;
    }
    int err = errno;
    printf("t_forklimit: created %d children before fork failed\n", made);

    test_check("fork_fails", pid < 0, "fork still succeeding after %d children", made);
    if (pid < 0)
        test_check("fork_eagain", err == EAGAIN, "fork failed with errno %d (%s), wanted EAGAIN",
                   err, strerror(err));
    test_check("made_some", made > 0, "not a single child could be created");

    /* Release them: end of file on the pipe. */
    close(p[1]);
    close(p[0]);
    int reaped = 0, bad = 0, status;
    while (reaped < made) {
        int w = wait(&status);
        if (w < 0)
            break;
        reaped++;
        if (status != 0)
            bad++;
    }
    test_check("all_reaped", reaped == made, "waited for %d of %d children", reaped, made);
    test_check("all_saw_eof", bad == 0, "%d children did not see end of file", bad);
    test_errno("no_children_left", wait(&status), ECHILD);

    /* Slots are free again. */
    pid = fork();
    if (pid == 0)
        exit(7);
    status = -2;
    test_check("fork_again", pid > 0 && wait(&status) == pid && status == 7,
               "fork %d (%s), status %d", pid, pid < 0 ? strerror(errno) : "ok", status);
    return test_summary();
}
