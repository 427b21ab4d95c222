/*
 * t_jobs: the system calls the shell's redirection and job control stand
 * on (dup2, setpgid, getpgid, tcsetpgrp), and their errors.
 *
 *   - dup2 makes the new descriptor share the file; dup2 onto an open
 *     descriptor closes what it had; dup2(fd, fd) is fd; bad descriptors
 *     give EBADF;
 *   - a child is in its parent's process group; setpgid(0, 0) makes it a
 *     group of its own, and a parent can move its child into a new group;
 *   - setpgid to a group that does not exist is EPERM, of a process that is
 *     not a child ESRCH, with a negative argument EINVAL;
 *   - tcsetpgrp works on the console only (ENOTTY on a pipe), and only for
 *     a group that exists (EPERM).
 *
 * That Ctrl-C kills the console's foreground group, and only it, is checked
 * through the real console by tests/integration/test_shell.py.
 */
#include "test.h"

static void dup2_checks(void)
{
    int p[2], q[2];
    if (pipe(p) < 0 || pipe(q) < 0) {
        test_fail("dup2", "pipe: %s", strerror(errno));
        return;
    }
    /* 20 is not open: it becomes a second write end of p. */
    int d = dup2(p[1], 20);
    char buf[8] = { 0 };
    int w = write(20, "abc", 3), r = read(p[0], buf, sizeof(buf));
    test_check("dup2_shares_the_file", d == 20 && w == 3 && r == 3 && memcmp(buf, "abc", 3) == 0,
               "dup2 %d write %d read %d", d, w, r);

    /* q's only write end is replaced by p's: q now reads end of file. */
    d = dup2(p[1], q[1]);
    r = read(q[0], buf, sizeof(buf));
    test_check("dup2_closes_what_was_open", d == q[1] && r == 0,
               "dup2 %d, read of the pipe whose writer it closed gave %d", d, r);

    test_check("dup2_same_fd", dup2(p[0], p[0]) == p[0], "dup2(fd, fd) is not fd");
    test_errno("dup2_bad_old", dup2(NOFILE - 1, 3), EBADF);
    test_errno("dup2_bad_new", dup2(p[0], NOFILE), EBADF);
    test_errno("dup2_negative_new", dup2(p[0], -1), EBADF);
    close(20);
    close(p[0]);
    close(p[1]);
    close(q[0]);
    close(q[1]);
}

/* Fork a child that reports getpgid(0) after doing `move` (0: nothing,
 * 1: setpgid(0, 0)), then waits for its parent to close the pipe.  Returns
 * its pid; *pgid is what it reported. */
static int child_reporting_pgid(int move, int *pgid, int *hold)
{
    int p[2], h[2];
    if (pipe(p) < 0 || pipe(h) < 0)
        return -1;
    int pid = fork();
    if (pid == 0) {
        close(h[1]);
        if (move)
            setpgid(0, 0);
        int g = getpgid(0);
        write(p[1], &g, sizeof g);
        char c;
        read(h[0], &c, 1);          /* stay alive until the parent is done */
        exit(0);
    }
    close(p[1]);
    close(h[0]);
    *pgid = -1;
    read(p[0], pgid, sizeof *pgid);
    close(p[0]);
    *hold = h[1];
    return pid;
}

static void finish(int pid, int hold)
{
    close(hold);
    int status;
    while (wait(&status) != pid)
        ;
}

static void group_checks(void)
{
    int mine = getpgid(0), pgid, hold;
    test_check("getpgid_self", mine > 0 && getpgid(getpid()) == mine,
               "getpgid(0) %d, getpgid(getpid()) %d", mine, getpgid(getpid()));

    int pid = child_reporting_pgid(0, &pgid, &hold);
    test_check("fork_inherits_group", pgid == mine, "child's group %d, parent's %d", pgid, mine);
    test_check("setpgid_child_new_group", setpgid(pid, pid) == 0 && getpgid(pid) == pid,
               "setpgid(child, child): %s; its group is %d", strerror(errno), getpgid(pid));
    test_check("setpgid_child_back", setpgid(pid, mine) == 0 && getpgid(pid) == mine,
               "moving the child back: %s; its group is %d", strerror(errno), getpgid(pid));
    test_errno("setpgid_no_such_group", setpgid(pid, 30000), EPERM);
    test_errno("setpgid_negative_group", setpgid(pid, -1), EINVAL);
    finish(pid, hold);

    pid = child_reporting_pgid(1, &pgid, &hold);
    test_check("setpgid_self_new_group", pgid == pid, "child %d says its group is %d", pid, pgid);
    finish(pid, hold);

    test_errno("setpgid_not_a_child", setpgid(30000, 0), ESRCH);
    test_errno("setpgid_negative_pid", setpgid(-1, 0), EINVAL);
    test_errno("getpgid_no_such_process", getpgid(30000), ESRCH);
    test_check("still_in_own_group", getpgid(0) == mine, "group changed to %d", getpgid(0));
}

static void terminal_checks(void)
{
    int p[2];
    if (pipe(p) < 0) {
        test_fail("tcsetpgrp", "pipe: %s", strerror(errno));
        return;
    }
    test_errno("tcsetpgrp_pipe_is_not_a_terminal", tcsetpgrp(p[0], getpgid(0)), ENOTTY);
    test_errno("tcsetpgrp_bad_fd", tcsetpgrp(NOFILE - 1, getpgid(0)), EBADF);
    close(p[0]);
    close(p[1]);

    struct stat st;
    if (fstat(0, &st) < 0 || (st.st_mode & S_IFMT) != S_IFCHR) {
        test_skip("tcsetpgrp_console", "standard input is not the console");
        return;
    }
    test_errno("tcsetpgrp_no_such_group", tcsetpgrp(0, 30000), EPERM);
    test_errno("tcsetpgrp_negative_group", tcsetpgrp(0, -2), EINVAL);
    /* The shell made our group the foreground: setting it again is allowed
     * and changes nothing. */
    test_check("tcsetpgrp_own_group", tcsetpgrp(0, getpgid(0)) == 0,
               "tcsetpgrp(0, own group): %s", strerror(errno));
}

int main(void)
{
    test_start("t_jobs");
    dup2_checks();
    group_checks();
    terminal_checks();
    return test_summary();
}
