/*
 * Where exec reads a program from.  Today: an ELF image linked into the
 * kernel (progs_table.c).  With a file system: an inode.  exec itself only
 * ever calls read(), so it does not care which.
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

#endif
