/*
 * File-system helpers for guest programs (guests/lib/fsutil.c).
 */
#ifndef FSUTIL_H
#define FSUTIL_H

#include "user.h"

/* Write policies by name: "sync", "delayed", "writethrough", and the
 * remote file systems' protocols "nfs" and "sprite" (kernel/port/rfs/):
 * POLICY_NFS and POLICY_SPRITE here stand for fsconf.remote's RFS_NFS and
 * RFS_SPRITE, the protocol of what is mounted. */
#define POLICY_NFS    (POLICY_WRITETHROUGH + RFS_NFS)
#define POLICY_SPRITE (POLICY_WRITETHROUGH + RFS_SPRITE)
#define POLICY_IS_REMOTE(p) ((p) > POLICY_WRITETHROUGH)
const char *policy_name(int policy);
int policy_by_name(const char *name);          /* -1 if unknown */
const char *pages_name(int pages);             /* a PAGES_* page-allocation policy */
int pages_by_name(const char *name);           /* -1 if unknown */
int policy_get(void);                          /* POLICY_*: the remote protocol's if
                                                * something is mounted; or -1 */
int policy_set(int policy);                    /* 0, or -1 with errno */

/* Device traffic between two moments: io_snap(&c) ... io_since(&c) leaves
 * in c what happened in between.  With a remote file system mounted, also
 * its server's (asked by a call: FSCTL_RFSPEER) and the calls made. */
struct io_counts {
    unsigned int dev_reads, dev_writes, sync_writes, misses;
    unsigned int srv_reads, srv_writes, srv_sync_writes;   /* the server's */
    unsigned int rpcs, retrans;                            /* ours to it */
};
void io_snap(struct io_counts *c);
void io_since(struct io_counts *c);
/* The RESULT line's fields for the disk traffic under a policy: the
 * local disk's, or for nfs and sprite the server's (dev_writes= ...)
 * with the calls and this machine's own writes (local_writes=). */
void io_fields(char *buf, int size, int policy, const struct io_counts *c);

/* Remove a file, or a directory and everything in it.  0, or -1 if
 * anything could not be removed. */
int rm_tree(const char *path);

#endif
