/*
 * The file-system consistency checker's interface.  The same fsck.c is
 * compiled into the kernel (run by the fsctl system call, see sysfile.c) and
 * into the host tool tools/fsck, so it includes nothing but the on-disk
 * format and asks its caller for everything else: a way to read a block,
 * a way to report a problem, and scratch memory.
 *
 * The checks: the superblock is sane; every block number an inode uses lies
 * in the data area and is used once only; the free bitmap marks exactly the
 * blocks in use (a block in use but marked free would be handed out twice,
 * a block marked used but unused is lost); every inode's link count equals
 * the number of directory entries naming it; every directory has "." and
 * "..", and is reachable from the root; no entry names a free inode.
 */
#ifndef FSCK_H
#define FSCK_H

#include "fsformat.h"

struct fsck {
    /* Set by the caller. */
    int  (*read)(struct fsck *c, unsigned int blockno, void *buf);  /* 0: ok */
    void (*say)(struct fsck *c, const char *fmt, unsigned int a, unsigned int b,
                unsigned int n);           /* a problem, printf-like (%u only)  */
    /* Repair (fsck_repair) writes a block through this; NULL: check only. */
    int  (*write)(struct fsck *c, unsigned int blockno, const void *buf);   /* 0: ok */
    void *arg;                     /* for the caller's callbacks            */
    int swap;                      /* image in the other byte order (host)  */
    unsigned char *blockuse;       /* scratch: one byte per block            */
    unsigned short *links;         /* scratch: one count per inode           */
    unsigned char *istate;         /* scratch: one byte per inode            */
    unsigned int maxblocks, maxinodes;   /* how big the scratch arrays are  */

    /* Results. */
    struct superblock sb;          /* as read, in our byte order            */
    unsigned int problems;         /* inconsistencies found                 */
    unsigned int leaks;            /* of them, those that only waste space:
                                      an inode no entry names, a link count
                                      too high, a block marked used but
                                      used by nothing, a block past the end
                                      of its file                           */
    unsigned int fixed;            /* changes fsck_repair made              */
    int saying_leak;               /* set while c->say reports a leak       */
    unsigned int files, dirs;      /* allocated inodes of each type         */
    unsigned int used, free;       /* data blocks                           */

    /* Private buffers (BSIZE each): an inode block, and blocks being walked. */
    unsigned int ibuf[BSIZE / 4];
    unsigned int ibufno;
    unsigned int buf[3][BSIZE / 4];
};

/* Check the file system; returns the number of problems (also in c->problems),
 * or -1 if the superblock is unusable or the scratch arrays are too small. */
int fsck_run(struct fsck *c);

/* Check, and repair what can be repaired safely, as `fsck -y` does: clear
 * entries naming free inodes; write a missing "." or ".." into a named
 * directory's first two slots; free the inodes no entry names, and the
 * directories cut off from the tree (and so what only they held); drop
 * blocks past the end of a file; set wrong link counts to the entries
 * counted; clear free inodes that are not clear; and make the bitmap say
 * which blocks are in use.  It checks again after each round of repairs (a
 * freed directory orphans what it held), at most 64 rounds.  What it
 * cannot repair (a block used twice, a block number outside the data area,
 * a directory whose first block is gone) stays, and is in c->problems of
 * the last check.  Returns that count, or -1 as fsck_run does; c->fixed
 * counts the changes. */
int fsck_repair(struct fsck *c);

#endif
