/*
 * fsck: check a file system for consistency (see fsck.h for the checks and
 * the interface).  Compiled into the kernel and into tools/fsck alike, so it
 * uses no library function at all.
 *
 * It makes passes over the inode table, remembering per block how often it
 * is used and per inode how many entries name it:
 *   1. every allocated inode: its block numbers (direct, indirect, double
 *      indirect) lie in the data area, none is used twice, none lies past
 *      the end of the file;
 *   2. every directory some entry names: its entries are well formed, name
 *      allocated inodes, include "." and "..", and the ".." of a
 *      subdirectory names the parent (an orphan directory is one leak);
 *   3. from the root, which inodes can be reached;
 *   4. link counts, and the free bitmap against the blocks found in use.
 * Problems are counted, and the first few reported through c->say.  Those
 * that only waste space (an inode nothing names, a link count too high, a
 * lost block, a block past the end of its file) are counted in c->leaks as well: a crash may leave them
 * behind under any write order, and they harm nothing but the space.
 *
 * fsck_repair() runs the check, repairs what it safely can from what the
 * check learnt (blockuse, links, istate), and checks again.
 */
#include "fsck.h"

#define MAXSAY 20                      /* report this many problems in full */

/* istate[] bits, besides the inode type in the low two bits. */
#define TYPEMASK 0x03
#define NAMED    0x04                  /* a directory named by some entry   */
#define REACHED  0x08                  /* reachable from the root           */
#define EXPANDED 0x10                  /* its entries were followed         */
#define ANYNAME  0x20                  /* named by an entry besides . and .. */

static unsigned int sw32(const struct fsck *c, unsigned int v)
{
    if (!c->swap)
        return v;
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static unsigned int sw16(const struct fsck *c, unsigned short v)
{
    return c->swap ? (unsigned short)((v >> 8) | (v << 8)) : v;
}

static void problem(struct fsck *c, const char *fmt, unsigned int a, unsigned int b,
                    unsigned int n)
{
    if (c->problems < MAXSAY)
        c->say(c, fmt, a, b, n);
    c->problems++;
}

/* A problem that only wastes space (see c->leaks). */
static void leak(struct fsck *c, const char *fmt, unsigned int a, unsigned int b, unsigned int n)
{
    c->leaks++;
    c->saying_leak = 1;
    problem(c, fmt, a, b, n);
    c->saying_leak = 0;
}

static int zero_name(const char *s, const char *t)     /* strcmp(s, t) == 0 */
{
    while (*s && *s == *t)
        s++, t++;
    return *s == *t;
}

/* Inode inum, converted to our byte order.  0, or -1 if unreadable. */
static int get_inode(struct fsck *c, unsigned int inum, struct dinode *d)
{
    unsigned int bno = IBLOCK(inum, c->sb);
    if (c->ibufno != bno) {
        if (c->read(c, bno, c->ibuf) < 0)
            return -1;
        c->ibufno = bno;
    }
    const struct dinode *src = (const struct dinode *)c->ibuf + inum % IPB;
    d->type = sw16(c, src->type);
    d->nlink = sw16(c, src->nlink);
    d->size = sw32(c, src->size);
    for (int i = 0; i < NADDRS; i++)
        d->addrs[i] = sw32(c, src->addrs[i]);
    return 0;
}

static int in_data_area(struct fsck *c, unsigned int b)
{
    return b >= c->sb.datastart && b < c->sb.nblocks;
}

/* Count one use of block b by inode inum; 0 if it is fit to read. */
static int use_block(struct fsck *c, unsigned int inum, unsigned int b)
{
    if (!in_data_area(c, b)) {
        problem(c, "inode %u: block number %u outside the data area\n", inum, b, 0);
        return -1;
    }
    if (c->blockuse[b]++)
        problem(c, "block %u used twice (again by inode %u)\n", b, inum, 0);
    return 0;
}

/* Pass 1 for one inode: walk its block tree.  `nb` is how many blocks its
 * size covers; blocks at or past nb must not exist. */
static void walk_blocks(struct fsck *c, unsigned int inum, const struct dinode *d)
{
    unsigned int nb = (d->size + BSIZE - 1) / BSIZE;
    if (d->size > (unsigned int)MAXFILEBLOCKS * BSIZE || nb > MAXFILEBLOCKS)
        problem(c, "inode %u: size %u too large\n", inum, d->size, 0);
    for (unsigned int i = 0; i < NDIRECT; i++)
        if (d->addrs[i]) {
            use_block(c, inum, d->addrs[i]);
            if (i >= nb)
                leak(c, "inode %u: block %u past the end of the file\n", inum,
                        d->addrs[i], 0);
        }
    unsigned int ind = d->addrs[NDIRECT];
    if (ind && use_block(c, inum, ind) == 0) {
        if (c->read(c, ind, c->buf[0]) < 0) {
            problem(c, "inode %u: cannot read indirect block %u\n", inum, ind, 0);
        } else {
            for (unsigned int j = 0; j < NINDIRECT; j++) {
                unsigned int b = sw32(c, c->buf[0][j]);
                if (b && use_block(c, inum, b) == 0 && NDIRECT + j >= nb)
                    leak(c, "inode %u: block %u past the end of the file\n", inum, b, 0);
            }
        }
    }
    unsigned int dind = d->addrs[NDIRECT + 1];
    if (dind && use_block(c, inum, dind) == 0) {
        if (c->read(c, dind, c->buf[0]) < 0) {
            problem(c, "inode %u: cannot read double indirect block %u\n", inum, dind, 0);
            return;
        }
        for (unsigned int j = 0; j < NINDIRECT; j++) {
            unsigned int ib = sw32(c, c->buf[0][j]);
            if (!ib || use_block(c, inum, ib) < 0)
                continue;
            if (c->read(c, ib, c->buf[1]) < 0) {
                problem(c, "inode %u: cannot read indirect block %u\n", inum, ib, 0);
                continue;
            }
            for (unsigned int k = 0; k < NINDIRECT; k++) {
                unsigned int b = sw32(c, c->buf[1][k]);
                unsigned int fb = NDIRECT + NINDIRECT + j * NINDIRECT + k;
                if (b && use_block(c, inum, b) == 0 && fb >= nb)
                    leak(c, "inode %u: block %u past the end of the file\n", inum, b, 0);
            }
        }
    }
}

/* Block number of block i of the file (0: hole or unreadable), reading the
 * indirect blocks into buf[1]. */
static unsigned int bmap(struct fsck *c, const struct dinode *d, unsigned int i)
{
    if (i < NDIRECT)
        return d->addrs[i];
    i -= NDIRECT;
    unsigned int ind;
    if (i < NINDIRECT) {
        ind = d->addrs[NDIRECT];
    } else {
        i -= NINDIRECT;
        unsigned int dind = d->addrs[NDIRECT + 1];
        if (!in_data_area(c, dind) || c->read(c, dind, c->buf[1]) < 0)
            return 0;
        ind = sw32(c, c->buf[1][i / NINDIRECT]);
        i %= NINDIRECT;
    }
    if (!in_data_area(c, ind) || c->read(c, ind, c->buf[1]) < 0)
        return 0;
    return sw32(c, c->buf[1][i]);
}

/* Call fn for every used entry of directory dinum, with entry number k
 * (0 is the first).  Each block is read into buf[0]. */
typedef void entry_fn(struct fsck *c, unsigned int dinum, unsigned int k,
                      const struct dirent_disk *e, unsigned int inum);

static void each_entry(struct fsck *c, unsigned int dinum, const struct dinode *d, entry_fn *fn)
{
    const unsigned int per = BSIZE / sizeof(struct dirent_disk);
    unsigned int n = d->size / sizeof(struct dirent_disk);
    for (unsigned int k = 0; k < n; k++) {
        if (k % per == 0) {
            unsigned int b = bmap(c, d, k / per);
            if (!in_data_area(c, b) || c->read(c, b, c->buf[0]) < 0) {
                problem(c, "directory %u: block %u of it unreadable or a hole\n", dinum,
                        k / per, 0);
                k += per - 1;
                continue;
            }
        }
        const struct dirent_disk *e = (const struct dirent_disk *)c->buf[0] + k % per;
        unsigned int inum = sw32(c, e->inum);
        if (inum)
            fn(c, dinum, k, e, inum);
    }
}

/* The ".." entry (entry 1) of directory dinum, or 0. */
static unsigned int dotdot_of(struct fsck *c, unsigned int dinum)
{
    struct dinode d;
    if (get_inode(c, dinum, &d) < 0 || d.size < 2 * sizeof(struct dirent_disk) ||
        !in_data_area(c, d.addrs[0]) || c->read(c, d.addrs[0], c->buf[2]) < 0)
        return 0;
    const struct dirent_disk *e = (const struct dirent_disk *)c->buf[2] + 1;
    return zero_name(e->name, "..") ? sw32(c, e->inum) : 0;
}

/* Pass 2, one entry. */
static void check_entry(struct fsck *c, unsigned int dinum, unsigned int k,
                        const struct dirent_disk *e, unsigned int inum)
{
    unsigned int len = 0;
    while (len < DIRSIZ && e->name[len])
        len++;
    if (len == 0 || len == DIRSIZ)
        problem(c, "directory %u: entry %u has an empty or unterminated name\n", dinum, k, 0);
    for (unsigned int i = 0; i < len; i++)
        if (e->name[i] == '/')
            problem(c, "directory %u: entry %u has a '/' in its name\n", dinum, k, 0);
    if (inum >= c->sb.ninodes || (c->istate[inum] & TYPEMASK) == T_FREE) {
        problem(c, "directory %u: entry %u names free or bad inode %u\n", dinum, k, inum);
        return;
    }
    c->links[inum]++;
    int dot = zero_name(e->name, "."), dotdot = zero_name(e->name, "..");
    if (k == 0 && (!dot || inum != dinum))
        problem(c, "directory %u: first entry is not \".\" naming itself\n", dinum, 0, 0);
    if (k == 1 && !dotdot)
        problem(c, "directory %u: second entry is not \"..\"\n", dinum, 0, 0);
    if ((dot && k != 0) || (dotdot && k != 1))
        problem(c, "directory %u: extra \".\" or \"..\" at entry %u\n", dinum, k, 0);
    if (dot || dotdot || (c->istate[inum] & TYPEMASK) != T_DIR)
        return;
    if (c->istate[inum] & NAMED)
        problem(c, "directory %u has a second name, in directory %u\n", inum, dinum, 0);
    c->istate[inum] |= NAMED;
    unsigned int parent = dotdot_of(c, inum);
    if (parent != dinum)
        problem(c, "directory %u: \"..\" is %u, but directory %u names it\n", inum, parent,
                dinum);
}

/* Pass 2a, one entry: the inode it names has a name. */
static void name_entry(struct fsck *c, unsigned int dinum, unsigned int k,
                       const struct dirent_disk *e, unsigned int inum)
{
    if (k >= 2 && inum < c->sb.ninodes)
        c->istate[inum] |= ANYNAME;
}

/* Pass 3, one entry: a child of a reachable directory is reachable. */
static void reach_entry(struct fsck *c, unsigned int dinum, unsigned int k,
                        const struct dirent_disk *e, unsigned int inum)
{
    if (k >= 2 && inum < c->sb.ninodes)
        c->istate[inum] |= REACHED;
}

static int check_super(struct fsck *c)
{
    if (c->read(c, 1, c->buf[0]) < 0)
        return -1;
    const struct superblock *s = (const struct superblock *)c->buf[0];
    c->swap = 0;
    if (s->magic != FS_MAGIC) {
        c->swap = 1;
        if (sw32(c, s->magic) != FS_MAGIC) {
            problem(c, "bad superblock magic 0x%x\n", s->magic, 0, 0);
            return -1;
        }
    }
    c->sb.magic = FS_MAGIC;
    c->sb.bsize = sw32(c, s->bsize);
    c->sb.nblocks = sw32(c, s->nblocks);
    c->sb.ninodes = sw32(c, s->ninodes);
    c->sb.bmapstart = sw32(c, s->bmapstart);
    c->sb.inodestart = sw32(c, s->inodestart);
    c->sb.datastart = sw32(c, s->datastart);
    const struct superblock *sb = &c->sb;
    unsigned int nbitmap = (sb->nblocks + BPB - 1) / BPB;
    unsigned int ninodeblocks = (sb->ninodes + IPB - 1) / IPB;
    if (sb->bsize != BSIZE || sb->bmapstart != 2 || sb->inodestart != 2 + nbitmap ||
        sb->datastart != sb->inodestart + ninodeblocks || sb->datastart >= sb->nblocks ||
        sb->ninodes < 2) {
        problem(c, "superblock: inconsistent layout (%u blocks, %u inodes)\n", sb->nblocks,
                sb->ninodes, 0);
        return -1;
    }
    if (sb->nblocks > c->maxblocks || sb->ninodes > c->maxinodes) {
        problem(c, "fsck: file system too big for the checker (%u blocks, %u inodes)\n",
                sb->nblocks, sb->ninodes, 0);
        return -1;
    }
    return 0;
}

static void check_bitmap(struct fsck *c)
{
    const struct superblock *sb = &c->sb;
    for (unsigned int b = 0; b < sb->nblocks; b++) {
        if (b % BPB == 0 && c->read(c, BBLOCK(b, *sb), c->buf[0]) < 0) {
            problem(c, "cannot read bitmap block %u\n", BBLOCK(b, *sb), 0, 0);
            return;
        }
        unsigned int bit = b % BPB;
        int marked = (((unsigned char *)c->buf[0])[bit / 8] >> (bit % 8)) & 1;
        int used = c->blockuse[b] != 0;
        if (used && !marked)
            problem(c, "block %u is in use but marked free\n", b, 0, 0);
        if (!used && marked)
            leak(c, "block %u is lost: marked in use, used by nothing\n", b, 0, 0);
        if (b >= sb->datastart) {
            if (used)
                c->used++;
            else
                c->free++;
        }
    }
}

int fsck_run(struct fsck *c)
{
    c->problems = c->leaks = c->files = c->dirs = c->used = c->free = 0;
    c->ibufno = 0;                              /* block 0 never holds inodes */
    if (check_super(c) < 0)
        return -1;
    const struct superblock *sb = &c->sb;
    for (unsigned int b = 0; b < sb->nblocks; b++)
        c->blockuse[b] = b < sb->datastart;     /* boot, super, bitmap, inodes */
    for (unsigned int i = 0; i < sb->ninodes; i++) {
        c->links[i] = 0;
        c->istate[i] = T_FREE;
    }

    /* Pass 1: inodes and their blocks. */
    struct dinode d;
    for (unsigned int i = 1; i < sb->ninodes; i++) {
        if (get_inode(c, i, &d) < 0) {
            problem(c, "cannot read inode %u\n", i, 0, 0);
            continue;
        }
        if (d.type == T_FREE) {
            if (d.nlink || d.size)
                problem(c, "free inode %u is not cleared (nlink %u, size %u)\n", i, d.nlink,
                        d.size);
            continue;
        }
        if (d.type != T_FILE && d.type != T_DIR) {
            problem(c, "inode %u has bad type %u\n", i, d.type, 0);
            continue;
        }
        c->istate[i] = d.type;
        if (d.type == T_FILE)
            c->files++;
        else
            c->dirs++;
        walk_blocks(c, i, &d);
    }
    if ((c->istate[ROOTINO] & TYPEMASK) != T_DIR) {
        problem(c, "the root inode %u is not a directory\n", ROOTINO, 0, 0);
        return c->problems;
    }

    /* Pass 2a: which inodes some entry names. */
    for (unsigned int i = 1; i < sb->ninodes; i++)
        if ((c->istate[i] & TYPEMASK) == T_DIR && get_inode(c, i, &d) == 0)
            each_entry(c, i, &d, name_entry);

    /* Pass 2: directory entries.  A directory that no entry names is an
     * orphan (made but not yet entered when the power failed, or removed
     * but not yet freed): whatever is wrong inside it is part of that one
     * leak, which repair frees whole, so its entries name nothing and
     * count no links (its ".." would otherwise count for its parent). */
    for (unsigned int i = 1; i < sb->ninodes; i++) {
        if ((c->istate[i] & TYPEMASK) != T_DIR || get_inode(c, i, &d) < 0)
            continue;
        if (i != ROOTINO && !(c->istate[i] & ANYNAME))
            continue;                           /* reported in pass 4 */
        if (d.size % sizeof(struct dirent_disk) || d.size < 2 * sizeof(struct dirent_disk))
            problem(c, "directory %u: size %u is not a whole number of entries, or < 2\n",
                    i, d.size, 0);
        each_entry(c, i, &d, check_entry);
    }
    if (dotdot_of(c, ROOTINO) != ROOTINO)
        problem(c, "the root's \"..\" is not the root\n", 0, 0, 0);

    /* Pass 3: reachability, a wave out from the root until nothing changes. */
    c->istate[ROOTINO] |= REACHED;
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned int i = 1; i < sb->ninodes; i++) {
            unsigned char s = c->istate[i];
            if ((s & TYPEMASK) != T_DIR || !(s & REACHED) || (s & EXPANDED))
                continue;
            c->istate[i] |= EXPANDED;
            changed = 1;
            if (get_inode(c, i, &d) == 0)
                each_entry(c, i, &d, reach_entry);
        }
    }

    /* Pass 4: every allocated inode is reachable and its link count right. */
    for (unsigned int i = 1; i < sb->ninodes; i++) {
        if ((c->istate[i] & TYPEMASK) == T_FREE)
            continue;
        /* An inode no entry names at all is a leak (a file created but
         * not yet entered, or removed but not yet freed); one named only
         * from unreachable directories is not. */
        if (!(c->istate[i] & REACHED)) {
            if (c->links[i] == 0)
                leak(c, "inode %u cannot be reached from the root\n", i, 0, 0);
            else
                problem(c, "inode %u cannot be reached from the root\n", i, 0, 0);
        }
        if (get_inode(c, i, &d) == 0 && d.nlink != c->links[i]) {
            if (d.nlink > c->links[i])
                leak(c, "inode %u: link count %u, but %u entries name it\n", i, d.nlink,
                     c->links[i]);
            else
                problem(c, "inode %u: link count %u, but %u entries name it\n", i, d.nlink,
                        c->links[i]);
        }
    }
    check_bitmap(c);
    return c->problems;
}

/* ------------------------------------------------------------ repair */

/* Write inode inum as d (in our byte order) into its block. */
static int put_inode(struct fsck *c, unsigned int inum, const struct dinode *d)
{
    unsigned int bno = IBLOCK(inum, c->sb);
    if (c->read(c, bno, c->buf[2]) < 0)
        return -1;
    struct dinode *dst = (struct dinode *)c->buf[2] + inum % IPB;
    dst->type = (unsigned short)sw16(c, d->type);
    dst->nlink = (unsigned short)sw16(c, d->nlink);
    dst->size = sw32(c, d->size);
    for (int i = 0; i < NADDRS; i++)
        dst->addrs[i] = sw32(c, d->addrs[i]);
    c->ibufno = 0;                     /* the cached inode block is stale */
    if (c->write(c, bno, c->buf[2]) < 0)
        return -1;
    c->fixed++;
    return 0;
}

/* Drop the blocks of inode inum (d, in our byte order) that lie past the
 * end of its size (a crash between writing a block map and the inode's new
 * size leaves them): direct ones, entries of its indirect blocks, and
 * whole indirect blocks the size does not reach.  The bitmap round then
 * frees them. */
static void trim_past_end(struct fsck *c, unsigned int inum, struct dinode *d)
{
    unsigned int nb = (d->size + BSIZE - 1) / BSIZE;
    int changed = 0;
    for (unsigned int i = nb; i < NDIRECT; i++)
        if (d->addrs[i]) {
            d->addrs[i] = 0;
            changed = 1;
        }
    if (d->addrs[NDIRECT] && nb <= NDIRECT) {
        d->addrs[NDIRECT] = 0;
        changed = 1;
    } else if (in_data_area(c, d->addrs[NDIRECT]) && nb < NDIRECT + NINDIRECT &&
               c->read(c, d->addrs[NDIRECT], c->buf[0]) == 0) {
        int cut = 0;
        for (unsigned int j = nb - NDIRECT; j < NINDIRECT; j++)
            if (c->buf[0][j]) {
                c->buf[0][j] = 0;
                cut = 1;
            }
        if (cut && c->write(c, d->addrs[NDIRECT], c->buf[0]) == 0)
            c->fixed++;
    }
    unsigned int dind = d->addrs[NDIRECT + 1];
    if (dind && nb <= NDIRECT + NINDIRECT) {
        d->addrs[NDIRECT + 1] = 0;
        changed = 1;
    } else if (in_data_area(c, dind) && c->read(c, dind, c->buf[1]) == 0) {
        int cut = 0;
        for (unsigned int j = 0; j < NINDIRECT; j++) {
            unsigned int ib = sw32(c, c->buf[1][j]);
            unsigned int base = NDIRECT + NINDIRECT + j * NINDIRECT;
            if (!ib)
                continue;
            if (base >= nb) {                   /* wholly past the end */
                c->buf[1][j] = 0;
                cut = 1;
            } else if (base + NINDIRECT > nb && in_data_area(c, ib) &&
                       c->read(c, ib, c->buf[0]) == 0) {
                int part = 0;
                for (unsigned int k = nb - base; k < NINDIRECT; k++)
                    if (c->buf[0][k]) {
                        c->buf[0][k] = 0;
                        part = 1;
                    }
                if (part && c->write(c, ib, c->buf[0]) == 0)
                    c->fixed++;
            }
        }
        if (cut && c->write(c, dind, c->buf[1]) == 0)
            c->fixed++;
    }
    if (changed)
        put_inode(c, inum, d);
}

/* The directory whose entry (other than "." and "..") names inum, or 0. */
static unsigned int parent_of(struct fsck *c, unsigned int inum)
{
    const unsigned int per = BSIZE / sizeof(struct dirent_disk);
    struct dinode d;
    for (unsigned int p = 1; p < c->sb.ninodes; p++) {
        if ((c->istate[p] & TYPEMASK) != T_DIR || get_inode(c, p, &d) < 0)
            continue;
        unsigned int n = d.size / sizeof(struct dirent_disk);
        for (unsigned int k = 2; k < n; k++) {
            if (k % per == 0 || k == 2) {
                unsigned int b = bmap(c, &d, k / per);
                if (!in_data_area(c, b) || c->read(c, b, c->buf[2]) < 0) {
                    k += per - 1 - k % per;
                    continue;
                }
            }
            const struct dirent_disk *e = (const struct dirent_disk *)c->buf[2] + k % per;
            if (sw32(c, e->inum) == inum && !zero_name(e->name, "."))
                return p;
        }
    }
    return 0;
}

/* A named directory whose first block lacks "." or ".." (its block never
 * reached the disk, but its inode and name did): write them in, as the
 * first two entries. */
static void fix_dots(struct fsck *c, unsigned int inum, const struct dinode *d)
{
    unsigned int b = d->addrs[0];
    if (d->size < 2 * sizeof(struct dirent_disk) || !in_data_area(c, b) ||
        c->read(c, b, c->buf[0]) < 0)
        return;
    struct dirent_disk *e = (struct dirent_disk *)c->buf[0];
    if (e[0].inum && e[1].inum)
        return;
    unsigned int parent = inum == ROOTINO ? ROOTINO : parent_of(c, inum);
    if (!parent || c->read(c, b, c->buf[0]) < 0)      /* parent_of used buf[2] only */
        return;
    const char *names[2] = { ".", ".." };
    unsigned int inums[2] = { inum, parent };
    int changed = 0;
    for (int k = 0; k < 2; k++) {
        if (e[k].inum)
            continue;
        for (unsigned int i = 0; i < DIRSIZ; i++)
            e[k].name[i] = 0;
        for (unsigned int i = 0; names[k][i]; i++)
            e[k].name[i] = names[k][i];
        e[k].inum = sw32(c, inums[k]);
        changed = 1;
    }
    if (changed && c->write(c, b, c->buf[0]) == 0)
        c->fixed++;
}

/* Clear every entry of directory dinum that names a free or bad inode. */
static void fix_entries(struct fsck *c, unsigned int dinum, const struct dinode *d)
{
    const unsigned int per = BSIZE / sizeof(struct dirent_disk);
    unsigned int nblocks = (d->size / sizeof(struct dirent_disk) + per - 1) / per;
    for (unsigned int i = 0; i < nblocks; i++) {
        unsigned int b = bmap(c, d, i);
        if (!in_data_area(c, b) || c->read(c, b, c->buf[0]) < 0)
            continue;
        struct dirent_disk *e = (struct dirent_disk *)c->buf[0];
        int changed = 0;
        for (unsigned int k = 0; k < per && i * per + k < d->size / sizeof *e; k++) {
            unsigned int inum = sw32(c, e[k].inum);
            if (inum && (inum >= c->sb.ninodes || (c->istate[inum] & TYPEMASK) == T_FREE)) {
                e[k].inum = 0;
                changed = 1;
            }
        }
        if (changed && c->write(c, b, c->buf[0]) == 0)
            c->fixed++;
    }
}

/* One round of the repairs that change inodes and entries; the bitmap
 * waits for a round with none (the blocks in use are known only then). */
static int repair_inodes(struct fsck *c)
{
    unsigned int before = c->fixed;
    struct dinode d;
    for (unsigned int i = 1; i < c->sb.ninodes; i++) {
        if (get_inode(c, i, &d) < 0)
            continue;
        unsigned int type = c->istate[i] & TYPEMASK;
        if (type == T_FREE) {
            if (d.type == T_FREE && (d.nlink || d.size)) {   /* not cleared */
                for (int k = 0; k < NADDRS; k++)
                    d.addrs[k] = 0;
                d.nlink = 0;
                d.size = 0;
                put_inode(c, i, &d);
            }
            continue;
        }
        trim_past_end(c, i, &d);
        if (type == T_DIR) {
            fix_entries(c, i, &d);
            if (c->links[i] || i == ROOTINO)
                fix_dots(c, i, &d);
        }
        if (get_inode(c, i, &d) < 0)
            continue;
        /* Nothing names it, or it is a directory cut off from the tree
         * (its "..", reachable or gone, does not name it; only what it
         * holds names it back): free it, and its blocks with it.  What it
         * held is cut off in turn, and freed in the next round. */
        int cut_off = 0;
        if (type == T_DIR && i != ROOTINO && !(c->istate[i] & REACHED)) {
            unsigned int up = dotdot_of(c, i);
            cut_off = up == 0 || (c->istate[up] & TYPEMASK) != T_DIR ||
                      (c->istate[up] & REACHED);
        }
        if (i != ROOTINO && (c->links[i] == 0 || cut_off)) {
            for (int k = 0; k < NADDRS; k++)
                d.addrs[k] = 0;
            d.type = T_FREE;
            d.nlink = 0;
            d.size = 0;
            put_inode(c, i, &d);
        } else if (d.nlink != c->links[i] && c->links[i] > 0) {
            d.nlink = (unsigned short)c->links[i];
            put_inode(c, i, &d);
        }
    }
    return c->fixed != before;
}

/* Make the bitmap mark exactly the blocks in use. */
static void repair_bitmap(struct fsck *c)
{
    const struct superblock *sb = &c->sb;
    for (unsigned int base = 0; base < sb->nblocks; base += BPB) {
        unsigned int bno = BBLOCK(base, *sb);
        if (c->read(c, bno, c->buf[0]) < 0)
            continue;
        unsigned char *bits = (unsigned char *)c->buf[0];
        int changed = 0;
        for (unsigned int bit = 0; bit < BPB && base + bit < sb->nblocks; bit++) {
            unsigned char mask = (unsigned char)(1u << (bit % 8));
            unsigned char want = c->blockuse[base + bit] ? mask : 0;
            if ((bits[bit / 8] & mask) != want) {
                bits[bit / 8] = (unsigned char)((bits[bit / 8] & ~mask) | want);
                changed = 1;
            }
        }
        if (changed && c->write(c, bno, c->buf[0]) == 0)
            c->fixed++;
    }
}

int fsck_repair(struct fsck *c)
{
    unsigned int fixed = 0;
    int r;
    for (int round = 0; round < 64; round++) {
        if ((r = fsck_run(c)) <= 0 || !c->write)
            break;
        c->fixed = 0;
        if (!repair_inodes(c))
            repair_bitmap(c);
        if (c->fixed == 0)
            break;                     /* problems left that it cannot repair */
        fixed += c->fixed;
        r = fsck_run(c);               /* the last round's result, if it ends here */
    }
    c->fixed = fixed;
    return r;
}
