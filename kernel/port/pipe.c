/*
 * Pipes: a one-page ring buffer between a writing and a reading file.
 *
 * read sleeps while the pipe is empty and a writer remains, and returns 0
 * (end of file) once the last writer has closed.  write sleeps while the
 * pipe is full, and fails with EPIPE when no reader remains.  Every change
 * also wakes select() (select.c).  Bytes move straight between the ring and
 * user memory with copyin/copyout: one copy each way, as in UNIX.
 */
#include "kernel.h"
#include "proc.h"
#include "file.h"

struct pipe {
    uint8 *buf;                  /* PIPESIZE bytes, a page of its own        */
    uint32 nread, nwrite;        /* bytes ever read / written (wrap freely)  */
    int readopen, writeopen;     /* is there still a reader / a writer?      */
};

static struct pipe pipes[NPIPE];

static int pipe_read(struct file *f, uaddr ubuf, uint32 n)
{
    struct pipe *p = f->obj;
    while (p->nread == p->nwrite && p->writeopen) {
        if (curproc->killed)
            return -EINTR;
        sleep(&p->nread);
    }
    uint32 done = 0;
    while (done < n && p->nread != p->nwrite) {
        uint32 at = p->nread % PIPESIZE;
        uint32 chunk = p->nwrite - p->nread;          /* bytes buffered   */
        if (chunk > PIPESIZE - at)
            chunk = PIPESIZE - at;                    /* up to the wrap   */
        if (chunk > n - done)
            chunk = n - done;
        if (copyout(ubuf + done, p->buf + at, chunk) < 0) {
            if (done == 0)
                return -EFAULT;
            break;
        }
        p->nread += chunk;
        done += chunk;
    }
    wakeup(&p->nwrite);
    select_wakeup();
    return done;
}

static int pipe_write(struct file *f, uaddr ubuf, uint32 n)
{
    struct pipe *p = f->obj;
    uint32 done = 0;
    while (done < n) {
        if (!p->readopen)
            return -EPIPE;
        if (curproc->killed)
            return -EINTR;
        if (p->nwrite - p->nread == PIPESIZE) {       /* full: let the reader run */
            wakeup(&p->nread);
            select_wakeup();
            sleep(&p->nwrite);
            continue;
        }
        uint32 at = p->nwrite % PIPESIZE;
        uint32 chunk = PIPESIZE - (p->nwrite - p->nread);   /* free space */
        if (chunk > PIPESIZE - at)
            chunk = PIPESIZE - at;
        if (chunk > n - done)
            chunk = n - done;
        if (copyin(p->buf + at, ubuf + done, chunk) < 0) {
            if (done == 0)
                return -EFAULT;
            break;
        }
        p->nwrite += chunk;
        done += chunk;
    }
    wakeup(&p->nread);
    select_wakeup();
    return done;
}

static int pipe_readable(struct file *f)
{
    struct pipe *p = f->obj;
    return p->nread != p->nwrite || !p->writeopen;    /* data, or EOF */
}

static int pipe_writable(struct file *f)
{
    struct pipe *p = f->obj;
    return p->nwrite - p->nread < PIPESIZE || !p->readopen;  /* room, or EPIPE */
}

static void pipe_close(struct file *f)
{
    struct pipe *p = f->obj;
    if (f->writable) {
        p->writeopen = 0;
        wakeup(&p->nread);
    } else {
        p->readopen = 0;
        wakeup(&p->nwrite);
    }
    select_wakeup();
    if (!p->readopen && !p->writeopen) {
        kfree(p->buf);
        p->buf = 0;
    }
}

static const struct fileops pipe_ops = {
    .read = pipe_read, .write = pipe_write,
    .readable = pipe_readable, .writable = pipe_writable,
    .close = pipe_close,
};

/* FSCTL_TABLES' count: a pipe is in use while it has its page. */
uint32 pipes_in_use(void)
{
    uint32 n = 0;
    for (struct pipe *p = pipes; p < &pipes[NPIPE]; p++)
        n += p->buf != 0;
    return n;
}

int pipe_create(struct file **rd, struct file **wr)
{
    struct pipe *p;
    for (p = pipes; p < &pipes[NPIPE]; p++)
        if (!p->buf)
            break;
    if (p == &pipes[NPIPE])
        return -ENFILE;
    if (!(p->buf = kalloc()))
        return -ENOMEM;
    p->nread = p->nwrite = 0;
    p->readopen = p->writeopen = 1;
    *rd = file_alloc(&pipe_ops, p, 1, 0);
    *wr = *rd ? file_alloc(&pipe_ops, p, 0, 1) : 0;
    if (!*wr) {
        if (*rd)
            (*rd)->ref = 0;
        kfree(p->buf);
        p->buf = 0;
        return -ENFILE;
    }
    return 0;
}
