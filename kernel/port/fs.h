/*
 * The file system in memory: inodes (inode.c), the free bitmap (fs.c),
 * directories and path names (dir.c).  The layout on the disk is in
 * fsformat.h.
 *
 * An in-memory inode is a reference-counted copy of a disk inode.  iget()
 * finds or makes one and counts a reference; iput() drops it (and frees the
 * inode on the disk when the last reference to an unlinked inode goes).
 * Its fields may be used only while it is locked: ilock() is a sleep-lock
 * that also reads the disk inode the first time.  Functions that change an
 * inode take the class of the change (W_META or W_DATA, buf.h), which the
 * write policy uses to decide when the change reaches the disk.
 *
 * Errors are returned as -errno, never by a panic; a panic here means the
 * file system on the disk is corrupt.
 */
#ifndef FS_H
#define FS_H

#include "kernel.h"
#include "fsformat.h"

struct inode {
    uint32 inum;
    int ref;                       /* references held (files, cwd, lookups) */
    int busy;                      /* locked (sleep-lock)                   */
    int wanted;                    /* someone sleeps until it is unlocked   */
    int valid;                     /* the copy below has been read          */
    uint16 type, nlink;            /* copy of the disk inode                */
    uint32 size;
    uint32 addrs[NADDRS];
};

/* fs.c: the superblock and the free-block bitmap. */
extern struct superblock sb;
void   fs_init(void);
int    balloc(uint32 *blockno);           /* 0 or -ENOSPC; the bitmap change is pending */
void   bfree(uint32 blockno);             /* ... likewise */
int    bitmap_commit(int wclass, uint32 inum);   /* write the pending bitmap changes */
void   bitmap_flush(int wclass);          /* sync: dirty bitmap before an inode block */

/* inode.c */
struct inode *iget(uint32 inum);          /* 0 if the inode table is full */
struct inode *idup(struct inode *ip);
void   ilock(struct inode *ip);
void   iunlock(struct inode *ip);
void   iput(struct inode *ip);
void   iunlockput(struct inode *ip);
int    ialloc(uint16 type, uint16 nlink, struct inode **ipp);  /* locked, or -errno */
void   iupdate(struct inode *ip, int wclass);
void   inodes_reload(void);                  /* fsck -y changed the disk's inodes */
uint32 inodes_held(uint32 *locked);         /* FSCTL_TABLES: entries with ref > 0, and locked */
void   itrunc(struct inode *ip, int wclass);   /* free its blocks; writes the inode first */
uint32 iblock(struct inode *ip, uint32 fileblock);   /* 0: a hole */
int    readi(struct inode *ip, int user, uintptr dst, uint32 off, uint32 n);
int    writei(struct inode *ip, int user, uintptr src, uint32 off, uint32 n, int wclass);
void   fsync_inode(struct inode *ip);

/* dir.c */
int    dirlookup(struct inode *dp, const char *name, uint32 *off);  /* inum or 0 */
int    dirlink(struct inode *dp, const char *name, uint32 inum);
int    dir_isempty(struct inode *dp);
int    namei(const char *path, struct inode **ipp);
int    nameiparent(const char *path, char *name, struct inode **dpp);

/* sysfile.c: what the system calls do with a kernel path, for the remote
 * file server too (rfs/server.c) */
int    fs_create(const char *path, uint16 type, struct inode **ipp);  /* locked; 1: made */
int    fs_remove(const char *path, int dir);
int    fs_fsck(uaddr uinfo, int repair);      /* problems (left); uinfo may be 0 */

#endif
