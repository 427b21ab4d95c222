/*
 * Where exec reads a program from: a file's inode, opened by exec_open()
 * and closed by exec_close() (sysfile.c).  exec itself only ever calls
 * read(), so it does not care what is behind it.
 */
#ifndef EXEC_H
#define EXEC_H

#include "types.h"

struct exec_source {
    /* Copy n bytes at offset off into dst; 0, or -ENOEXEC past the end. */
    int (*read)(struct exec_source *src, void *dst, uint32 off, uint32 n);
    const void *obj;                  /* the image, inode, ... */
    uint32 size;
};

int  exec_open(const char *path, struct exec_source *src);   /* 0 or -errno */
void exec_close(struct exec_source *src);

#endif
