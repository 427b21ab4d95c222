/*
 * Open files and file descriptors, and the system calls that work on any
 * kind of file (read, write, close, dup, dup2, pipe).  What a read or write does
 * is up to the file's operations table (console.c, pipe.c, sysfile.c).
 */
#include "kernel.h"
#include "proc.h"
#include "file.h"

static struct file ftable[NFILE];

struct file *file_alloc(const struct fileops *ops, void *obj, int readable, int writable)
{
    for (struct file *f = ftable; f < &ftable[NFILE]; f++)
        if (f->ref == 0) {
            f->ops = ops;
            f->obj = obj;
            f->readable = readable;
            f->writable = writable;
            f->off = 0;
            f->ref = 1;
            return f;
        }
    return 0;
}

/* FSCTL_TABLES' count of the entries in use. */
uint32 files_in_use(void)
{
    uint32 n = 0;
    for (struct file *f = ftable; f < &ftable[NFILE]; f++)
        n += f->ref > 0;
    return n;
}

struct file *file_dup(struct file *f)
{
    f->ref++;
    return f;
}

void file_close(struct file *f)
{
    assert(f->ref > 0);
    if (--f->ref > 0)
        return;
    if (f->ops->close)
        f->ops->close(f);
}

int fd_alloc(struct file *f)
{
    for (int fd = 0; fd < NOFILE; fd++)
        if (!curproc->ofile[fd]) {
            curproc->ofile[fd] = f;
            return fd;
        }
    return -EMFILE;
}

struct file *fd_get(int fd)
{
    if (fd < 0 || fd >= NOFILE)
        return 0;
    return curproc->ofile[fd];
}

int32 sys_read(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    if (!f || !f->readable)
        return -EBADF;
    if ((int32)arg[2] < 0)
        return -EINVAL;
    if (arg[2] == 0)
        return 0;
    return f->ops->read(f, arg[1], arg[2]);
}

int32 sys_write(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    if (!f || !f->writable)
        return -EBADF;
    if ((int32)arg[2] < 0)
        return -EINVAL;
    if (arg[2] == 0)
        return 0;
    return f->ops->write(f, arg[1], arg[2]);
}

int32 sys_close(const uint32 *arg)
{
    int fd = (int)arg[0];
    struct file *f = fd_get(fd);
    if (!f)
        return -EBADF;
    curproc->ofile[fd] = 0;
    file_close(f);
    return 0;
}

int32 sys_dup(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    if (!f)
        return -EBADF;
    int fd = fd_alloc(f);
    if (fd >= 0)
        file_dup(f);
    return fd;
}

/* dup2(fd, newfd): make newfd refer to fd's file, closing what newfd had
 * open first (how a shell redirects: dup2(file, 1) makes it the output). */
int32 sys_dup2(const uint32 *arg)
{
    int fd = (int)arg[0], newfd = (int)arg[1];
    struct file *f = fd_get(fd);
    if (!f || newfd < 0 || newfd >= NOFILE)
        return -EBADF;
    if (newfd == fd)
        return newfd;
    struct file *old = curproc->ofile[newfd];
    curproc->ofile[newfd] = file_dup(f);
    if (old)
        file_close(old);                   /* may write the file out: last */
    return newfd;
}

int32 sys_pipe(const uint32 *arg)
{
    struct file *rf, *wf;
    int r = pipe_create(&rf, &wf);
    if (r < 0)
        return r;
    int fd[2] = { fd_alloc(rf), -1 };
    if (fd[0] >= 0)
        fd[1] = fd_alloc(wf);
    if (fd[1] < 0 || (r = copyout(arg[0], fd, sizeof fd)) < 0) {
        if (fd[1] < 0)
            r = -EMFILE;
        if (fd[0] >= 0)
            curproc->ofile[fd[0]] = 0;
        if (fd[1] >= 0)
            curproc->ofile[fd[1]] = 0;
        file_close(rf);
        file_close(wf);
        return r;
    }
    return 0;
}
