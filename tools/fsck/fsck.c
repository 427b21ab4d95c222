/*
 * fsck: check a file-system image on the host, with the same checker the
 * kernel runs (kernel/port/fsck.c).
 *
 *   fsck [-y] IMAGE
 *
 * Blocks past the end of the file read as zeros (mkfs writes only the used
 * front of the disk).  Either byte order is accepted.  Prints one line per
 * problem (the first 20; "fsck: leak: ..." for those that only waste
 * space: fsck.h) and a summary; exits 0 if the file system is
 * consistent, 1 if not, 2 if the image cannot be read at all.
 *
 * With -y it repairs what it can in the image (fsck_repair: orphaned
 * inodes freed, link counts set, the bitmap made right, entries naming
 * free inodes cleared), printing the problems it found first, then a
 * second summary, "... N repairs, P problems left"; the exit status is
 * then that of the repaired image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck.h"

static int read_block(struct fsck *c, unsigned int b, void *buf)
{
    FILE *f = c->arg;
    memset(buf, 0, BSIZE);
    if (fseek(f, (long)b * BSIZE, SEEK_SET) != 0)
        return -1;
    fread(buf, 1, BSIZE, f);            /* short (past the end): zeros */
    return ferror(f) ? -1 : 0;
}

static int write_block(struct fsck *c, unsigned int b, const void *buf)
{
    FILE *f = c->arg;
    if (fseek(f, (long)b * BSIZE, SEEK_SET) != 0 || fwrite(buf, 1, BSIZE, f) != BSIZE)
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}

static void say(struct fsck *c, const char *fmt, unsigned int a, unsigned int b, unsigned int n)
{
    printf(c->saying_leak ? "fsck: leak: " : "fsck: ");
    printf(fmt, a, b, n);
}

static void say_nothing(struct fsck *c, const char *fmt, unsigned int a, unsigned int b,
                        unsigned int n)
{
}

int main(int argc, char *argv[])
{
    int repair = argc == 3 && strcmp(argv[1], "-y") == 0;
    if (argc != 2 + repair) {
        fprintf(stderr, "usage: fsck [-y] IMAGE\n");
        return 2;
    }
    const char *path = argv[1 + repair];
    FILE *f = fopen(path, repair ? "r+b" : "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    static struct fsck c;
    c.read = read_block;
    c.say = say;
    c.arg = f;
    c.maxblocks = 1u << 20;
    c.maxinodes = 1u << 16;
    c.blockuse = calloc(c.maxblocks, 1);
    c.links = calloc(c.maxinodes, sizeof *c.links);
    c.istate = calloc(c.maxinodes, 1);
    if (!c.blockuse || !c.links || !c.istate) {
        fprintf(stderr, "fsck: out of memory\n");
        return 2;
    }
    int r = fsck_run(&c);
    if (r < 0) {
        fclose(f);
        printf("fsck: %s: not a usable file system\n", path);
        return 2;
    }
    printf("fsck: %s: %u files, %u directories, %u blocks used, %u free, %u problems"
           " (%u leaks)%s\n", path, c.files, c.dirs, c.used, c.free, c.problems, c.leaks,
           c.swap ? " (other byte order)" : "");
    if (repair && c.problems) {
        c.write = write_block;
        c.say = say_nothing;
        r = fsck_repair(&c);
        printf("fsck: %s: %u files, %u directories, %u blocks used, %u free, "
               "%u repairs, %u problems left\n",
               path, c.files, c.dirs, c.used, c.free, c.fixed, r < 0 ? 1 : c.problems);
    }
    fclose(f);
    return c.problems ? 1 : 0;
}
