/*
 * Write policies: when does a changed block reach the disk?  The question
 * behind the paper's Table 10.  One kernel offers three answers, chosen at
 * run time (fsctl, the guest command `policy`):
 *
 *   sync          UNIX: a metadata change (creating or deleting a file,
 *                 changing a directory) is written to the disk at once and
 *                 the process waits for it; file data is written when the
 *                 file is closed (or fsync'ed).
 *   delayed       Sprite: changed blocks stay in the cache; the flusher
 *                 writes a block once it has been dirty for flush_age_ns
 *                 (30 s of guest time unless changed).  A file deleted
 *                 before then never reaches the disk at all.
 *   writethrough  every change goes to the disk at once.
 *
 * The file system states what kind of change it makes (bwrite_meta or
 * bwrite_data) and this file decides.  The flusher is a kernel process that
 * sleeps until the oldest dirty block comes of age; when nothing is dirty
 * it sleeps with no deadline, so an idle machine has no timer set.  All its
 * times are guest times, so it acts at the same instruction every run.
 */
#include "kernel.h"
#include "proc.h"
#include "buf.h"

int fs_policy = POLICY_SYNC;
uint64 flush_age_ns = 30ull * 1000000000ull;

static struct proc *flusher;
static int flusher_chan;

void bwrite_meta(struct buf *b)
{
    if (fs_policy == POLICY_DELAYED)
        bdirty(b, 0);
    else
        bwrite(b);
}

void bwrite_data(struct buf *b, uint32 inum)
{
    if (fs_policy == POLICY_WRITETHROUGH)
        bwrite(b);
    else
        bdirty(b, inum);
}

void bwrite_class(struct buf *b, int wclass, uint32 inum)
{
    if (wclass == W_META)
        bwrite_meta(b);
    else
        bwrite_data(b, inum);
}

/* Write every dirty buffer that want() picks.  Writing may sleep and change
 * the dirty list, so after each write the walk starts again at the head. */
static void flush_where(int (*want)(struct buf *b, uint32 arg, uint32 from), uint32 arg,
                        uint32 from)
{
    struct buf *b = 0;
    while ((b = bdirty_next(b)) != 0) {
        if (!want(b, arg, from))
            continue;
        if (b->busy) {
            bwait(b);
        } else {
            b->busy = 1;
            bwrite(b);
            brelse(b);
        }
        b = 0;
    }
}

static int any(struct buf *b, uint32 arg, uint32 from) { return 1; }

static int owned(struct buf *b, uint32 inum, uint32 from)
{
    return b->owner == inum && b->blockno >= from;
}

void bsync(void)
{
    flush_where(any, 0, 0);
}

void bsync_owner(uint32 inum, uint32 from)
{
    flush_where(owned, inum, from);
}

static void flusher_main(void)
{
    for (;;) {
        struct buf *b = bdirty_oldest();
        if (b && time_reached(arch_time_ns(), b->dirtied + flush_age_ns)) {
            if (b->busy) {
                bwait(b);
            } else {
                b->busy = 1;
                bwrite(b);
                brelse(b);
            }
            continue;
        }
        /* Nothing is old enough: sleep until the oldest is (or for ever,
         * if nothing is dirty; flusher_note_dirty sets the alarm then). */
        sleep_until(&flusher_chan, b ? b->dirtied + flush_age_ns : 0);
    }
}

/* bio.c: a block became dirty and none was.  Set the flusher's alarm for
 * when it comes of age, without waking it now (that would cost a context
 * switch for every file a benchmark writes). */
void flusher_note_dirty(uint64 when)
{
    if (flusher)
        set_alarm(flusher, &flusher_chan, when + flush_age_ns);
}

/* bio.c: the last dirty block was written or forgotten: the flusher has
 * nothing to wait for.  Clearing its alarm keeps the timer path the same
 * whether or not an old alarm would have gone off by now: an idle machine
 * jumps to its next alarm at once under -icount, but the harness's next
 * command may arrive first, and a benchmark must not see the difference. */
void flusher_note_clean(void)
{
    if (flusher)
        set_alarm(flusher, &flusher_chan, 0);
}

/* fsctl changed the age: let the flusher look again. */
void flusher_kick(void)
{
    wakeup(&flusher_chan);
}

void flusher_start(void)
{
    flusher = kproc_create("flusher", flusher_main);
    if (!flusher)
        panic("cannot start the flusher");
}
