/*
 * The client: mounts, remote nodes, names and attributes, and the system
 * calls' side of remote files (sysfile.c asks rfs_owns() of each path).
 *
 * A path on a mount (absolute, under its path), or relative to a remote
 * current directory, is looked up:
 *
 *   nfs     here, a name at a time from the mount's root or the current
 *           directory: each name is looked for in the name cache first,
 *           whose entries hold while their directory's attributes do
 *           (fetched again after 30 s: SunOS's acdirmin), and asked of the
 *           server (LOOKUP) if not there.  A file's attributes are kept
 *           for 3 s (acregmin); every open fetches them again (GETATTR),
 *           so that a file another client changed is read afresh ("close-
 *           to-open" consistency).  Closing a file written writes its
 *           dirty blocks through to the server before close returns.
 *   sprite  by the server: OPEN, stat (LOOKUP), mkdir, remove and rmdir
 *           send the handle to start from and the rest of the path, one
 *           call each.  OPEN's reply says whether we may cache the file,
 *           and its version tells us whether what we cached still holds.
 *           CLOSE tells the server; dirty blocks stay here for the
 *           flusher (cache.c).
 *
 * A mount at "/" makes a diskless client: every process whose current
 * directory was the local root moves to the server's root, and from then
 * on every absolute path (every program exec runs, every file) is the
 * server's; the local RAM disk is not used again (docs/remote-files.md:
 * why the client boots from its own disk and then mounts).  Names are not
 * followed across mounts: ".." at a mount's root is that root, as on the
 * server.
 *
 * After a server crash (a new epoch in a reply) a sprite client reopens
 * every file it has open or dirty (REOPEN), which rebuilds the server's
 * state; an nfs client has nothing to tell.
 */
#include "client.h"
#include "../proc.h"
#include "../file.h"
#include "../buf.h"
#include "../fs.h"
#include "../exec.h"

#define NRNODE_PAGES  12                   /* remote nodes: 12 pages' worth */
#define NNC_PAGES      2                   /* the name cache                */
#define ATTR_FILE_NS  3000000000ull        /* nfs: attributes kept (acregmin) */
#define ATTR_DIR_NS  30000000000ull        /* ... of a directory (acdirmin) */
#define NFILES_RFS   NFILE                 /* remote open files             */

int rfs_nmounts;
static struct rmount mounts[NMOUNTS];

/* ---------------------------------------------------------------- calls */

static void recover(struct rmount *m);

static void encode(struct rmsg *m, void *arg)
{
    struct cargs *a = arg;
    rmsg_put32(m, a->prog);
    rmsg_put32(m, a->proc);
    for (int i = 0; i < a->nw; i++) {
        rmsg_put32(m, a->w[i]);
        if (i == 0 && a->name)
            rmsg_putstr(m, a->name);
    }
    if (a->data)
        a->data(m, a->data_arg);
}

/* Call the mount's server; 0 with the results in *reply (positioned after
 * the status: the caller reads them and frees it), or -errno. */
int call(struct rmount *m, struct cargs *a, struct rmsg *reply)
{
    a->prog = m->proto == RFS_NFS ? RFS_PROG_NFS : RFS_PROG_SPRITE;
    int status;
    uint32 epoch;
    int r = rpc_call(&m->ep, m->addr, RPC_PORT, encode, a, reply, &status, &epoch);
    if (r < 0)
        return r;
    if (epoch != m->epoch) {
        int first = m->epoch == 0;
        m->epoch = epoch;
        if (!first && m->proto == RFS_SPRITE && !m->recovering)
            recover(m);
    }
    if (status) {
        rmsg_free(reply);
        return -status;
    }
    return 0;
}

/* ---------------------------------------------------------------- nodes */

static struct rnode *rnode_pages[NRNODE_PAGES];
#define RNODES_PER_PAGE (PGSIZE / sizeof(struct rnode))
#define NRNODES (NRNODE_PAGES * RNODES_PER_PAGE)
static struct rnode *rhash[64];
static uint32 use_clock, nc_clock;

/* The i-th slot of the table (i < NRNODES).  Only under a mount: a
 * mount has every page (nodes_init), so there is no null path here (one
 * the compiler must guard, with a call to abort() on the VAX). */
static struct rnode *rnode_at(uint32 i)
{
    return rnode_pages[i / RNODES_PER_PAGE] + i % RNODES_PER_PAGE;
}

static struct rnode **rbucket(struct rmount *m, uint32 fh)
{
    return &rhash[(fh + (uint32)(m - mounts) * 17) & 63];
}

/* Every page of the table, or ENOMEM; the pages of a failed try are kept
 * for the next (a mount fails, and no page may be left missing under one). */
static int nodes_init(void)
{
    for (int p = 0; p < NRNODE_PAGES; p++)
        if (!rnode_pages[p] && !(rnode_pages[p] = kalloc()))
            return -ENOMEM;
    return 0;
}

static struct rnode *rnode_find(struct rmount *m, uint32 fh)
{
    for (struct rnode *rn = *rbucket(m, fh); rn; rn = rn->hnext)
        if (rn->mnt == m && rn->fh == fh)
            return rn;
    return 0;
}

static void unhash(struct rnode *rn)
{
    for (struct rnode **pp = rbucket(rn->mnt, rn->fh); *pp; pp = &(*pp)->hnext)
        if (*pp == rn) {
            *pp = rn->hnext;
            break;
        }
    rn->hnext = 0;
}

static struct rnode *rdup(struct rnode *rn)
{
    rn->ref++;
    return rn;
}

static void rput(struct rnode *rn)
{
    rn->used = ++use_clock;
    if (--rn->ref == 0 && rn->gone && !rn->nblocks)
        rn->mnt = 0;                       /* stale and unheld: free */
}

void rnode_lock(struct rnode *rn)
{
    while (rn->busy) {
        rn->wanted = 1;
        sleep(rn);
    }
    rn->busy = 1;
}

void rnode_unlock(struct rnode *rn)
{
    rn->busy = 0;
    if (rn->wanted) {
        rn->wanted = 0;
        wakeup(rn);
    }
}

/* The server says the file is gone: its blocks go (written or not) and
 * the node leaves the table, to be freed when nobody holds it. */
void rnode_stale(struct rnode *rn)
{
    cache_invalidate(rn, 1);
    if (!rn->gone)
        unhash(rn);
    rn->gone = 1;
    if (rn->ref == 0 && !rn->nblocks)
        rn->mnt = 0;
}

static int fresh(struct rnode *rn)
{
    uint64 keep = rn->a.type == T_DIR ? ATTR_DIR_NS : ATTR_FILE_NS;
    return rn->attr_time && !time_reached(arch_time_ns(), rn->attr_time + keep);
}

/* New attributes for rn.  ours: they come from our own change (a WRITE's
 * reply), which the server's version before it (before) says was the
 * only one.  A change not ours makes the cached blocks stale (cache.c
 * drops them at their next use) and a directory's name-cache entries. */
void attr_update(struct rnode *rn, const struct rattr *a, int ours, uint32 before)
{
    int foreign = ours ? before != rn->a.version : a->version != rn->a.version;
    if (foreign && rn->attr_time) {
        if (rn->a.type == T_DIR)
            rn->ncgen = ++nc_clock;
        else
            rn->stale_data = 1;
    }
    uint32 size = rn->a.size;
    rn->a = *a;
    if (rn->ndirty && size > rn->a.size)
        rn->a.size = size;                 /* ours, not written back yet */
    rn->attr_time = arch_time_ns();
}

/* The node for attributes a on m, referenced: the one we have, or a new
 * one in a free slot or in the least recently used that nobody holds and
 * has nothing dirty. */
static int rnode_get(struct rmount *m, const struct rattr *a, struct rnode **rnp)
{
    struct rnode *rn = rnode_find(m, a->fh);
    if (rn && rn->a.type != a->type) {     /* the number was reused */
        rnode_stale(rn);
        rn = 0;
    }
    if (rn) {
        attr_update(rn, a, 0, 0);
        *rnp = rdup(rn);
        return 0;
    }
    struct rnode *spare = 0;
    for (uint32 i = 0; i < NRNODES; i++) {
        struct rnode *x = rnode_at(i);
        if (!x->mnt) {
            spare = x;
            break;
        }
        if (x->ref == 0 && !x->ndirty && !x->busy &&
            (!spare || (int32)(x->used - spare->used) < 0))
            spare = x;
    }
    if (!spare)
        return -ENFILE;
    if (spare->mnt) {
        cache_invalidate(spare, 0);
        if (!spare->gone)
            unhash(spare);
    }
    memset(spare, 0, sizeof *spare);
    spare->mnt = m;
    spare->fh = a->fh;
    spare->a = *a;
    spare->attr_time = arch_time_ns();
    spare->ncgen = ++nc_clock;
    spare->cacheable = 1;
    spare->ref = 1;
    spare->hnext = *rbucket(m, a->fh);
    *rbucket(m, a->fh) = spare;
    *rnp = spare;
    return 0;
}

/* ---------------------------------------------------------------- the name cache (nfs) */

struct ncent {
    struct rnode *dir;
    uint32 gen;                            /* dir's ncgen when entered     */
    uint32 fh;
    char name[DIRSIZ];
};
static struct ncent *nc_pages[NNC_PAGES];
#define NC_PER_PAGE (PGSIZE / sizeof(struct ncent))
#define NNC (NNC_PAGES * NC_PER_PAGE)

static struct ncent *nc_slot(struct rnode *dir, const char *name)
{
    uint32 h = dir->fh * 7 + (uint32)(dir->mnt - mounts);
    for (const char *s = name; *s; s++)
        h = h * 31 + (uint8)*s;
    h %= NNC;
    return nc_pages[0] ? &nc_pages[h / NC_PER_PAGE][h % NC_PER_PAGE] : 0;
}

static uint32 nc_find(struct rnode *dir, const char *name)
{
    struct ncent *e = nc_slot(dir, name);
    return e && e->dir == dir && e->gen == dir->ncgen && strcmp(e->name, name) == 0 ? e->fh : 0;
}

static void nc_enter(struct rnode *dir, const char *name, uint32 fh)
{
    struct ncent *e = nc_slot(dir, name);
    if (!e)
        return;
    e->dir = dir;
    e->gen = dir->ncgen;
    e->fh = fh;
    strncpy_safe(e->name, name, DIRSIZ);
}

static void nc_remove(struct rnode *dir, const char *name)
{
    struct ncent *e = nc_slot(dir, name);
    if (e && e->dir == dir && strcmp(e->name, name) == 0)
        e->dir = 0;
}

/* A directory changed by our call: its new version, unless the version
 * before it says someone else changed it too (then its names go). */
static void dir_changed(struct rnode *dir, uint32 before, uint32 after)
{
    if (before != dir->a.version)
        dir->ncgen = ++nc_clock;
    dir->a.version = after;
}

/* ---------------------------------------------------------------- attributes */

static int getattr(struct rnode *rn)
{
    struct cargs a = { .proc = RP_GETATTR, .w = { rn->fh }, .nw = 1 };
    struct rmsg reply;
    int r = call(rn->mnt, &a, &reply);
    if (r == -ESTALE)
        rnode_stale(rn);
    if (r < 0)
        return r;
    struct rattr at;
    rattr_get(&reply, &at);
    r = reply.error;
    rmsg_free(&reply);
    if (r == 0)
        attr_update(rn, &at, 0, 0);
    return r;
}

/* Attributes fresh enough to use: nfs's cache, or ask. */
static int attrs(struct rnode *rn)
{
    if (rn->mnt->proto == RFS_SPRITE || fresh(rn)) {
        rfsstat.rfs_attr_hits += rn->mnt->proto == RFS_NFS;
        return 0;
    }
    return getattr(rn);
}

/* A call that names a place: (dir, name) or (start, path); 0 with the
 * reply (attributes first) or -errno. */
static int where_call(uint32 proc, struct rnode *dir, const char *name, uint32 arg,
                      int nargs, struct rmsg *reply)
{
    struct cargs a = { .proc = proc, .w = { dir->fh, arg }, .nw = 1 + nargs, .name = name };
    int r = call(dir->mnt, &a, reply);
    if (r == -ESTALE)
        rnode_stale(dir);
    return r;
}

/* ---------------------------------------------------------------- names */

/* The next element of *path into name (as dir.c's next_element): 1, 0 at
 * the end, -ENAMETOOLONG. */
static int element(const char **path, char *name)
{
    const char *p = *path;
    while (*p == '/')
        p++;
    if (*p == 0)
        return 0;
    const char *start = p;
    while (*p != '/' && *p != 0)
        p++;
    uint32 len = p - start;
    if (len >= DIRSIZ)
        return -ENAMETOOLONG;
    memmove(name, start, len);
    name[len] = 0;
    while (*p == '/')
        p++;
    *path = p;
    return 1;
}

/* nfs: the node name names in dir (referenced). */
static int lookup(struct rnode *dir, const char *name, struct rnode **out)
{
    int r;
    if (dir->a.type != T_DIR)
        return -ENOTDIR;
    if (strcmp(name, ".") == 0) {
        *out = rdup(dir);
        return 0;
    }
    if (!fresh(dir) && (r = getattr(dir)) < 0)
        return r;
    uint32 fh = nc_find(dir, name);
    struct rnode *rn = fh ? rnode_find(dir->mnt, fh) : 0;
    if (rn) {
        rfsstat.rfs_name_hits++;
        *out = rdup(rn);
        return 0;
    }
    struct rmsg reply;
    if ((r = where_call(RP_LOOKUP, dir, name, 0, 0, &reply)) < 0)
        return r;
    struct rattr at;
    rattr_get(&reply, &at);
    r = reply.error;
    rmsg_free(&reply);
    if (r < 0 || (r = rnode_get(dir->mnt, &at, out)) < 0)
        return r;
    nc_enter(dir, name, at.fh);
    return 0;
}

/* Which mount, and where on it, a path names: the node to start from
 * (referenced) and the rest of the path.  0, or -ENOENT. */
static int start_of(const char *path, struct rnode **start, const char **rest)
{
    if (*path != '/') {
        if (!curproc->rcwd)
            return -ENOENT;
        *start = rdup(curproc->rcwd);
        *rest = path;
        return 0;
    }
    for (struct rmount *m = mounts; m < mounts + NMOUNTS; m++) {
        if (!m->used)
            continue;
        if (m->pathlen == 1 || (strncmp(path, m->path, m->pathlen) == 0 &&
                                (path[m->pathlen] == '/' || path[m->pathlen] == 0))) {
            *start = rdup(m->root);
            *rest = path + m->pathlen;
            return 0;
        }
    }
    return -ENOENT;
}

int rfs_owns(const char *path)
{
    struct rnode *rn;
    const char *rest;
    if (start_of(path, &rn, &rest) < 0)
        return 0;
    rput(rn);
    return 1;
}

/* nfs: walk the path to the node it names, or (parent) to its directory
 * and last name (-EINVAL if it has none: the mount's root). */
static int walk(const char *path, int parent, char *name, struct rnode **out)
{
    struct rnode *rn;
    int r = start_of(path, &rn, &path);
    if (r < 0)
        return r;
    while ((r = element(&path, name)) > 0) {
        if (parent && *path == 0) {
            if (rn->a.type != T_DIR) {
                rput(rn);
                return -ENOTDIR;
            }
            *out = rn;
            return 0;
        }
        struct rnode *next;
        r = lookup(rn, name, &next);
        rput(rn);
        if (r < 0)
            return r;
        rn = next;
    }
    if (r < 0 || parent) {
        rput(rn);
        return r < 0 ? r : -EINVAL;
    }
    *out = rn;
    return 0;
}

/* sprite: the node a path names, from the server (LOOKUP). */
static int sprite_lookup(const char *path, struct rnode **out)
{
    struct rnode *start;
    const char *rest;
    int r = start_of(path, &start, &rest);
    if (r < 0)
        return r;
    struct rmsg reply;
    r = where_call(RP_LOOKUP, start, rest, 0, 0, &reply);
    struct rmount *m = start->mnt;
    rput(start);
    if (r < 0)
        return r;
    struct rattr at;
    rattr_get(&reply, &at);
    r = reply.error;
    rmsg_free(&reply);
    return r < 0 ? r : rnode_get(m, &at, out);
}

static int node_of(const char *path, struct rnode **out)
{
    struct rnode *start;
    const char *rest;
    int r = start_of(path, &start, &rest);
    if (r < 0)
        return r;
    int proto = start->mnt->proto;
    rput(start);
    if (proto == RFS_SPRITE)
        return sprite_lookup(path, out);
    char name[DIRSIZ];
    return walk(path, 0, name, out);
}

/* ---------------------------------------------------------------- open files */

struct rfile {
    struct rnode *rn;                      /* 0: a free slot                */
    int flags;                             /* RO_READ, RO_WRITE            */
    struct dirent *dir;                    /* readdir's entries (a page)   */
    uint32 dn, di;                         /* how many, the next one       */
    uint32 cookie;                         /* the server's place after them */
    int eof;
};
static struct rfile *rfiles;
#define NRFILES (PGSIZE / sizeof(struct rfile))

static int rf_read(struct file *f, uaddr buf, uint32 n);
static int rf_write(struct file *f, uaddr buf, uint32 n);
static void rf_close(struct file *f);
static int rf_always(struct file *f) { return 1; }

static const struct fileops rfs_ops = {
    .read = rf_read, .write = rf_write,
    .readable = rf_always, .writable = rf_always,
    .close = rf_close,
};

int rfs_file(struct file *f)
{
    return f && f->ops == &rfs_ops;
}

static struct rnode *rnode_of(struct file *f)
{
    return ((struct rfile *)f->obj)->rn;
}

/* Open the node a path names (RO_READ, RO_WRITE, RO_CREATE, RO_TRUNC):
 * referenced, its attributes fresh; sprite: the server knows of it. */
static int open_node(const char *path, int flags, struct rnode **out)
{
    struct rnode *start, *rn;
    const char *rest;
    int r = start_of(path, &start, &rest);
    if (r < 0)
        return r;
    struct rmount *m = start->mnt;
    struct rmsg reply;
    struct rattr at;
    if (m->proto == RFS_SPRITE) {
        r = where_call(RP_OPEN, start, rest, (uint32)flags, 1, &reply);
        rput(start);
        if (r < 0)
            return r;
        rattr_get(&reply, &at);
        int cacheable = (int)rmsg_get32(&reply);
        r = reply.error;
        rmsg_free(&reply);
        if (r < 0 || (r = rnode_get(m, &at, &rn)) < 0)
            return r;
        rn->cacheable = cacheable;
        rn->readers += (flags & RO_READ) != 0;
        rn->writers += (flags & RO_WRITE) != 0;
        if ((flags & RO_TRUNC) && (flags & RO_WRITE)) {
            rnode_lock(rn);
            cache_invalidate(rn, 1);       /* the server cut it */
            rn->a.size = 0;
            rnode_unlock(rn);
        }
        *out = rn;
        return 0;
    }
    rput(start);
    char name[DIRSIZ];
    if (flags & RO_CREATE) {
        struct rnode *dir;
        if ((r = walk(path, 1, name, &dir)) < 0)
            return r == -EINVAL ? -EISDIR : r;
        r = where_call(RP_CREATE, dir, name, (flags & RO_TRUNC) != 0, 1, &reply);
        if (r < 0) {
            rput(dir);
            return r;
        }
        rattr_get(&reply, &at);
        uint32 before = rmsg_get32(&reply), after = rmsg_get32(&reply);
        r = reply.error;
        rmsg_free(&reply);
        if (r == 0) {
            dir_changed(dir, before, after);
            nc_enter(dir, name, at.fh);
        }
        rput(dir);
        if (r < 0 || (r = rnode_get(m, &at, &rn)) < 0)
            return r;
        if (flags & RO_TRUNC) {
            rnode_lock(rn);
            cache_invalidate(rn, 1);
            rnode_unlock(rn);
        }
    } else {
        if ((r = walk(path, 0, name, &rn)) < 0)
            return r;
        if ((r = getattr(rn)) < 0) {       /* close-to-open: ask every time */
            rput(rn);
            return r;
        }
        if ((flags & RO_TRUNC) && (flags & RO_WRITE) && rn->a.type == T_FILE &&
            rn->a.size > 0) {
            struct cargs a = { .proc = RP_SETATTR, .w = { rn->fh, 0 }, .nw = 2 };
            if ((r = call(m, &a, &reply)) < 0) {
                rput(rn);
                return r;
            }
            rattr_get(&reply, &at);
            rmsg_free(&reply);
            rnode_lock(rn);
            cache_invalidate(rn, 1);
            rn->a.size = 0;
            rnode_unlock(rn);
            attr_update(rn, &at, 1, rn->a.version);
        }
    }
    *out = rn;
    return 0;
}

/* sprite: tell the server we closed it; nfs: nothing to say. */
static void close_node(struct rnode *rn, int flags)
{
    if (rn->mnt->proto == RFS_SPRITE) {
        rn->readers -= (flags & RO_READ) != 0;
        rn->writers -= (flags & RO_WRITE) != 0;
        struct cargs a = { .proc = RP_CLOSE, .w = { rn->fh, (uint32)flags }, .nw = 2 };
        struct rmsg reply;
        if (call(rn->mnt, &a, &reply) == 0)
            rmsg_free(&reply);
    }
    rput(rn);
}

int rfs_open(const char *path, int flags)
{
    int acc = flags & 3;
    int ro = (acc != O_WRONLY ? RO_READ : 0) | (acc != O_RDONLY ? RO_WRITE : 0) |
             (flags & O_CREAT ? RO_CREATE : 0) | (flags & O_TRUNC ? RO_TRUNC : 0);
    int fd;
    for (fd = 0; fd < NOFILE && curproc->ofile[fd]; fd++)
        ;
    if (fd == NOFILE)
        return -EMFILE;
    struct rfile *rf = 0;
    for (struct rfile *x = rfiles; x && x < rfiles + NRFILES; x++)
        if (!x->rn) {
            rf = x;
            break;
        }
    if (!rf)
        return -ENFILE;
    struct rnode *rn;
    int r = open_node(path, ro, &rn);
    if (r < 0)
        return r;
    if (rn->a.type == T_DIR && (ro & RO_WRITE)) {
        close_node(rn, ro);
        return -EISDIR;
    }
    memset(rf, 0, sizeof *rf);
    rf->rn = rn;
    rf->flags = ro & (RO_READ | RO_WRITE);
    struct file *f = file_alloc(&rfs_ops, rf, acc != O_WRONLY, acc != O_RDONLY);
    if (!f) {
        rf->rn = 0;
        close_node(rn, ro);
        return -ENFILE;
    }
    return fd_alloc(f);
}

static int rf_read(struct file *f, uaddr buf, uint32 n)
{
    struct rnode *rn = rnode_of(f);
    if (rn->a.type == T_DIR)
        return -EISDIR;
    int r = attrs(rn);                     /* nfs: a file changed elsewhere */
    if (r < 0)
        return r;
    r = cache_read(rn, 1, buf, f->off, n);
    if (r > 0)
        f->off += r;
    return r;
}

static int rf_write(struct file *f, uaddr buf, uint32 n)
{
    int r = cache_write(rnode_of(f), 1, buf, f->off, n);
    if (r > 0)
        f->off += r;
    return r;
}

static void rf_close(struct file *f)
{
    struct rfile *rf = f->obj;
    struct rnode *rn = rf->rn;
    if (rn->mnt->proto == RFS_NFS && (rf->flags & RO_WRITE))
        cache_flush(rn);                   /* NFS's write-through on close */
    if (rf->dir)
        kfree(rf->dir);
    close_node(rn, rf->flags);
    rf->rn = 0;
}

static void fill_stat(struct rnode *rn, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_ino = rn->fh;
    st->st_mode = rn->a.type == T_DIR ? S_IFDIR : S_IFREG;
    st->st_nlink = rn->a.nlink;
    st->st_size = rn->a.size;
}

int rfs_fstat(struct file *f, struct stat *st)
{
    struct rnode *rn = rnode_of(f);
    int r = attrs(rn);
    if (r < 0)
        return r;
    fill_stat(rn, st);
    return 0;
}

int rfs_lseek_end(struct file *f, uint32 *size)
{
    struct rnode *rn = rnode_of(f);
    int r = attrs(rn);
    *size = rn->a.size;
    return r;
}

int rfs_fsync(struct file *f)
{
    struct rnode *rn = rnode_of(f);
    int r = cache_flush(rn);
    if (r < 0 || rn->mnt->proto == RFS_NFS)
        return r;                          /* nfs: on the server's disk already */
    struct cargs a = { .proc = RP_FSYNC, .w = { rn->fh }, .nw = 1 };
    struct rmsg reply;
    if ((r = call(rn->mnt, &a, &reply)) == 0)
        rmsg_free(&reply);
    return r;
}

int rfs_readdir(struct file *f, struct dirent *de)
{
    struct rfile *rf = f->obj;
    struct rnode *rn = rf->rn;
    if (rn->a.type != T_DIR)
        return -ENOTDIR;
    if (rf->di == rf->dn) {
        if (rf->eof && rf->cookie == f->off)
            return 0;
        if (!rf->dir && !(rf->dir = kalloc()))
            return -ENOMEM;
        struct cargs a = { .proc = RP_READDIR, .w = { rn->fh, f->off, RFS_READDIR_MAX },
                           .nw = 3 };
        struct rmsg reply;
        int r = call(rn->mnt, &a, &reply);
        if (r < 0)
            return r;
        rf->dn = rf->di = 0;
        while (rmsg_get32(&reply) == 1 && rf->dn < PGSIZE / sizeof *de) {
            struct dirent *d = &rf->dir[rf->dn++];
            d->d_ino = rmsg_get32(&reply);
            if (rmsg_getstr(&reply, d->d_name, DIRSIZ) < 0)
                break;
        }
        rf->cookie = rmsg_get32(&reply);
        rf->eof = (int)rmsg_get32(&reply);
        r = reply.error;
        rmsg_free(&reply);
        if (r < 0)
            return r;
        f->off = rf->cookie;
        if (rf->dn == 0)
            return 0;
    }
    *de = rf->dir[rf->di++];
    return 1;
}

/* ---------------------------------------------------------------- paths */

int rfs_stat(const char *path, struct stat *st)
{
    struct rnode *rn;
    int r = node_of(path, &rn);
    if (r < 0)
        return r;
    if ((r = attrs(rn)) == 0)
        fill_stat(rn, st);
    rput(rn);
    return r;
}

int rfs_chdir(const char *path)
{
    struct rnode *rn;
    int r = node_of(path, &rn);
    if (r < 0)
        return r;
    if (rn->a.type != T_DIR) {
        rput(rn);
        return -ENOTDIR;
    }
    if (curproc->rcwd)
        rput(curproc->rcwd);
    curproc->rcwd = rn;
    return 0;
}

/* nfs: the directory and last name of a path that must have one. */
static int nfs_parent(const char *path, char *name, struct rnode **dir, int root_error)
{
    int r = walk(path, 1, name, dir);
    return r == -EINVAL ? root_error : r;
}

int rfs_mkdir(const char *path)
{
    struct rnode *start, *dir;
    const char *rest;
    char name[DIRSIZ];
    int r = start_of(path, &start, &rest);
    if (r < 0)
        return r;
    struct rmsg reply;
    if (start->mnt->proto == RFS_SPRITE) {
        r = where_call(RP_MKDIR, start, rest, 0, 0, &reply);
        rput(start);
        if (r == 0)
            rmsg_free(&reply);
        return r;
    }
    rput(start);
    if ((r = nfs_parent(path, name, &dir, -EEXIST)) < 0)
        return r;
    if ((r = where_call(RP_MKDIR, dir, name, 0, 0, &reply)) == 0) {
        struct rattr at;
        rattr_get(&reply, &at);
        uint32 before = rmsg_get32(&reply), after = rmsg_get32(&reply);
        if (!(r = reply.error)) {
            dir_changed(dir, before, after);
            nc_enter(dir, name, at.fh);
        }
        rmsg_free(&reply);
    }
    rput(dir);
    return r;
}

int rfs_remove(const char *path, int isdir)
{
    struct rnode *start, *dir = 0;
    const char *rest;
    char name[DIRSIZ];
    int r = start_of(path, &start, &rest);
    if (r < 0)
        return r;
    struct rmount *m = start->mnt;
    uint32 proc = isdir ? RP_RMDIR : RP_REMOVE;
    struct rmsg reply;
    if (m->proto == RFS_SPRITE) {
        r = where_call(proc, start, rest, 0, 0, &reply);
        rput(start);
    } else {
        rput(start);
        if ((r = nfs_parent(path, name, &dir, isdir ? -EBUSY : -EISDIR)) < 0)
            return r;
        r = where_call(proc, dir, name, 0, 0, &reply);
    }
    if (r == 0) {
        uint32 fh = rmsg_get32(&reply);
        uint32 before = rmsg_get32(&reply), after = rmsg_get32(&reply);
        rmsg_free(&reply);
        if (dir) {
            dir_changed(dir, before, after);
            nc_remove(dir, name);
        }
        /* The file is gone: what we cached of it, dirty or not, too (a
         * sprite file removed within 30 s never reaches the server). */
        struct rnode *rn = rnode_find(m, fh);
        if (rn && rn->a.type == T_FILE)
            rnode_stale(rn);
    }
    if (dir)
        rput(dir);
    return r;
}

/* ---------------------------------------------------------------- exec */

static int exec_read(struct exec_source *src, void *dst, uint32 off, uint32 n)
{
    struct rnode *rn = (struct rnode *)src->obj;
    if (off > rn->a.size || n > rn->a.size - off)
        return -ENOEXEC;
    return cache_read(rn, 0, (uintptr)dst, off, n) == (int)n ? 0 : -ENOEXEC;
}

int rfs_exec_open(const char *path, struct exec_source *src)
{
    struct rnode *rn;
    int r = open_node(path, RO_READ, &rn);
    if (r < 0)
        return r;
    if (rn->a.type != T_FILE) {
        close_node(rn, RO_READ);
        return -ENOEXEC;
    }
    src->read = exec_read;
    src->obj = rn;
    src->size = rn->a.size;
    return 0;
}

int rfs_exec_source(struct exec_source *src)
{
    return src->read == exec_read;
}

void rfs_exec_close(struct exec_source *src)
{
    close_node((struct rnode *)src->obj, RO_READ);
}

/* ---------------------------------------------------------------- processes */

void rfs_cwd_dup(struct proc *child, struct proc *parent)
{
    child->rcwd = rdup(parent->rcwd);
}

void rfs_cwd_drop(struct proc *p)
{
    rput(p->rcwd);
    p->rcwd = 0;
}

void rfs_sync(void)
{
    cache_sync();
}

/* ---------------------------------------------------------------- recovery (sprite) */

static void recover(struct rmount *m)
{
    m->recovering = 1;
    rfsstat.rfs_recoveries++;
    for (uint32 i = 0; i < NRNODES; i++) {
        struct rnode *rn = rnode_at(i);
        if (rn->mnt != m || !(rn->readers || rn->writers || rn->ndirty))
            continue;
        struct cargs a = { .proc = RP_REOPEN,
                           .w = { rn->fh, (uint32)rn->readers, (uint32)rn->writers,
                                  rn->ndirty != 0 }, .nw = 4 };
        struct rmsg reply;
        rfsstat.rfs_reopens++;
        int r = call(m, &a, &reply);
        if (r == -ESTALE) {
            rnode_stale(rn);
            continue;
        }
        if (r < 0)
            continue;
        struct rattr at;
        rattr_get(&reply, &at);
        int cacheable = (int)rmsg_get32(&reply);
        if (!reply.error) {
            attr_update(rn, &at, 0, 0);
            rn->cacheable = cacheable;
        }
        rmsg_free(&reply);
    }
    m->recovering = 0;
}

/* ---------------------------------------------------------------- callbacks (sprite) */

static void callbacks(struct rmount *m)
{
    for (;;) {
        struct rpc_in *in = rpc_next(&m->ep);
        uint32 prog = rmsg_get32(&in->msg), proc = rmsg_get32(&in->msg);
        uint32 fh = rmsg_get32(&in->msg);
        struct rmsg r;
        rmsg_init(&r);
        rmsg_put32(&r, prog == RFS_PROG_CALLBACK && !in->msg.error ? 0 : EINVAL);
        rmsg_put32(&r, 0);
        struct rnode *rn = rnode_find(m, fh);
        if (rn && prog == RFS_PROG_CALLBACK) {
            rfsstat.rfs_callbacks++;
            rdup(rn);
            cache_flush(rn);
            if (proc == CB_NOCACHE) {
                rnode_lock(rn);
                cache_invalidate(rn, 0);
                rn->cacheable = 0;
                rnode_unlock(rn);
            }
            rput(rn);
        }
        rpc_reply(&m->ep, in, &r, 0);
    }
}

static void callbacks0(void) { callbacks(&mounts[0]); }
static void callbacks1(void) { callbacks(&mounts[1]); }
static void (*const callback_main[NMOUNTS])(void) = { callbacks0, callbacks1 };

/* ---------------------------------------------------------------- mounting */

static int mount_call(struct rmount *m, uint32 proto, struct rattr *root)
{
    m->proto = (int)proto;
    struct cargs a = { .proc = RP_MOUNT, .w = { proto }, .nw = 1 };
    struct rmsg reply;
    int r = call(m, &a, &reply);
    if (r < 0)
        return r;
    rattr_get(&reply, root);
    r = reply.error;
    rmsg_free(&reply);
    return r;
}

static int do_mount(const struct rfsmount *um)
{
    char path[MOUNT_PATH];
    memcpy(path, um->path, MOUNT_PATH);
    path[MOUNT_PATH - 1] = 0;
    uint32 len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        path[--len] = 0;
    if (um->proto != RFS_NFS && um->proto != RFS_SPRITE)
        return -EINVAL;
    if (path[0] != '/')
        return -EINVAL;
    struct rmount *m = 0;
    for (struct rmount *x = mounts; x < mounts + NMOUNTS; x++) {
        if (x->used && (strcmp(x->path, path) == 0 || x->pathlen == 1))
            return -EBUSY;                 /* there, or under a mounted "/" */
        if (!x->used && !m)
            m = x;
    }
    if (!m)
        return -ENOSPC;
    if (len > 1) {                         /* a local directory to cover */
        struct inode *ip;
        int r = namei(path, &ip);
        if (r < 0)
            return r;
        ilock(ip);
        r = ip->type == T_DIR ? 0 : -ENOTDIR;
        iunlockput(ip);
        if (r < 0)
            return r;
    }
    int r;
    if ((r = cache_init()) < 0 || (r = nodes_init()) < 0)
        return r;
    for (int p = 0; p < NNC_PAGES; p++)      /* all or none (nc_slot asks [0]) */
        if (!nc_pages[p] && !(nc_pages[p] = kalloc()))
            return -ENOMEM;
    if (!rfiles && !(rfiles = kalloc()))
        return -ENOMEM;
    if (!m->ep.so && (r = rpc_ep_open(&m->ep, 0, 1, 0, &rfsstat)) < 0)
        return r;
    m->addr = um->addr;
    memcpy(m->path, path, MOUNT_PATH);
    m->pathlen = len;
    m->epoch = 0;
    struct rattr root;
    m->used = 1;                           /* call() needs it whole */
    if ((r = mount_call(m, um->proto, &root)) < 0 || (r = rnode_get(m, &root, &m->root)) < 0) {
        m->used = 0;
        return r;
    }
    static int callback_started[NMOUNTS];
    if (!callback_started[m - mounts]) {
        if (!kproc_create("rfscb", callback_main[m - mounts])) {
            m->used = 0;
            return -EAGAIN;
        }
        callback_started[m - mounts] = 1;
    }
    cache_flusher_start();
    rfs_nmounts++;
    if (len == 1)                          /* diskless: "/" is the server's now */
        for (struct proc *p = proc; p < &proc[NPROC]; p++)
            if (p->state != UNUSED && p->state != ZOMBIE && !p->kfn && !p->rcwd &&
                p->cwd && p->cwd->inum == ROOTINO)
                p->rcwd = rdup(m->root);
    return 0;
}

int rfs_protocol(void)
{
    for (struct rmount *m = mounts; m < mounts + NMOUNTS; m++)
        if (m->used)
            return m->proto;
    return RFS_NONE;
}

/* Every mount under another protocol: what we hold is written back, then
 * forgotten, and each mount is made again (the server takes the new
 * protocol's write policy). */
int rfs_set_protocol(uint32 proto)
{
    if (proto != RFS_NFS && proto != RFS_SPRITE)
        return rfs_nmounts ? -EINVAL : proto == RFS_NONE ? 0 : -ENOTCONN;
    if (!rfs_nmounts)
        return -ENOTCONN;
    for (struct rfile *rf = rfiles; rf < rfiles + NRFILES; rf++)
        if (rf->rn)
            return -EBUSY;                 /* an open file keeps its protocol */
    cache_sync();
    for (struct rmount *m = mounts; m < mounts + NMOUNTS; m++) {
        if (!m->used)
            continue;
        for (uint32 i = 0; i < NRNODES; i++) {
            struct rnode *rn = rnode_at(i);
            if (rn->mnt != m)
                continue;
            {
                rnode_lock(rn);
                cache_invalidate(rn, 0);
                rn->attr_time = 0;         /* asked again before use */
                rn->ncgen = ++nc_clock;
                rnode_unlock(rn);
            }
        }
        struct rattr root;
        int r = mount_call(m, proto, &root);
        if (r < 0)
            return r;
    }
    return 0;
}

static int peer(struct rfspeer *p)
{
    memset(p, 0, sizeof *p);
    struct rmount *m = mounts;
    while (m < mounts + NMOUNTS && !m->used)
        m++;
    if (m == mounts + NMOUNTS)
        return 0;                          /* proto RFS_NONE */
    p->proto = m->proto;
    p->addr = m->addr;
    memcpy(p->path, m->path, sizeof p->path);
    struct cargs a = { .proc = RP_STATS };
    struct rmsg reply;
    int r = call(m, &a, &reply);
    if (r < 0)
        return r;
    p->dev_reads = rmsg_get32(&reply);
    p->dev_writes = rmsg_get32(&reply);
    p->sync_writes = rmsg_get32(&reply);
    p->srv_calls = rmsg_get32(&reply);
    p->srv_dup_replays = rmsg_get32(&reply);
    r = reply.error;
    rmsg_free(&reply);
    return r;
}

int rfs_fsctl(uint32 op, uaddr arg)
{
    int r;
    switch (op) {
    case FSCTL_MOUNT: {
        struct rfsmount m;
        if ((r = priv_check()) < 0)
            return r;
        if (copyin(&m, arg, sizeof m) < 0)
            return -EFAULT;
        return do_mount(&m);
    }
    case FSCTL_SERVE: {
        struct rfsserve s;
        if ((r = priv_check()) < 0)
            return r;
        if (copyin(&s, arg, sizeof s) < 0)
            return -EFAULT;
        return rfs_serve(&s);
    }
    case FSCTL_RFSCRASH:
        return (r = priv_check()) < 0 ? r : rfs_crash((uint32)arg);
    case FSCTL_RFSSTAT:
        return copyout(arg, &rfsstat, sizeof rfsstat);
    case FSCTL_RFSPEER: {
        struct rfspeer p;
        if ((r = peer(&p)) < 0)
            return r;
        return copyout(arg, &p, sizeof p);
    }
    }
    return -EINVAL;
}
