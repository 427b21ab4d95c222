/*
 * t_rename: rename(2) follows POSIX, and the file system stays consistent.
 *
 *   - a file to a new name, over an existing file (replaced: the old one's
 *     blocks are free again), to itself (nothing happens), while open;
 *   - a directory within its parent and to another parent (its ".." and
 *     both parents' link counts follow), over an empty directory;
 *   - the errors: ENOENT (no such file, no such directory for the new
 *     name), ENOTDIR (a directory over a file, a file as a path element),
 *     EISDIR (a file over a directory), ENOTEMPTY, EINVAL (a directory into
 *     itself or below, "." and ".."), EBUSY (the root), ENAMETOOLONG,
 *     EFAULT;
 *   - fsck finds no problem, and the free blocks and inodes are back where
 *     they started once the test's files are gone.
 *
 * Everything happens in /tmp/t_rename, removed at the end.
 */
#include "test.h"
#include "fsutil.h"

#define DIR "/tmp/t_rename"

static struct fsckinfo fsck_now(const char *check)
{
    struct fsckinfo info;
    int r = fsctl(FSCTL_FSCK, &info);
    test_check(check, r == 0 && info.problems == 0, "fsck returned %d, %u problems", r,
               info.problems);
    return info;
}

static int put(const char *path, const char *text, int copies)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC);
    if (fd < 0)
        return -1;
    int n = (int)strlen(text);
    for (int i = 0; i < copies; i++)
        if (write(fd, text, n) != n) {
            close(fd);
            return -1;
        }
    return close(fd);
}

/* The first bytes of path's contents, or "" if it cannot be read. */
static const char *get(const char *path)
{
    static char buf[64];
    int fd = open(path, O_RDONLY);
    int n = fd < 0 ? 0 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = 0;
    return buf;
}

static unsigned ino(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_ino : 0;
}

static unsigned nlink(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_nlink : 0;
}

static void files(void)
{
    put(DIR "/a", "alpha", 1);
    unsigned a = ino(DIR "/a");
    test_check("file_new_name", rename(DIR "/a", DIR "/b") == 0 && ino(DIR "/a") == 0 &&
               ino(DIR "/b") == a && strcmp(get(DIR "/b"), "alpha") == 0 &&
               nlink(DIR "/b") == 1, "b: ino %u of %u, \"%s\"", ino(DIR "/b"), a, get(DIR "/b"));

    /* Over an existing file, of 40 blocks: they are freed. */
    struct fsckinfo before = fsck_now("fsck_before_replace");
    put(DIR "/old", "0123456789abcdef0123456789abcdef", 40 * 32);
    put(DIR "/new", "the new version", 1);
    unsigned n = ino(DIR "/new");
    test_check("replace", rename(DIR "/new", DIR "/old") == 0 && ino(DIR "/new") == 0 &&
               ino(DIR "/old") == n && strcmp(get(DIR "/old"), "the new version") == 0,
               "old: ino %u (new was %u), \"%s\"", ino(DIR "/old"), n, get(DIR "/old"));
    struct fsckinfo after = fsck_now("fsck_after_replace");
    test_check("replaced_freed", after.free_blocks == before.free_blocks - 1 &&
               after.files == before.files + 1, "free blocks %u -> %u, files %u -> %u",
               before.free_blocks, after.free_blocks, before.files, after.files);

    test_check("to_itself", rename(DIR "/old", DIR "/old") == 0 &&
               strcmp(get(DIR "/old"), "the new version") == 0, "\"%s\"", get(DIR "/old"));

    /* An open file keeps its contents through a rename, and so does a
     * file replaced while open, until it is closed. */
    int fd = open(DIR "/old", O_RDONLY);
    put(DIR "/other", "other", 1);
    rename(DIR "/other", DIR "/old");
    char buf[32] = { 0 };
    int got = read(fd, buf, sizeof buf - 1);
    close(fd);
    test_check("replaced_while_open", got == 15 && strcmp(buf, "the new version") == 0 &&
               strcmp(get(DIR "/old"), "other") == 0, "read %d \"%s\"", got, buf);
    unlink(DIR "/old");
    unlink(DIR "/b");
}

static void dirs(void)
{
    mkdir(DIR "/d");
    mkdir(DIR "/d/sub");
    put(DIR "/d/sub/f", "in sub", 1);
    mkdir(DIR "/e");
    test_check("dir_same_parent", rename(DIR "/d", DIR "/d2") == 0 &&
               strcmp(get(DIR "/d2/sub/f"), "in sub") == 0 && nlink(DIR) == 4,
               "d2/sub/f \"%s\", nlink of " DIR " %u", get(DIR "/d2/sub/f"), nlink(DIR));
    test_check("dir_new_parent", rename(DIR "/d2/sub", DIR "/e/sub") == 0 &&
               ino(DIR "/e/sub/..") == ino(DIR "/e") && nlink(DIR "/e") == 3 &&
               nlink(DIR "/d2") == 2 && strcmp(get(DIR "/e/sub/f"), "in sub") == 0,
               ".. %u (e %u), nlink e %u d2 %u", ino(DIR "/e/sub/.."), ino(DIR "/e"),
               nlink(DIR "/e"), nlink(DIR "/d2"));
    /* A relative path from inside the moved directory finds the new parent. */
    chdir(DIR "/e/sub");
    test_check("dotdot_followed", ino("..") == ino(DIR "/e"), ".. is %u", ino(".."));
    chdir("/");
    unsigned d2 = ino(DIR "/d2");
    mkdir(DIR "/empty");
    test_check("dir_replaces_empty", rename(DIR "/d2", DIR "/empty") == 0 &&
               ino(DIR "/empty") == d2 && ino(DIR "/d2") == 0 && nlink(DIR) == 4,
               "empty: ino %u (d2 %u), nlink %u", ino(DIR "/empty"), d2, nlink(DIR));
    fsck_now("fsck_dirs");
}

static void errors(void)
{
    put(DIR "/f", "f", 1);
    mkdir(DIR "/dir");
    mkdir(DIR "/full");
    put(DIR "/full/x", "x", 1);
    test_errno("enoent_from", rename(DIR "/nothing", DIR "/g"), ENOENT);
    test_errno("enoent_to_dir", rename(DIR "/f", DIR "/nodir/g"), ENOENT);
    test_errno("enoent_empty", rename("", DIR "/g"), ENOENT);
    test_errno("enotdir_dir_over_file", rename(DIR "/dir", DIR "/f"), ENOTDIR);
    test_errno("enotdir_element", rename(DIR "/f/x", DIR "/g"), ENOTDIR);
    test_errno("eisdir_file_over_dir", rename(DIR "/f", DIR "/dir"), EISDIR);
    test_errno("enotempty", rename(DIR "/dir", DIR "/full"), ENOTEMPTY);
    test_errno("einval_into_itself", rename(DIR "/dir", DIR "/dir/in"), EINVAL);
    mkdir(DIR "/dir/a");
    mkdir(DIR "/dir/a/b");
    test_errno("einval_below_itself", rename(DIR "/dir", DIR "/dir/a/b/c"), EINVAL);
    test_errno("einval_dot", rename(DIR "/dir/.", DIR "/g"), EINVAL);
    test_errno("einval_dotdot_to", rename(DIR "/f", DIR "/dir/.."), EINVAL);
    test_errno("ebusy_root", rename("/", DIR "/g"), EBUSY);
    test_errno("enametoolong", rename(DIR "/f", DIR "/a_name_much_longer_than_27_bytes"),
               ENAMETOOLONG);
    test_errno("efault_from", rename((const char *)0x10, DIR "/g"), EFAULT);
    test_errno("efault_to", rename(DIR "/f", (const char *)0x80000000u), EFAULT);
    test_check("unchanged_after_errors", strcmp(get(DIR "/f"), "f") == 0 &&
               ino(DIR "/dir/a/b") != 0 && ino(DIR "/g") == 0, "f \"%s\"", get(DIR "/f"));
    fsck_now("fsck_errors");
}

int main(void)
{
    test_start("t_rename");
    rm_tree(DIR);
    struct fsckinfo start = fsck_now("fsck_start");
    if (mkdir(DIR) < 0) {
        test_fail("mkdir", "%s: %s", DIR, strerror(errno));
        return test_summary();
    }
    files();
    dirs();
    errors();
    rm_tree(DIR);
    struct fsckinfo end = fsck_now("fsck_end");
    test_check("nothing_leaked", end.free_blocks == start.free_blocks &&
               end.files == start.files && end.dirs == start.dirs,
               "free blocks %u -> %u, files %u -> %u, dirs %u -> %u", start.free_blocks,
               end.free_blocks, start.files, end.files, start.dirs, end.dirs);
    return test_summary();
}
