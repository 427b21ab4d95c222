/*
 * t_efault: system calls given bad user pointers must fail with EFAULT,
 * and the calling process must live on.
 *
 * The kernel may touch user memory only where the process has it mapped.
 * Each call below gets a pointer that is NULL, runs from the top of the
 * user stack into kernel space (0x7ffffff0 + 32 bytes), points into the
 * kernel (0x80000000, 0xfffff000, where a length can also wrap around), or
 * points into the user half at an address nothing is mapped at
 * (0x40000000).  A last pointer starts in a mapped heap page and runs off
 * its end.  Every call must return -1 with errno EFAULT.
 *
 * exec gets each bad pointer as its path, as its argv array, and as
 * argv[0] in a good array.
 *
 * The reverse holds too: a good pointer into heap pages the process has
 * not touched yet (under demand paging, not yet mapped: the kernel's copy
 * faults them in, kernel/port/paging.c) works, for read() into one and
 * write() out of another.
 *
 * wait and select are not given NULL: there it means "no status wanted" and
 * "no set" / "no timeout"; nor is argv[0], where NULL ends the list.  Strings (exec's path and arguments) are not
 * placed across the stack top: what is there is mapped and may well end in
 * a NUL before the boundary.
 */
#include "test.h"

#define PGSIZE 4096

/* The bad pointers.  A "straddle" entry is a boundary rather than an
 * address: what is below it is mapped, what is above is not, and each
 * call gets a pointer that puts its object half on each side. */
static struct {
    const char *name;
    uintptr_t addr;
    int straddle;
} bad[] = {
    { "null",     0,          0 },
    { "span",     0x80000000, 1 },  /* top of the user stack | kernel */
    { "kernel",   0x80000000, 0 },
    { "top",      0xfffff000, 0 },  /* + a length: wraps past 2^32 */
    { "unmapped", 0x40000000, 0 },
    { "heapend",  0,          1 },  /* filled in: last heap page | nothing */
};
#define NBAD  (sizeof(bad) / sizeof(bad[0]))
#define SPAN  1
#define HEAP  (NBAD - 1)

/* The bad pointer number i for an object of `size` bytes. */
static void *at(unsigned i, unsigned size)
{
    if (bad[i].straddle)
        return (void *)(bad[i].addr - size / 2);
    return (void *)bad[i].addr;
}

static char name[64];

static const char *check(const char *call, unsigned i)
{
    snprintf(name, sizeof(name), "%s_%s", call, bad[i].name);
    return name;
}

/* A pipe with 32 bytes waiting in it, so that a read of 32 would neither
 * block nor stop short of the bad half of its buffer. */
static void full_pipe(int p[2])
{
    if (pipe(p) < 0 || write(p[1], "0123456789abcdef0123456789abcdef", 32) != 32) {
        test_fail("setup", "pipe: %s", strerror(errno));
        exit(test_summary());
    }
}

/* Grow the heap so that it ends exactly at a page boundary with one whole
 * page below it.  Returns the boundary: the page above it is not mapped,
 * unless the kernel maps more than sbrk asked for (page-rounded).  0 if
 * sbrk fails. */
static uintptr_t heap_end(void)
{
    uintptr_t brk = (uintptr_t)sbrk(0);
    uintptr_t pad = (PGSIZE - (brk & (PGSIZE - 1))) & (PGSIZE - 1);
    if (sbrk(pad + PGSIZE) == (void *)-1)
        return 0;
    return brk + pad + PGSIZE;
}

/* Fill the last heap page with 'a', no NUL anywhere: a string that starts
 * there runs into the unmapped page.  Done again before each string test,
 * because a call that failed with EFAULT may legitimately have written
 * the mapped part of its buffer before it hit the unmapped part. */
static void fill_heap_page(void)
{
    memset((char *)bad[HEAP].addr - PGSIZE, 'a', PGSIZE);
}

int main(void)
{
    test_start("t_efault");

    bad[HEAP].addr = heap_end();
    if (bad[HEAP].addr == 0) {
        test_fail("setup", "sbrk: %s", strerror(errno));
        return test_summary();
    }

    int p[2];
    for (unsigned i = 0; i < NBAD; i++) {
        /* read into bad memory from a pipe that has data */
        full_pipe(p);
        test_errno(check("read", i), read(p[0], at(i, 32), 32), EFAULT);
        close(p[0]);
        close(p[1]);

        /* write from bad memory into a pipe that has room and a reader */
        if (pipe(p) < 0) {
            test_fail("setup", "pipe: %s", strerror(errno));
            return test_summary();
        }
        test_errno(check("write", i), write(p[1], at(i, 32), 32), EFAULT);
        close(p[0]);
        close(p[1]);

        test_errno(check("pipe", i), pipe(at(i, 2 * sizeof(int))), EFAULT);
        test_errno(check("uptime", i), uptime(at(i, sizeof(uint64_t))), EFAULT);

        if (bad[i].addr != 0) {
            /* a bad read set; then a good set and a bad timeout */
            full_pipe(p);
            test_errno(check("select_set", i),
                       select(p[0] + 1, at(i, sizeof(fd_set)), NULL, NULL, NULL), EFAULT);
            fd_set rs;
            FD_ZERO(&rs);
            FD_SET(p[0], &rs);
            test_errno(check("select_timeout", i),
                       select(p[0] + 1, &rs, NULL, NULL, at(i, sizeof(struct timeval))), EFAULT);
            close(p[0]);
            close(p[1]);

            /* wait with a bad status pointer: it must fail, and the child
             * must still be there to be waited for properly */
            int pid = fork();
            if (pid == 0)
                exit(3);
            test_errno(check("wait", i), wait(at(i, sizeof(int))), EFAULT);
            int status = -2;
            int w = wait(&status);
            if (w != pid || status != 3) {
                test_fail(check("wait_child_kept", i),
                          "wait returned %d status %d, wanted %d status 3", w, status, pid);
                while (wait(&status) >= 0)
                    ;
            } else {
                test_pass(check("wait_child_kept", i));
            }
        }

        /* exec with a bad argv array, a bad path, a bad argv[0].  Strings
         * straddling the heap end are 16 'a's running into nothing. */
        test_errno(check("exec_argv", i), exec("echo", at(i, sizeof(char *))), EFAULT);
        if (i != SPAN) {
            char *args[] = { "echo", NULL };
            fill_heap_page();
            test_errno(check("exec_path", i), exec(at(i, 32), args), EFAULT);
        }
        if (i != SPAN && bad[i].addr != 0) {    /* a NULL argv[0] ends the list */
            char *badargs[] = { at(i, 32), NULL };
            fill_heap_page();
            test_errno(check("exec_arg", i), exec("echo", badargs), EFAULT);
        }
    }

    /* A failed pipe must not leak descriptors: the next pipe gets the same
     * two numbers as the last one made before the failures. */
    int q[2];
    if (pipe(q) == 0) {
        test_check("pipe_no_leak", q[0] == p[0] && q[1] == p[1],
                   "fds %d %d after failures, %d %d before", q[0], q[1], p[0], p[1]);
        close(q[0]);
        close(q[1]);
    } else {
        test_fail("pipe_no_leak", "pipe: %s", strerror(errno));
    }

    /* Heap pages sbrk gave but nothing touched: read into one, write out
     * of another (it holds zeros). */
    char *fresh = sbrk(3 * PGSIZE);
    if (fresh != (char *)-1 && pipe(q) == 0) {
        char *in = (char *)(((uintptr_t)fresh + PGSIZE - 1) & ~(uintptr_t)(PGSIZE - 1));
        char *out = in + PGSIZE, back[32];
        int w = write(q[1], "fresh heap page", 16);
        int r = read(q[0], in, 16);
        test_check("read_into_fresh_heap", w == 16 && r == 16 && memcmp(in, "fresh heap page", 16) == 0,
                   "write %d, read %d: %s", w, r, r < 0 ? strerror(errno) : "data differ");
        w = write(q[1], out, 32);
        r = read(q[0], back, 32);
        int zeros = 1;
        for (int k = 0; k < 32; k++)
            zeros &= back[k] == 0;
        test_check("write_from_fresh_heap", w == 32 && r == 32 && zeros,
                   "write %d (%s), read %d, zeros %d", w, w < 0 ? strerror(errno) : "ok", r, zeros);
        close(q[0]);
        close(q[1]);
    } else {
        test_fail("read_into_fresh_heap", "sbrk or pipe: %s", strerror(errno));
    }

    /* The program's own code is mapped, but not writable: a call that
     * writes user memory must not write it (EFAULT), as the process's own
     * store would fault.  (The fuzzer's workers do this all the time; their
     * code is what lets the parent trust them, guests/bin/fuzz.c.) */
    {
        uint8_t *code = (uint8_t *)(uintptr_t)heap_end, before[32];
        memcpy(before, code, sizeof before);
        full_pipe(q);
        int r = read(q[0], code, 32);
        test_check("read_into_code", r < 0 && errno == EFAULT && memcmp(code, before, 32) == 0,
                   "read returned %d (%s), code %s", r, r < 0 ? strerror(errno) : "",
                   memcmp(code, before, 32) ? "changed" : "unchanged");
        close(q[0]);
        close(q[1]);
        test_errno("uptime_into_code", uptime((uint64_t *)code), EFAULT);
        test_check("uptime_into_code_unchanged", memcmp(code, before, 32) == 0, "code changed");
    }

    test_pass("survived");
    return test_summary();
}
