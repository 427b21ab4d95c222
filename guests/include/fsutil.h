/*
 * File-system helpers for guest programs (guests/lib/fsutil.c).
 */
#ifndef FSUTIL_H
#define FSUTIL_H

#include "user.h"

/* Write policies by name: "sync", "delayed", "writethrough". */
const char *policy_name(int policy);
int policy_by_name(const char *name);          /* -1 if unknown */
const char *pages_name(int pages);             /* a PAGES_* page-allocation policy */
int pages_by_name(const char *name);           /* -1 if unknown */
int policy_get(void);                          /* POLICY_*, or -1 */
int policy_set(int policy);                    /* 0, or -1 with errno */

/* Device traffic between two moments: io_snap(&c) ... io_since(&c) leaves
 * in c what happened in between. */
struct io_counts {
    unsigned int dev_reads, dev_writes, sync_writes, misses;
};
void io_snap(struct io_counts *c);
void io_since(struct io_counts *c);

/* Remove a file, or a directory and everything in it.  0, or -1 if
 * anything could not be removed. */
int rm_tree(const char *path);

#endif
