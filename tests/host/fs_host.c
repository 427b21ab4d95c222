/*
 * The kernel's file system as a host program: the same kernel/port sources
 * (RAM disk, buffer cache, write policies, inodes, directories, system
 * calls, fsck) compiled for the host with tests/host/machine.h and stubs.c,
 * and driven through the system-call functions, so that the host's
 * sanitizers watch every memory access.  Run by tests/unit/test_fs_host.py
 * with an image made by tools/mkfs linked in (image.S).
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check and "done P passed F failed";
 * exits 0 only if nothing failed.
 */
#include "kernel.h"
#include "proc.h"
#include "file.h"
#include "buf.h"
#include "fs.h"

void *malloc(unsigned long n);
void *mmap(void *addr, unsigned long len, int prot, int flags, int fd, long off);
void exit(int status) __attribute__((noreturn));
void stubs_init(void);

#define SYSCALLS(X) X(open) X(read) X(write) X(close) X(lseek) X(fstat) X(stat) \
    X(mkdir) X(unlink) X(rmdir) X(chdir) X(readdir) X(sync) X(fsync) X(fsctl) X(kstat) X(rename)
#define DECLARE(name) int32 sys_##name(const uint32 *arg);
SYSCALLS(DECLARE)

/* "User" memory: host memory below 4 GB, so its addresses fit the 32-bit
 * system-call arguments. */
#define ARENA 0x20000000ul
#define ARENA_SIZE (4ul << 20)
static char *arena = (char *)ARENA;
static unsigned long used;

static uaddr ubuf(unsigned long n)
{
    if (used + n > ARENA_SIZE)
        used = 0;
    uaddr a = ARENA + used;
    used += (n + 15) & ~15ul;
    return a;
}

static uaddr ustr(const char *s)
{
    uaddr a = ubuf(strlen(s) + 1);
    memcpy((void *)a, s, strlen(s) + 1);
    return a;
}

static int32 sys(int32 (*fn)(const uint32 *), uint32 a0, uint32 a1, uint32 a2)
{
    uint32 arg[5] = { a0, a1, a2, 0, 0 };
    return fn(arg);
}

#define OPEN(path, flags)  sys(sys_open, ustr(path), (flags), 0)
#define CLOSE(fd)          sys(sys_close, (fd), 0, 0)
#define MKDIR(path)        sys(sys_mkdir, ustr(path), 0, 0)
#define UNLINK(path)       sys(sys_unlink, ustr(path), 0, 0)
#define RMDIR(path)        sys(sys_rmdir, ustr(path), 0, 0)
#define RENAME(from, to)   sys(sys_rename, ustr(from), ustr(to), 0)

static int passed, failed;

static int check(const char *name, int ok, const char *why, int value)
{
    if (ok) {
        passed++;
        printf("ok %s\n", name);
    } else {
        failed++;
        printf("FAIL %s: %s (%d)\n", name, why, value);
    }
    return ok;
}

static struct fsckinfo fsck(const char *name)
{
    uaddr u = ubuf(sizeof(struct fsckinfo));
    int r = sys(sys_fsctl, FSCTL_FSCK, u, 0);
    struct fsckinfo info;
    memcpy(&info, (void *)u, sizeof info);
    check(name, r == 0 && info.problems == 0, "fsck found problems", (int)info.problems);
    return info;
}

static void counts(uint32 *writes, uint32 *syncw)
{
    uaddr u = ubuf(sizeof(struct kstat));
    sys(sys_kstat, u, 0, 0);
    struct kstat k;
    memcpy(&k, (void *)u, sizeof k);
    *writes = k.dev_writes;
    *syncw = k.sync_writes;
}

static void set_policy(int policy, uint32 cache)
{
    uaddr u = ubuf(sizeof(struct fsconf));
    sys(sys_fsctl, FSCTL_GETCONF, u, 0);
    struct fsconf *c = (struct fsconf *)u;
    c->policy = (unsigned)policy;
    if (cache)
        c->cache_blocks = cache;
    int r = sys(sys_fsctl, FSCTL_SETCONF, u, 0);
    check("set_policy", r == 0, "fsctl SETCONF", r);
}

static unsigned char pattern(uint32 i) { return (unsigned char)(i * 7 + (i >> 10) * 13); }

/* Write n bytes of the pattern to path, 128 KB per write (so a file of up
 * to 100 KB is one write, as in createdelete); 0 or -errno. */
#define CHUNK (128 * 1024)
static int write_file(const char *path, uint32 n)
{
    int fd = OPEN(path, O_CREAT | O_TRUNC | O_WRONLY);
    if (fd < 0)
        return fd;
    uaddr b = ubuf(CHUNK);
    int r = 0;
    for (uint32 off = 0; off < n && r >= 0; off += CHUNK) {
        uint32 len = n - off < CHUNK ? n - off : CHUNK;
        for (uint32 i = 0; i < len; i++)
            ((unsigned char *)b)[i] = pattern(off + i);
        r = sys(sys_write, fd, b, len);
        if (r >= 0 && (uint32)r != len)
            r = -ENOSPC;
    }
    CLOSE(fd);
    return r < 0 ? r : 0;
}

static int read_check(const char *path, uint32 n)
{
    int fd = OPEN(path, O_RDONLY);
    if (fd < 0)
        return 0;
    uaddr b = ubuf(5000);
    uint32 got = 0;
    int r, same = 1;
    while ((r = sys(sys_read, fd, b, 5000)) > 0) {
        for (int i = 0; i < r; i++)
            same &= ((unsigned char *)b)[i] == pattern(got + i);
        got += r;
    }
    CLOSE(fd);
    return same && got == n;
}

static void lifecycle(int policy, const char *pname, const uint32 want[3])
{
    set_policy(policy, 0);
    static const uint32 sizes[3] = { 0, 10240, 102400 };
    char name[64];
    for (int s = 0; s < 3; s++) {
        uint32 w0, s0, w1, s1;
        write_file("/tmp/cd", sizes[s]);        /* warm-up, as createdelete's */
        UNLINK("/tmp/cd");
        counts(&w0, &s0);
        for (int i = 0; i < 20; i++) {
            write_file("/tmp/cd", sizes[s]);
            read_check("/tmp/cd", sizes[s]);
            UNLINK("/tmp/cd");
        }
        counts(&w1, &s1);
        snprintf(name, sizeof name, "writes_%s_%u", pname, sizes[s]);
        check(name, w1 - w0 == 20 * want[s], "device writes per file, times 20",
              (int)(w1 - w0));
    }
}

int main(void)
{
    extern const uint8 fs_image[];
    if (mmap(arena, ARENA_SIZE, 3, 0x02 | 0x20 | 0x100000, -1, 0) != arena) {
        printf("cannot map the user arena\n");
        exit(2);
    }
    unsigned long ramsize = 16ul << 20;
    char *ram = malloc(ramsize);
    uintptr start = ramdisk_init((uintptr)ram, (uintptr)ram + ramsize);
    start = bcache_init(start, (uintptr)ram + ramsize);
    stubs_init();
    fs_init();
    curproc->cwd = iget(ROOTINO);
    (void)fs_image;

    struct fsckinfo info = fsck("fsck_image");
    uint32 free_start = info.free_blocks;

    /* Files, big and small, read back byte for byte. */
    check("mkdir", MKDIR("/tmp/t") == 0 && MKDIR("/tmp/t/d") == 0, "mkdir", 0);
    check("write_big", write_file("/tmp/t/big", 300 * 1024) == 0, "write", 0);
    check("read_big", read_check("/tmp/t/big", 300 * 1024), "read back", 0);
    check("write_small", write_file("/tmp/t/d/small", 100) == 0, "write", 0);
    check("read_small", read_check("/tmp/t/d/small", 100), "read back", 0);
    check("enoent", OPEN("/tmp/t/none", O_RDONLY) == -ENOENT, "open missing", 0);
    check("eexist", MKDIR("/tmp/t/d") == -EEXIST, "mkdir twice", 0);
    check("enotdir", OPEN("/tmp/t/big/x", O_RDONLY) == -ENOTDIR, "file as directory", 0);
    check("eisdir", OPEN("/tmp/t/d", O_RDWR) == -EISDIR, "directory for writing", 0);
    check("enotempty", RMDIR("/tmp/t/d") == -ENOTEMPTY, "rmdir non-empty", 0);
    check("enametoolong", MKDIR("/tmp/t/abcdefghijklmnopqrstuvwxyz0123") == -ENAMETOOLONG,
          "long name", 0);
    fsck("fsck_files");

    /* rename: a new name, over an existing file (whose blocks are freed),
     * a directory to another parent (its ".." follows), and the errors. */
    struct fsckinfo before = fsck("fsck_before_rename");
    check("rename_write", write_file("/tmp/t/r1", 50 * 1024) == 0 &&
          write_file("/tmp/t/r2", 100) == 0, "write", 0);
    check("rename_new_name", RENAME("/tmp/t/r1", "/tmp/t/r3") == 0 &&
          OPEN("/tmp/t/r1", O_RDONLY) == -ENOENT && read_check("/tmp/t/r3", 50 * 1024),
          "rename to a new name", 0);
    check("rename_replace", RENAME("/tmp/t/r2", "/tmp/t/r3") == 0 &&
          OPEN("/tmp/t/r2", O_RDONLY) == -ENOENT && read_check("/tmp/t/r3", 100),
          "rename over a file", 0);
    info = fsck("fsck_rename_replace");
    check("rename_replaced_freed", info.free_blocks == before.free_blocks - 1 &&
          info.files == before.files + 1, "free blocks after replacing",
          (int)info.free_blocks);
    check("rename_dir", MKDIR("/tmp/t/rd") == 0 && MKDIR("/tmp/t/rd/sub") == 0 &&
          RENAME("/tmp/t/rd/sub", "/tmp/t/d/sub") == 0 &&
          RENAME("/tmp/t/r3", "/tmp/t/d/sub/r3") == 0 &&
          read_check("/tmp/t/d/sub/../sub/r3", 100), "a directory to another parent", 0);
    fsck("fsck_rename_dir");
    check("rename_enoent", RENAME("/tmp/t/none", "/tmp/t/x") == -ENOENT, "missing", 0);
    check("rename_enotdir", RENAME("/tmp/t/rd", "/tmp/t/d/sub/r3") == -ENOTDIR,
          "directory over a file", 0);
    check("rename_eisdir", RENAME("/tmp/t/d/sub/r3", "/tmp/t/rd") == -EISDIR,
          "file over a directory", 0);
    check("rename_enotempty", RENAME("/tmp/t/rd", "/tmp/t/d") == -ENOTEMPTY,
          "over a full directory", 0);
    check("rename_cycle", RENAME("/tmp/t/d", "/tmp/t/d/sub/below") == -EINVAL,
          "a directory below itself", 0);
    check("rename_dot", RENAME("/tmp/t/d/.", "/tmp/t/x") == -EINVAL, "\".\"", 0);
    check("rename_root", RENAME("/", "/tmp/t/x") == -EBUSY, "the root", 0);
    check("rename_dir_over_empty", RENAME("/tmp/t/d/sub", "/tmp/t/rd") == 0 &&
          read_check("/tmp/t/rd/r3", 100) && RMDIR("/tmp/t/d/sub") == -ENOENT,
          "a directory over an empty one", 0);
    check("rename_cleanup", UNLINK("/tmp/t/rd/r3") == 0 && RMDIR("/tmp/t/rd") == 0,
          "remove", 0);
    info = fsck("fsck_rename");
    check("rename_no_leak", info.free_blocks == before.free_blocks &&
          info.files == before.files && info.dirs == before.dirs, "blocks or inodes left",
          (int)info.free_blocks);

    /* A full disk: the write stops with ENOSPC, nothing is inconsistent. */
    int r = write_file("/tmp/t/fill", 16u << 20);
    check("enospc", r == -ENOSPC, "filling the disk", r);
    fsck("fsck_full");
    check("unlink_fill", UNLINK("/tmp/t/fill") == 0, "unlink", 0);

    /* Out of inodes. */
    char name[64];
    int n = 0;
    MKDIR("/tmp/t/many");
    for (;; n++) {
        snprintf(name, sizeof name, "/tmp/t/many/%d", n);
        int fd = OPEN(name, O_CREAT | O_WRONLY);
        if (fd < 0) {
            check("inodes_enospc", fd == -ENOSPC && n > 100, "creating files", fd);
            break;
        }
        CLOSE(fd);
    }
    fsck("fsck_inodes");
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "/tmp/t/many/%d", i);
        UNLINK(name);
    }
    check("rmdir_many", RMDIR("/tmp/t/many") == 0, "rmdir", 0);

    /* The write policies' device writes per file (as createdelete counts). */
    static const uint32 sync_w[3] = { 4, 17, 108 }, delayed_w[3] = { 0, 0, 0 },
                        wt_w[3] = { 4, 17, 195 };
    lifecycle(POLICY_SYNC, "sync", sync_w);
    lifecycle(POLICY_DELAYED, "delayed", delayed_w);
    lifecycle(POLICY_WRITETHROUGH, "writethrough", wt_w);
    fsck("fsck_policies");

    /* A small cache under delayed: dirty blocks are written as they are
     * evicted, and everything still reads back. */
    set_policy(POLICY_DELAYED, 32);
    check("write_small_cache", write_file("/tmp/t/big2", 200 * 1024) == 0, "write", 0);
    check("read_small_cache", read_check("/tmp/t/big2", 200 * 1024), "read back", 0);
    check("read_big_again", read_check("/tmp/t/big", 300 * 1024), "read back", 0);
    fsck("fsck_small_cache");
    sys(sys_sync, 0, 0, 0);
    set_policy(POLICY_SYNC, 2048);

    UNLINK("/tmp/t/big");
    UNLINK("/tmp/t/big2");
    UNLINK("/tmp/t/d/small");
    RMDIR("/tmp/t/d");
    RMDIR("/tmp/t");
    info = fsck("fsck_end");
    check("no_lost_blocks", info.free_blocks == free_start, "free blocks at the end",
          (int)info.free_blocks);
    printf("done %d passed %d failed\n", passed, failed);
    exit(failed ? 1 : 0);
}
