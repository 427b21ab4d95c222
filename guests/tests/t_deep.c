/*
 * t_deep: deep call chains survive system calls, context switches and fork.
 *
 * Each level of a recursion keeps values in local variables that it checks
 * again after its callee returns, so a register or stack frame corrupted on
 * the way (by a trap, by a context switch, by fork copying the stack) shows
 * as a wrong sum.  At the bottom of 100 levels the process makes system
 * calls, forks (the child unwinds its own copy of the whole chain and
 * reports its sum through its exit status), and passes bytes with the
 * child over pipes, switching back and forth, before unwinding.
 *
 * Every ISA must pass it; on SPARC it is the test of the register windows:
 * the chain is far deeper than the 7 windows, so its frames leave and
 * re-enter the register file through overflow and underflow traps, in user
 * mode, inside the kernel, and at every context switch
 * (kernel/arch/sparc/windows.S, swtch.S).
 */
#include "test.h"

#define DEPTH 100

static int to_child[2], to_parent[2];
static int child_status = -1;
static int bottom_ok;
static int fork_at_bottom = 1;

/* The sum of 1..depth, mixed with each level's own values: any level whose
 * locals were damaged breaks it. */
static unsigned expected(int depth)
{
    unsigned sum = 0;
    for (int d = 1; d <= depth; d++)
        sum = sum * 31 + (unsigned)d * 7 + 3;
    return sum;
}

static void at_the_bottom(void)
{
    if (!fork_at_bottom) {             /* a second descent: just a trap */
        bottom_ok = getpid() > 0;
        return;
    }
    int pid = fork();
    if (pid == 0) {
        bottom_ok = 1;                 /* the child unwinds its own copy */
        return;
    }
    if (pid < 0)
        return;
    char c = 'x';
    for (int i = 0; i < 20; i++) {     /* ping-pong: context switches */
        if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1)
            return;
    }
    if (getpid() <= 0)
        return;
    close(to_child[1]);                /* the child sees EOF and unwinds */
    int st = 0;
    if (wait(&st) != pid)
        return;
    child_status = st;
    bottom_ok = 1;
}

/* Returns the sum so far; the locals a, b, c must come back intact. */
__attribute__((noinline)) static unsigned descend(int depth, unsigned sum)
{
    volatile unsigned a = (unsigned)depth * 7, b = 3, c = sum;
    unsigned r;
    if (depth == DEPTH) {
        r = c * 31 + a + b;
        at_the_bottom();
    } else {
        r = descend(depth + 1, c * 31 + a + b);
    }
    if (a != (unsigned)depth * 7 || b != 3 || c != sum)
        return 0xdead;                 /* a damaged frame: the sum is wrong */
    return r;
}

/* The child, at the bottom of its copy: echo bytes until EOF, then unwind. */
static int child_side(unsigned sum)
{
    char c;
    close(to_child[1]);
    while (read(to_child[0], &c, 1) == 1)
        if (write(to_parent[1], &c, 1) != 1)
            return 2;
    return sum == expected(DEPTH) ? 0 : 1;
}

int main(void)
{
    test_start("t_deep");
    if (pipe(to_child) < 0 || pipe(to_parent) < 0) {
        test_fail("pipes", "pipe: %s", strerror(errno));
        return test_summary();
    }
    int parent = getpid();
    unsigned sum = descend(1, 0);
    if (getpid() != parent)
        exit(child_side(sum));         /* (only the child gets here from fork) */
    test_check("bottom_reached", bottom_ok, "fork or the pipes failed at the bottom");
    test_check("parent_sum", sum == expected(DEPTH), "sum 0x%x, wanted 0x%x", sum,
               expected(DEPTH));
    test_check("child_sum", child_status == 0, "child exit status %d", child_status);
    fork_at_bottom = 0;
    bottom_ok = 0;
    sum = descend(1, 0);
    test_check("again", bottom_ok && sum == expected(DEPTH), "second descent: sum 0x%x", sum);
    return test_summary();
}
