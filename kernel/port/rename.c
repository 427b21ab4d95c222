/*
 * rename(from, to): give a file or directory a new name, in one step.
 *
 * POSIX's rules: if `to` names an existing file, it is replaced, and no
 * moment exists at which `to` names nothing; a directory replaces only an
 * empty directory, a file only a file (EISDIR, ENOTDIR, ENOTEMPTY); a
 * directory may not move into itself or below itself (EINVAL), nor may "."
 * or ".." be renamed or be the new name (EINVAL), nor the root (EBUSY);
 * renaming a name to itself, or to another name of the same file, does
 * nothing.  A remote file (kernel/port/rfs/) is on another machine's disk,
 * and the remote protocols have no rename: a path on a mount, either one,
 * is EXDEV, as POSIX says for a rename between file systems.
 *
 * The order of the writes (docs/filesystem.md, "Write order and crashes")
 * makes a crash under the sync policy leave `to` naming the old file or
 * the new one, whole:
 *   1. a regular file being renamed is written to the disk first (its
 *      bitmap, data and inode: fsync_inode), so a new version written and
 *      then renamed over the old one is never half there under the name;
 *   2. its link count goes up by one, on the disk, before the second name
 *      is written: between the two writes below, two entries name it and
 *      its count says two (a crash leaves a consistent file system);
 *   3. `to`'s entry is written in place: it named the old file, now the
 *      new one, in one directory-entry write (one block);
 *   4. `from`'s entry is cleared;
 *   5. the link count goes down again, and a replaced file loses its name
 *      (freed if nothing holds it open): a crash before that leaves only
 *      a leak (a count too high, an inode nothing names).
 * A directory moved to another parent also gets its ".." rewritten and
 * the two parents' counts changed, the new parent's up first, the old
 * one's down last; between steps 3 and 4 such a directory has two names,
 * which fsck reports (docs/filesystem.md).
 *
 * Locks: renames take turns (one `renaming` at a time), so no rename can
 * change which directory lies above which while another checks for a
 * cycle.  Otherwise a directory is locked before an inode in it, as
 * everywhere else, and the moved inode is never above the new parent
 * (the cycle check), so no two processes wait for each other.
 *
 * This file is linked with the late code (Makefile: KERNEL_LATE_OBJS), so
 * that adding it moved as little of the kernel as it could (paging.c,
 * "Placement").
 */
#include "kernel.h"
#include "proc.h"
#include "buf.h"
#include "fs.h"
#include "rfs/rfs.h"

#define IN_DATA __attribute__((section(".data")))   /* paging.c, "Placement" */

static int renaming IN_DATA;                  /* a rename is under way */

static int is_dot(const char *name)
{
    return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

/* Is directory `anc` (an inode number) dp itself or above it?  Walks up
 * through ".." from dp to the root, one directory locked at a time. */
static int is_above(uint32 anc, struct inode *dp)
{
    struct inode *ip = idup(dp);
    for (;;) {
        if (ip->inum == anc) {
            iput(ip);
            return 1;
        }
        if (ip->inum == ROOTINO) {
            iput(ip);
            return 0;
        }
        ilock(ip);
        uint32 up = dirlookup(ip, "..", 0);
        iunlockput(ip);
        if (!up || !(ip = iget(up)))
            return 0;                         /* a removed directory: nothing above */
    }
}

/* Set the entry at offset off of directory dp (locked) to name inum. */
static void set_entry(struct inode *dp, uint32 off, const char *name, uint32 inum)
{
    struct dirent_disk e;
    memset(&e, 0, sizeof e);
    if (inum)
        strncpy_safe(e.name, name, DIRSIZ);
    e.inum = inum;
    if (writei(dp, 0, (uintptr)&e, off, sizeof e, W_META) != sizeof e)
        panic("rename: cannot write a directory entry");
}

static void link_count(struct inode *ip, int by)
{
    ilock(ip);
    ip->nlink += by;
    iupdate(ip, W_META);
    iunlock(ip);
}

/* Find `to` in dp2 (locked) and check it may be replaced by a file of type
 * `type`: 0, with its inode in *ip2 (referenced, unlocked) and its entry's
 * offset in *off, or nothing there (*ip2 = 0); or -errno. */
static int check_target(struct inode *dp2, const char *name, uint16 type, uint32 inum1,
                        struct inode **ip2, uint32 *off)
{
    *ip2 = 0;
    uint32 inum2 = dirlookup(dp2, name, off);
    if (!inum2)
        return dp2->nlink == 0 ? -ENOENT : 0; /* removed, but someone's cwd */
    if (inum2 == inum1)
        return 1;                             /* the same file: nothing to do */
    struct inode *ip = iget(inum2);
    if (!ip)
        return -ENFILE;
    ilock(ip);
    int r = 0;
    if (type == T_DIR && ip->type != T_DIR)
        r = -ENOTDIR;
    else if (type != T_DIR && ip->type == T_DIR)
        r = -EISDIR;
    else if (ip->type == T_DIR && !dir_isempty(ip))
        r = -ENOTEMPTY;
    iunlock(ip);
    if (r < 0)
        iput(ip);
    else
        *ip2 = ip;
    return r;
}

static int do_rename(const char *from, const char *to)
{
    char name1[DIRSIZ], name2[DIRSIZ];
    struct inode *dp1, *dp2 = 0, *ip1 = 0, *ip2 = 0;
    uint32 off1, off2;
    int r = nameiparent(from, name1, &dp1);
    if (r < 0)
        return r == -EINVAL ? -EBUSY : r;    /* "/" */
    if ((r = nameiparent(to, name2, &dp2)) < 0) {
        iput(dp1);
        return r == -EINVAL ? -EBUSY : r;
    }
    if (is_dot(name1) || is_dot(name2)) {
        r = -EINVAL;
        goto out;
    }
    ilock(dp1);
    uint32 inum1 = dirlookup(dp1, name1, &off1);
    iunlock(dp1);
    if (!inum1) {
        r = -ENOENT;
        goto out;
    }
    if (!(ip1 = iget(inum1))) {
        r = -ENFILE;
        goto out;
    }
    ilock(ip1);
    uint16 type = ip1->type;
    if (type == T_FILE && fs_policy == POLICY_SYNC)
        fsync_inode(ip1);                     /* 1: the file whole on the disk */
    iunlock(ip1);
    int moves_dir = type == T_DIR && dp1 != dp2 && dp1->inum != dp2->inum;
    if (type == T_DIR && is_above(inum1, dp2)) {
        r = -EINVAL;                          /* into itself, or below */
        goto out;
    }

    ilock(dp2);
    if ((r = check_target(dp2, name2, type, inum1, &ip2, &off2)) != 0) {
        iunlock(dp2);
        if (r > 0)
            r = 0;
        goto out;
    }
    link_count(ip1, +1);                      /* 2: two names ahead, counted */
    if (moves_dir) {
        dp2->nlink++;                         /* its ".." will count here */
        iupdate(dp2, W_META);
    }
    if (ip2) {
        set_entry(dp2, off2, name2, inum1);   /* 3: `to` now names ip1 */
    } else if ((r = dirlink(dp2, name2, inum1)) < 0) {
        if (moves_dir) {
            dp2->nlink--;
            iupdate(dp2, W_META);
        }
        iunlock(dp2);
        link_count(ip1, -1);
        goto out;
    }
    if (ip2 && ip2->type == T_DIR) {          /* the replaced directory's ".." */
        dp2->nlink--;
        iupdate(dp2, W_META);
    }
    iunlock(dp2);

    ilock(dp1);                               /* 4: `from` is gone */
    if ((uint32)dirlookup(dp1, name1, &off1) == inum1)
        set_entry(dp1, off1, name1, 0);
    iunlock(dp1);
    if (moves_dir) {
        ilock(ip1);                           /* its ".." is the new parent */
        set_entry(ip1, sizeof(struct dirent_disk), "..", dp2->inum);
        iunlock(ip1);
        ilock(dp1);
        dp1->nlink--;
        iupdate(dp1, W_META);
        iunlock(dp1);
    }
    link_count(ip1, -1);                      /* 5: one name again */
    if (ip2) {
        ilock(ip2);
        ip2->nlink = ip2->type == T_DIR ? 0 : ip2->nlink - 1;
        if (ip2->nlink > 0 || ip2->ref > 1)
            iupdate(ip2, W_META);
        iunlock(ip2);
    }
    r = 0;
out:
    if (ip2)
        iput(ip2);
    if (ip1)
        iput(ip1);
    iput(dp2);
    iput(dp1);
    return r;
}

int32 sys_rename(const uint32 *arg)
{
    char from[MAXPATH], to[MAXPATH];
    int r = copyinstr(from, arg[0], MAXPATH);
    if (r >= 0)
        r = copyinstr(to, arg[1], MAXPATH);
    if (r < 0)
        return r;
    if (rfs_nmounts && (rfs_owns(from) || rfs_owns(to)))
        return -EXDEV;
    while (renaming)
        sleep(&renaming);
    renaming = 1;
    r = do_rename(from, to);
    renaming = 0;
    wakeup(&renaming);
    return r;
}
