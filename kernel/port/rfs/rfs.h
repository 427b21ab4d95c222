/*
 * Remote files: a network file system with a server and a client, and two
 * protocols the client chooses between as the local write policies are
 * chosen (docs/remote-files.md tells the whole story).
 *
 *   nfs     after NFS version 2 (RFC 1094): a stateless server, one call per
 *           operation (a lookup per name, getattr, read, write, create,
 *           remove, mkdir, rmdir, readdir); the client caches attributes
 *           for a while, names, and blocks, and writes a file's data
 *           through to the server when it is closed; the server writes
 *           every change to its disk before it replies.
 *   sprite  after Sprite's caching file system (Nelson, Welch and
 *           Ousterhout 1988): open and close go to the server, which keeps
 *           who has each file open and who writes it; clients cache blocks
 *           and write them back 30 s after they changed, as the local
 *           `delayed` policy does, and the server writes its own delayed
 *           too; a file another client wrote is recalled from it first
 *           (sequential write-sharing), and one open for writing at two
 *           clients is not cached at all (concurrent write-sharing).
 *
 *   rpc.c      remote procedure calls over UDP (rpc.h)
 *   server.c   the server: this machine's file system, served by kernel
 *              processes, and Sprite's per-file state
 *   client.c   mounts, remote nodes, names and attributes; the system
 *              calls' side (rfs_open ... , called from sysfile.c)
 *   cache.c    the client's block cache, its write-back and its flusher
 *
 * The file handle is the server's inode number (one word: NFS's is 32
 * opaque bytes); each file also has a version, the server's count of
 * changes (it stands for NFS's modification time and for Sprite's
 * version number; the disk keeps neither, so a server that restarts
 * starts every version afresh, and its clients' caches with them).
 */
#ifndef RFS_H
#define RFS_H

#include "rpc.h"

/* Programs (Sun RPC's numbering: NFS's is 100003). */
#define RFS_PROG_NFS      100003u
#define RFS_PROG_SPRITE   0x53505254u    /* "SPRT" */
#define RFS_PROG_CALLBACK 0x53504342u    /* "SPCB": the server's calls to a client */

/* Procedures.  Where a call names a place in a directory ("where"), NFS
 * sends the directory's handle and one name; Sprite sends the handle to
 * start from and the whole rest of the path, which the server walks: one
 * call however long the name. */
enum {
    RP_NULL,
    RP_MOUNT,        /* proto                        -> attr (the root)      */
    RP_GETATTR,      /* fh                           -> attr                 */
    RP_SETATTR,      /* fh, size (0: truncate)       -> attr                 */
    RP_LOOKUP,       /* where                        -> attr                 */
    RP_READ,         /* fh, offset, count            -> attr, count, bytes   */
    RP_WRITE,        /* fh, offset, count, bytes     -> version before, attr */
    RP_CREATE,       /* where, truncate              -> attr, dir before, dir after */
    RP_REMOVE,       /* where                        -> fh, dir before, dir after */
    RP_MKDIR,        /* where                        -> attr, dir before, dir after */
    RP_RMDIR,        /* where                        -> fh, dir before, dir after */
    RP_READDIR,      /* fh, cookie, count            -> (1, inum, name) x n, 0, cookie, eof */
    RP_STATS,        /* -                            -> the server's counters */
    RP_OPEN,         /* sprite: where, RO_* flags    -> attr, cacheable      */
    RP_CLOSE,        /* sprite: fh, RO_READ|RO_WRITE -> -                    */
    RP_REOPEN,       /* sprite: fh, readers, writers, dirty -> attr, cacheable */
    RP_FSYNC,        /* fh                           -> - (on the server's disk) */
    RP_NPROC
};

/* The server's calls to a client (Sprite's consistency). */
enum {
    CB_RECALL = 1,   /* fh: write back your dirty blocks of it             */
    CB_NOCACHE = 2,  /* fh: ... and stop caching it (write-sharing)        */
};

/* RP_OPEN's flags. */
#define RO_READ    1
#define RO_WRITE   2
#define RO_CREATE  4
#define RO_TRUNC   8

#define RFS_MAXDATA   8192   /* bytes per read or write: NFS v2's largest   */
#define RFS_READDIR_MAX 32   /* entries per readdir reply (< one fragment)  */

/* Attributes: five words on the wire. */
struct rattr {
    uint32 fh, type, nlink, size, version;
};
void rattr_put(struct rmsg *m, const struct rattr *a);
void rattr_get(struct rmsg *m, struct rattr *a);

extern struct rfsstat rfsstat;

/* server.c */
int  rfs_serve(const struct rfsserve *conf);      /* FSCTL_SERVE: 0 or -errno */
int  rfs_crash(uint32 down_ms);                   /* FSCTL_RFSCRASH: 0 or -errno */

/* client.c: the file layer's seams (sysfile.c, proc.c).  A process's
 * current directory is local (cwd) or remote (rcwd, cwd then unused). */
struct rnode;
struct file;
struct exec_source;
extern int rfs_nmounts;                           /* 0: every path is local */
int  rfs_owns(const char *path);                  /* is it on a mount?      */
int  rfs_open(const char *path, int flags);       /* a descriptor, or -errno */
int  rfs_stat(const char *path, struct stat *st);
int  rfs_mkdir(const char *path);
int  rfs_remove(const char *path, int dir);
int  rfs_chdir(const char *path);
int  rfs_exec_open(const char *path, struct exec_source *src);
int  rfs_exec_source(struct exec_source *src);    /* did rfs_exec_open open it? */
void rfs_exec_close(struct exec_source *src);
int  rfs_file(struct file *f);                    /* is f a remote file?    */
int  rfs_fstat(struct file *f, struct stat *st);
int  rfs_lseek_end(struct file *f, uint32 *size);
int  rfs_readdir(struct file *f, struct dirent *de);   /* 1, 0 at the end, -errno */
int  rfs_fsync(struct file *f);
void rfs_sync(void);                              /* sync(): write back everything */
void rfs_cwd_dup(struct proc *child, struct proc *parent);
void rfs_cwd_drop(struct proc *p);
int  rfs_fsctl(uint32 op, uaddr arg);             /* FSCTL_MOUNT ... FSCTL_RFSPEER */
int  rfs_protocol(void);                          /* RFS_NONE, RFS_NFS, RFS_SPRITE */
int  rfs_set_protocol(uint32 proto);              /* every mount's (fsconf.remote) */

#endif
