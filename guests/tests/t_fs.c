/*
 * t_fs: the file system works, fails with the right error codes, and stays
 * consistent (fsck) through all of it, a full disk included.
 *
 *   - files: create, write, read back, lseek, O_TRUNC, holes, stat/fstat,
 *     a file of 2.5 MB (double-indirect blocks) read back byte for byte,
 *     an unlinked file that is still open;
 *   - directories: mkdir, chdir (relative, ".."), readdir, rmdir, and the
 *     link counts they keep;
 *   - exec by path, and of things that are not programs;
 *   - every error: ENOENT EEXIST ENOTDIR EISDIR EMFILE ENAMETOOLONG
 *     ENOTEMPTY EINVAL EBADF ESPIPE EFBIG, and ENOSPC from a full disk and
 *     from running out of inodes;
 *   - the write policies: sync writes metadata at once, delayed writes
 *     nothing until the flusher (or sync) does, writethrough writes data at
 *     once; fsync; and the buffer cache can be resized;
 *   - fsck finds no problem after each part, and the free-block count is
 *     back where it started once the test's files are gone.
 *
 * Everything happens in /tmp/t_fs, removed at the end.  The write policy
 * and cache settings are restored.
 */
#include "test.h"
#include "fsutil.h"

#define DIR "/tmp/t_fs"
#define BIG (2560 * 1024)              /* 2.5 MB: into the double-indirect blocks */

static char buf[16384];
static unsigned int free_at_start;

/* Word w of the big file: not periodic at any power of two, so a block
 * that is lost, repeated or misplaced shows. */
static uint32_t pattern(uint32_t w)
{
    return w * 0x9e3779b1u + (w >> 8);
}

/* fsck, as a check named name; returns the number of free blocks. */
static unsigned int fsck_check(const char *name)
{
    struct fsckinfo info;
    int r = fsctl(FSCTL_FSCK, &info);
    test_check(name, r == 0 && info.problems == 0, "fsck returned %d, %u problems", r,
               info.problems);
    return info.free_blocks;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC);
    if (fd < 0)
        return -1;
    int n = (int)strlen(text);
    int w = write(fd, text, n);
    close(fd);
    return w == n ? 0 : -1;
}

static void files(void)
{
    int fd = open("f1", O_CREAT | O_RDWR);
    if (!test_check("create", fd >= 0, "open O_CREAT: %s", strerror(errno)))
        return;
    int w = write(fd, "hello, world", 12);
    test_check("write", w == 12, "write returned %d", w);
    test_check("lseek_set", lseek(fd, 0, SEEK_SET) == 0, "lseek: %s", strerror(errno));
    memset(buf, 0, 64);
    int r = read(fd, buf, 64);
    test_check("read_back", r == 12 && memcmp(buf, "hello, world", 12) == 0, "read %d", r);
    test_check("read_at_end", read(fd, buf, 64) == 0, "read past the end is not 0");
    test_check("lseek_end", lseek(fd, -5, SEEK_END) == 7, "lseek SEEK_END");
    r = read(fd, buf, 64);
    test_check("read_tail", r == 5 && memcmp(buf, "world", 5) == 0, "read %d", r);
    test_check("lseek_cur", lseek(fd, -3, SEEK_CUR) == 9, "lseek SEEK_CUR");
    test_errno("lseek_negative", lseek(fd, -100, SEEK_CUR), EINVAL);
    struct stat st;
    test_check("fstat", fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 12 &&
               st.st_nlink == 1, "fstat: size %u mode %o", st.st_size, st.st_mode);
    close(fd);

    /* Reopening: O_CREAT on an existing file opens it; O_TRUNC empties it. */
    fd = open("f1", O_CREAT | O_RDWR);
    r = read(fd, buf, 64);
    test_check("creat_existing", r == 12, "read %d after reopening with O_CREAT", r);
    close(fd);
    fd = open("f1", O_WRONLY | O_TRUNC);
    test_check("trunc", fd >= 0 && stat("f1", &st) == 0 && st.st_size == 0,
               "size %u after O_TRUNC", st.st_size);
    close(fd);

    /* A hole: write past the end, read zeros back. */
    fd = open("hole", O_CREAT | O_RDWR);
    lseek(fd, 50000, SEEK_SET);
    write(fd, "x", 1);
    lseek(fd, 20000, SEEK_SET);
    memset(buf, 1, 100);
    r = read(fd, buf, 100);
    int zeros = r == 100;
    for (int i = 0; i < r; i++)
        zeros &= buf[i] == 0;
    test_check("hole", zeros && fstat(fd, &st) == 0 && st.st_size == 50001,
               "read %d, size %u", r, st.st_size);
    close(fd);

    /* Past the largest file the block map can describe. */
    fd = open("f1", O_RDWR);
    lseek(fd, 70 * 1024 * 1024, SEEK_SET);
    test_errno("efbig", write(fd, "x", 1), EFBIG);
    close(fd);

    /* Reading a file opened write-only, and writing one opened read-only. */
    fd = open("f1", O_WRONLY);
    test_errno("read_wronly", read(fd, buf, 1), EBADF);
    close(fd);
    fd = open("f1", O_RDONLY);
    test_errno("write_rdonly", write(fd, "x", 1), EBADF);
    close(fd);
    test_errno("open_bad_flags", open("f1", 3), EINVAL);

    /* An unlinked file lives on while it is open. */
    write_file("gone", "still here");
    fd = open("gone", O_RDONLY);
    test_check("unlink_open", unlink("gone") == 0 && stat("gone", &st) < 0 && errno == ENOENT,
               "unlink: %s", strerror(errno));
    r = read(fd, buf, 64);
    test_check("read_unlinked", r == 10 && memcmp(buf, "still here", 10) == 0, "read %d", r);
    close(fd);
    unlink("f1");
    unlink("hole");
}

static void big_file(void)
{
    int fd = open("big", O_CREAT | O_RDWR);
    if (!test_check("big_create", fd >= 0, "open: %s", strerror(errno)))
        return;
    static uint32_t words[4096];
    int ok = 1;
    for (uint32_t off = 0; off < BIG && ok; off += sizeof words) {
        for (uint32_t i = 0; i < sizeof words / 4; i++)
            words[i] = pattern(off / 4 + i);
        ok = write(fd, words, sizeof words) == (int)sizeof words;
    }
    test_check("big_write", ok, "write failed: %s", strerror(errno));
    struct stat st;
    test_check("big_size", fstat(fd, &st) == 0 && st.st_size == BIG, "size %u", st.st_size);
    lseek(fd, 0, SEEK_SET);
    unsigned bad = ~0u, got = 0;
    int n;
    while ((n = read(fd, words, sizeof words)) > 0) {
        for (int i = 0; i < n / 4; i++)
            if (words[i] != pattern(got / 4 + i) && bad == ~0u)
                bad = got + 4 * i;
        got += n;
    }
    test_check("big_read", got == BIG && bad == ~0u, "read %u bytes, first bad word at %u",
               got, bad);
    /* A word in the double-indirect part, by seeking. */
    unsigned at = 2000 * 1024 + 124;
    lseek(fd, (int)at, SEEK_SET);
    test_check("big_seek", read(fd, words, 4) == 4 && words[0] == pattern(at / 4),
               "word at %u", at);
    close(fd);
    fsck_check("big_fsck");
    unlink("big");
}

static void directories(void)
{
    struct stat st;
    test_check("mkdir", mkdir("d") == 0 && mkdir("d/e") == 0 && mkdir("d/e/f") == 0,
               "mkdir: %s", strerror(errno));
    test_check("dir_stat", stat("d", &st) == 0 && S_ISDIR(st.st_mode) && st.st_nlink == 3,
               "mode %o nlink %u (want a directory with 3 links)", st.st_mode, st.st_nlink);
    write_file("d/e/f/file", "deep");
    test_check("deep_path", stat(DIR "/d/e/f/file", &st) == 0 && st.st_size == 4,
               "stat of the absolute path: %s", strerror(errno));
    test_check("dotdot_path", stat("d/e/../e/./f/file", &st) == 0, "stat: %s",
               strerror(errno));

    test_check("chdir", chdir("d/e") == 0 && stat("f/file", &st) == 0, "chdir: %s",
               strerror(errno));
    test_check("chdir_up", chdir("../..") == 0 && stat("d/e/f/file", &st) == 0,
               "chdir ..: %s", strerror(errno));

    /* readdir lists ".", "..", and the names, each once. */
    write_file("d/a", "1");
    write_file("d/b", "2");
    int fd = open("d", O_RDONLY);
    struct dirent de;
    int dot = 0, dotdot = 0, a = 0, b = 0, e = 0, other = 0;
    while (readdir(fd, &de) == 1) {
        if (strcmp(de.d_name, ".") == 0) dot++;
        else if (strcmp(de.d_name, "..") == 0) dotdot++;
        else if (strcmp(de.d_name, "a") == 0) a++;
        else if (strcmp(de.d_name, "b") == 0) b++;
        else if (strcmp(de.d_name, "e") == 0) e++;
        else other++;
    }
    test_check("readdir", dot == 1 && dotdot == 1 && a == 1 && b == 1 && e == 1 && !other,
               ". %d .. %d a %d b %d e %d other %d", dot, dotdot, a, b, e, other);
    test_errno("read_dir", read(fd, buf, 10), EISDIR);
    close(fd);

    /* A freed slot is reused: the directory does not grow. */
    stat("d", &st);
    unsigned int size = st.st_size;
    unlink("d/a");
    write_file("d/c", "3");
    test_check("slot_reused", stat("d", &st) == 0 && st.st_size == size,
               "directory grew from %u to %u", size, st.st_size);

    test_errno("rmdir_notempty", rmdir("d"), ENOTEMPTY);
    test_errno("rmdir_dot", rmdir("d/."), EINVAL);
    test_errno("rmdir_file", rmdir("d/b"), ENOTDIR);
    test_errno("unlink_dir", unlink("d/e"), EISDIR);
    unlink("d/e/f/file");
    test_check("rmdir", rmdir("d/e/f") == 0 && stat("d/e/f", &st) < 0 && errno == ENOENT,
               "rmdir: %s", strerror(errno));
    test_check("nlink_after_rmdir", stat("d/e", &st) == 0 && st.st_nlink == 2,
               "nlink %u", st.st_nlink);
    test_check("rm_tree", rm_tree("d") == 0 && stat("d", &st) < 0, "rm_tree: %s",
               strerror(errno));

    /* A directory removed while it is the current directory: nothing new
     * can be made in it, and it is freed when left. */
    mkdir("gone");
    chdir("gone");
    test_check("rmdir_cwd", rmdir(DIR "/gone") == 0, "rmdir: %s", strerror(errno));
    test_errno("create_in_removed", open("x", O_CREAT | O_RDWR), ENOENT);
    test_errno("mkdir_in_removed", mkdir("y"), ENOENT);
    chdir(DIR);
}

static void errors(void)
{
    struct stat st;
    char name[64], path[MAXPATH + 16];
    write_file("file", "x");
    mkdir("dir");

    test_errno("enoent_open", open("nothing", O_RDONLY), ENOENT);
    test_errno("enoent_stat", stat("nothing", &st), ENOENT);
    test_errno("enoent_unlink", unlink("nothing"), ENOENT);
    test_errno("enoent_rmdir", rmdir("nothing"), ENOENT);
    test_errno("enoent_chdir", chdir("nothing"), ENOENT);
    test_errno("enoent_middle", open("nothing/file", O_CREAT | O_RDWR), ENOENT);
    test_errno("enoent_empty", open("", O_RDONLY), ENOENT);

    test_errno("eexist_mkdir", mkdir("dir"), EEXIST);
    test_errno("eexist_mkdir_file", mkdir("file"), EEXIST);
    test_errno("eexist_mkdir_root", mkdir("/"), EEXIST);

    test_errno("enotdir_middle", open("file/x", O_RDONLY), ENOTDIR);
    test_errno("enotdir_create", open("file/x", O_CREAT | O_RDWR), ENOTDIR);
    test_errno("enotdir_chdir", chdir("file"), ENOTDIR);
    int fd = open("file", O_RDONLY);
    struct dirent de;
    test_errno("enotdir_readdir", readdir(fd, &de), ENOTDIR);
    close(fd);

    test_errno("eisdir_open_write", open("dir", O_RDWR), EISDIR);
    test_errno("eisdir_creat", open("dir", O_CREAT | O_WRONLY), EISDIR);
    test_errno("eisdir_unlink", unlink("dir"), EISDIR);

    memset(name, 'n', sizeof name);
    name[NAME_MAX + 1] = 0;                  /* one byte too long */
    test_errno("enametoolong_create", open(name, O_CREAT | O_RDWR), ENAMETOOLONG);
    test_errno("enametoolong_mkdir", mkdir(name), ENAMETOOLONG);
    test_errno("enametoolong_stat", stat(name, &st), ENAMETOOLONG);
    name[NAME_MAX] = 0;                      /* the longest allowed */
    fd = open(name, O_CREAT | O_RDWR);
    test_check("longest_name", fd >= 0, "open of a %d-byte name: %s", NAME_MAX,
               strerror(errno));
    close(fd);
    unlink(name);
    memset(path, 'p', sizeof path);
    for (int i = 8; i < (int)sizeof path; i += 9)
        path[i] = '/';
    path[sizeof path - 1] = 0;
    test_errno("enametoolong_path", open(path, O_RDONLY), ENAMETOOLONG);

    test_errno("ebadf_read", read(20, buf, 1), EBADF);
    test_errno("ebadf_fstat", fstat(20, &st), EBADF);
    test_errno("ebadf_lseek", lseek(20, 0, SEEK_SET), EBADF);
    int p[2];
    pipe(p);
    test_errno("espipe", lseek(p[0], 0, SEEK_SET), ESPIPE);
    test_check("fstat_pipe", fstat(p[0], &st) == 0 && !S_ISREG(st.st_mode), "fstat of a pipe");
    close(p[0]);
    close(p[1]);
    test_errno("einval_fsctl", fsctl(99, 0), EINVAL);

    /* EMFILE: every descriptor in use. */
    int fds[NOFILE], n = 0;
    while (n < NOFILE && (fds[n] = open("file", O_RDONLY)) >= 0)
        n++;
    test_check("emfile", n < NOFILE && errno == EMFILE, "opened %d, then errno %d", n, errno);
    test_errno("emfile_creat", open("another", O_CREAT | O_RDWR), EMFILE);
    while (n > 0)
        close(fds[--n]);
    test_errno("emfile_created_nothing", stat("another", &st), ENOENT);

    unlink("file");
    rmdir("dir");
}

static void exec_tests(void)
{
    int pid = fork();
    if (pid == 0) {
        char *argv[] = { "echo", "exec", "by", "path", 0 };
        exec("/bin/echo", argv);
        exit(100 + errno);
    }
    int status;
    wait(&status);
    test_check("exec_path", status == 0, "exec /bin/echo: exit status %d", status);
    char *argv[] = { "x", 0 };
    test_errno("exec_dir", exec("/bin", argv), ENOEXEC);
    test_errno("exec_missing", exec("/bin/no_such_program", argv), ENOENT);
    write_file("notelf", "#!/bin/sh\n");
    test_errno("exec_not_elf", exec(DIR "/notelf", argv), ENOEXEC);
    unlink("notelf");
}

/* Fill the disk: writing stops with ENOSPC, the file system stays
 * consistent, and deleting the file gives every block back. */
static void full_disk(void)
{
    int fd = open("filler", O_CREAT | O_WRONLY);
    memset(buf, 0x5a, sizeof buf);
    int w, total = 0;
    while ((w = write(fd, buf, sizeof buf)) > 0)
        total += w;
    int err = errno;
    test_check("enospc_write", w < 0 && err == ENOSPC && total > 100000,
               "wrote %d bytes, then %d errno %d", total, w, err);
    struct stat st;
    fstat(fd, &st);
    test_check("enospc_size", st.st_size == (unsigned)total, "size %u, wrote %d",
               st.st_size, total);
    test_errno("enospc_create_dir", mkdir("nospace"), ENOSPC);
    close(fd);
    fsck_check("enospc_fsck");
    unlink("filler");

    /* Out of inodes: create empty files until the table is full, 50 to a
     * directory (one long directory would make this quadratic: every name
     * added is looked for first). */
    mkdir("many");
    char name[32];
    int n = 0;
    for (;; n++) {
        if (n % 50 == 0) {
            snprintf(name, sizeof name, "many/%d", n / 50);
            if (mkdir(name) < 0)
                break;
        }
        snprintf(name, sizeof name, "many/%d/%d", n / 50, n % 50);
        fd = open(name, O_CREAT | O_WRONLY);
        if (fd < 0)
            break;
        close(fd);
    }
    test_check("enospc_inodes", errno == ENOSPC && n > 100, "%d files, then errno %d", n, errno);
    fsck_check("enospc_inodes_fsck");
    test_check("rm_many", rm_tree("many") == 0, "rm_tree: %s", strerror(errno));
}

static void policies(void)
{
    struct io_counts c;

    policy_set(POLICY_SYNC);
    io_snap(&c);
    write_file("p", "data");
    unlink("p");
    io_since(&c);
    test_check("sync_writes", c.sync_writes >= 4, "%u synchronous writes for create+delete",
               c.sync_writes);

    policy_set(POLICY_DELAYED);
    io_snap(&c);
    for (int i = 0; i < 10; i++) {
        write_file("p", "some data for the delayed policy");
        unlink("p");
    }
    io_since(&c);
    test_check("delayed_no_writes", c.dev_writes == 0, "%u device writes", c.dev_writes);
    write_file("kept", "stays in the cache");
    io_snap(&c);
    sync();
    io_since(&c);
    test_check("sync_call", c.dev_writes > 0, "sync() wrote %u blocks", c.dev_writes);

    /* The flusher writes a block once it is old enough. */
    struct fsconf conf, saved;
    fsctl(FSCTL_GETCONF, &saved);
    conf = saved;
    conf.flush_age_ms = 2;
    fsctl(FSCTL_SETCONF, &conf);
    io_snap(&c);
    write_file("kept", "changed again");
    sleep(10 * 1000);                          /* short: on the VAX, idling costs */
    io_since(&c);
    test_check("flusher", c.dev_writes > 0 && c.sync_writes == 0,
               "%u writes (%u synchronous) after 10 ms", c.dev_writes, c.sync_writes);
    fsctl(FSCTL_SETCONF, &saved);

    int fd = open("kept", O_WRONLY);
    write(fd, "fsync me", 8);
    io_snap(&c);
    fsync(fd);
    io_since(&c);
    test_check("fsync", c.dev_writes > 0, "fsync wrote %u blocks", c.dev_writes);
    close(fd);
    unlink("kept");

    policy_set(POLICY_WRITETHROUGH);
    io_snap(&c);
    fd = open("wt", O_CREAT | O_WRONLY);
    memset(buf, 'w', 10240);
    write(fd, buf, 10240);
    io_since(&c);
    test_check("writethrough", c.dev_writes >= 10, "%u writes for 10 KB", c.dev_writes);
    close(fd);
    unlink("wt");

    /* A small cache: reading a 100 KB file twice misses both times. */
    policy_set(POLICY_SYNC);
    fsctl(FSCTL_GETCONF, &conf);
    conf.cache_blocks = 32;
    int r = fsctl(FSCTL_SETCONF, &conf);
    test_check("cache_resize", r == 0, "fsctl: %s", strerror(errno));
    fd = open("small", O_CREAT | O_RDWR);
    for (int i = 0; i < 10; i++)
        write(fd, buf, 10240);
    for (int pass = 0; pass < 2; pass++) {
        lseek(fd, 0, SEEK_SET);
        io_snap(&c);
        while (read(fd, buf, sizeof buf) > 0)
            ;
        io_since(&c);
    }
    test_check("cache_small", c.misses >= 90, "%u misses on the second pass", c.misses);
    close(fd);
    unlink("small");
    conf.cache_blocks = saved.cache_blocks;
    fsctl(FSCTL_SETCONF, &conf);
    conf.cache_blocks = 1;
    test_errno("cache_too_small", fsctl(FSCTL_SETCONF, &conf), EINVAL);
    fsctl(FSCTL_SETCONF, &saved);
}

int main(void)
{
    test_start("t_fs");
    struct fsconf saved;
    fsctl(FSCTL_GETCONF, &saved);
    rm_tree(DIR);                              /* left over from a crashed run */
    free_at_start = fsck_check("fsck_start");
    if (!test_check("setup", mkdir(DIR) == 0 && chdir(DIR) == 0, "%s: %s", DIR,
                    strerror(errno)))
        return test_summary();

    files();
    fsck_check("files_fsck");
    big_file();
    directories();
    fsck_check("dirs_fsck");
    errors();
    fsck_check("errors_fsck");
    exec_tests();
    full_disk();
    policies();
    fsctl(FSCTL_SETCONF, &saved);

    chdir("/");
    test_check("cleanup", rm_tree(DIR) == 0, "rm_tree: %s", strerror(errno));
    unsigned int free_now = fsck_check("fsck_end");
    test_check("no_lost_blocks", free_now == free_at_start, "%u free blocks at the start, %u now",
               free_at_start, free_now);
    return test_summary();
}
