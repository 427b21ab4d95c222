/*
 * The file system's layout on the disk: shared by the kernel (kernel/port/fs*.c),
 * the host tools that make and check images (tools/mkfs, tools/fsck) and the
 * consistency checker that runs in both (kernel/port/fsck.c).
 *
 * The disk is an array of BSIZE-byte blocks:
 *
 *      0         1        2 ...           ...                ...
 *    [ unused | super | free bitmap | inodes | data blocks ... ]
 *
 * The superblock says where each part starts.  The free bitmap has one bit
 * per block of the whole disk (bit b is byte b/8, bit b%8: no byte order),
 * set when the block is in use; the blocks before the data area are marked
 * in use too.  Inodes are numbered from 1 (0 means "no inode"); inode 1 is
 * the root directory.  A directory is a file of struct dirent_disk entries;
 * an entry with inum 0 is free.
 *
 * Multi-byte numbers are in the byte order of the machine that mounts the
 * image: mkfs writes big-endian images for the m68k.  The checker notices a
 * byte-swapped superblock by its magic number.
 *
 * Why 1024-byte blocks: the source files of the Andrew benchmark and the
 * temporary files of create-delete are mostly a few KB, so a small block
 * wastes little, and a 10 KB file is ten device requests, as in the UNIX
 * file systems of the paper (BSD's 1 KB fragments, System V's 1 KB blocks).
 * It is also no larger than the page size of any machine we run, except the
 * VAX's 512-byte page, and the buffer cache takes its memory in one piece.
 */
#ifndef FSFORMAT_H
#define FSFORMAT_H

#define BSIZE        1024               /* bytes per block                    */
#define FS_MAGIC     0x4f555354u        /* "OUST" in the superblock           */
#define ROOTINO      1                  /* the root directory's inode number  */

#define NDIRECT      12                 /* block numbers in the inode itself   */
#define NINDIRECT    (BSIZE / 4)        /* block numbers in an indirect block  */
#define NADDRS       (NDIRECT + 2)      /* + one indirect, one double indirect */
#define MAXFILEBLOCKS (NDIRECT + NINDIRECT + NINDIRECT * NINDIRECT)

#define DIRSIZ       28                 /* bytes of a name in a directory entry */

/* Inode types (dinode.type). */
#define T_FREE       0
#define T_FILE       1
#define T_DIR        2

struct superblock {
    unsigned int magic;                 /* FS_MAGIC                            */
    unsigned int bsize;                 /* BSIZE, as a check                   */
    unsigned int nblocks;               /* size of the disk in blocks          */
    unsigned int ninodes;               /* inodes 1 .. ninodes-1 are usable    */
    unsigned int bmapstart;             /* first block of the free bitmap      */
    unsigned int inodestart;            /* first block of the inode table      */
    unsigned int datastart;             /* first data block                    */
};

/* An inode on the disk: 64 bytes, so 16 to a block.  addrs[0..NDIRECT-1]
 * are the first blocks of the file, addrs[NDIRECT] an indirect block of
 * NINDIRECT more, addrs[NDIRECT+1] a double-indirect block.  A block number
 * 0 is a hole (reads as zeros). */
struct dinode {
    unsigned short type;                /* T_FREE, T_FILE or T_DIR             */
    unsigned short nlink;               /* directory entries naming it         */
    unsigned int size;                  /* bytes                               */
    unsigned int addrs[NADDRS];
};

#define IPB          (BSIZE / sizeof(struct dinode))   /* inodes per block    */
#define BPB          (BSIZE * 8)                       /* bitmap bits per block */

/* A directory entry: a name of at most DIRSIZ-1 bytes, NUL-terminated. */
struct dirent_disk {
    unsigned int inum;                  /* 0: the slot is free                 */
    char name[DIRSIZ];
};

/* Where inode i lives, and which bitmap block holds block b's bit. */
#define IBLOCK(i, sb)  ((sb).inodestart + (i) / IPB)
#define BBLOCK(b, sb)  ((sb).bmapstart + (b) / BPB)

#endif
