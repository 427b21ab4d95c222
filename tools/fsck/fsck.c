/*
 * fsck: check a file-system image on the host, with the same checker the
 * kernel runs (kernel/port/fsck.c).
 *
 *   fsck IMAGE
 *
 * Blocks past the end of the file read as zeros (mkfs writes only the used
 * front of the disk).  Either byte order is accepted.  Prints one line per
 * problem (the first 20) and a summary; exits 0 if the file system is
 * consistent, 1 if not, 2 if the image cannot be read at all.
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

static void say(struct fsck *c, const char *fmt, unsigned int a, unsigned int b, unsigned int n)
{
    printf("fsck: ");
    printf(fmt, a, b, n);
}

int main(int argc, char *argv[])
{
    if (argc != 2) {
        fprintf(stderr, "usage: fsck IMAGE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
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
    fclose(f);
    if (r < 0) {
        printf("fsck: %s: not a usable file system\n", argv[1]);
        return 2;
    }
    printf("fsck: %s: %u files, %u directories, %u blocks used, %u free, %u problems%s\n",
           argv[1], c.files, c.dirs, c.used, c.free, c.problems,
           c.swap ? " (other byte order)" : "");
    return c.problems ? 1 : 0;
}
