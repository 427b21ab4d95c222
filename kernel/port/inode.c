/*
 * Inodes: the table of in-memory inodes, allocation and freeing on the
 * disk, and the contents of files (block map, read, write, truncate).
 *
 * The table (NINODE entries) also caches inodes nobody holds: an entry with
 * no references keeps its copy of the disk inode until the entry is needed
 * for another, so opening the same file again needs no disk read.  Every
 * change to an inode goes through its one table entry, so the copy never
 * goes stale.
 *
 * A file's block map: addrs[0..11] are its first 12 blocks, addrs[12] an
 * indirect block holding the next 256 block numbers, addrs[13] a double-
 * indirect block of 256 indirect blocks, which is 64 MB in all.  Block
 * number 0 is a hole: it reads as zeros, and writing it allocates a block.
 */
#include "kernel.h"
#include "proc.h"
#include "buf.h"
#include "fs.h"

static struct inode itable[NINODE];
static uint32 ifree_hint = 1;          /* no free inode below this number */

struct inode *iget(uint32 inum)
{
    struct inode *spare = 0;
    for (struct inode *ip = itable; ip < &itable[NINODE]; ip++) {
        if (ip->inum == inum && (ip->ref > 0 || ip->valid)) {
            ip->ref++;
            return ip;
        }
        /* Recycle an entry nobody holds, preferring one that caches nothing. */
        if (ip->ref == 0 && (!spare || (spare->valid && !ip->valid)))
            spare = ip;
    }
    if (!spare)
        return 0;
    spare->inum = inum;
    spare->ref = 1;
    spare->valid = 0;
    return spare;
}

struct inode *idup(struct inode *ip)
{
    ip->ref++;
    return ip;
}

static inline void iload(struct inode *ip);   /* below: the on-disk inode read in */
void ilock(struct inode *ip)
{
    assert(ip->ref > 0);
    while (ip->busy) {
        ip->wanted = 1;
        sleep(ip);
    }
    ip->busy = 1;
    if (ip->valid)
        return;
    iload(ip);
    ip->valid = 1;
    if (ip->type == T_FREE)
        panic("ilock: inode %u is free (the file system is corrupt)", ip->inum);
}

void iunlock(struct inode *ip)
{
    assert(ip->busy);
    ip->busy = 0;
    if (ip->wanted) {                  /* wakeup() scans every process: only if needed */
        ip->wanted = 0;
        wakeup(ip);
    }
}

/* Drop a reference.  The last reference to an inode no directory names
 * frees it: its blocks, then the inode itself. */
void iput(struct inode *ip)
{
    if (ip->ref == 1 && ip->valid && ip->nlink == 0) {
        ip->busy = 1;                  /* nobody else holds it: no wait */
        ip->type = T_FREE;             /* itrunc writes it free, then frees its blocks */
        itrunc(ip, W_META);
        ip->valid = 0;
        if (ip->inum < ifree_hint)
            ifree_hint = ip->inum;
        iunlock(ip);
    }
    ip->ref--;
}

void iunlockput(struct inode *ip)
{
    iunlock(ip);
    iput(ip);
}

/* Write ip's copy into its inode block (iupdate without bitmap_flush). */
static void iwrite(struct inode *ip, int wclass)
{
    struct buf *b = bread(IBLOCK(ip->inum, sb));
    struct dinode *d = (struct dinode *)b->data + ip->inum % IPB;
    d->type = ip->type;
    d->nlink = ip->nlink;
    d->size = ip->size;
    memcpy(d->addrs, ip->addrs, sizeof ip->addrs);
    bwrite_class(b, wclass, ip->inum);
    brelse(b);
}

void iupdate(struct inode *ip, int wclass)
{
    bitmap_flush(wclass);              /* the block may hold other files' inodes */
    iwrite(ip, wclass);
}

/* Allocate an inode on the disk, initialised and written in one go (one
 * write, not two, under the sync policy).  Returns it locked. */
int ialloc(uint16 type, uint16 nlink, struct inode **ipp)
{
    for (uint32 inum = ifree_hint; inum < sb.ninodes; inum++) {
        struct buf *b = bread(IBLOCK(inum, sb));
        struct dinode *d = (struct dinode *)b->data + inum % IPB;
        for (; inum < sb.ninodes; inum++, d++) {
            if (d->type == T_FREE) {
                struct inode *ip = iget(inum);
                if (!ip) {
                    brelse(b);
                    return -ENFILE;
                }
                memset(d, 0, sizeof *d);
                d->type = type;
                d->nlink = nlink;
                bitmap_flush(W_META);  /* the block may hold other files' inodes */
                bwrite_meta(b);
                brelse(b);
                ifree_hint = inum + 1;
                ip->valid = 0;
                ilock(ip);
                *ipp = ip;
                return 0;
            }
            if ((inum + 1) % IPB == 0)
                break;                 /* the end of this block */
        }
        brelse(b);
    }
    return -ENOSPC;
}

/*
 * Entry i of the indirect block whose number is in *ind, allocating the
 * indirect block (if *ind is 0) and the entry, when `alloc`.  ind_new says
 * *ind was just allocated, so its old contents are not to be read.
 * *out is the entry (0: a hole); *fresh is set if it was just allocated.
 */
static int indirect(struct inode *ip, uint32 *ind, int ind_new, uint32 i, int alloc,
                    int wclass, uint32 *out, int *fresh)
{
    int r;
    *out = 0;
    if (*ind == 0) {
        if (!alloc)
            return 0;
        if ((r = balloc(ind)) < 0)
            return r;
        ind_new = 1;
    }
    struct buf *b = ind_new ? bnew(*ind) : bread(*ind);
    uint32 *entry = (uint32 *)b->data + i;
    int changed = ind_new;
    r = 0;
    if (*entry == 0 && alloc) {
        if ((r = balloc(entry)) == 0) {
            *fresh = 1;
            changed = 1;
        }
    }
    *out = *entry;
    if (changed)
        bwrite_class(b, wclass, ip->inum);
    brelse(b);
    return r;
}

/* The disk block of file block fb, allocated if `alloc` and missing. */
static int bmap(struct inode *ip, uint32 fb, int alloc, int wclass, uint32 *out, int *fresh)
{
    *fresh = 0;
    if (fb < NDIRECT) {
        if (!ip->addrs[fb] && alloc) {
            int r = balloc(&ip->addrs[fb]);
            if (r < 0)
                return r;
            *fresh = 1;
        }
        *out = ip->addrs[fb];
        return 0;
    }
    fb -= NDIRECT;
    if (fb < NINDIRECT)
        return indirect(ip, &ip->addrs[NDIRECT], 0, fb, alloc, wclass, out, fresh);
    fb -= NINDIRECT;
    if (fb >= NINDIRECT * NINDIRECT)
        return -EFBIG;
    uint32 l1;
    int l1_new = 0;
    int r = indirect(ip, &ip->addrs[NDIRECT + 1], 0, fb / NINDIRECT, alloc, wclass, &l1, &l1_new);
    *out = 0;
    if (r < 0 || l1 == 0)
        return r;
    return indirect(ip, &l1, l1_new, fb % NINDIRECT, alloc, wclass, out, fresh);
}

uint32 iblock(struct inode *ip, uint32 fb)
{
    uint32 b;
    int fresh;
    return bmap(ip, fb, 0, W_DATA, &b, &fresh) < 0 ? 0 : b;
}

/* Free the blocks an indirect block lists (level 1) or, for a double-
 * indirect block (level 2), those of each indirect block it lists. */
static void free_indirect(uint32 blockno, int level)
{
    struct buf *b = bread(blockno);
    const uint32 *entry = (const uint32 *)b->data;
    for (int i = 0; i < NINDIRECT; i++) {
        if (!entry[i])
            continue;
        if (level > 1)
            free_indirect(entry[i], level - 1);
        else
            bfree(entry[i]);
    }
    brelse(b);
    bfree(blockno);
}

/*
 * Free all of the file's blocks, and write the inode.  The order is what a
 * crash can survive: first the inode without its blocks, then the bitmap
 * that frees them.  A crash between the two leaves blocks marked in use
 * that nothing uses (lost space, which fsck -y reclaims).  The other order
 * would leave the inode pointing at blocks marked free, which the next
 * file to grow would be given too (docs/crashtest.md).  bfree only marks
 * the bitmap block dirty; bitmap_commit hands it to the write policy.
 */
void itrunc(struct inode *ip, int wclass)
{
    bitmap_flush(wclass);              /* before the bitmap holds frees */
    for (int i = 0; i < NDIRECT; i++)
        if (ip->addrs[i]) {
            bfree(ip->addrs[i]);
            ip->addrs[i] = 0;
        }
    if (ip->addrs[NDIRECT])
        free_indirect(ip->addrs[NDIRECT], 1);
    if (ip->addrs[NDIRECT + 1])
        free_indirect(ip->addrs[NDIRECT + 1], 2);
    ip->addrs[NDIRECT] = ip->addrs[NDIRECT + 1] = 0;
    ip->size = 0;
    iwrite(ip, wclass);
    bitmap_commit(wclass, ip->inum);
}

static const uint8 zeros[BSIZE];

/* Copy n bytes to dst, a user address or (user == 0) a kernel one. */
static int copy_out(int user, uintptr dst, const void *src, uint32 n)
{
    if (user)
        return copyout(dst, src, n);
    memcpy((void *)dst, src, n);
    return 0;
}

static int copy_in(int user, void *dst, uintptr src, uint32 n)
{
    if (user)
        return copyin(dst, src, n);
    memcpy(dst, (const void *)src, n);
    return 0;
}

/* Read up to n bytes at off; returns the count (0 at or past the end) or -EFAULT. */
int readi(struct inode *ip, int user, uintptr dst, uint32 off, uint32 n)
{
    if (off >= ip->size)
        return 0;
    if (n > ip->size - off)
        n = ip->size - off;
    uint32 done = 0;
    while (done < n) {
        uint32 in = off % BSIZE;
        uint32 m = BSIZE - in < n - done ? BSIZE - in : n - done;
        uint32 blockno = iblock(ip, off / BSIZE);
        int r;
        if (blockno == 0) {
            r = copy_out(user, dst, zeros, m);
        } else {
            struct buf *b = bread(blockno);
            r = copy_out(user, dst, b->data + in, m);
            brelse(b);
        }
        if (r < 0)
            return done ? (int)done : r;
        done += m;
        off += m;
        dst += m;
    }
    return done;
}

/*
 * Write n bytes at off, allocating blocks as needed, and grow the file.
 * Returns the count written, or -errno if nothing was (ENOSPC, EFBIG,
 * EFAULT).  A full disk stops the write where it is, leaving the file
 * consistent: what was written so far is in it, and nothing more.
 */
int writei(struct inode *ip, int user, uintptr src, uint32 off, uint32 n, int wclass)
{
    const uint32 maxsize = MAXFILEBLOCKS * BSIZE;       /* 64 MB and a bit */
    if (off >= maxsize)
        return -EFBIG;
    if (n > maxsize - off)
        n = maxsize - off;
    uint32 done = 0;
    int r = 0, grew = 0;
    while (done < n) {
        uint32 in = off % BSIZE;
        uint32 m = BSIZE - in < n - done ? BSIZE - in : n - done;
        uint32 blockno;
        int fresh;
        if ((r = bmap(ip, off / BSIZE, 1, wclass, &blockno, &fresh)) < 0)
            break;
        grew |= fresh;
        /* A new block need not be read: it starts as zeros. */
        struct buf *b = fresh ? bnew(blockno) : bread(blockno);
        r = copy_in(user, b->data + in, src, m);
        /* Even a copy that faulted half way may have changed the block,
         * so it is written either way; only whole copies count. */
        bwrite_class(b, wclass, ip->inum);
        brelse(b);
        if (r < 0)
            break;
        done += m;
        off += m;
        src += m;
    }
    if (off > ip->size) {
        ip->size = off;
        grew = 1;
    }
    /* Blocks were allocated (even if the write then failed), or the file
     * grew: the bitmap and the inode changed. */
    if (bitmap_commit(wclass, ip->inum) || grew)
        iupdate(ip, wclass);
    return done ? (int)done : r;
}

/*
 * fsync: the file's data, its inode and the bitmap, to the disk now, in
 * the order a crash can survive: the bitmap first (the blocks the file was
 * given are marked in use before anything on the disk points at them),
 * then the file's blocks in the data area (contents and block maps), then
 * its inode.  Each goes by name, not by its owner tag: the bitmap block and
 * the inode block are shared with other files, and carry the tag of the
 * last one that changed them (docs/crashtest.md).
 */
void fsync_inode(struct inode *ip)
{
    struct buf *b;
    for (uint32 i = sb.bmapstart; i < sb.inodestart; i++) {
        b = bread(i);
        if (b->dirty)
            bwrite(b);
        brelse(b);
    }
    bsync_owner(ip->inum, sb.datastart);
    b = bread(IBLOCK(ip->inum, sb));
    if (b->dirty)
        bwrite(b);
    brelse(b);
}

/* fsck -y changed inodes on the disk (kernel/port/sysfile.c): forget the
 * copies nobody holds, and read again those somebody does (the root, a
 * current directory).  Nothing is locked: fsck runs between system calls
 * of the file system. */
void inodes_reload(void)
{
    for (struct inode *ip = itable; ip < &itable[NINODE]; ip++) {
        if (ip->ref == 0 || !ip->valid) {
            ip->valid = 0;
            continue;
        }
        iload(ip);
    }
    ifree_hint = 1;
}

/* FSCTL_TABLES' counts: the entries somebody references, and of those the ones
 * locked (between system calls, none should be). */
uint32 inodes_held(uint32 *locked)
{
    uint32 n = 0;
    *locked = 0;
    for (struct inode *ip = itable; ip < &itable[NINODE]; ip++) {
        n += ip->ref > 0;
        *locked += ip->ref > 0 && ip->busy;
    }
    return n;
}

/* Copy ip's on-disk inode into the in-memory one (ilock, inodes_reload). */
static inline void iload(struct inode *ip)
{
    struct buf *b = bread(IBLOCK(ip->inum, sb));
    const struct dinode *d = (const struct dinode *)b->data + ip->inum % IPB;
    ip->type = d->type;
    ip->nlink = d->nlink;
    ip->size = d->size;
    memcpy(ip->addrs, d->addrs, sizeof ip->addrs);
    brelse(b);
}
