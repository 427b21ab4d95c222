/*
 * Directories and path names.
 *
 * A directory is a file of 32-byte entries (struct dirent_disk): an inode
 * number and a name of up to DIRSIZ-1 bytes.  Entry 0 is "." and entry 1
 * is "..".  A free slot has inode number 0 and is reused by the next name
 * added.  Directory changes are metadata (W_META): under the sync policy
 * each one is on the disk before the system call returns.
 *
 * A path is looked up one element at a time from the root ("/a/b") or the
 * process's current directory ("a/b"), holding the lock of one directory
 * at a time.  Errors: ENOENT (an element is missing, or the path is empty),
 * ENOTDIR (an element before the last is not a directory), ENAMETOOLONG (an
 * element longer than DIRSIZ-1 bytes), ENFILE (the inode table is full).
 */
#include "kernel.h"
#include "proc.h"
#include "buf.h"
#include "fs.h"

#define PERBLOCK (BSIZE / sizeof(struct dirent_disk))

static int name_is(const char *name, const char *entry)
{
    return strncmp(name, entry, DIRSIZ) == 0;
}

/* Walk directory dp (locked) a block at a time.  With a name, find the
 * entry of that name; without (name == 0), find the first free slot.
 * Returns the entry's inode number (0: not found) and its offset in *off
 * (for a free slot not found: the end of the directory). */
static uint32 scan(struct inode *dp, const char *name, uint32 *off)
{
    for (uint32 base = 0; base < dp->size; base += BSIZE) {
        uint32 blockno = iblock(dp, base / BSIZE);
        if (!blockno)
            continue;
        struct buf *b = bread(blockno);
        const struct dirent_disk *e = (const struct dirent_disk *)b->data;
        uint32 n = dp->size - base < BSIZE ? (dp->size - base) / sizeof *e : PERBLOCK;
        for (uint32 i = 0; i < n; i++, e++)
            if (name ? e->inum && name_is(name, e->name) : e->inum == 0) {
                uint32 inum = e->inum;
                *off = base + i * sizeof *e;
                brelse(b);
                return name ? inum : 1;
            }
        brelse(b);
    }
    *off = dp->size;
    return 0;
}

/* Look for `name` in directory dp (locked).  Returns its inode number, or 0
 * if there is none; *off (if asked) is the entry's byte offset. */
int dirlookup(struct inode *dp, const char *name, uint32 *off)
{
    uint32 where;
    uint32 inum = scan(dp, name, &where);
    if (inum && off)
        *off = where;
    return inum;
}

/* Add the entry (name, inum) to dp (locked): in the first free slot, or at
 * the end.  0, or -ENAMETOOLONG, -ENOSPC (the directory cannot grow). */
int dirlink(struct inode *dp, const char *name, uint32 inum)
{
    if (strlen(name) >= DIRSIZ)
        return -ENAMETOOLONG;
    uint32 off;
    struct dirent_disk e;
    scan(dp, 0, &off);
    memset(&e, 0, sizeof e);
    strncpy_safe(e.name, name, DIRSIZ);
    e.inum = inum;
    int r = writei(dp, 0, (uintptr)&e, off, sizeof e, W_META);
    if (r == sizeof e)
        return 0;
    return r < 0 ? r : -ENOSPC;
}

/* Is directory dp (locked) empty but for "." and ".."? */
int dir_isempty(struct inode *dp)
{
    struct dirent_disk e;
    for (uint32 off = 2 * sizeof e; off < dp->size; off += sizeof e) {
        if (readi(dp, 0, (uintptr)&e, off, sizeof e) != sizeof e)
            panic("dir_isempty: cannot read directory %u", dp->inum);
        if (e.inum != 0)
            return 0;
    }
    return 1;
}

/* Copy the next element of *path into name and step past it.  Returns 1
 * if there was one, 0 at the end, -ENAMETOOLONG if it is too long.
 * "a//b/" has the elements "a" and "b". */
static int next_element(const char **path, char *name)
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

/* The work of namei and nameiparent.  With `parent`, stop one element
 * early: return the directory that would hold the last element, and the
 * element in name; -EINVAL if the path has no last element ("/"). */
static int walk(const char *path, int parent, char *name, struct inode **ipp)
{
    if (*path == 0)
        return -ENOENT;
    struct inode *ip = *path == '/' ? iget(ROOTINO) : idup(curproc->cwd);
    if (!ip)
        return -ENFILE;
    int r;
    while ((r = next_element(&path, name)) > 0) {
        ilock(ip);
        if (ip->type != T_DIR) {
            iunlockput(ip);
            return -ENOTDIR;
        }
        if (parent && *path == 0) {
            iunlock(ip);
            *ipp = ip;
            return 0;
        }
        uint32 inum = dirlookup(ip, name, 0);
        if (!inum) {
            iunlockput(ip);
            return -ENOENT;
        }
        struct inode *next = iget(inum);
        iunlockput(ip);
        if (!next)
            return -ENFILE;
        ip = next;
    }
    if (r < 0 || parent) {
        iput(ip);
        return r < 0 ? r : -EINVAL;
    }
    *ipp = ip;
    return 0;
}

/* The inode a path names, referenced but not locked. */
int namei(const char *path, struct inode **ipp)
{
    char name[DIRSIZ];
    return walk(path, 0, name, ipp);
}

/* The directory holding the path's last element (referenced, not locked),
 * and that element in name (DIRSIZ bytes). */
int nameiparent(const char *path, char *name, struct inode **dpp)
{
    return walk(path, 1, name, dpp);
}
