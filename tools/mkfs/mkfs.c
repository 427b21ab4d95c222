/*
 * mkfs: make a file-system image (layout in kernel/include/fsformat.h) from a
 * directory tree on the host.  Runs on the host at build time; the image is
 * then linked into the kernel as bytes and becomes the RAM disk
 * (kernel/port/ramdisk.c).
 *
 *   mkfs [-n BLOCKS] [-i INODES] [-B] IMAGE DIR
 *
 * DIR becomes the root directory: its files and subdirectories are copied
 * in, in name order (so the same tree always gives the same image).  -n is
 * the size of the disk in blocks (default 4096, i.e. 4 MB), -i the number of
 * inodes (default 1024), -B writes a big-endian image (for the m68k).
 *
 * mkfs fills the disk from the front, so everything past the last block it
 * used is zeros; IMAGE holds only the blocks up to that one, and the kernel
 * (and tools/fsck) take the missing rest as zeros.  That keeps the kernel
 * image small while the disk itself is as large as -n says.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsformat.h"

static unsigned char *disk;            /* the whole disk, nblocks * BSIZE */
static struct superblock sb;           /* in host byte order              */
static struct dinode *inodes;          /* the inode table, host order     */
static uint32_t nextblock, nextinode = ROOTINO;
static int bigendian;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "mkfs: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    exit(1);
}

/* Numbers as the target machine stores them: swapped if its byte order
 * is not the host's. */
static int swapping(void)
{
    int host_big = *(const unsigned char *)&(uint16_t){ 1 } == 0;
    return host_big != bigendian;
}

static uint32_t t32(uint32_t v)
{
    if (!swapping())
        return v;
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint16_t t16(uint16_t v)
{
    return swapping() ? (uint16_t)(v >> 8 | v << 8) : v;
}

static unsigned char *block(uint32_t b)
{
    return disk + (size_t)b * BSIZE;
}

static uint32_t alloc_block(void)
{
    if (nextblock >= sb.nblocks)
        die("disk full (%s): make it bigger with -n", "too many files");
    return nextblock++;
}

static uint32_t alloc_inode(uint16_t type)
{
    if (nextinode >= sb.ninodes)
        die("out of inodes (%s): make more with -i", "too many files");
    inodes[nextinode].type = type;
    return nextinode++;
}

/* Slot `i` of indirect block `ib`, allocating the block that goes there. */
static uint32_t indirect_slot(uint32_t ib, uint32_t i)
{
    uint32_t *slot = (uint32_t *)block(ib) + i;
    if (!*slot)
        *slot = t32(alloc_block());
    return t32(*slot);
}

/* The disk block holding block fb of inode inum, allocated if need be. */
static uint32_t bmap(uint32_t inum, uint32_t fb)
{
    struct dinode *d = &inodes[inum];
    if (fb < NDIRECT) {
        if (!d->addrs[fb])
            d->addrs[fb] = alloc_block();
        return d->addrs[fb];
    }
    fb -= NDIRECT;
    if (fb < NINDIRECT) {
        if (!d->addrs[NDIRECT])
            d->addrs[NDIRECT] = alloc_block();
        return indirect_slot(d->addrs[NDIRECT], fb);
    }
    fb -= NINDIRECT;
    if (fb >= (uint32_t)NINDIRECT * NINDIRECT)
        die("file too large for the file system (%s)", "over MAXFILEBLOCKS");
    if (!d->addrs[NDIRECT + 1])
        d->addrs[NDIRECT + 1] = alloc_block();
    uint32_t ib = indirect_slot(d->addrs[NDIRECT + 1], fb / NINDIRECT);
    return indirect_slot(ib, fb % NINDIRECT);
}

static void append(uint32_t inum, const void *data, uint32_t n)
{
    const unsigned char *p = data;
    struct dinode *d = &inodes[inum];
    while (n > 0) {
        uint32_t off = d->size % BSIZE;
        uint32_t chunk = BSIZE - off < n ? BSIZE - off : n;
        memcpy(block(bmap(inum, d->size / BSIZE)) + off, p, chunk);
        d->size += chunk;
        p += chunk;
        n -= chunk;
    }
}

static void add_entry(uint32_t dir, const char *name, uint32_t inum)
{
    struct dirent_disk de;
    memset(&de, 0, sizeof de);
    if (strlen(name) >= DIRSIZ)
        die("name too long for a directory entry: %s", name);
    strcpy(de.name, name);
    de.inum = t32(inum);
    append(dir, &de, sizeof de);
    inodes[inum].nlink++;
}

static uint32_t make_dir(uint32_t parent)
{
    uint32_t d = alloc_inode(T_DIR);
    add_entry(d, ".", d);
    add_entry(d, "..", parent ? parent : d);
    return d;
}

static void copy_file(uint32_t inum, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot read %s", path);
    unsigned char buf[BSIZE];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        append(inum, buf, (uint32_t)n);
    fclose(f);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Copy the host directory `path` into file-system directory `dir`. */
static void copy_tree(uint32_t dir, const char *path)
{
    DIR *dp = opendir(path);
    if (!dp)
        die("cannot open directory %s", path);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof *names, by_name);

    for (size_t i = 0; i < n; i++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
        struct stat st;
        if (stat(sub, &st) < 0)
            die("cannot stat %s", sub);
        if (S_ISDIR(st.st_mode)) {
            uint32_t d = make_dir(dir);
            add_entry(dir, names[i], d);
            copy_tree(d, sub);
        } else if (S_ISREG(st.st_mode)) {
            uint32_t f = alloc_inode(T_FILE);
            add_entry(dir, names[i], f);
            copy_file(f, sub);
        } else {
            die("not a file or directory: %s", sub);
        }
        free(names[i]);
    }
    free(names);
}

/* Write the superblock, the inode table and the bitmap in target order. */
static void finish(void)
{
    struct superblock *s = (struct superblock *)block(1);
    s->magic = t32(FS_MAGIC);
    s->bsize = t32(BSIZE);
    s->nblocks = t32(sb.nblocks);
    s->ninodes = t32(sb.ninodes);
    s->bmapstart = t32(sb.bmapstart);
    s->inodestart = t32(sb.inodestart);
    s->datastart = t32(sb.datastart);

    for (uint32_t i = 0; i < sb.ninodes; i++) {
        struct dinode *d = (struct dinode *)block(IBLOCK(i, sb)) + i % IPB;
        d->type = t16(inodes[i].type);
        d->nlink = t16(inodes[i].nlink);
        d->size = t32(inodes[i].size);
        for (int k = 0; k < NADDRS; k++)
            d->addrs[k] = t32(inodes[i].addrs[k]);
    }
    for (uint32_t b = 0; b < nextblock; b++)
        block(BBLOCK(b, sb))[b % BPB / 8] |= 1 << (b % 8);
}

static void usage(void)
{
    fprintf(stderr, "usage: mkfs [-n BLOCKS] [-i INODES] [-B] IMAGE DIR\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    uint32_t nblocks = 4096, ninodes = 1024;
    int opt;
    while ((opt = getopt(argc, argv, "n:i:B")) != -1) {
        switch (opt) {
        case 'n': nblocks = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'i': ninodes = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'B': bigendian = 1; break;
        default: usage();
        }
    }
    if (argc - optind != 2)
        usage();
    const char *image = argv[optind], *root = argv[optind + 1];

    sb.nblocks = nblocks;
    sb.ninodes = ninodes;
    sb.bmapstart = 2;
    sb.inodestart = sb.bmapstart + (nblocks + BPB - 1) / BPB;
    sb.datastart = sb.inodestart + (ninodes + IPB - 1) / IPB;
    if (ninodes < 2 || sb.datastart + 1 >= nblocks)
        die("%s", "disk too small for its inode table");
    disk = calloc(nblocks, BSIZE);
    inodes = calloc(ninodes, sizeof *inodes);
    if (!disk || !inodes)
        die("%s", "out of memory");
    nextblock = sb.datastart;

    uint32_t rootino = make_dir(0);
    if (rootino != ROOTINO)
        die("%s", "the root is not inode ROOTINO");
    copy_tree(rootino, root);
    finish();

    FILE *f = fopen(image, "wb");
    if (!f || fwrite(disk, BSIZE, nextblock, f) != nextblock || fclose(f) != 0)
        die("cannot write %s", image);
    printf("mkfs: %s: %u of %u blocks used (%u written), %u of %u inodes\n", image,
           (unsigned)(nextblock - sb.datastart), (unsigned)(nblocks - sb.datastart),
           (unsigned)nextblock, (unsigned)(nextinode - 1), (unsigned)(ninodes - 1));
    return 0;
}
