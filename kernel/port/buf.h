/*
 * Block I/O: the RAM disk (ramdisk.c), the buffer cache on top of it
 * (bio.c), and the write policies that decide when a changed block goes
 * back to the disk (writeback.c).
 *
 * A struct buf holds one disk block.  A process that has a buf from bread()
 * or bnew() holds it "busy" (a sleep-lock: others wanting the block sleep
 * until brelse()), may read and change b->data, and then hands it back
 * with brelse().  Before that, a changed block is passed to one of
 *   bwrite_meta(b)          a metadata change: an inode, a directory, the bitmap
 *   bwrite_data(b, inum)    the contents of file inum (or its block map)
 * and the write policy decides whether it goes to the disk now or later.
 */
#ifndef BUF_H
#define BUF_H

#include "kernel.h"
#include "fsformat.h"

struct buf {
    uint32 blockno;
    int valid;                     /* data holds the block's contents       */
    int busy;                      /* held by a process (sleep-lock)        */
    int wanted;                    /* someone sleeps until it is released   */
    int dirty;                     /* changed, not yet written to the disk  */
    uint32 owner;                  /* dirty for file inode `owner` (0: none) */
    uint64 dirtied;                /* guest time it became dirty            */
    struct buf *hnext;             /* hash chain                            */
    struct buf *prev, *next;       /* LRU list, most recently used first    */
    struct buf *dprev, *dnext;     /* dirty list, oldest first              */
    uint8 *data;                   /* BSIZE bytes                           */
};
/* The hardware model's write log reads b->data at this offset on our
 * 32-bit guests (bdirty's argument; wlog_buf_data= in
 * hw-models/core/options.c); the host tests' 64-bit build differs. */
_Static_assert(sizeof(void *) != 4 || __builtin_offsetof(struct buf, data) == 52,
               "struct buf: update wlog_buf_data");

/* ramdisk.c: the device.  Requests are whole blocks. */
uintptr ramdisk_init(uintptr start, uintptr end);   /* returns the new start */
uint32 ramdisk_nblocks(void);
void   ramdisk_read(uint32 blockno, void *dst);
void   ramdisk_write(uint32 blockno, const void *src);
void   ramdisk_peek(uint32 blockno, void *dst);      /* no counting, no delay */
uint64 disk_request(int write, uint32 blockno, uint32 nblocks);

/* The device-latency model (all zero: no delay). */
struct diskmodel {
    uint32 overhead_ns;            /* every request                        */
    uint32 seek_ns;                /* a request not following the last one */
    uint32 rotation_ns;            /* ... and its rotational delay          */
    uint32 kb_per_s;               /* transfer rate; 0: instant             */
};
extern struct diskmodel diskmodel;

/* bio.c: the buffer cache. */
uintptr bcache_init(uintptr start, uintptr end);    /* returns the new start */
struct buf *bread(uint32 blockno);         /* busy, with the block's contents  */
struct buf *bnew(uint32 blockno);          /* busy, zeroed, nothing read       */
void   brelse(struct buf *b);
void   bwait(struct buf *b);               /* sleep until busy b is released   */
void   bwrite(struct buf *b);              /* to the disk now (b is busy)      */
void   bdirty(struct buf *b, uint32 owner);/* to the disk later                */
void   bforget(uint32 blockno);            /* the block was freed: drop it     */
void   bpeek(uint32 blockno, void *dst);   /* what the file system sees (fsck) */
struct buf *bdirty_oldest(void);           /* head of the dirty list, or 0     */
struct buf *bdirty_next(struct buf *b);    /* the one after b (0: the head)    */
int    bcache_resize(uint32 nbufs);        /* 0, -EINVAL or -EBUSY             */
uint32 bcache_size(void);
uint32 bcache_busy(void);                  /* FSCTL_TABLES: buffers held now */
uint32 bcache_max(void);

/* writeback.c: write policies, sync, and the flusher. */
#define W_DATA 0                   /* the class of a change, for bwrite_class */
#define W_META 1
extern int fs_policy;              /* POLICY_SYNC, _DELAYED, _WRITETHROUGH (abi.h) */
extern uint64 flush_age_ns;
void   bwrite_meta(struct buf *b);
void   bwrite_data(struct buf *b, uint32 inum);
void   bwrite_class(struct buf *b, int wclass, uint32 inum);
void   bsync(void);                        /* every dirty block, now           */
void   bsync_owner(uint32 inum, uint32 from);  /* file inum's dirty blocks >= from */
void   flusher_start(void);
void   flusher_note_dirty(uint64 when);    /* bio.c: the dirty list was empty  */
void   flusher_note_clean(void);           /* bio.c: ... and is empty again    */
void   flusher_kick(void);                 /* the flush age changed            */

#endif
