/*
 * The client's block cache: remote files' blocks (BSIZE bytes, as the
 * local file system's), by node and block number, for both protocols.
 *
 *   reading   a block not here comes with the rest of its RFS_MAXDATA
 *             chunk in one READ (8 KB: the reads NFS's biods did ahead);
 *   writing   goes into the cache and makes the block dirty; a block
 *             written in part, and holding data already, is read first;
 *   back      a node's dirty blocks go to the server in runs of up to 8 KB,
 *             one WRITE each (cache_flush): nfs calls it when the file is
 *             closed (its write-through on close), both when a dirty block
 *             must make room, and the flusher (a kernel process, as
 *             writeback.c's) when the oldest dirty block is flush_age_ns
 *             old (30 s, `policy -age`): sprite's delayed write-back;
 *   dropped   a removed file's dirty blocks are never sent (counted,
 *             rfs_dropped): a short-lived file never leaves the client.
 *
 * A node's blocks are used under its sleep-lock (rnode_lock), which its
 * calls to the server keep; a block being written back is busy, so that
 * no other node's operation takes it for room meanwhile.  Whether a
 * node's cached blocks still hold the server's data is its version's
 * business (attr_update, client.c): a change it did not make marks them
 * stale, and the next use under the lock drops them.
 *
 * A sprite file the server will not let us cache (write-shared) is read
 * and written with a call per request, nothing kept (direct_read/write).
 */
#include "client.h"
#include "../proc.h"
#include "../buf.h"

#define NRBLOCKS  2048                     /* 2 MB, as the local cache    */
#define RHASH     1024                     /* a page of chains            */
#define CHUNK     (RFS_MAXDATA / BSIZE)    /* blocks per READ or WRITE    */

struct rblock {
    struct rnode *rn;                      /* 0: free                     */
    uint32 lbn;                            /* the file's block number     */
    int valid, dirty, busy;
    uint64 dirtied;                        /* when it became dirty        */
    struct rblock *hnext;                  /* hash chain                  */
    struct rblock *fnext;                  /* its node's blocks           */
    struct rblock *prev, *next;            /* LRU, the most recent first  */
    uint8 *data;
};

static struct rblock **hash;
static struct rblock lru;
static int ready;
static uint32 ndirty_all;
static struct proc *flusher;
static int flusher_chan, room_chan, room_waiters;

/* ---------------------------------------------------------------- lists */

static struct rblock **bucket(struct rnode *rn, uint32 lbn)
{
    return &hash[(rn->fh * 31 + lbn) & (RHASH - 1)];
}

static struct rblock *find(struct rnode *rn, uint32 lbn)
{
    for (struct rblock *b = *bucket(rn, lbn); b; b = b->hnext)
        if (b->rn == rn && b->lbn == lbn)
            return b;
    return 0;
}

static void lru_unlink(struct rblock *b)
{
    b->prev->next = b->next;
    b->next->prev = b->prev;
}

static void lru_front(struct rblock *b)
{
    lru_unlink(b);
    b->next = lru.next;
    b->prev = &lru;
    lru.next->prev = b;
    lru.next = b;
}

static void lru_back(struct rblock *b)
{
    lru_unlink(b);
    b->prev = lru.prev;
    b->next = &lru;
    lru.prev->next = b;
    lru.prev = b;
}

static void undirty(struct rblock *b)
{
    if (!b->dirty)
        return;
    b->dirty = 0;
    b->rn->ndirty--;
    if (--ndirty_all == 0 && flusher)
        set_alarm(flusher, &flusher_chan, 0);      /* nothing to wait for */
}

/* Take b from its node: free, and the first to be used again. */
static void detach(struct rblock *b)
{
    struct rnode *rn = b->rn;
    struct rblock **pp;
    for (pp = bucket(rn, b->lbn); *pp != b; pp = &(*pp)->hnext)
        ;
    *pp = b->hnext;
    for (pp = &rn->blocks; *pp != b; pp = &(*pp)->fnext)
        ;
    *pp = b->fnext;
    if (b->dirty)
        rfsstat.rfs_dropped++;
    undirty(b);
    rn->nblocks--;
    b->rn = 0;
    b->valid = 0;
    lru_back(b);
}

static void mark_dirty(struct rblock *b)
{
    if (b->dirty)
        return;
    b->dirty = 1;
    b->dirtied = arch_time_ns();
    b->rn->ndirty++;
    if (ndirty_all++ == 0 && flusher)
        set_alarm(flusher, &flusher_chan, b->dirtied + flush_age_ns);
}

int cache_init(void)
{
    if (ready)
        return 0;
    if (!(hash = kalloc()))
        return -ENOMEM;
    lru.next = lru.prev = &lru;
    uint32 made = 0, per = PGSIZE / sizeof(struct rblock);
    while (made < NRBLOCKS) {
        struct rblock *h = kalloc();
        if (!h)
            return -ENOMEM;
        for (uint32 i = 0; i < per && made < NRBLOCKS; i += PGSIZE / BSIZE) {
            uint8 *page = kalloc();
            if (!page)
                return -ENOMEM;
            for (uint32 j = 0; j < PGSIZE / BSIZE && i + j < per && made < NRBLOCKS; j++) {
                struct rblock *b = &h[i + j];
                b->data = page + j * BSIZE;
                b->next = lru.next;
                b->prev = &lru;
                lru.next->prev = b;
                lru.next = b;
                made++;
            }
        }
    }
    ready = 1;
    return 0;
}

/* ---------------------------------------------------------------- writing back */

struct run {
    struct rblock *b[CHUNK];
    uint32 n, last;                        /* blocks; bytes of the last    */
};

static void put_run(struct rmsg *m, void *arg)
{
    struct run *run = arg;
    for (uint32 i = 0; i < run->n; i++)
        rmsg_put(m, 0, (uintptr)run->b[i]->data, i + 1 < run->n ? BSIZE : run->last);
}

/* One WRITE of the n dirty blocks from lbn on (rn locked). */
static int write_run(struct rnode *rn, struct run *run, uint32 lbn)
{
    uint32 count = (run->n - 1) * BSIZE + run->last;
    struct cargs a = { .proc = RP_WRITE, .w = { rn->fh, lbn * BSIZE, count }, .nw = 3,
                       .data = put_run, .data_arg = run };
    struct rmsg reply;
    for (uint32 i = 0; i < run->n; i++)
        run->b[i]->busy = 1;
    int r = call(rn->mnt, &a, &reply);
    for (uint32 i = 0; i < run->n; i++)
        run->b[i]->busy = 0;
    if (room_waiters)
        wakeup(&room_chan);
    if (r < 0)
        return r;
    uint32 before = rmsg_get32(&reply);
    struct rattr at;
    rattr_get(&reply, &at);
    r = reply.error;
    rmsg_free(&reply);
    if (r < 0)
        return r;
    attr_update(rn, &at, 1, before);
    for (uint32 i = 0; i < run->n; i++)
        if (run->b[i]->rn == rn)
            undirty(run->b[i]);
    rfsstat.rfs_blocks_written += run->n;
    return 0;
}

/* Write rn's dirty blocks back (rn locked), in runs of consecutive blocks. */
static int flush_locked(struct rnode *rn)
{
    uint32 nb = (rn->a.size + BSIZE - 1) / BSIZE;
    for (uint32 lbn = 0; lbn < nb && rn->ndirty; ) {
        struct rblock *b = find(rn, lbn);
        if (!b || !b->dirty) {
            lbn++;
            continue;
        }
        struct run run = { .n = 0 };
        while (run.n < CHUNK && lbn + run.n < nb && (b = find(rn, lbn + run.n)) && b->dirty)
            run.b[run.n++] = b;
        uint32 end = (lbn + run.n) * BSIZE;
        run.last = BSIZE - (end > rn->a.size ? end - rn->a.size : 0);
        int r = write_run(rn, &run, lbn);
        if (r == -ESTALE) {
            rnode_stale(rn);               /* removed meanwhile: drop them */
            return r;
        }
        if (r < 0)
            return r;
        lbn += run.n;
    }
    /* Dirty blocks past the end (the file was cut): nothing to send. */
    if (rn->ndirty)
        for (struct rblock *b = rn->blocks, *n; b; b = n) {
            n = b->fnext;
            if (b->dirty && b->lbn >= nb)
                detach(b);
        }
    return 0;
}

int cache_flush(struct rnode *rn)
{
    if (!rn->ndirty)
        return 0;
    rnode_lock(rn);
    int r = flush_locked(rn);
    rnode_unlock(rn);
    return r;
}

void cache_sync(void)
{
    for (struct rblock *b = lru.next; ndirty_all && b != &lru; b = b->next)
        if (b->dirty && !b->busy) {
            if (cache_flush(b->rn) < 0)
                return;                    /* killed, or the server refuses */
            b = &lru;                      /* the list changed: again */
        }
}

/* ---------------------------------------------------------------- room */

/* A free block for (rn, lbn), rn locked by the caller.  The least
 * recently used block that is not busy; a dirty one's node is written
 * back first (sleeping), then the search starts again. */
static struct rblock *alloc_block(struct rnode *rn, uint32 lbn)
{
    for (;;) {
        struct rblock *b;
        for (b = lru.prev; b != &lru; b = b->prev)
            if (!b->busy && (!b->rn || !b->dirty || b->rn == rn || !b->rn->busy))
                break;
        if (b == &lru) {                   /* every one busy: wait */
            room_waiters++;
            sleep(&room_chan);
            room_waiters--;
            continue;
        }
        if (b->rn && b->dirty) {
            struct rnode *v = b->rn;
            if (v == rn) {
                flush_locked(rn);
            } else {
                rnode_lock(v);
                flush_locked(v);
                rnode_unlock(v);
            }
            continue;
        }
        if (b->rn)
            detach(b);
        b->rn = rn;
        b->lbn = lbn;
        b->valid = 0;
        b->hnext = *bucket(rn, lbn);
        *bucket(rn, lbn) = b;
        b->fnext = rn->blocks;
        rn->blocks = b;
        rn->nblocks++;
        lru_front(b);
        return b;
    }
}

void cache_invalidate(struct rnode *rn, int dirty_too)
{
    for (struct rblock *b = rn->blocks, *n; b; b = n) {
        n = b->fnext;
        if (!b->busy && (dirty_too || !b->dirty))
            detach(b);
    }
}

/* A change by someone else was seen (attr_update): drop what we hold. */
static void check_stale(struct rnode *rn)
{
    if (rn->stale_data) {
        rn->stale_data = 0;
        cache_invalidate(rn, 0);
    }
}

/* ---------------------------------------------------------------- reading */

static int copy_out(int user, uintptr dst, const void *src, uint32 n)
{
    if (user)
        return copyout(dst, src, n);
    memcpy((void *)dst, src, n);
    return 0;
}

/* Fill the chunk holding block lbn from the server (rn locked). */
static int fetch(struct rnode *rn, uint32 lbn)
{
    uint32 first = lbn / CHUNK * CHUNK, off = first * BSIZE;
    uint32 count = rn->a.size > off ? rn->a.size - off : 0;
    if (count > RFS_MAXDATA)
        count = RFS_MAXDATA;
    struct cargs a = { .proc = RP_READ, .w = { rn->fh, off, count }, .nw = 3 };
    struct rmsg reply;
    int r = call(rn->mnt, &a, &reply);
    if (r == -ESTALE)
        rnode_stale(rn);
    if (r < 0)
        return r;
    struct rattr at;
    rattr_get(&reply, &at);
    uint32 n = rmsg_get32(&reply);
    if (reply.error || n > count) {
        rmsg_free(&reply);
        return -EBADMSG;
    }
    attr_update(rn, &at, 0, 0);
    check_stale(rn);
    for (uint32 i = 0; i * BSIZE < n; i++) {
        uint32 k = n - i * BSIZE < BSIZE ? n - i * BSIZE : BSIZE;
        struct rblock *b = find(rn, first + i);
        if (b && (b->valid || b->busy)) {
            reply.pos += k;                /* ours is newer (or on its way) */
            continue;
        }
        if (!b)
            b = alloc_block(rn, first + i);
        rmsg_get(&reply, 0, (uintptr)b->data, k);
        memset(b->data + k, 0, BSIZE - k);
        b->valid = 1;
        rfsstat.rfs_blocks_read++;
    }
    r = reply.error;
    rmsg_free(&reply);
    return r;
}

static int direct_read(struct rnode *rn, int user, uintptr dst, uint32 off, uint32 n)
{
    uint32 done = 0;
    while (done < n) {
        uint32 k = n - done < RFS_MAXDATA ? n - done : RFS_MAXDATA;
        struct cargs a = { .proc = RP_READ, .w = { rn->fh, off + done, k }, .nw = 3 };
        struct rmsg reply;
        int r = call(rn->mnt, &a, &reply);
        if (r < 0)
            return done ? (int)done : r;
        struct rattr at;
        rattr_get(&reply, &at);
        uint32 got = rmsg_get32(&reply);
        if (got > k)
            reply.error = -EBADMSG;
        rmsg_get(&reply, user, dst + done, got);
        r = reply.error;
        rmsg_free(&reply);
        if (r < 0)
            return done ? (int)done : r;
        attr_update(rn, &at, 0, 0);
        done += got;
        if (got < k)
            break;
    }
    return done;
}

int cache_read(struct rnode *rn, int user, uintptr dst, uint32 off, uint32 n)
{
    if (!rn->cacheable)
        return direct_read(rn, user, dst, off, n);
    rnode_lock(rn);
    check_stale(rn);
    uint32 done = 0;
    int r = 0;
    while (done < n && off + done < rn->a.size) {
        uint32 lbn = (off + done) / BSIZE, o = (off + done) % BSIZE;
        uint32 k = BSIZE - o < n - done ? BSIZE - o : n - done;
        if (k > rn->a.size - (off + done))
            k = rn->a.size - (off + done);
        struct rblock *b = find(rn, lbn);
        if (b && b->valid) {
            rfsstat.rfs_cache_hits++;
        } else {
            if ((r = fetch(rn, lbn)) < 0)
                break;
            b = find(rn, lbn);
            if (!b || !b->valid)
                break;                     /* the file is shorter now */
            continue;                      /* its size may have changed */
        }
        if ((r = copy_out(user, dst + done, b->data + o, k)) < 0)
            break;
        lru_front(b);
        done += k;
    }
    rnode_unlock(rn);
    return done ? (int)done : r;
}

/* ---------------------------------------------------------------- writing */

struct direct {
    int user;
    uintptr src;
    uint32 n;
};

static void put_direct(struct rmsg *m, void *arg)
{
    struct direct *d = arg;
    rmsg_put(m, d->user, d->src, d->n);
}

static int direct_write(struct rnode *rn, int user, uintptr src, uint32 off, uint32 n)
{
    uint32 done = 0;
    while (done < n) {
        uint32 k = n - done < RFS_MAXDATA ? n - done : RFS_MAXDATA;
        struct direct d = { user, src + done, k };
        struct cargs a = { .proc = RP_WRITE, .w = { rn->fh, off + done, k }, .nw = 3,
                           .data = put_direct, .data_arg = &d };
        struct rmsg reply;
        int r = call(rn->mnt, &a, &reply);
        if (r < 0)
            return done ? (int)done : r;
        uint32 before = rmsg_get32(&reply);
        struct rattr at;
        rattr_get(&reply, &at);
        r = reply.error;
        rmsg_free(&reply);
        if (r < 0)
            return done ? (int)done : r;
        attr_update(rn, &at, 1, before);
        done += k;
        if (off + done > rn->a.size)
            rn->a.size = off + done;
    }
    return done;
}

int cache_write(struct rnode *rn, int user, uintptr src, uint32 off, uint32 n)
{
    if (!rn->cacheable)
        return direct_write(rn, user, src, off, n);
    rnode_lock(rn);
    check_stale(rn);
    uint32 done = 0;
    int r = 0;
    while (done < n) {
        uint32 lbn = (off + done) / BSIZE, o = (off + done) % BSIZE;
        uint32 k = BSIZE - o < n - done ? BSIZE - o : n - done;
        struct rblock *b = find(rn, lbn);
        if (!b || !b->valid) {
            /* Read it first only if it holds data we keep. */
            if (!(o == 0 && k == BSIZE) && lbn * BSIZE < rn->a.size) {
                if ((r = fetch(rn, lbn)) < 0)
                    break;
                b = find(rn, lbn);
            }
            if (!b)
                b = alloc_block(rn, lbn);
            if (!b->valid) {
                memset(b->data, 0, BSIZE);
                b->valid = 1;
            }
        }
        if (!user)
            memcpy(b->data + o, (const void *)(src + done), k);
        else if (copyin(b->data + o, src + done, k) < 0) {
            r = -EFAULT;
            break;
        }
        mark_dirty(b);
        lru_front(b);
        done += k;
        if (off + done > rn->a.size)
            rn->a.size = off + done;
    }
    rnode_unlock(rn);
    return done ? (int)done : r;
}

/* ---------------------------------------------------------------- the flusher */

static void flusher_main(void)
{
    for (;;) {
        struct rblock *old = 0;
        for (struct rblock *b = lru.next; ndirty_all && b != &lru; b = b->next)
            if (b->dirty && !b->busy && (!old || time_reached(old->dirtied, b->dirtied)))
                old = b;
        if (old && time_reached(arch_time_ns(), old->dirtied + flush_age_ns)) {
            cache_flush(old->rn);          /* the whole file, as Sprite did */
            continue;
        }
        sleep_until(&flusher_chan, old ? old->dirtied + flush_age_ns : 0);
    }
}

void cache_flusher_start(void)
{
    if (!flusher && !(flusher = kproc_create("rfsflush", flusher_main)))
        panic("rfs: cannot start the flusher");
}
