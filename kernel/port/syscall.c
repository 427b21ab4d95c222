/*
 * System-call dispatch.  The ISA's trap code calls syscall() with the saved
 * user registers; the number and up to five arguments are fetched through
 * the ISA interface, the handler runs, and its result (>= 0, or -errno)
 * goes back in the return register.
 */
#include "kernel.h"

struct kstat kstats;

/* One handler per call in FOR_EACH_SYSCALL (syscall.h), at its number.
 * The compiler checks the list against the numbers: an index past
 * NSYSCALL does not compile, two calls with one number do not either
 * (-Woverride-init), and the asserts below leave no number without a
 * handler. */
#define ENTRY(name) [SYS_##name] = sys_##name,
static int32 (*const handlers[NSYSCALL])(const uint32 *arg) = { FOR_EACH_SYSCALL(ENTRY) };

#define PLUS_ONE(name) + 1
#define NONZERO(name) && SYS_##name != 0
_Static_assert(0 FOR_EACH_SYSCALL(PLUS_ONE) == NSYSCALL - 1,
               "NSYSCALL must be one more than the calls in FOR_EACH_SYSCALL");
_Static_assert(1 FOR_EACH_SYSCALL(NONZERO), "system call number 0 is not a call");

void syscall(struct trapframe *tf)
{
    uint32 num = arch_syscall_num(tf);
    uint32 arg[5];
    kstats.syscalls++;
    if (num >= NSYSCALL || !handlers[num]) {
        arch_syscall_ret(tf, -ENOSYS);
        return;
    }
    arch_syscall_args(tf, arg);
    arch_syscall_ret(tf, handlers[num](arg));
}
