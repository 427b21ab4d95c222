/*
 * The buffer cache: copies of disk blocks in memory, so that a block read
 * twice is read from the disk once, and a block written may be written to
 * the disk later (see writeback.c for when).
 *
 * Interface (buf.h): bread(blockno) returns the block's buffer, busy (held
 * by the caller alone) and holding the block's contents; bnew(blockno) the
 * same for a block about to be filled from scratch, zeroed without reading
 * the disk; brelse(b) hands it back.  A process wanting a busy buffer sleeps
 * until it is released: with one CPU and interrupts off in the kernel, that
 * busy flag is the whole of the locking.
 *
 * The pool of buffers is fixed at boot (BCACHE_MAX blocks, taken from the
 * start of free memory like the RAM disk), and the number in use can be
 * changed later (fsctl, when nothing is busy) so the harness can choose the
 * cache size.  Buffers are found through a hash table and recycled least
 * recently used first.  A recycled buffer that is dirty is written first.
 * brelse wakes sleepers only if there are any, as UNIX's B_WANTED flag
 * did: wakeup() scans the whole process table, which would cost more than
 * the rest of a cache hit.
 * Dirty buffers are also kept on a list in the order they became dirty, so
 * the flusher finds the oldest at the head.
 */
#include "kernel.h"
#include "proc.h"
#include "buf.h"

#define NHASH 1024                     /* a power of two */

static struct buf *pool;               /* BCACHE_MAX of them */
static uint32 nbufs;                   /* how many are in use now */
static struct buf *hash[NHASH];
static struct buf lru;                 /* list head: lru.next is the most recent */
static struct buf dirtyq;              /* list head: dirtyq.dnext is the oldest  */
static int anybuf_chan;                /* sleep here when every buffer is busy   */
static int anybuf_waiters;

/* Sleep until b is released. */
static void wait_for(struct buf *b)
{
    b->wanted = 1;
    sleep(b);
}

static struct buf **bucket(uint32 blockno)
{
    return &hash[blockno & (NHASH - 1)];
}

static void hash_remove(struct buf *b)
{
    for (struct buf **pp = bucket(b->blockno); *pp; pp = &(*pp)->hnext)
        if (*pp == b) {
            *pp = b->hnext;
            return;
        }
}

static struct buf *lookup(uint32 blockno)
{
    for (struct buf *b = *bucket(blockno); b; b = b->hnext)
        if (b->blockno == blockno)
            return b;
    return 0;
}

static void lru_unlink(struct buf *b)
{
    b->prev->next = b->next;
    b->next->prev = b->prev;
}

static void lru_push_front(struct buf *b)
{
    b->next = lru.next;
    b->prev = &lru;
    lru.next->prev = b;
    lru.next = b;
}

static void dirty_unlink(struct buf *b)
{
    b->dprev->dnext = b->dnext;
    b->dnext->dprev = b->dprev;
    b->dirty = 0;
    b->owner = 0;
    if (dirtyq.dnext == &dirtyq)
        flusher_note_clean();
}

/* Put the first n buffers of the pool in use, all empty. */
static void setup(uint32 n)
{
    for (int i = 0; i < NHASH; i++)
        hash[i] = 0;
    lru.next = lru.prev = &lru;
    dirtyq.dnext = dirtyq.dprev = &dirtyq;
    for (uint32 i = 0; i < n; i++) {
        struct buf *b = &pool[i];
        b->valid = b->busy = b->dirty = b->wanted = 0;
        b->owner = 0;
        b->blockno = ~0u;              /* in no hash chain */
        b->hnext = 0;
        lru_push_front(b);
    }
    nbufs = n;
}

uintptr bcache_init(uintptr start, uintptr end)
{
    uintptr p = (start + 15) & ~(uintptr)15;
    pool = (struct buf *)p;
    p += BCACHE_MAX * sizeof(struct buf);
    p = PGROUNDUP(p);
    if (p + (uint64)BCACHE_MAX * BSIZE > end)
        panic("bcache: no memory for %u buffers", BCACHE_MAX);
    for (uint32 i = 0; i < BCACHE_MAX; i++)
        pool[i].data = (uint8 *)p + i * BSIZE;
    setup(BCACHE_DEFAULT);
    return p + BCACHE_MAX * BSIZE;
}

uint32 bcache_size(void) { return nbufs; }
uint32 bcache_max(void)  { return BCACHE_MAX; }

/* FSCTL_TABLES' count of the buffers held (busy) now. */
uint32 bcache_busy(void)
{
    uint32 n = 0;
    for (uint32 i = 0; i < nbufs; i++)
        n += pool[i].busy != 0;
    return n;
}

/* Change the number of buffers in use.  Everything dirty is written first;
 * then the cache starts empty. */
int bcache_resize(uint32 n)
{
    if (n < BCACHE_MIN || n > BCACHE_MAX)
        return -EINVAL;
    bsync();
    for (uint32 i = 0; i < nbufs; i++)
        if (pool[i].busy || pool[i].dirty)
            return -EBUSY;
    setup(n);
    return 0;
}

/* The buffer for blockno, busy, its contents valid or not.  Sleeps while
 * the block is busy elsewhere, or while every buffer is. */
static struct buf *bget(uint32 blockno)
{
    for (;;) {
        struct buf *b = lookup(blockno);
        if (b) {
            if (b->busy) {
                wait_for(b);
                continue;              /* it may even have been recycled */
            }
            b->busy = 1;
            return b;
        }
        /* Not cached: recycle the least recently used buffer not busy. */
        for (b = lru.prev; b != &lru && b->busy; b = b->prev)
            ;
        if (b == &lru) {
            anybuf_waiters++;
            sleep(&anybuf_chan);
            anybuf_waiters--;
            continue;
        }
        if (b->dirty) {
            /* Write it out first; we may sleep meanwhile, so look again. */
            b->busy = 1;
            bwrite(b);
            brelse(b);
            continue;
        }
        hash_remove(b);
        b->blockno = blockno;
        b->valid = 0;
        b->busy = 1;
        b->hnext = *bucket(blockno);
        *bucket(blockno) = b;
        return b;
    }
}

struct buf *bread(uint32 blockno)
{
    struct buf *b = bget(blockno);
    if (b->valid) {
        kstats.bcache_hits++;
    } else {
        kstats.bcache_misses++;
        ramdisk_read(blockno, b->data);
        b->valid = 1;
    }
    return b;
}

struct buf *bnew(uint32 blockno)
{
    struct buf *b = bget(blockno);
    memset(b->data, 0, BSIZE);
    b->valid = 1;
    return b;
}

void brelse(struct buf *b)
{
    assert(b->busy);
    b->busy = 0;
    lru_unlink(b);
    lru_push_front(b);
    if (b->wanted) {
        b->wanted = 0;
        wakeup(b);
    }
    if (anybuf_waiters)
        wakeup(&anybuf_chan);
}

/* Write b to the disk now.  A process waits for it: a synchronous write,
 * unless the waiting process is the flusher (kernel/port/writeback.c). */
void bwrite(struct buf *b)
{
    assert(b->busy);
    if (b->dirty)
        dirty_unlink(b);
    if (curproc && !curproc->kfn)
        kstats.sync_writes++;
    ramdisk_write(b->blockno, b->data);
}

void bdirty(struct buf *b, uint32 owner)
{
    assert(b->busy);
    b->owner = owner;
    if (b->dirty)
        return;
    b->dirty = 1;
    b->dirtied = arch_time_ns();
    int was_empty = dirtyq.dnext == &dirtyq;
    b->dnext = &dirtyq;                 /* append: the newest is last */
    b->dprev = dirtyq.dprev;
    dirtyq.dprev->dnext = b;
    dirtyq.dprev = b;
    if (was_empty)
        flusher_note_dirty(b->dirtied);
}

/* The block was freed: a pending write of it would be wasted (and, were
 * the block reallocated, wrong).  The copy is dropped too. */
void bforget(uint32 blockno)
{
    struct buf *b;
    while ((b = lookup(blockno)) != 0 && b->busy)
        wait_for(b);
    if (!b)
        return;
    if (b->dirty)
        dirty_unlink(b);
    b->valid = 0;
}

/* The block as the file system sees it: the cached copy if there is one
 * (dirty or not), else the disk's.  Touches no list and counts nothing. */
void bpeek(uint32 blockno, void *dst)
{
    struct buf *b = lookup(blockno);
    if (b && b->valid)
        memcpy(dst, b->data, BSIZE);
    else
        ramdisk_peek(blockno, dst);
}

void bwait(struct buf *b)
{
    wait_for(b);
}

struct buf *bdirty_oldest(void)
{
    return dirtyq.dnext == &dirtyq ? 0 : dirtyq.dnext;
}

/* The next dirty buffer after b (0: from the head), or 0 at the end. */
struct buf *bdirty_next(struct buf *b)
{
    struct buf *n = b ? b->dnext : dirtyq.dnext;
    return n == &dirtyq ? 0 : n;
}
