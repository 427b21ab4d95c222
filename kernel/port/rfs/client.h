/*
 * The client's own structures, shared by client.c (mounts, remote nodes,
 * names, the system calls' side) and cache.c (file blocks).
 *
 * A remote node (struct rnode) is what a client knows of one file on one
 * mount: its handle, its attributes and when they came, and its blocks in
 * the cache.  Open files, current directories and calls in progress hold
 * references; a node nobody holds stays in the table for its attributes
 * and blocks until its slot is wanted for another.
 */
#ifndef RFS_CLIENT_H
#define RFS_CLIENT_H

#include "rfs.h"

#define NMOUNTS        2
#define MOUNT_PATH    64

struct rmount {
    int used;
    int proto;                   /* RFS_NFS or RFS_SPRITE                  */
    uint32 addr;                 /* the server                             */
    char path[MOUNT_PATH];       /* where: "/" or "/dir" (no slash at the end) */
    uint32 pathlen;
    struct rpc_ep ep;            /* our port: calls out, callbacks in      */
    struct rnode *root;
    uint32 epoch;                /* the server's boot, as last seen        */
    int recovering;              /* sprite: reopening after a server crash */
};

struct rblock;

struct rnode {
    struct rmount *mnt;          /* 0: a free slot                         */
    uint32 fh;
    int ref;
    int busy, wanted;            /* a sleep-lock over its blocks           */
    int gone;                    /* stale: out of the table, freed when unheld */
    struct rattr a;              /* attributes; a.size counts what we wrote */
    uint64 attr_time;            /* when a came from the server            */
    uint32 ncgen;                /* nfs: its name-cache entries' generation */
    uint32 used;                 /* when last referenced (a clock), for reuse */
    int cacheable;               /* sprite: the server lets us cache it    */
    int stale_data;              /* a change not ours was seen: its clean
                                  * blocks go at their next use           */
    int readers, writers;        /* sprite: our opens, for a reopen        */
    uint32 nblocks, ndirty;      /* its blocks in the cache                */
    struct rblock *blocks;       /* ... linked through rblock.fnext        */
    struct rnode *hnext;         /* hash chain                             */
};

/* client.c, for cache.c */
struct cargs {                   /* one call's arguments, for call()       */
    uint32 prog;                 /* set by call(): the mount's protocol's  */
    uint32 proc;
    uint32 w[5];                 /* words; with a name, w[0] comes first    */
    int nw;
    const char *name;            /* a name or path after w[0], or 0        */
    void (*data)(struct rmsg *m, void *arg);   /* then data (WRITE), or 0  */
    void *data_arg;
};
int  call(struct rmount *m, struct cargs *a, struct rmsg *reply);   /* 0 or -errno */
void attr_update(struct rnode *rn, const struct rattr *a, int ours, uint32 before);
void rnode_lock(struct rnode *rn);
void rnode_unlock(struct rnode *rn);
void rnode_stale(struct rnode *rn);      /* the server's file is gone   */

/* cache.c */
int  cache_init(void);                   /* 0 or -ENOMEM (once)          */
int  cache_read(struct rnode *rn, int user, uintptr dst, uint32 off, uint32 n);
int  cache_write(struct rnode *rn, int user, uintptr src, uint32 off, uint32 n);
int  cache_flush(struct rnode *rn);      /* write its dirty blocks back  */
void cache_invalidate(struct rnode *rn, int dirty_too);  /* rn locked    */
void cache_sync(void);                   /* every dirty block, now       */
void cache_flusher_start(void);

#endif
