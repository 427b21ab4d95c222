/*
 * t_cow: copy-on-write fork (kernel/port/cow.c) keeps parent and child
 * apart, and copies fewer pages than the copying fork.
 *
 *   - after a fork under cow, the child's writes to a global, a heap
 *     block and a stack variable are its own: the parent still sees its
 *     values; and the parent's writes after that never reach the child;
 *   - a system call that writes into a shared page (read() from a pipe
 *     into a global buffer) gives the writer its own copy too, in the
 *     child and in the parent; the kernel counts that write fault;
 *   - a fork whose child writes one page and exits makes fewer page
 *     copies (fsctl FORK_COPIES) under cow than under copy;
 *   - the fork mode goes back to what it was.
 *
 * The program sets the fork mode itself, so it runs the same whatever the
 * shell's mode.
 */
#include "test.h"

static volatile int global = 1;
/* Two pages of their own: nothing else is written there before the reads. */
static char inbuf[2][4096] __attribute__((aligned(4096))) = { "parent", "parent" };

static int fork_ctl(int what)
{
    return fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)what);
}

static int wait_status(int pid)
{
    int status = -1;
    return wait(&status) == pid ? status : -1;
}

/* Globals, heap and stack, both ways. */
static void isolation(void)
{
    volatile int local = 1;
    volatile int *heap = malloc(sizeof *heap);
    int a[2], b[2];
    char c;
    if (!heap || pipe(a) < 0 || pipe(b) < 0) {
        test_fail("isolation", "malloc or pipe failed");
        return;
    }
    *heap = 1;
    global = 1;
    int pid = fork();
    if (pid < 0) {
        test_fail("isolation", "fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        global = 2, *heap = 2, local = 2;
        write(a[1], "w", 1);                 /* written: look now           */
        read(b[0], &c, 1);                   /* the parent has written      */
        exit(global == 2 && *heap == 2 && local == 2 ? 0 : 1);
    }
    read(a[0], &c, 1);
    test_check("child_writes_own", global == 1 && *heap == 1 && local == 1,
               "the parent sees global %d heap %d stack %d after the child wrote 2",
               global, *heap, local);
    global = 3, *heap = 3, local = 3;
    write(b[1], "w", 1);
    int status = wait_status(pid);
    test_check("parent_writes_own", status == 0,
               "the child saw the parent's writes (status %d)", status);
    test_check("parent_keeps_writes", global == 3 && *heap == 3 && local == 3,
               "global %d heap %d stack %d", global, *heap, local);
    close(a[0]), close(a[1]), close(b[0]), close(b[1]);
}

/* read() into a shared page: the kernel's copyout must copy it. */
static void pipe_into_shared(void)
{
    int a[2], b[2], done[2], self[2];
    char c;
    if (pipe(a) < 0 || pipe(b) < 0 || pipe(done) < 0 || pipe(self) < 0) {
        test_fail("pipe_child", "pipe: %s", strerror(errno));
        return;
    }
    int pid = fork();
    if (pid < 0) {
        test_fail("pipe_child", "fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        int f0 = fork_ctl(FORK_COWFAULTS);
        int n = read(a[0], inbuf[0], 6);         /* into a shared page   */
        int f1 = fork_ctl(FORK_COWFAULTS);
        int ok = n == 6 && memcmp(inbuf[0], "child!", 6) == 0 && f1 > f0;
        write(done[1], "r", 1);                  /* the parent may look  */
        read(b[0], &c, 1);                       /* the parent has read  */
        ok = ok && memcmp(inbuf[1], "parent", 6) == 0;
        exit(ok ? 0 : 1);
    }
    write(a[1], "child!", 6);
    read(done[0], &c, 1);
    test_check("pipe_child", memcmp(inbuf[0], "parent", 6) == 0,
               "the child's read() reached the parent's page: '%.6s'", inbuf[0]);
    write(self[1], "PARENT", 6);                 /* to ourselves, below  */
    int n = read(self[0], inbuf[1], 6);          /* into a shared page   */
    write(b[1], "w", 1);                         /* the child may look   */
    int status = wait_status(pid);
    test_check("pipe_parent", n == 6 && memcmp(inbuf[1], "PARENT", 6) == 0 && status == 0,
               "read %d, child status %d (the parent's read() reached the child's page, "
               "or the child's read was wrong)", n, status);
    close(a[0]), close(a[1]), close(b[0]), close(b[1]), close(done[0]), close(done[1]);
    close(self[0]), close(self[1]);
}

/* Page copies for one fork whose child writes one global and exits. */
static int copies_for_fork(void)
{
    int c0 = fork_ctl(FORK_COPIES);
    int pid = fork();
    if (pid == 0) {
        global = 7;
        exit(0);
    }
    if (pid < 0 || wait_status(pid) != 0)
        return -1;
    global = 8;                                  /* the parent's takeover */
    return fork_ctl(FORK_COPIES) - c0;
}

static void fewer_copies(void)
{
    fork_ctl(FORK_COPY);
    int copy = copies_for_fork();
    fork_ctl(FORK_COW);
    int cow = copies_for_fork();
    printf("t_cow: page copies for a fork: copy %d, cow %d\n", copy, cow);
    test_check("fewer_copies", copy >= 3 && cow >= 1 && cow < copy,
               "copy %d pages, cow %d pages", copy, cow);
}

int main(void)
{
    test_start("t_cow");
    int old = fork_ctl(FORK_COW);
    if (!test_check("mode", old >= 0 && fork_ctl(FORK_MODE) == FORK_COW,
                    "fsctl FORK_COW: %d, mode %d", old, fork_ctl(FORK_MODE)))
        return test_summary();
    isolation();
    pipe_into_shared();
    fewer_copies();
    fork_ctl(old);
    test_check("mode_back", fork_ctl(FORK_MODE) == old, "mode %d, was %d",
               fork_ctl(FORK_MODE), old);
    return test_summary();
}
