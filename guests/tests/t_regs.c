/*
 * t_regs: the kernel gives a process back its registers, all of them,
 * whatever happened in between.  Each check fills every register a program
 * can set with its own known value (guests/lib/arch/<isa>/regs.S does the
 * ISA's part: guests/include/regs.h), lets something happen, and compares
 * every register afterwards:
 *
 *   - a system call (getpid; one that fails, close(-1); one that sleeps):
 *     every register but the result register keeps its value, and the
 *     result is right;
 *   - timer interrupts taken in a busy loop: every register, since an
 *     interrupt must preserve everything (the kernel's interrupt counter
 *     shows that some really came);
 *   - fork, in the parent and in the child: everything but the result
 *     (the child's pid; 0);
 *   - being switched out: blocked reading a pipe while a child (a higher
 *     pid) runs with registers of its own and writes to it;
 *   - a page fault: under demand paging (switched on for the check, and
 *     back off), a store to a heap page never touched, which the kernel
 *     serves: every register, as for an interrupt; the kernel counted the
 *     fault, the value landed, and the rest of the page is zeros.
 *
 * A register that changed is named, with both values:
 *   FAIL name=t_regs.syscall why=reg_s2_was_0x00000000_expected_0xa510105a
 */
#include "test.h"
#include "regs.h"

static char names[REGS_MAX][8];
static uint32_t n;

/* The value register i starts with in check number `salt`: the register's
 * slot and the check can be read off it (0xa5 SS II 5a). */
static uint32_t pattern(uint32_t salt, uint32_t i)
{
    return 0xa500005au | (salt & 0xff) << 16 | (i & 0xff) << 8;
}

static void fill(uint32_t *regs, uint32_t salt)
{
    for (uint32_t i = 0; i < n; i++)
        regs[i] = pattern(salt, i);
}

/* One FAIL line per register that differs; returns how many did. */
static int compare(const char *check, const uint32_t *got, const uint32_t *want)
{
    int bad = 0;
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            test_fail(check, "reg_%s_was_0x%08x_expected_0x%08x", names[i],
                      (unsigned)got[i], (unsigned)want[i]);
            bad++;
        }
    return bad;
}

/* Split regs_isa.names into names[]; 0 if it does not match regs_isa.n. */
static int read_names(void)
{
    const char *p = regs_isa.names;
    n = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (n == REGS_MAX)
            return 0;
        int len = 0;
        while (*p && *p != ' ')
            if (len < (int)sizeof names[0] - 1)
                names[n][len++] = *p++;
            else
                p++;
        names[n++][len] = '\0';
    }
    return n == regs_isa.n && regs_isa.ret < n && regs_isa.count < n && regs_isa.acc < n;
}

/* A system call with every register set: all but the result must come
 * back as they went in, and the result must be `result`. */
static void syscall_check(const char *check, uint32_t salt, uint32_t num,
                          uint32_t a, uint32_t b, uint32_t c, uint32_t result)
{
    uint32_t in[REGS_MAX], out[REGS_MAX], want[REGS_MAX];
    fill(in, salt);
    regs_syscall(in, out, num, a, b, c);
    memcpy(want, in, sizeof want);
    want[regs_isa.ret] = result;
    if (compare(check, out, want) == 0)
        test_pass(check);
}

static void syscalls(void)
{
    syscall_check("syscall", 1, SYS_getpid, pattern(1, 100), pattern(1, 101), pattern(1, 102),
                  (uint32_t)getpid());
    syscall_check("syscall_error", 2, SYS_close, (uint32_t)-1, pattern(2, 101), pattern(2, 102),
                  (uint32_t)-EBADF);
    /* sleep(1000 us): the process sleeps, the CPU idles, a timer wakes it. */
    syscall_check("syscall_that_sleeps", 3, SYS_sleep, 1000, pattern(3, 101), pattern(3, 102), 0);
}

/* Busy loops until enough timer interrupts have landed in them. */
#define SPINS        2000000u   /* iterations per loop: 4-6 ms of guest time */
#define WANT_INTRS   4
#define MAX_LOOPS    40

static void interrupts(void)
{
    uint32_t in[REGS_MAX], out[REGS_MAX], want[REGS_MAX];
    unsigned intrs = 0;
    int loops = 0, bad = 0;
    while (intrs < WANT_INTRS && loops < MAX_LOOPS && !bad) {
        struct kstat k0, k1;
        fill(in, 10 + loops);
        in[regs_isa.count] = SPINS;
        kstat(&k0);
        regs_spin(in, out);
        kstat(&k1);
        intrs += k1.interrupts - k0.interrupts;
        loops++;
        memcpy(want, in, sizeof want);
        want[regs_isa.count] = 0;
        want[regs_isa.acc] = in[regs_isa.acc] + SPINS;
        bad = compare("interrupt", out, want);
        if (bad && out[regs_isa.acc] != want[regs_isa.acc])
            printf("t_regs: %s counts the turns of the loop on %s: if only it is wrong, "
                   "either may have changed\n", names[regs_isa.acc], names[regs_isa.count]);
    }
    printf("t_regs: %u interrupts during %d busy loops of %u turns\n", intrs, loops, SPINS);
    if (!bad)
        test_check("interrupt", intrs >= WANT_INTRS,
                   "only %u interrupts in %d busy loops of %u turns: no timer?",
                   intrs, loops, SPINS);
}

/* fork with every register set: the parent checks its own registers and
 * the child's, which the child sends back through a pipe. */
static void fork_check(void)
{
    uint32_t in[REGS_MAX], out[REGS_MAX], want[REGS_MAX], child[REGS_MAX];
    int p[2];
    if (pipe(p) < 0) {
        test_fail("fork", "pipe: %s", strerror(errno));
        return;
    }
    int parent = getpid();
    fill(in, 20);
    int pid = (int)regs_syscall(in, out, SYS_fork, pattern(20, 100), pattern(20, 101),
                                pattern(20, 102));
    if (getpid() != parent) {       /* the child, whatever fork returned */
        write(p[1], out, n * sizeof out[0]);
        exit(0);
    }
    close(p[1]);
    if (pid < 0) {
        test_fail("fork_parent", "fork: %s", strerror(-pid));
        close(p[0]);
        return;
    }
    memcpy(want, in, sizeof want);
    want[regs_isa.ret] = (uint32_t)pid;
    if (compare("fork_parent", out, want) == 0)
        test_pass("fork_parent");

    int got = read(p[0], child, n * sizeof child[0]);
    close(p[0]);
    int status;
    while (wait(&status) != pid)
        ;
    if (got != (int)(n * sizeof child[0])) {
        test_fail("fork_child", "the child sent %d bytes, status %d", got, status);
        return;
    }
    want[regs_isa.ret] = 0;
    if (compare("fork_child", child, want) == 0)
        test_pass("fork_child");
}

/* Block in read() with every register set while a child, a higher pid,
 * runs with registers of its own and then writes the byte we wait for. */
static void switch_check(void)
{
    uint32_t in[REGS_MAX], out[REGS_MAX], want[REGS_MAX];
    int p[2];
    char byte = 0;
    if (pipe(p) < 0) {
        test_fail("switched_out", "pipe: %s", strerror(errno));
        return;
    }
    int pid = fork();
    if (pid == 0) {
        uint32_t cin[REGS_MAX], cout[REGS_MAX];
        static const char x = 'x';
        close(p[0]);
        sleep(2000);                /* the parent blocks in read meanwhile */
        fill(cin, 40);
        regs_syscall(cin, cout, SYS_write, (uint32_t)p[1], (uint32_t)(uintptr_t)&x, 1);
        exit(0);
    }
    close(p[1]);
    if (pid < 0) {
        test_fail("switched_out", "fork: %s", strerror(errno));
        close(p[0]);
        return;
    }
    struct kstat k0, k1;
    fill(in, 30);
    kstat(&k0);
    uint32_t r = regs_syscall(in, out, SYS_read, (uint32_t)p[0], (uint32_t)(uintptr_t)&byte, 1);
    kstat(&k1);
    close(p[0]);
    int status;
    while (wait(&status) != pid)
        ;
    memcpy(want, in, sizeof want);
    want[regs_isa.ret] = 1;
    int bad = compare("switched_out", out, want);
    if (!bad)
        test_check("switched_out", r == 1 && byte == 'x' && pid > getpid() &&
                   k1.cswitches - k0.cswitches >= 2,
                   "read %d byte 0x%x, child pid %d (mine %d), %u context switches",
                   (int)r, byte, pid, getpid(), k1.cswitches - k0.cswitches);
}

/* The kernel's paging mode and fault counts: fsctl(FSCTL_PAGEPOLICY) with
 * a PAGING_* value (kernel/port/paging.c). */
static int paging(int what)
{
    return fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)what);
}

static void page_fault_check(void)
{
    uint32_t in[REGS_MAX], out[REGS_MAX];
    int old = paging(PAGING_DEMAND);
    if (old < 0) {
        test_fail("page_fault", "fsctl(PAGING_DEMAND): %s", strerror(errno));
        return;
    }
    char *heap = sbrk(2 * 4096);
    if (heap == (char *)-1) {
        test_fail("page_fault", "sbrk: %s", strerror(errno));
        paging(old);
        return;
    }
    uint32_t *page = (uint32_t *)(((uintptr_t)heap + 4095) & ~(uintptr_t)4095);
    uint32_t *word = page + 100;
    int f0 = paging(PAGING_MYFAULTS);
    fill(in, 50);
    regs_touch(in, out, word);
    int faults = paging(PAGING_MYFAULTS) - f0;
    paging(old);
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < 1024; i++)
        if (page + i != word && page[i] != 0)
            nonzero++;
    if (compare("page_fault", out, in) == 0)
        test_check("page_fault", faults == 1 && *word == in[regs_isa.acc] && nonzero == 0,
                   "%d faults counted (want 1), the word holds 0x%08x (want 0x%08x), "
                   "%u other words not zero", faults, (unsigned)*word,
                   (unsigned)in[regs_isa.acc], (unsigned)nonzero);
    sbrk(-2 * 4096);
}

int main(void)
{
    test_start("t_regs");
    if (!read_names()) {
        test_fail("descriptor", "regs_isa says %u registers, its names list differs "
                  "or a slot is out of range", (unsigned)regs_isa.n);
        return test_summary();
    }
    syscalls();
    interrupts();
    fork_check();
    switch_check();
    page_fault_check();
    return test_summary();
}
