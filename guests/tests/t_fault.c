/*
 * t_fault: a process that does something illegal is killed, and only it.
 *
 * Each case forks a child that faults: a load from address 0, a store to
 * a kernel address, an illegal instruction, a jump to an address where
 * nothing is mapped, a jump into the kernel.  The parent's wait must
 * return the child with status WSTATUS_KILLED.  A child that survives its
 * fault exits with status 99, which the parent reports.  At the end the
 * parent, having watched all that, must still be running normally.
 */
#include "test.h"

#define SURVIVED 99

/* The address goes through an empty asm so that the compiler cannot see
 * it is 0: GCC would otherwise follow a NULL load with a trap instruction
 * of its own (ebreak), and the test would no longer be testing the load. */
static uintptr_t hide(uintptr_t a)
{
    asm volatile("" : "+r"(a));
    return a;
}

static void load_null(void)
{
    volatile int *p = (volatile int *)hide(0);
    (void)*p;
}

static void store_kernel(void)
{
    volatile int *p = (volatile int *)hide(0x80001000);
    *p = 1;
}

static void illegal(void)
{
    illegal_instruction();      /* guests/lib/arch/<isa>/traps.S */
}

static void jump_unmapped(void)
{
    void (*f)(void) = (void (*)(void))hide(0x40000000);
    f();
}

static void jump_kernel(void)
{
    void (*f)(void) = (void (*)(void))hide(0x80000000);
    f();
}

static struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    { "load_null",     load_null },
    { "store_kernel",  store_kernel },
    { "illegal_insn",  illegal },
    { "jump_unmapped", jump_unmapped },
    { "jump_kernel",   jump_kernel },
};

int main(void)
{
    test_start("t_fault");

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int pid = fork();
        if (pid < 0) {
            test_fail(cases[i].name, "fork: %s", strerror(errno));
            continue;
        }
        if (pid == 0) {
            cases[i].fn();
            exit(SURVIVED);
        }
        int status = 0;
        int w = wait(&status);
        if (w != pid)
            test_fail(cases[i].name, "wait returned %d (%s), wanted %d", w,
                      w < 0 ? strerror(errno) : "other pid", pid);
        else if (status == SURVIVED)
            test_fail(cases[i].name, "child was not killed");
        else
            test_check(cases[i].name, status == WSTATUS_KILLED,
                       "wait status %d, wanted %d", status, WSTATUS_KILLED);
    }

    /* Still here, still able to make system calls and children. */
    int pid = fork();
    if (pid == 0)
        exit(5);
    int status = 0;
    test_check("parent_alive", pid > 0 && wait(&status) == pid && status == 5,
               "fork/wait after the faults: pid %d status %d", pid, status);
    return test_summary();
}
