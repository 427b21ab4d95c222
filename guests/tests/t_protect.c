/*
 * t_protect: the kernel's protection rules (kernel/port/priv.c, proc.c;
 * docs/protection.md), each checked on the values the calls return.
 *
 *   - privilege comes from the shell: this program has it, a child
 *     inherits it at fork and keeps it across exec; droppriv() gives it up
 *     for the caller and what it forks later, and the parent keeps its own;
 *   - without privilege, fsctl(FSCTL_SETCONF) is EPERM whatever it would
 *     change (write policy, flush age, cache size) and changes nothing,
 *     while FSCTL_GETCONF still works; FSCTL_DROPCACHE and
 *     FSCTL_PAGEPOLICY are EPERM too;
 *   - sessions: setsid() starts one (EPERM for a group leader); kill()
 *     across sessions is EPERM in both directions, even for a privileged
 *     caller, and kill() within one's own session works; a process of
 *     another session may not take the console (tcsetpgrp is ENOTTY);
 *   - kill(1) is EPERM, privileged or not;
 *   - without privilege, halt() is EPERM and the machine keeps running.
 *
 * The unprivileged calls run in forked children, which report through
 * their exit status, so that this process keeps its privilege and can put
 * the file system's configuration back if a broken kernel let a child
 * change it.  The two checks whose failure stops the machine (init killed,
 * the machine halted) come last, after a line saying so: a kernel that
 * fails them ends the run without a SUMMARY, right after that line.
 */
#include "test.h"

#define NOT_RUN (-2)            /* fork or wait failed: no status */
#define EXEC_FAILED 100         /* + errno: a child's exec failed */

/* errno if a call failed (returned -1), else 0: a child's exit status. */
static int err(int ret)
{
    return ret == -1 ? errno : 0;
}

/* Fork a child that runs fn, without privilege if `drop`, and exits with
 * what fn returns.  Returns the child's wait status (WSTATUS_KILLED if it
 * was killed), or NOT_RUN. */
static int in_child(int drop, int (*fn)(void))
{
    int pid = fork();
    if (pid < 0)
        return NOT_RUN;
    if (pid == 0) {
        if (drop && droppriv() != 0)
            exit(99);
        exit(fn());
    }
    int status = NOT_RUN;
    if (wait(&status) != pid)
        return NOT_RUN;
    return status;
}

/* ---------------------------------------------------------------- privilege */

static int report_priv(void)
{
    return getpriv();
}

static int grandchild_priv(void)
{
    return in_child(0, report_priv);
}

static int exec_report_priv(void)
{
    char *argv[] = { "t_protect", "getpriv", 0 };
    exec("t_protect", argv);
    return EXEC_FAILED + errno;
}

static int drop_twice(void)
{
    /* droppriv() is the caller's (the child's) second: in_child dropped it. */
    return droppriv() == 0 ? getpriv() : 50;
}

static void inheritance_checks(void)
{
    int s;
    test_check("starts_privileged", getpriv() == 1,
               "getpriv() %d: the shell should have passed its privilege on", getpriv());
    s = in_child(0, report_priv);
    test_check("fork_inherits_privilege", s == 1, "child's getpriv() %d", s);
    s = in_child(0, exec_report_priv);
    test_check("exec_keeps_privilege", s == 1, "getpriv() after exec %d", s);
    s = in_child(1, report_priv);
    test_check("droppriv_drops", s == 0, "getpriv() after droppriv() %d", s);
    s = in_child(1, drop_twice);
    test_check("droppriv_again_still_dropped", s == 0, "status %d", s);
    s = in_child(1, grandchild_priv);
    test_check("fork_inherits_no_privilege", s == 0, "grandchild's getpriv() %d", s);
    s = in_child(1, exec_report_priv);
    test_check("exec_keeps_no_privilege", s == 0, "getpriv() after droppriv, exec %d", s);
    test_check("parent_keeps_privilege", getpriv() == 1,
               "getpriv() %d after children dropped theirs", getpriv());
}

/* ---------------------------------------------------------------- fsctl */

static int read_conf(void)
{
    struct fsconf c;
    return err(fsctl(FSCTL_GETCONF, &c));
}

/* Each tries to change one setting; 0 or the errno. */
static int change_policy(void)
{
    struct fsconf c;
    if (fsctl(FSCTL_GETCONF, &c) < 0)
        return 60;
    c.policy = (c.policy + 1) % 3;       /* sync -> delayed -> writethrough */
    return err(fsctl(FSCTL_SETCONF, &c));
}

static int change_age(void)
{
    struct fsconf c;
    if (fsctl(FSCTL_GETCONF, &c) < 0)
        return 60;
    c.flush_age_ms += 1000;
    return err(fsctl(FSCTL_SETCONF, &c));
}

static int change_cache(void)
{
    struct fsconf c;
    if (fsctl(FSCTL_GETCONF, &c) < 0)
        return 60;
    c.cache_blocks = c.cache_blocks > 64 ? c.cache_blocks / 2 : c.cache_blocks * 2;
    return err(fsctl(FSCTL_SETCONF, &c));
}

static int drop_cache(void)
{
    return err(fsctl(FSCTL_DROPCACHE, 0));
}

/* Asks for random pages; a kernel that wrongly allowed it gets the old
 * policy back from the same child (the call returns the previous one). */
static int change_pagepolicy(void)
{
    int old = fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)PAGES_RANDOM);
    if (old >= 0) {
        fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)old);
        return 0;
    }
    return errno;
}

static int same_conf(const struct fsconf *a, const struct fsconf *b)
{
    return a->policy == b->policy && a->flush_age_ms == b->flush_age_ms &&
           a->cache_blocks == b->cache_blocks;
}

static void fsctl_checks(void)
{
    struct fsconf before, after;
    if (fsctl(FSCTL_GETCONF, &before) < 0) {
        test_fail("fsctl_getconf", "%s", strerror(errno));
        return;
    }
    int s = in_child(1, read_conf);
    test_check("unprivileged_may_read_conf", s == 0, "GETCONF: status %d", s);
    s = in_child(1, change_policy);
    test_check("unprivileged_policy_refused", s == EPERM,
               "changing the write policy: status %d, wanted EPERM (%d)", s, EPERM);
    s = in_child(1, change_age);
    test_check("unprivileged_age_refused", s == EPERM,
               "changing the flush age: status %d, wanted EPERM (%d)", s, EPERM);
    s = in_child(1, change_cache);
    test_check("unprivileged_cache_refused", s == EPERM,
               "changing the cache size: status %d, wanted EPERM (%d)", s, EPERM);

    s = in_child(1, drop_cache);
    test_check("unprivileged_dropcache_refused", s == EPERM,
               "emptying the buffer cache: status %d, wanted EPERM (%d)", s, EPERM);
    s = in_child(1, change_pagepolicy);
    test_check("unprivileged_pagepolicy_refused", s == EPERM,
               "changing the page policy: status %d, wanted EPERM (%d)", s, EPERM);

    int r = fsctl(FSCTL_GETCONF, &after);
    test_check("conf_unchanged", r == 0 && same_conf(&before, &after),
               "policy %u->%u age %u->%u cache %u->%u", before.policy, after.policy,
               before.flush_age_ms, after.flush_age_ms, before.cache_blocks, after.cache_blocks);
    if (r == 0 && !same_conf(&before, &after))
        fsctl(FSCTL_SETCONF, &before);   /* we are privileged: put it back */
}

/* ---------------------------------------------------------------- sessions */

struct outsider_report {
    int sid;                    /* what setsid() returned          */
    int kill_err;               /* errno of kill(victim), or 0     */
    int tc_err;                 /* errno of tcsetpgrp(0, ...) or 0 */
    int again_err;              /* errno of a second setsid(), or 0 */
};

/* A child that blocks reading fd until its writer closes, then exits 3. */
static int blocked_child(int rd, int wr)
{
    int pid = fork();
    if (pid == 0) {
        char c;
        close(wr);
        read(rd, &c, 1);
        exit(3);
    }
    return pid;
}

/* Wait for both children; their statuses in s1, s2 (NOT_RUN if not seen). */
static void wait_two(int pid1, int *s1, int pid2, int *s2)
{
    *s1 = *s2 = NOT_RUN;
    for (int i = 0; i < 2; i++) {
        int status, w = wait(&status);
        if (w == pid1)
            *s1 = status;
        else if (w == pid2)
            *s2 = status;
    }
}

static void session_checks(void)
{
    if (getpgid(0) == getpid())          /* the shell made us a group's leader */
        test_errno("setsid_group_leader_refused", setsid(), EPERM);
    else
        test_skip("setsid_group_leader_refused", "not run by the shell as a job");

    int vp[2], rep[2], hold[2];
    if (pipe(vp) < 0) {
        test_fail("sessions", "pipe: %s", strerror(errno));
        return;
    }
    /* The victim, in our session; the outsider starts a session of its own
     * and tries to kill it. */
    int victim = blocked_child(vp[0], vp[1]);
    close(vp[0]);
    if (pipe(rep) < 0 || pipe(hold) < 0) {
        test_fail("sessions", "pipe: %s", strerror(errno));
        return;
    }
    int outsider = fork();
    if (outsider == 0) {
        struct outsider_report r;
        char c;
        close(vp[1]);
        close(rep[0]);
        close(hold[1]);
        r.sid = setsid();
        r.kill_err = err(kill(victim));
        r.tc_err = err(tcsetpgrp(0, getpgid(0)));
        r.again_err = err(setsid());
        write(rep[1], &r, sizeof r);
        read(hold[0], &c, 1);            /* until the parent has tried to kill us */
        exit(4);
    }
    close(rep[1]);
    close(hold[0]);
    struct outsider_report r = { -1, -1, -1, -1 };
    int n = read(rep[0], &r, sizeof r);
    close(rep[0]);

    test_check("setsid_new_session", n == sizeof r && r.sid == outsider &&
               getpgid(outsider) == outsider,
               "outsider %d: setsid() %d, its group %d", outsider, r.sid, getpgid(outsider));
    test_check("setsid_twice_refused", r.again_err == EPERM,
               "second setsid(): errno %d, wanted EPERM (%d)", r.again_err, EPERM);
    test_check("kill_into_other_session_refused", r.kill_err == EPERM,
               "outsider's kill(victim): errno %d, wanted EPERM (%d)", r.kill_err, EPERM);
    struct stat st;
    if (fstat(0, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
        test_check("tcsetpgrp_other_session_refused", r.tc_err == ENOTTY,
                   "outsider's tcsetpgrp: errno %d, wanted ENOTTY (%d)", r.tc_err, ENOTTY);
    else
        test_skip("tcsetpgrp_other_session_refused", "standard input is not the console");
    /* We are privileged, and still may not. */
    test_errno("kill_other_session_refused", kill(outsider), EPERM);
    int k = kill(victim);

    close(hold[1]);                      /* the outsider exits 4 ... */
    close(vp[1]);                        /* ... the victim 3, if still alive */
    int vs, os;
    wait_two(victim, &vs, outsider, &os);
    test_check("kill_own_session", k == 0 && vs == WSTATUS_KILLED,
               "kill(victim) %d (%s), victim's status %d", k, k ? strerror(errno) : "ok", vs);
    test_check("other_session_unharmed", os == 4, "outsider's status %d, wanted 4", os);
}

/* ---------------------------------------------------------------- last */

static int kill_init(void)
{
    return err(kill(1));
}

static int try_halt(void)
{
    return err(halt());
}

static void machine_checks(void)
{
    printf("t_protect: kill(1) next; if the machine stops here, pid 1 was killed\n");
    test_errno("kill_init_refused", kill(1), EPERM);
    int s = in_child(1, kill_init);
    test_check("kill_init_refused_unprivileged", s == EPERM,
               "status %d, wanted EPERM (%d)", s, EPERM);

    printf("t_protect: halt() without privilege next; if the machine stops here, "
           "the kernel let it halt\n");
    s = in_child(1, try_halt);
    test_check("unprivileged_halt_refused", s == EPERM,
               "status %d, wanted EPERM (%d)", s, EPERM);
    uint64_t t0 = 0, t1 = 0;
    uptime(&t0);
    s = in_child(0, report_priv);
    uptime(&t1);
    test_check("machine_still_running", s == 1 && t1 > t0,
               "a child after the refused halt: status %d, time %llu -> %llu", s,
               (unsigned long long)t0, (unsigned long long)t1);
}

int main(int argc, char *argv[])
{
    if (argc > 1 && strcmp(argv[1], "getpriv") == 0)
        return getpriv();                /* exec_report_priv's program */
    test_start("t_protect");
    inheritance_checks();
    fsctl_checks();
    session_checks();
    machine_checks();
    return test_summary();
}
