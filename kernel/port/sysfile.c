/*
 * The file-system system calls: open, lseek, fstat, stat, mkdir, unlink,
 * rmdir, chdir, readdir, sync, fsync and fsctl; the file operations of an
 * open disk file (read, write, close, through struct fileops like pipes);
 * and where exec reads a program from.
 *
 * An open disk file is a struct file whose obj is its inode and whose off
 * is the offset the next read or write uses.  Closing the last descriptor
 * of a file opened for writing writes its data to the disk under the sync
 * policy (UNIX's "data written through on close"); the other policies
 * leave that to the flusher or do it at each write.
 *
 * A path on a remote mount, or relative to a remote current directory,
 * is the remote file system's (kernel/port/rfs/client.c): each call that
 * takes a path asks rfs_owns() first (only when something is mounted),
 * and each that takes a descriptor hands a remote file to rfs_* too.
 */
#include "kernel.h"
#include "proc.h"
#include "file.h"
#include "buf.h"
#include "fs.h"
#include "fsck.h"
#include "exec.h"
#include "rfs/rfs.h"

_Static_assert(sizeof(((struct dirent *)0)->d_name) == DIRSIZ, "struct dirent and DIRSIZ");

/* ---------------------------------------------------------------- open files */

static int inode_read(struct file *f, uaddr buf, uint32 n)
{
    struct inode *ip = f->obj;
    ilock(ip);
    int r = ip->type == T_DIR ? -EISDIR : readi(ip, 1, buf, f->off, n);
    if (r > 0)
        f->off += r;
    iunlock(ip);
    return r;
}

static int inode_write(struct file *f, uaddr buf, uint32 n)
{
    struct inode *ip = f->obj;
    ilock(ip);
    int r = writei(ip, 1, buf, f->off, n, W_DATA);
    if (r > 0)
        f->off += r;
    iunlock(ip);
    return r;
}

static int always(struct file *f) { return 1; }

static void inode_close(struct file *f)
{
    struct inode *ip = f->obj;
    if (f->writable && fs_policy == POLICY_SYNC)
        fsync_inode(ip);
    iput(ip);
}

static const struct fileops inode_ops = {
    .read = inode_read, .write = inode_write,
    .readable = always, .writable = always,
    .close = inode_close,
};

static struct inode *file_inode(struct file *f)
{
    return f && f->ops == &inode_ops ? f->obj : 0;
}

/* ---------------------------------------------------------------- helpers */

/* Copy a path in from user space: 0, -EFAULT or -ENAMETOOLONG. */
static int getpath(char *path, uaddr upath)
{
    int r = copyinstr(path, upath, MAXPATH);
    return r < 0 ? r : 0;
}

/* Make a new file or directory at path, or (for a file) open the existing
 * one.  Returns it locked, and 1 if it made it (0: it was there).  The
 * remote file server calls it too (rfs/server.c). */
int fs_create(const char *path, uint16 type, struct inode **ipp)
{
    char name[DIRSIZ];
    struct inode *dp, *ip;
    int r = nameiparent(path, name, &dp);
    if (r == -EINVAL)                           /* the root itself */
        return type == T_DIR ? -EEXIST : -EISDIR;
    if (r < 0)
        return r;
    ilock(dp);
    uint32 inum = dirlookup(dp, name, 0);
    if (inum) {
        iunlockput(dp);
        if (type == T_DIR)
            return -EEXIST;
        if (!(ip = iget(inum)))
            return -ENFILE;
        ilock(ip);
        *ipp = ip;
        return 0;
    }
    if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) {
        iunlockput(dp);                         /* a directory lost its "." */
        return -EEXIST;
    }
    if (dp->nlink == 0) {                       /* removed, but someone's cwd */
        iunlockput(dp);
        return -ENOENT;
    }
    if ((r = ialloc(type, type == T_DIR ? 2 : 1, &ip)) < 0) {
        iunlockput(dp);
        return r;
    }
    if (type == T_DIR && ((r = dirlink(ip, ".", ip->inum)) < 0 ||
                          (r = dirlink(ip, "..", dp->inum)) < 0))
        goto undo;
    /* The parent's link count counts the new "..": it goes up before the
     * entry that makes that ".." count is written, so a crash between the
     * two leaves a count too high (lost space), never one too low (which
     * would free the parent while a name is left). */
    if (type == T_DIR) {
        dp->nlink++;
        iupdate(dp, W_META);
    }
    if ((r = dirlink(dp, name, ip->inum)) < 0) {
        if (type == T_DIR) {
            dp->nlink--;
            iupdate(dp, W_META);
        }
        goto undo;
    }
    iunlockput(dp);
    *ipp = ip;
    return 1;

undo:                                           /* no entry names it: free it */
    ip->nlink = 0;
    iunlockput(ip);
    iunlockput(dp);
    return r;
}

static int fd_available(void)
{
    for (int fd = 0; fd < NOFILE; fd++)
        if (!curproc->ofile[fd])
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- system calls */

int32 sys_open(const uint32 *arg)
{
    char path[MAXPATH];
    int flags = (int)arg[1], r;
    int acc = flags & 3;
    if (acc == 3 || (flags & ~(3 | O_CREAT | O_TRUNC)))
        return -EINVAL;
    if ((r = getpath(path, arg[0])) < 0)
        return r;
    if (rfs_nmounts && rfs_owns(path))
        return rfs_open(path, flags);
    if (!fd_available())
        return -EMFILE;
    struct inode *ip;
    if (flags & O_CREAT) {
        if ((r = fs_create(path, T_FILE, &ip)) < 0)
            return r;
    } else {
        if ((r = namei(path, &ip)) < 0)
            return r;
        ilock(ip);
    }
    int writable = acc == O_WRONLY || acc == O_RDWR;
    if (ip->type == T_DIR && writable) {
        iunlockput(ip);
        return -EISDIR;
    }
    struct file *f = file_alloc(&inode_ops, ip, acc != O_WRONLY, writable);
    if (!f) {
        iunlockput(ip);
        return -ENFILE;
    }
    if ((flags & O_TRUNC) && writable && ip->size > 0)
        itrunc(ip, W_META);                     /* writes the inode, then the bitmap */
    iunlock(ip);
    return fd_alloc(f);                        /* cannot fail: checked above */
}

int32 sys_lseek(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    struct inode *ip = file_inode(f);
    if (!f)
        return -EBADF;
    if (!ip && !rfs_file(f))
        return -ESPIPE;
    int32 off = (int32)arg[1];
    int64 base;
    uint32 size;
    switch (arg[2]) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = f->off; break;
    case SEEK_END:
        if (!ip) {
            int r = rfs_lseek_end(f, &size);
            if (r < 0)
                return r;
            base = size;
            break;
        }
        ilock(ip); base = ip->size; iunlock(ip); break;
    default: return -EINVAL;
    }
    int64 pos = base + off;
    if (pos < 0 || pos > 0x7fffffff)
        return -EINVAL;
    f->off = (uint32)pos;
    return (int32)pos;
}

static void fill_stat(struct inode *ip, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_ino = ip->inum;
    st->st_mode = ip->type == T_DIR ? S_IFDIR : S_IFREG;
    st->st_nlink = ip->nlink;
    st->st_size = ip->size;
}

int32 sys_fstat(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    if (!f)
        return -EBADF;
    struct stat st;
    struct inode *ip = file_inode(f);
    if (ip) {
        ilock(ip);
        fill_stat(ip, &st);
        iunlock(ip);
    } else if (rfs_file(f)) {
        int r = rfs_fstat(f, &st);
        if (r < 0)
            return r;
    } else {
        memset(&st, 0, sizeof st);
        st.st_mode = f == &console_file ? S_IFCHR : S_IFIFO;
    }
    return copyout(arg[1], &st, sizeof st);
}

int32 sys_stat(const uint32 *arg)
{
    char path[MAXPATH];
    struct inode *ip;
    struct stat st;
    int r;
    if ((r = getpath(path, arg[0])) < 0)
        return r;
    if (rfs_nmounts && rfs_owns(path))
        return (r = rfs_stat(path, &st)) < 0 ? r : copyout(arg[1], &st, sizeof st);
    if ((r = namei(path, &ip)) < 0)
        return r;
    ilock(ip);
    fill_stat(ip, &st);
    iunlockput(ip);
    return copyout(arg[1], &st, sizeof st);
}

int32 sys_mkdir(const uint32 *arg)
{
    char path[MAXPATH];
    struct inode *ip;
    int r;
    if ((r = getpath(path, arg[0])) < 0)
        return r;
    if (rfs_nmounts && rfs_owns(path))
        return rfs_mkdir(path);
    if ((r = fs_create(path, T_DIR, &ip)) < 0)
        return r;
    iunlockput(ip);
    return 0;
}

/* unlink (dir == 0) and rmdir (dir == 1) of a path.  The remote file
 * server calls it too (rfs/server.c). */
int fs_remove(const char *path, int dir)
{
    char name[DIRSIZ];
    struct inode *dp, *ip;
    uint32 off;
    int r;
    if ((r = nameiparent(path, name, &dp)) < 0)
        return r == -EINVAL ? (dir ? -EBUSY : -EISDIR) : r;   /* "/" */
    ilock(dp);
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        iunlockput(dp);
        return dir ? (name[1] ? -ENOTEMPTY : -EINVAL) : -EISDIR;
    }
    uint32 inum = dirlookup(dp, name, &off);
    if (!inum) {
        iunlockput(dp);
        return -ENOENT;
    }
    if (!(ip = iget(inum))) {
        iunlockput(dp);
        return -ENFILE;
    }
    ilock(ip);
    if (!dir && ip->type == T_DIR)
        r = -EISDIR;
    else if (dir && ip->type != T_DIR)
        r = -ENOTDIR;
    else if (dir && !dir_isempty(ip))
        r = -ENOTEMPTY;
    if (r < 0) {
        iunlockput(ip);
        iunlockput(dp);
        return r;
    }

    struct dirent_disk empty;
    memset(&empty, 0, sizeof empty);
    if (writei(dp, 0, (uintptr)&empty, off, sizeof empty, W_META) != sizeof empty)
        panic("unlink: cannot clear a directory entry");
    if (dir) {
        dp->nlink--;                            /* its ".." is gone */
        iupdate(dp, W_META);
        ip->nlink = 0;                          /* its "." and its name */
    } else {
        ip->nlink--;
    }
    iunlockput(dp);
    /* If this was the last name and nobody has it open, iput frees the
     * inode and writes it then: no need to write it twice. */
    if (ip->nlink > 0 || ip->ref > 1)
        iupdate(ip, W_META);
    iunlockput(ip);
    return 0;
}

static int remove_entry(uaddr upath, int dir)
{
    char path[MAXPATH];
    int r;
    if ((r = getpath(path, upath)) < 0)
        return r;
    if (rfs_nmounts && rfs_owns(path))
        return rfs_remove(path, dir);
    return fs_remove(path, dir);
}

int32 sys_unlink(const uint32 *arg) { return remove_entry(arg[0], 0); }
int32 sys_rmdir(const uint32 *arg)  { return remove_entry(arg[0], 1); }

int32 sys_chdir(const uint32 *arg)
{
    char path[MAXPATH];
    struct inode *ip;
    int r;
    if ((r = getpath(path, arg[0])) < 0)
        return r;
    if (rfs_nmounts && rfs_owns(path))
        return rfs_chdir(path);
    if ((r = namei(path, &ip)) < 0)
        return r;
    ilock(ip);
    if (ip->type != T_DIR) {
        iunlockput(ip);
        return -ENOTDIR;
    }
    iunlock(ip);
    iput(curproc->cwd);
    curproc->cwd = ip;
    if (curproc->rcwd)
        rfs_cwd_drop(curproc);         /* local again */
    return 0;
}

/* readdir(fd, struct dirent *): the next entry; 1, or 0 at the end. */
int32 sys_readdir(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    struct inode *ip = file_inode(f);
    if (!f)
        return -EBADF;
    if (!ip && rfs_file(f)) {
        struct dirent de;
        int r = rfs_readdir(f, &de);
        return r <= 0 ? r : (r = copyout(arg[1], &de, sizeof de)) < 0 ? r : 1;
    }
    if (!ip)
        return -ENOTDIR;
    ilock(ip);
    if (ip->type != T_DIR) {
        iunlock(ip);
        return -ENOTDIR;
    }
    struct dirent_disk e;
    int r;
    while ((r = readi(ip, 0, (uintptr)&e, f->off, sizeof e)) == sizeof e) {
        f->off += sizeof e;
        if (e.inum)
            break;
    }
    iunlock(ip);
    if (r != sizeof e)
        return 0;
    struct dirent de;
    de.d_ino = e.inum;
    memcpy(de.d_name, e.name, DIRSIZ);
    de.d_name[DIRSIZ - 1] = 0;
    r = copyout(arg[1], &de, sizeof de);
    return r < 0 ? r : 1;
}

int32 sys_sync(const uint32 *arg)
{
    bsync();
    if (rfs_nmounts)
        rfs_sync();
    return 0;
}

int32 sys_fsync(const uint32 *arg)
{
    struct file *f = fd_get((int)arg[0]);
    if (!f)
        return -EBADF;
    struct inode *ip = file_inode(f);
    if (!ip)
        return rfs_file(f) ? rfs_fsync(f) : -EINVAL;
    fsync_inode(ip);
    return 0;
}

/* ---------------------------------------------------------------- fsctl */

/* The consistency checker, on the file system as the kernel sees it (the
 * cached blocks, dirty or not, else the disk's).  Run it when no process
 * is in the middle of a file-system call.  Scratch arrays are static:
 * fsck needs them rarely and all at once. */
#define FSCK_MAXBLOCKS 65536
#define FSCK_MAXINODES 8192
static uint8 fsck_blockuse[FSCK_MAXBLOCKS];
static uint16 fsck_links[FSCK_MAXINODES];
static uint8 fsck_istate[FSCK_MAXINODES];
static struct fsck fsck_ctx;

static int fsck_read(struct fsck *c, unsigned int blockno, void *buf)
{
    if (blockno >= sb.nblocks)
        return -1;
    bpeek(blockno, buf);
    return 0;
}

static void fsck_say(struct fsck *c, const char *fmt, unsigned int a, unsigned int b,
                     unsigned int n)
{
    printf(c->saying_leak ? "fsck: leak: " : "fsck: ");
    printf(fmt, a, b, n);
}

static void fsck_quiet(struct fsck *c, const char *fmt, unsigned int a, unsigned int b,
                       unsigned int n)
{
}

/* Repair writes each block it changes to the disk at once, whatever the
 * policy: a repair should survive the next crash. */
static int fsck_write(struct fsck *c, unsigned int blockno, const void *buf)
{
    if (blockno < 2 || blockno >= sb.nblocks)
        return -1;
    struct buf *b = bread(blockno);
    memcpy(b->data, buf, BSIZE);
    bwrite(b);
    brelse(b);
    return 0;
}

/* The checker (and with repair, fsck -y), its report to uinfo if not 0;
 * the number of problems (left).  The file server's reboot runs it too. */
int fs_fsck(uaddr uinfo, int repair)
{
    struct fsck *c = &fsck_ctx;
    c->read = fsck_read;
    c->write = repair ? fsck_write : 0;
    c->say = fsck_say;
    c->blockuse = fsck_blockuse;
    c->links = fsck_links;
    c->istate = fsck_istate;
    c->maxblocks = FSCK_MAXBLOCKS;
    c->maxinodes = FSCK_MAXINODES;
    int r = fsck_run(c);
    c->fixed = 0;
    if (repair && r > 0) {
        c->say = fsck_quiet;           /* its rounds would repeat the problems */
        r = fsck_repair(c);
        if (c->fixed)
            inodes_reload();           /* the inode table's copies are stale */
    }
    struct fsckinfo info = {
        .problems = r < 0 ? 1 : c->problems, .files = c->files, .dirs = c->dirs,
        .used_blocks = c->used, .free_blocks = c->free, .repairs = c->fixed,
    };
    if (uinfo && copyout(uinfo, &info, sizeof info) < 0)
        return -EFAULT;
    return info.problems;
}

static void get_conf(struct fsconf *c)
{
    memset(c, 0, sizeof *c);
    c->policy = fs_policy;
    c->flush_age_ms = (uint32)(flush_age_ns / 1000000);
    c->cache_blocks = bcache_size();
    c->cache_max = bcache_max();
    c->disk_blocks = sb.nblocks;
    c->disk_overhead_ns = diskmodel.overhead_ns;
    c->disk_seek_ns = diskmodel.seek_ns;
    c->disk_rotation_ns = diskmodel.rotation_ns;
    c->disk_kb_per_s = diskmodel.kb_per_s;
    c->remote = rfs_protocol();
}

static int set_conf(uaddr uconf)
{
    struct fsconf c;
    if (copyin(&c, uconf, sizeof c) < 0)
        return -EFAULT;
    if (c.policy > POLICY_WRITETHROUGH || c.flush_age_ms == 0)
        return -EINVAL;
    if (c.cache_blocks != bcache_size()) {
        int r = bcache_resize(c.cache_blocks);
        if (r < 0)
            return r;
    }
    if (c.policy != (uint32)fs_policy) {
        bsync();                       /* each policy starts with a clean cache */
        fs_policy = c.policy;
    }
    if ((uint64)c.flush_age_ms * 1000000 != flush_age_ns) {
        flush_age_ns = (uint64)c.flush_age_ms * 1000000;
        flusher_kick();
    }
    diskmodel.overhead_ns = c.disk_overhead_ns;
    diskmodel.seek_ns = c.disk_seek_ns;
    diskmodel.rotation_ns = c.disk_rotation_ns;
    diskmodel.kb_per_s = c.disk_kb_per_s;
    if (c.remote != (uint32)rfs_protocol())
        return rfs_set_protocol(c.remote);
    return 0;
}

int32 sys_fsctl(const uint32 *arg)
{
    struct fsconf c;
    switch (arg[0]) {
    case FSCTL_GETCONF:
        get_conf(&c);
        return copyout(arg[1], &c, sizeof c);
    case FSCTL_SETCONF: {
        int r = priv_check();          /* it acts on every process (priv.c) */
        return r < 0 ? r : set_conf(arg[1]);
    }
    case FSCTL_FSCK:
        return fs_fsck(arg[1], 0);
    case FSCTL_REPAIR: {
        int r = priv_check();          /* it changes the disk under every process */
        return r < 0 ? r : fs_fsck(arg[1], 1);
    }
    case FSCTL_DROPCACHE: {
        /* Resizing to the same size writes back every dirty block and
         * starts the cache empty: the next read of any block goes to the
         * disk (cold-file reads, docs/measure.md).  Privileged, like
         * SETCONF: it slows every process's next reads. */
        int r = priv_check();
        return r < 0 ? r : bcache_resize(bcache_size());
    }
    case FSCTL_PAGEPOLICY: {
        int r = priv_check();          /* every later allocation follows it */
        return r < 0 ? r : page_policy((int)arg[1]);   /* paging.c */
    }
    case FSCTL_TABLES: {               /* only counts: anyone may ask */
        struct ktables t;
        t.files_open = files_in_use();
        t.inodes_held = inodes_held(&t.inodes_locked);
        t.pipes_open = pipes_in_use();
        t.bufs_busy = bcache_busy();
        return copyout(arg[1], &t, sizeof t);
    }
    case FSCTL_MOUNT: case FSCTL_SERVE: case FSCTL_RFSSTAT: case FSCTL_RFSPEER:
    case FSCTL_RFSCRASH:
        return rfs_fsctl(arg[0], arg[1]);             /* rfs/client.c */
    }
    return -EINVAL;
}

/* ---------------------------------------------------------------- exec */

static int exec_read(struct exec_source *src, void *dst, uint32 off, uint32 n)
{
    struct inode *ip = (struct inode *)src->obj;
    if (off > ip->size || n > ip->size - off)
        return -ENOEXEC;
    return readi(ip, 0, (uintptr)dst, off, n) == (int)n ? 0 : -ENOEXEC;
}

/* Open a program for exec: a name with no '/' in it is looked up in /bin
 * (as if PATH were /bin), any other as a path.  The inode stays locked
 * until exec_close. */
int exec_open(const char *path, struct exec_source *src)
{
    char full[MAXPATH];
    struct inode *ip;
    int slash = 0;
    for (const char *s = path; *s; s++)
        slash |= *s == '/';
    if (!slash && *path) {
        if (snprintf(full, sizeof full, "/bin/%s", path) >= (int)sizeof full)
            return -ENAMETOOLONG;
        path = full;
    }
    if (rfs_nmounts && rfs_owns(path))
        return rfs_exec_open(path, src);
    int r = namei(path, &ip);
    if (r < 0)
        return r;
    ilock(ip);
    if (ip->type != T_FILE) {
        iunlockput(ip);
        return -ENOEXEC;
    }
    src->read = exec_read;
    src->obj = ip;
    src->size = ip->size;
    return 0;
}

void exec_close(struct exec_source *src)
{
    if (rfs_nmounts && rfs_exec_source(src))
        rfs_exec_close(src);
    else
        iunlockput((struct inode *)src->obj);
}
