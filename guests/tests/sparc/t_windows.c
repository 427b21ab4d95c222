/*
 * t_windows (SPARC only): a process whose stack pointer is no place for its
 * register windows is killed, and only it.
 *
 * The kernel writes a user's windows to the user's stack (when it needs
 * the room, or at a context switch) and reads them back from it, with the
 * kernel's own rights (kernel/arch/sparc/windows.S, trapentry.S).  So it
 * must check the user's %sp first: 8-byte aligned, all 64 bytes below
 * USERTOP, on pages the user may write (or read).  Each case forks a child
 * that makes calls with a bad stack pointer, which it cannot survive: a
 * kernel address, a misaligned one, an unmapped page, one whose 64 bytes
 * run into the kernel; or returns into frames whose saved frame pointer
 * is bad.  wait() must find each child killed, and the parent, and the
 * kernel, must go on.
 */
#include "test.h"
#include "syscall.h"

#define SURVIVED 99
#define STR(x)  #x
#define XSTR(x) STR(x)
/* exit(SURVIVED), made right there: the C code around these frames is not
 * fit to return through them. */
#define EXIT_SURVIVED "mov " XSTR(SURVIVED) ", %%o0\n\tmov " XSTR(SYS_exit) ", %%g1\n\tta 0"

/* Eight calls deep on a stack that starts at sp: the register file has
 * seven windows, so the oldest ones, whose %sp is sp, must be written out. */
static void call_deep_from(unsigned sp)
{
    asm volatile("mov %0, %%sp\n\t"
                 ".rept 8\n\tsave %%sp, -96, %%sp\n\t.endr\n\t"
                 EXIT_SURVIVED
                 : : "r"(sp) : "memory");
}

/* Make our caller's saved frame pointer fp, push every window out with
 * seven calls, and return nine levels: the eighth return reads the caller's
 * caller's window from fp. */
static void return_through(unsigned fp)
{
    asm volatile("mov %0, %%fp\n\t"
                 ".rept 7\n\tsave %%sp, -96, %%sp\n\t.endr\n\t"
                 ".rept 9\n\trestore\n\t.endr\n\t"
                 EXIT_SURVIVED
                 : : "r"(fp) : "memory");
}

static void run(const char *name, void (*fn)(unsigned), unsigned where)
{
    int pid = fork();
    if (pid == 0) {
        fn(where);
        exit(SURVIVED);
    }
    int status = 0;
    int w = wait(&status);
    test_check(name, w == pid && status == WSTATUS_KILLED, "wait %d (child %d), status %d",
               w, pid, status);
}

int main(void)
{
    test_start("t_windows");
    run("kernel_sp", call_deep_from, 0x80001000);
    run("misaligned_sp", call_deep_from, 0x7fff0005);
    run("unmapped_sp", call_deep_from, 0x40000000);
    run("sp_runs_into_kernel", call_deep_from, 0x7fffffe0);
    run("kernel_fp", return_through, 0x80001000);
    run("unmapped_fp", return_through, 0x40000000);
    int pid = fork();                    /* still here, still forking */
    if (pid == 0)
        exit(5);
    int status = 0;
    test_check("parent_alive", pid > 0 && wait(&status) == pid && status == 5,
               "fork/wait after the faults: pid %d status %d", pid, status);
    return test_summary();
}
