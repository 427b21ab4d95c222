/*
 * Open files.  A file descriptor points at a struct file; a struct file
 * points at what it reads and writes through a small table of operations
 * (struct fileops), so pipes, the console and disk files (sysfile.c) are
 * all "devices" to read, write, poll and close.
 */
#ifndef FILE_H
#define FILE_H

#include "kernel.h"

struct file;

struct fileops {
    int  (*read)(struct file *f, uaddr buf, uint32 n);
    int  (*write)(struct file *f, uaddr buf, uint32 n);
    /* select(): would a read (write) return now without sleeping? */
    int  (*readable)(struct file *f);
    int  (*writable)(struct file *f);
    void (*close)(struct file *f);     /* last reference went away */
};

struct file {
    const struct fileops *ops;
    int ref;                           /* descriptors pointing here */
    int readable, writable;            /* opened for reading / writing */
    void *obj;                         /* the pipe, inode, ... */
    uint32 off;                        /* disk files: where the next read/write is */
};

struct file *file_alloc(const struct fileops *ops, void *obj, int readable, int writable);
struct file *file_dup(struct file *f);
void  file_close(struct file *f);
int   fd_alloc(struct file *f);        /* lowest free descriptor, or -EMFILE */
struct file *fd_get(int fd);           /* 0 if fd is not open */

/* pipe.c */
int   pipe_create(struct file **rd, struct file **wr);
uint32 pipes_in_use(void);             /* FSCTL_TABLES */
uint32 files_in_use(void);             /* file.c, FSCTL_TABLES */

/* select.c: wake processes sleeping in select() when some file might have
 * become ready.  Every pipe operation calls this, so it costs nothing
 * unless someone is actually waiting in select. */
extern int select_chan, select_sleepers;
static inline void select_wakeup(void)
{
    if (select_sleepers)
        wakeup(&select_chan);
}

#endif
