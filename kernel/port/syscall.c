/*
 * System-call dispatch.  The ISA's trap code calls syscall() with the saved
 * user registers; the number and up to five arguments are fetched through
 * the ISA interface, the handler runs, and its result (>= 0, or -errno)
 * goes back in the return register.
 */
#include "kernel.h"
#include "syscall.h"

struct kstat kstats;

#define SYSCALLS(X) \
    X(exit)  X(fork)  X(wait)   X(pipe)   X(read)   X(write)  X(close) \
    X(kill)  X(exec)  X(getpid) X(sbrk)   X(sleep)  X(dup)    X(select) \
    X(uptime) X(halt) X(kstat) \
    X(open)  X(fstat) X(mkdir)  X(unlink) X(chdir)  X(lseek)  X(sync) \
    X(fsync) X(rmdir) X(stat)   X(readdir) X(fsctl) \
    X(dup2)  X(setpgid) X(getpgid) X(tcsetpgrp)

#define DECLARE(name) int32 sys_##name(const uint32 *arg);
SYSCALLS(DECLARE)

#define ENTRY(name) [SYS_##name] = sys_##name,
static int32 (*const handlers[NSYSCALL])(const uint32 *arg) = { SYSCALLS(ENTRY) };

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
