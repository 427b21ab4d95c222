/*
 * ls: list directories.  `ls [-la] [PATH...]` (default "."): one name per
 * line, a directory's with a '/' after it; with -l also the inode number,
 * link count and size; with -a also the names starting with '.'.  A PATH
 * that is a file is listed as itself.
 */
#include "user.h"

static int longform, all;

static void show(const char *name, const struct stat *st)
{
    const char *slash = S_ISDIR(st->st_mode) ? "/" : "";
    if (longform)
        printf("%5u %2u %8u %s%s\n", st->st_ino, st->st_nlink, st->st_size, name, slash);
    else
        printf("%s%s\n", name, slash);
}

static int list(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        fprintf(2, "ls: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        show(path, &st);
        return 0;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(2, "ls: %s: %s\n", path, strerror(errno));
        return 1;
    }
    struct dirent de;
    char full[MAXPATH];
    while (readdir(fd, &de) == 1) {
        if (!all && de.d_name[0] == '.')
            continue;
        snprintf(full, sizeof full, "%s/%s", path, de.d_name);
        if (stat(full, &st) < 0)
            fprintf(2, "ls: %s: %s\n", full, strerror(errno));
        else
            show(de.d_name, &st);
    }
    close(fd);
    return 0;
}

int main(int argc, char *argv[])
{
    int i = 1, status = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        for (const char *o = argv[i] + 1; *o; o++) {
            if (*o == 'l')
                longform = 1;
            else if (*o == 'a')
                all = 1;
            else {
                fprintf(2, "usage: ls [-la] [PATH...]\n");
                return 2;
            }
        }
    }
    int first = i;
    if (i == argc)
        return list(".");
    for (; i < argc; i++) {
        if (argc - first > 1)
            printf("%s:\n", argv[i]);
        status |= list(argv[i]);
    }
    return status;
}
