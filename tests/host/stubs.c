/*
 * What the file-system code needs from the rest of the kernel, for running
 * it as a host program (tests/unit/test_fs_host.py): one process, no
 * scheduler (so anything that would sleep is a bug here: there is no one
 * to wait for), time that advances a little at each reading, and user
 * memory that is simply the host's (user addresses are host addresses
 * below 4 GB: the driver maps its "user" buffers there).
 *
 * Compiled with the kernel's headers only; the few C library functions
 * used are declared by hand, since the kernel's names (printf) would clash
 * with <stdio.h>.
 */
#include <stdarg.h>
#include "kernel.h"
#include "proc.h"
#include "file.h"

int vprintf(const char *fmt, va_list ap);
void abort(void) __attribute__((noreturn));

struct kstat kstats;
struct proc *curproc;
static struct proc the_proc;
struct file console_file;

void stubs_init(void)
{
    curproc = &the_proc;
    the_proc.priv = 1;          /* as the shell's programs are: fsctl SETCONF needs it */
}

void printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

void panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("panic: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    abort();
}

static uint64 now = 1000000000ull;
uint64 arch_time_ns(void) { return now += 1000; }

void sleep(void *chan)
{
    panic("sleep() on the host: nothing could ever wake it");
}

int sleep_until(void *chan, uint64 deadline)
{
    panic("sleep_until() on the host");
}

void wakeup(void *chan) {}
void set_alarm(struct proc *p, void *chan, uint64 deadline) {}
struct proc *kproc_create(const char *name, void (*fn)(void)) { return 0; }
int pipe_create(struct file **rd, struct file **wr) { return -ENOSYS; }
uint32 pipes_in_use(void) { return 0; }
int page_policy(int policy) { return -ENOSYS; }       /* fsctl's page and paging policy: no pages here */

int copyin(void *dst, uaddr src, uint32 n)
{
    if (!src)
        return -EFAULT;
    memmove(dst, (const void *)src, n);
    return 0;
}

int copyout(uaddr dst, const void *src, uint32 n)
{
    if (!dst)
        return -EFAULT;
    memmove((void *)dst, src, n);
    return 0;
}

int copyinstr(char *dst, uaddr src, uint32 max)
{
    const char *s = (const char *)src;
    if (!s)
        return -EFAULT;
    for (uint32 i = 0; i < max; i++)
        if ((dst[i] = s[i]) == 0)
            return (int)i;
    return -ENAMETOOLONG;
}

int vsnprintf(char *buf, unsigned long size, const char *fmt, va_list ap);

int snprintf(char *buf, int size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, (unsigned long)size, fmt, ap);
    va_end(ap);
    return n;
}

int32 sys_kstat(const uint32 *arg)
{
    return copyout(arg[0], &kstats, sizeof kstats);
}

/* Remote files (kernel/port/rfs/): nothing is mounted on the host, so
 * every path is local; the file layer asks rfs_owns() only when something
 * is mounted, and a call that reaches the remote side is a bug here. */
#include "rfs/rfs.h"
int rfs_nmounts;
int rfs_file(struct file *f) { (void)f; return 0; }
int rfs_exec_source(struct exec_source *src) { (void)src; return 0; }
int rfs_protocol(void) { return RFS_NONE; }
void rfs_sync(void) {}
int rfs_fsctl(uint32 op, uaddr arg) { (void)op; (void)arg; return -EINVAL; }
int rfs_set_protocol(uint32 proto) { (void)proto; return -EINVAL; }
int rfs_owns(const char *path) { (void)path; abort(); }
int rfs_open(const char *path, int flags) { (void)path; (void)flags; abort(); }
int rfs_stat(const char *path, struct stat *st) { (void)path; (void)st; abort(); }
int rfs_mkdir(const char *path) { (void)path; abort(); }
int rfs_remove(const char *path, int dir) { (void)path; (void)dir; abort(); }
int rfs_chdir(const char *path) { (void)path; abort(); }
int rfs_exec_open(const char *path, struct exec_source *src) { (void)path; (void)src; abort(); }
void rfs_exec_close(struct exec_source *src) { (void)src; abort(); }
int rfs_fstat(struct file *f, struct stat *st) { (void)f; (void)st; abort(); }
int rfs_lseek_end(struct file *f, uint32 *size) { (void)f; (void)size; abort(); }
int rfs_readdir(struct file *f, struct dirent *de) { (void)f; (void)de; abort(); }
int rfs_fsync(struct file *f) { (void)f; abort(); }
void rfs_cwd_drop(struct proc *p) { (void)p; abort(); }
