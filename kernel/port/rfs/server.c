/*
 * The server: this machine's own file system (its buffer cache and RAM
 * disk), served to clients by NSERVERS kernel processes ("rfsd", as NFS's
 * nfsd), each taking the next call from the endpoint on RPC_PORT.
 *
 * The two protocols (rfs.h) differ here in three ways:
 *
 *   - the write policy of the server's own file system, set when a client
 *     mounts: nfs runs it under `sync` (metadata on the disk before the
 *     call returns) and writes a file's data and inode to the disk before
 *     it answers a write (fsync_inode): RFC 1094's rule that a reply means
 *     the data is safe; sprite runs it under `delayed`, so the server too
 *     keeps changes in its cache for 30 s;
 *   - what a version is: nfs counts every change of a file (its
 *     modification time), sprite counts the opens for writing by a client
 *     other than the last writer (Sprite's version number: a client's cache
 *     of the file is good while it matches);
 *   - sprite's opens and closes are calls, and the server keeps per-file
 *     state: which client has it open for reading and for writing, and
 *     which wrote it last (and may hold dirty blocks of it).  An open by
 *     another client first recalls those blocks (CB_RECALL); an open that
 *     makes a file write-shared between clients turns their caching of it
 *     off (CB_NOCACHE) until every client has closed it.
 *
 * Non-idempotent calls (create, remove, mkdir, rmdir, setattr, open,
 * close) are answered from the duplicate-request cache when they come
 * again (rpc.c); the others are done again, which gives the same answer.
 *
 * A crash (struct rfsserve's crash_after, crash_writes): after that many
 * calls, or WRITE calls, the
 * server loses what a machine loses when its power fails (the buffer
 * cache's dirty blocks, its in-memory inodes, every call in progress, the
 * duplicate cache, Sprite's state, the versions) and keeps its disk; it
 * hears nothing for down_ms, then comes back with a new epoch after an
 * fsck -y, as a rebooted server would.  Clients see the new epoch in
 * every reply.
 */
#include "rfs.h"
#include "../proc.h"
#include "../buf.h"
#include "../fs.h"

#define NSERVERS     4                /* serving processes                  */
#define NCLIENTS     4                /* sprite: clients with state         */
#define NSFILES    128                /* sprite: files with state           */
#define NDUP        32                /* the duplicate cache's replies      */
#define NVPAGES      8                /* versions: 1024 inodes a page       */

struct rfsstat rfsstat;

static struct rpc_ep srv;
static int started;
static struct rfsserve conf;
static uint32 served, writes, busy; /* calls and writes served; processes serving now */
static int crash_pending;
static uint32 epoch = 1;
static int down_chan;

/* ---------------------------------------------------------------- versions */

static uint32 *vpage[NVPAGES];
static uint32 vclock;

static uint32 *vslot(uint32 inum)
{
    uint32 p = inum / (PGSIZE / 4);
    return p < NVPAGES && vpage[p] ? &vpage[p][inum % (PGSIZE / 4)] : 0;
}

static uint32 version(uint32 inum)
{
    uint32 *v = vslot(inum);
    return v && *v ? *v : epoch << 24;       /* untouched since the boot */
}

static void vbump(uint32 inum)
{
    uint32 *v = vslot(inum);
    if (v)
        *v = ++vclock;
}

static void versions_reset(void)
{
    for (int p = 0; p < NVPAGES; p++)
        if (vpage[p])
            memset(vpage[p], 0, PGSIZE);
    vclock = epoch << 24;
}

/* ---------------------------------------------------------------- attributes */

void rattr_put(struct rmsg *m, const struct rattr *a)
{
    rmsg_put32(m, a->fh);
    rmsg_put32(m, a->type);
    rmsg_put32(m, a->nlink);
    rmsg_put32(m, a->size);
    rmsg_put32(m, a->version);
}

void rattr_get(struct rmsg *m, struct rattr *a)
{
    a->fh = rmsg_get32(m);
    a->type = rmsg_get32(m);
    a->nlink = rmsg_get32(m);
    a->size = rmsg_get32(m);
    a->version = rmsg_get32(m);
}

static void put_attr(struct rmsg *m, struct inode *ip)     /* ip locked */
{
    struct rattr a = { ip->inum, ip->type, ip->nlink, ip->size, version(ip->inum) };
    rattr_put(m, &a);
}

/* ---------------------------------------------------------------- handles */

/* The inode a handle names, referenced and locked; ESTALE if it is free
 * (removed: the client's handle outlived the file). */
static int fh_inode(uint32 fh, struct inode **ipp)
{
    if (fh == 0 || fh >= sb.ninodes)
        return -ESTALE;
    struct buf *b = bread(IBLOCK(fh, sb));
    uint32 type = ((const struct dinode *)b->data + fh % IPB)->type;
    brelse(b);
    if (type == T_FREE)
        return -ESTALE;
    struct inode *ip = iget(fh);
    if (!ip)
        return -ENFILE;
    ilock(ip);
    *ipp = ip;
    return 0;
}

/* The serving process works in a directory as a process would: its cwd,
 * for the call's duration, so that the file layer's path operations
 * (namei, fs_create, fs_remove) serve it unchanged. */
static void set_cwd(struct inode *dp)
{
    if (curproc->cwd)
        iput(curproc->cwd);
    curproc->cwd = dp ? idup(dp) : 0;
}

/* "where": the directory (referenced, not locked) and the last name.
 * nfs: a directory handle and one name; sprite: a handle to start from
 * and a path, walked here. */
static int where(struct rmsg *m, uint32 prog, struct inode **dpp, char *name)
{
    char buf[MAXPATH];
    uint32 fh = rmsg_get32(m);
    int r = rmsg_getstr(m, buf, sizeof buf);
    if (r < 0)
        return r;
    const char *path = buf;
    if (prog == RFS_PROG_NFS && (strlen(path) >= DIRSIZ || !path[0]))
        return strlen(path) >= DIRSIZ ? -ENAMETOOLONG : -ENOENT;
    for (const char *s = path; prog == RFS_PROG_NFS && *s; s++)
        if (*s == '/')
            return -EINVAL;                   /* one name, not a path */
    while (*path == '/')
        path++;                               /* sprite: from the start, always */
    struct inode *start;
    if ((r = fh_inode(fh, &start)) < 0)
        return r;
    int isdir = start->type == T_DIR;
    iunlock(start);
    if (!isdir) {
        iput(start);
        return -ENOTDIR;
    }
    set_cwd(start);
    iput(start);
    r = *path ? nameiparent(path, name, dpp) : -EINVAL;
    if (r == -EINVAL) {                       /* the start itself: "", "/" */
        *dpp = idup(curproc->cwd);
        strncpy_safe(name, ".", DIRSIZ);
        r = 0;
    }
    if (r == 0)
        set_cwd(*dpp);
    return r;
}

/* ---------------------------------------------------------------- sprite's state */

struct sclient {
    uint32 addr, port;               /* 0: a free slot                     */
};

struct sfile {
    uint32 inum;                     /* 0: a free slot                     */
    uint8 readers[NCLIENTS], writers[NCLIENTS];
    int last_writer;                 /* may hold dirty blocks; -1: none    */
    int cacheable;
};

static struct sclient clients[NCLIENTS];
static struct sfile *sfiles;         /* NSFILES of them: a page           */
_Static_assert(NSFILES * sizeof(struct sfile) <= PGSIZE, "a page of sprite file state");

static int client_of(struct rpc_in *in)
{
    int free = -1;
    for (int c = 0; c < NCLIENTS; c++) {
        if (clients[c].addr == in->addr && clients[c].port == in->port)
            return c;
        if (!clients[c].addr && free < 0)
            free = c;
    }
    if (free >= 0) {
        clients[free].addr = in->addr;
        clients[free].port = in->port;
    }
    return free;
}

static struct sfile *sfile_of(uint32 inum, int make)
{
    struct sfile *spare = 0;
    for (struct sfile *s = sfiles; s < sfiles + NSFILES; s++) {
        if (s->inum == inum)
            return s;
        if (!s->inum && !spare)
            spare = s;
    }
    if (!make || !spare)
        return 0;
    memset(spare, 0, sizeof *spare);
    spare->inum = inum;
    spare->last_writer = -1;
    spare->cacheable = 1;
    return spare;
}

static int opens(struct sfile *s, int c)
{
    return s->readers[c] + s->writers[c];
}

/* Forget a file with nobody's opens and no writer to recall from. */
static void sfile_tidy(struct sfile *s)
{
    for (int c = 0; c < NCLIENTS; c++)
        if (opens(s, c))
            return;
    s->cacheable = 1;
    if (s->last_writer < 0)
        s->inum = 0;
}

struct cbargs {
    uint32 proc, fh;
};

static void cb_encode(struct rmsg *m, void *arg)
{
    struct cbargs *a = arg;
    rmsg_put32(m, RFS_PROG_CALLBACK);
    rmsg_put32(m, a->proc);
    rmsg_put32(m, a->fh);
}

/* Call client c back about file fh and wait for its answer (it writes its
 * blocks back to us meanwhile, through the other serving processes). */
static void callback(int c, uint32 proc, uint32 fh)
{
    struct cbargs a = { proc, fh };
    struct rmsg reply;
    int status;
    uint32 ep;
    if (rpc_call(&srv, clients[c].addr, clients[c].port, cb_encode, &a, &reply, &status,
                 &ep) == 0)
        rmsg_free(&reply);
    if (proc == CB_RECALL)
        rfsstat.srv_recalls++;
    else
        rfsstat.srv_nocache++;
}

/* An open of inum by client c (RO_READ, RO_WRITE): recall, version,
 * write-sharing, counts.  Called with the inode unlocked: the callbacks
 * wait for the client's writes, which lock it.  Returns cacheable. */
static int sprite_open(int c, uint32 inum, int flags)
{
    struct sfile *s = sfile_of(inum, 1);
    if (!s || c < 0)
        return 0;                    /* no room for state: never cached   */
    if (s->last_writer >= 0 && s->last_writer != c) {
        int w = s->last_writer;      /* sequential write-sharing          */
        s->last_writer = -1;
        callback(w, CB_RECALL, inum);
    }
    int writing = (flags & RO_WRITE) != 0;
    if (writing && s->last_writer != c)
        vbump(inum);                 /* another writer: caches are stale  */
    int shared = 0;
    for (int o = 0; o < NCLIENTS; o++)
        if (o != c && opens(s, o) && (writing || s->writers[o]))
            shared = 1;
    if (shared && s->cacheable) {    /* concurrent write-sharing          */
        s->cacheable = 0;
        for (int o = 0; o < NCLIENTS; o++)
            if (o != c && opens(s, o))
                callback(o, CB_NOCACHE, inum);
    }
    s->readers[c] += (flags & RO_READ) != 0;
    s->writers[c] += writing;
    if (writing)
        s->last_writer = c;
    return s->cacheable;
}

/* ---------------------------------------------------------------- the calls */

/* Each writes its results after the reply's status and epoch and returns
 * 0, or returns -errno (the reply is then the status alone). */

static int do_getattr(struct rmsg *m, struct rmsg *r)
{
    struct inode *ip;
    int e = fh_inode(rmsg_get32(m), &ip);
    if (e < 0)
        return e;
    put_attr(r, ip);
    iunlockput(ip);
    return 0;
}

static int do_setattr(struct rmsg *m, struct rmsg *r)
{
    struct inode *ip;
    uint32 fh = rmsg_get32(m), size = rmsg_get32(m);
    if (size != 0)
        return -EINVAL;              /* truncation is all a client asks */
    int e = fh_inode(fh, &ip);
    if (e < 0)
        return e;
    if (ip->type == T_DIR) {
        iunlockput(ip);
        return -EISDIR;
    }
    if (ip->size > 0) {
        itrunc(ip, W_META);
        vbump(ip->inum);
    }
    put_attr(r, ip);
    iunlockput(ip);
    return 0;
}

static int do_lookup(uint32 prog, struct rmsg *m, struct rmsg *r)
{
    char name[DIRSIZ];
    struct inode *dp, *ip;
    int e = where(m, prog, &dp, name);
    if (e < 0)
        return e;
    iput(dp);
    if ((e = namei(name, &ip)) < 0)
        return e;
    ilock(ip);
    put_attr(r, ip);
    iunlockput(ip);
    return 0;
}

static int do_read(struct rmsg *m, struct rmsg *r)
{
    struct inode *ip;
    uint32 fh = rmsg_get32(m), off = rmsg_get32(m), n = rmsg_get32(m);
    if (n > RFS_MAXDATA)
        return -EINVAL;
    int e = fh_inode(fh, &ip);
    if (e < 0)
        return e;
    if (ip->type == T_DIR) {
        iunlockput(ip);
        return -EISDIR;
    }
    if (off >= ip->size)
        n = 0;
    else if (n > ip->size - off)
        n = ip->size - off;
    put_attr(r, ip);
    rmsg_put32(r, n);
    /* Straight from the buffer cache into the reply, a block at a time. */
    for (uint32 done = 0; done < n && !r->error;) {
        uint32 o = (off + done) % BSIZE, k = BSIZE - o < n - done ? BSIZE - o : n - done;
        uint32 bno = iblock(ip, (off + done) / BSIZE);
        if (bno) {
            struct buf *b = bread(bno);
            rmsg_put(r, 0, (uintptr)b->data + o, k);
            brelse(b);
        } else {
            for (uint32 i = 0; i < k; i++)          /* a hole */
                rmsg_put(r, 0, (uintptr)"", 1);
        }
        done += k;
    }
    iunlockput(ip);
    return 0;
}

static int do_write(uint32 prog, struct rmsg *m, struct rmsg *r)
{
    struct inode *ip;
    uint32 fh = rmsg_get32(m), off = rmsg_get32(m), n = rmsg_get32(m);
    if (n > RFS_MAXDATA || m->error || n > m->len - m->pos)
        return -EINVAL;
    int e = fh_inode(fh, &ip);
    if (e < 0)
        return e;
    if (ip->type == T_DIR) {
        iunlockput(ip);
        return -EISDIR;
    }
    uint32 before = version(ip->inum);
    /* From the call's fragments into the file, a fragment's piece at a time. */
    for (uint32 done = 0; done < n;) {
        uint32 o = m->pos % RPC_FRAG_DATA;
        uint32 k = RPC_FRAG_DATA - o < n - done ? RPC_FRAG_DATA - o : n - done;
        const uint8 *src = m->frag[m->pos / RPC_FRAG_DATA]->data + RPC_FRAG_HDR + o;
        int w = writei(ip, 0, (uintptr)src, off + done, k, W_DATA);
        if (w != (int)k) {
            iunlockput(ip);
            return w < 0 ? w : -ENOSPC;
        }
        m->pos += k;
        done += k;
    }
    if (prog == RFS_PROG_NFS) {
        fsync_inode(ip);             /* on the disk before we say so */
        vbump(ip->inum);
    }
    rmsg_put32(r, before);
    put_attr(r, ip);
    iunlockput(ip);
    return 0;
}

static void put_dir_versions(struct rmsg *r, uint32 dir, uint32 before)
{
    rmsg_put32(r, before);
    rmsg_put32(r, version(dir));
}

/* create (T_FILE, with trunc) and mkdir (T_DIR) */
static int do_create(uint32 prog, struct rmsg *m, struct rmsg *r, uint16 type)
{
    char name[DIRSIZ];
    struct inode *dp, *ip;
    int e = where(m, prog, &dp, name);
    int trunc = type == T_FILE ? rmsg_get32(m) : 0;
    if (e < 0)
        return e;
    uint32 dir = dp->inum, before = version(dir);
    iput(dp);
    if ((e = fs_create(name, type, &ip)) < 0)
        return e;
    if (e == 1)
        vbump(dir);                  /* a new entry: the directory changed */
    if (ip->type != type) {
        iunlockput(ip);
        return -EISDIR;
    }
    if (trunc && ip->size > 0) {
        itrunc(ip, W_META);
        vbump(ip->inum);
    }
    put_attr(r, ip);
    put_dir_versions(r, dir, before);
    iunlockput(ip);
    return 0;
}

/* remove and rmdir */
static int do_remove(uint32 prog, struct rmsg *m, struct rmsg *r, int isdir)
{
    char name[DIRSIZ];
    struct inode *dp;
    int e = where(m, prog, &dp, name);
    if (e < 0)
        return e;
    uint32 dir = dp->inum, before = version(dir);
    ilock(dp);
    uint32 inum = dirlookup(dp, name, 0);
    iunlockput(dp);
    if ((e = fs_remove(name, isdir)) < 0)
        return e;
    vbump(dir);
    struct sfile *s = sfiles ? sfile_of(inum, 0) : 0;
    if (s)
        s->inum = 0;                 /* (its last name: handles go stale) */
    rmsg_put32(r, inum);
    put_dir_versions(r, dir, before);
    return 0;
}

static int do_readdir(struct rmsg *m, struct rmsg *r)
{
    struct inode *ip;
    uint32 fh = rmsg_get32(m), cookie = rmsg_get32(m), max = rmsg_get32(m);
    int e = fh_inode(fh, &ip);
    if (e < 0)
        return e;
    if (ip->type != T_DIR) {
        iunlockput(ip);
        return -ENOTDIR;
    }
    if (max > RFS_READDIR_MAX)
        max = RFS_READDIR_MAX;
    /* NFS's list: each entry after a 1, a 0 after the last. */
    struct dirent_disk d;
    char name[DIRSIZ];
    uint32 n = 0, off = cookie;
    while (n < max && readi(ip, 0, (uintptr)&d, off, sizeof d) == sizeof d) {
        off += sizeof d;
        if (!d.inum)
            continue;
        memcpy(name, d.name, DIRSIZ);
        name[DIRSIZ - 1] = 0;
        rmsg_put32(r, 1);
        rmsg_put32(r, d.inum);
        rmsg_putstr(r, name);
        n++;
    }
    rmsg_put32(r, 0);
    rmsg_put32(r, off);
    rmsg_put32(r, off >= ip->size);
    iunlockput(ip);
    return 0;
}

static int do_mount(struct rmsg *m, struct rmsg *r)
{
    uint32 want = rmsg_get32(m);
    if (want != RFS_NFS && want != RFS_SPRITE)
        return -EINVAL;
    /* The server's own write policy (sysfile.c's set_conf does the same:
     * every policy starts with a clean cache). */
    int policy = want == RFS_NFS ? POLICY_SYNC : POLICY_DELAYED;
    if (fs_policy != policy) {
        bsync();
        fs_policy = policy;
    }
    struct inode *ip;
    int e = fh_inode(ROOTINO, &ip);
    if (e < 0)
        return e;
    put_attr(r, ip);
    iunlockput(ip);
    return 0;
}

static int do_stats(struct rmsg *r)
{
    rmsg_put32(r, kstats.dev_reads);
    rmsg_put32(r, kstats.dev_writes);
    rmsg_put32(r, rfsstat.srv_sync_writes);
    rmsg_put32(r, rfsstat.srv_calls);
    rmsg_put32(r, rfsstat.srv_dup_replays);
    return 0;
}

static int do_open(struct rpc_in *in, struct rmsg *m, struct rmsg *r)
{
    char name[DIRSIZ];
    struct inode *dp, *ip;
    int e = where(m, RFS_PROG_SPRITE, &dp, name);
    uint32 flags = rmsg_get32(m);
    if (e < 0)
        return e;
    uint32 dir = dp->inum;
    iput(dp);
    if (flags & RO_CREATE) {
        if ((e = fs_create(name, T_FILE, &ip)) < 0)
            return e;
        if (e == 1)
            vbump(dir);
    } else {
        if ((e = namei(name, &ip)) < 0)
            return e;
        ilock(ip);
    }
    if (ip->type == T_DIR && (flags & RO_WRITE)) {
        iunlockput(ip);
        return -EISDIR;
    }
    uint32 inum = ip->inum;
    iunlock(ip);
    int cacheable = ip->type == T_DIR ? 0 : sprite_open(client_of(in), inum, flags);
    ilock(ip);
    if (ip->type == T_FREE) {        /* removed while we called back */
        iunlockput(ip);
        return -ESTALE;
    }
    if ((flags & RO_TRUNC) && (flags & RO_WRITE) && ip->size > 0)
        itrunc(ip, W_META);
    put_attr(r, ip);
    rmsg_put32(r, cacheable);
    iunlockput(ip);
    return 0;
}

static int do_close(struct rpc_in *in, struct rmsg *m)
{
    uint32 fh = rmsg_get32(m), flags = rmsg_get32(m);
    int c = client_of(in);
    struct sfile *s = sfile_of(fh, 0);
    if (!s || c < 0)
        return 0;                    /* nothing known: nothing to undo */
    if ((flags & RO_READ) && s->readers[c])
        s->readers[c]--;
    if ((flags & RO_WRITE) && s->writers[c])
        s->writers[c]--;
    sfile_tidy(s);
    return 0;
}

/* After a crash the server knows nothing of a client's opens: the client
 * tells it again, file by file (Sprite's recovery). */
static int do_reopen(struct rpc_in *in, struct rmsg *m, struct rmsg *r)
{
    struct inode *ip;
    uint32 fh = rmsg_get32(m), readers = rmsg_get32(m), writers = rmsg_get32(m);
    uint32 dirty = rmsg_get32(m);
    int e = fh_inode(fh, &ip);
    if (e < 0)
        return e;
    int c = client_of(in);
    struct sfile *s = sfile_of(fh, 1);
    int cacheable = 0;
    if (s && c >= 0) {
        s->readers[c] = (uint8)readers;
        s->writers[c] = (uint8)writers;
        if (dirty)
            s->last_writer = c;
        cacheable = s->cacheable;
    }
    put_attr(r, ip);
    rmsg_put32(r, cacheable);
    iunlockput(ip);
    return 0;
}

static int do_fsync(struct rmsg *m)
{
    struct inode *ip;
    int e = fh_inode(rmsg_get32(m), &ip);
    if (e < 0)
        return e;
    fsync_inode(ip);
    iunlockput(ip);
    return 0;
}

static int dispatch(struct rpc_in *in, uint32 prog, uint32 proc, struct rmsg *r)
{
    struct rmsg *m = &in->msg;
    int sprite = prog == RFS_PROG_SPRITE;
    if (prog != RFS_PROG_NFS && !sprite)
        return -EINVAL;
    switch (proc) {
    case RP_NULL:    return 0;
    case RP_MOUNT:   return do_mount(m, r);
    case RP_GETATTR: return do_getattr(m, r);
    case RP_SETATTR: return do_setattr(m, r);
    case RP_LOOKUP:  return do_lookup(prog, m, r);
    case RP_READ:    return do_read(m, r);
    case RP_WRITE:   return do_write(prog, m, r);
    case RP_CREATE:  return do_create(prog, m, r, T_FILE);
    case RP_MKDIR:   return do_create(prog, m, r, T_DIR);
    case RP_REMOVE:  return do_remove(prog, m, r, 0);
    case RP_RMDIR:   return do_remove(prog, m, r, 1);
    case RP_READDIR: return do_readdir(m, r);
    case RP_STATS:   return do_stats(r);
    case RP_FSYNC:   return do_fsync(m);
    }
    if (!sprite)
        return -EINVAL;
    switch (proc) {
    case RP_OPEN:    return do_open(in, m, r);
    case RP_CLOSE:   return do_close(in, m);
    case RP_REOPEN:  return do_reopen(in, m, r);
    }
    return -EINVAL;
}

/* The calls that must not be done twice: their replies are kept. */
static int non_idempotent(uint32 proc)
{
    return proc == RP_CREATE || proc == RP_REMOVE || proc == RP_MKDIR || proc == RP_RMDIR ||
           proc == RP_SETATTR || proc == RP_OPEN || proc == RP_CLOSE;
}

/* ---------------------------------------------------------------- a crash */


static void crash(uint32 down_ms)
{
    uint32 lost = 0;
    struct buf *b;
    srv.deaf = 1;
    while ((b = bdirty_oldest()) != 0) {
        bforget(b->blockno);         /* memory gone: never written */
        lost++;
    }
    bcache_resize(bcache_size());    /* and the rest of the cache with it */
    inodes_reload();
    rpc_forget(&srv);
    memset(clients, 0, sizeof clients);
    if (sfiles)
        memset(sfiles, 0, NSFILES * sizeof *sfiles);
    epoch++;
    versions_reset();
    rfsstat.srv_crashes++;
    rfsstat.srv_lost_blocks += lost;
    printf("rfsd: crash after %u calls: %u dirty blocks lost\n", served, lost);
    sleep_until(&down_chan, arch_time_ns() + (uint64)down_ms * 1000000);
    int problems = fs_fsck(0, 1);     /* a reboot's fsck -y */
    printf("rfsd: up again, epoch %u, fsck -y: %d problems left\n", epoch, problems);
    srv.deaf = 0;
}

/* ---------------------------------------------------------------- serving */

static void serve_one(struct rpc_in *in)
{
    uint32 prog = rmsg_get32(&in->msg), proc = rmsg_get32(&in->msg);
    if (rpc_dup_answer(&srv, in)) {
        rpc_done(&srv, in);
        return;
    }
    struct rmsg r;
    rmsg_init(&r);
    rmsg_put32(&r, 0);
    rmsg_put32(&r, epoch);
    uint32 dev_writes = kstats.dev_writes;
    int e = in->msg.error ? -EBADMSG : dispatch(in, prog, proc, &r);
    set_cwd(0);
    if (e == 0 && in->msg.error)
        e = -EBADMSG;
    rfsstat.srv_sync_writes += kstats.dev_writes - dev_writes;
    if (e < 0) {                     /* the status alone */
        rmsg_free(&r);
        rmsg_init(&r);
        rmsg_put32(&r, (uint32)-e);
        rmsg_put32(&r, epoch);
    }
    rfsstat.srv_calls++;
    writes += proc == RP_WRITE;
    rpc_reply(&srv, in, &r, non_idempotent(proc));
}

static void server_main(void)
{
    for (;;) {
        struct rpc_in *in = rpc_next(&srv);
        busy++;
        serve_one(in);
        busy--;
        served++;
        if (conf.crash_after && served == conf.crash_after)
            crash_pending = 1;
        if (conf.crash_writes && writes == conf.crash_writes) {
            conf.crash_writes = 0;          /* once */
            crash_pending = 1;
        }
        if (crash_pending && busy == 0) {   /* the others wait for calls */
            crash_pending = 0;
            crash(conf.down_ms);
        }
    }
}

/* A crash now, from a process on the server's machine (its console):
 * between calls, never in the middle of one. */
int rfs_crash(uint32 down_ms)
{
    if (!started)
        return -ENOTCONN;
    if (busy)
        return -EBUSY;
    crash(down_ms);
    return 0;
}

int rfs_serve(const struct rfsserve *c)
{
    if (started)
        return -EBUSY;
    int r = rpc_ep_open(&srv, RPC_PORT, 1, NDUP, &rfsstat);
    if (r < 0)
        return r;
    if (!(sfiles = kalloc()))
        return -ENOMEM;
    for (uint32 p = 0; p < NVPAGES && p * (PGSIZE / 4) < sb.ninodes; p++)
        if (!(vpage[p] = kalloc()))
            return -ENOMEM;
    versions_reset();
    conf = *c;
    for (int i = 0; i < NSERVERS; i++)
        if (!kproc_create("rfsd", server_main))
            return -EAGAIN;
    started = 1;
    return 0;
}
