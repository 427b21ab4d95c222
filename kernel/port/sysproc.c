/*
 * System calls about processes, memory and time.  Each takes the raw
 * argument words and returns a value >= 0 or -errno.
 */
#include "kernel.h"
#include "proc.h"
#include "rfs/rfs.h"
#include "buf.h"

int32 sys_exit(const uint32 *arg)
{
    proc_exit((int)arg[0] & 0xff);
}

int32 sys_fork(const uint32 *arg)   { return proc_fork(); }
int32 sys_wait(const uint32 *arg)   { return proc_wait(arg[0]); }
int32 sys_kill(const uint32 *arg)   { return proc_kill((int)arg[0]); }
int32 sys_getpid(const uint32 *arg) { return curproc->pid; }
int32 sys_setpgid(const uint32 *arg) { return proc_setpgid((int)arg[0], (int)arg[1]); }
int32 sys_getpgid(const uint32 *arg) { return proc_getpgid((int)arg[0]); }
int32 sys_setsid(const uint32 *arg)  { return proc_setsid(); }

/* sbrk(n): move the end of the heap by n bytes; return the old end. */
int32 sys_sbrk(const uint32 *arg)
{
    struct proc *p = curproc;
    int32 incr = (int32)arg[0];
    uaddr old = p->brk, new = old + incr;
    if (incr > 0) {
        if (new < old || new > USTACK_TOP - USTACK_SIZE)
            return -ENOMEM;
        int r = heap_grow(p->pagetable, old, new, PERM_R | PERM_W);   /* paging.c */
        if (r < 0)
            return r;
    } else if (incr < 0) {
        if (new > old || new < USER_BASE)
            return -EINVAL;
        cow_shrink(p->pagetable, new, old);   /* cow.c */
    }
    p->brk = new;
    return (int32)old;
}

static int sleep_chan;           /* nothing wakes it: only a deadline or a kill */

int32 sys_sleep(const uint32 *arg)
{
    uint64 deadline = arch_time_ns() + (uint64)arg[0] * 1000;
    while (!sleep_until(&sleep_chan, deadline))
        if (curproc->killed)
            return -EINTR;
    return 0;
}

int32 sys_uptime(const uint32 *arg)
{
    uint64 now = arch_time_ns();
    return copyout(arg[0], &now, sizeof now);
}

/* halt(): privileged (priv.c), since it ends every process at once. */
int32 sys_halt(const uint32 *arg)
{
    int r = priv_check();
    if (r < 0)
        return r;
    bsync();                              /* as a real system would */
    if (rfs_nmounts)
        rfs_sync();                       /* ... and a client (rfs/client.c) */
    printf("kernel: halt\n");
    arch_halt();
}

int32 sys_kstat(const uint32 *arg)
{
    kstats.free_pages = kalloc_free_pages();
    kstats.total_pages = kalloc_total_pages();
    return copyout(arg[0], &kstats, sizeof kstats);
}

/* exec(path, argv): the strings are copied into the kernel first, because
 * exec throws away the address space they live in. */
int32 sys_exec(const uint32 *arg)
{
    char *buf = kalloc();                 /* path + MAXARG strings */
    if (!buf)
        return -ENOMEM;
    char *path = buf, *argv[MAXARG + 1];
    int r = copyinstr(path, arg[0], MAXPATH);
    char *next = buf + MAXPATH;
    int argc = 0;
    for (; r >= 0; argc++) {
        uint32 uarg;
        if ((r = copyin(&uarg, arg[1] + 4 * argc, 4)) < 0)
            break;
        if (uarg == 0)
            break;
        if (argc == MAXARG) {
            r = -E2BIG;
            break;
        }
        if ((r = copyinstr(next, uarg, MAXARGLEN)) < 0) {
            if (r == -ENAMETOOLONG)
                r = -E2BIG;
            break;
        }
        argv[argc] = next;
        next += MAXARGLEN;
    }
    if (r >= 0) {
        argv[argc] = 0;
        r = exec(path, argv);
    }
    kfree(buf);
    return r;
}
