/*
 * The superblock and the free-block bitmap.
 *
 * balloc() takes the first free block (first fit keeps a file's blocks
 * close together and reuses the blocks of deleted files at once) and
 * bfree() gives one back.  Neither writes the bitmap block through the
 * write policy itself: a write() may allocate a hundred blocks, and a
 * policy that writes metadata at once should write the bitmap block once,
 * not a hundred times.  So they mark it dirty and note it as pending, and
 * the caller ends with bitmap_commit(), which hands the pending bitmap
 * blocks to the write policy with the class of the whole operation.
 */
#include "kernel.h"
#include "buf.h"
#include "fs.h"

struct superblock sb;
static uint32 pending_lo = ~0u, pending_hi;    /* bitmap blocks to commit */

void fs_init(void)
{
    struct buf *b = bread(1);
    memcpy(&sb, b->data, sizeof sb);
    brelse(b);
    if (sb.magic != FS_MAGIC || sb.bsize != BSIZE || sb.nblocks != ramdisk_nblocks())
        panic("fs: bad superblock");
}

static void pending(uint32 bmapblock)
{
    if (bmapblock < pending_lo)
        pending_lo = bmapblock;
    if (bmapblock > pending_hi)
        pending_hi = bmapblock;
}

int balloc(uint32 *blockno)
{
    for (uint32 base = 0; base < sb.nblocks; base += BPB) {
        struct buf *bp = bread(BBLOCK(base, sb));
        const uint32 *words = (const uint32 *)bp->data;
        for (uint32 w = 0; w < BSIZE / 4; w++) {
            if (words[w] == 0xffffffffu)
                continue;                      /* 32 blocks in use */
            for (uint32 bit = w * 32; bit < w * 32 + 32; bit++) {
                uint32 b = base + bit;
                if (b >= sb.nblocks)
                    break;
                uint8 mask = 1 << (bit % 8);
                if (bp->data[bit / 8] & mask)
                    continue;
                bp->data[bit / 8] |= mask;
                bdirty(bp, 0);
                pending(bp->blockno);
                brelse(bp);
                *blockno = b;
                return 0;
            }
        }
        brelse(bp);
    }
    return -ENOSPC;
}

void bfree(uint32 blockno)
{
    if (blockno < sb.datastart || blockno >= sb.nblocks)
        panic("bfree: block %u is not a data block", blockno);
    struct buf *bp = bread(BBLOCK(blockno, sb));
    uint32 bit = blockno % BPB;
    uint8 mask = 1 << (bit % 8);
    if (!(bp->data[bit / 8] & mask))
        panic("bfree: block %u is already free", blockno);
    bp->data[bit / 8] &= ~mask;
    bdirty(bp, 0);
    pending(bp->blockno);
    brelse(bp);
    bforget(blockno);
}

/*
 * Under sync, a file's new blocks are marked in the cached bitmap only
 * until the file is closed, and its cached inode points at them.  An inode
 * block written at once (a metadata change of any file in it) would carry
 * that inode to the disk before the marks: so the caller writes the dirty
 * bitmap blocks first (docs/crashtest.md).  Outside itrunc they hold only
 * such marks of blocks in use, never a free, so this order is safe; itrunc
 * calls it before it frees anything.  Other policies: nothing to do
 * (delayed writes nothing now, writethrough has no dirty bitmap).
 */
void bitmap_flush(int wclass)
{
    if (fs_policy != POLICY_SYNC || wclass != W_META)
        return;
    for (uint32 i = sb.bmapstart; i < sb.inodestart; i++) {
        struct buf *b = bread(i);
        if (b->dirty)
            bwrite(b);
        brelse(b);
    }
}

/* Returns how many bitmap blocks were pending (0: nothing was allocated
 * or freed since the last commit). */
int bitmap_commit(int wclass, uint32 inum)
{
    int n = 0;
    while (pending_lo <= pending_hi) {
        uint32 b = pending_lo++;
        struct buf *bp = bread(b);
        if (bp->dirty)
            bwrite_class(bp, wclass, inum);
        brelse(bp);
        n++;
    }
    pending_lo = ~0u;
    pending_hi = 0;
    return n;
}
