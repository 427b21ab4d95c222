/*
 * fileset: sets of files with known contents, written and checked, for the
 * remote file systems' crash tests (docs/remote-files.md, "When a server
 * crashes") and anyone who wants to know whether data survived.  The
 * actions run in order, in one process (so that nothing waits for the
 * next command between them):
 *
 *   write PREFIX N SIZE    create PREFIX0 .. PREFIX<N-1>, SIZE bytes each,
 *                          written and closed one by one
 *   verify PREFIX N SIZE   read them back and compare
 *   remove PREFIX N        remove them (each must be there: a remove done
 *                          twice, as a lost reply's retransmission could
 *                          make it, fails with ENOENT)
 *   hold PATH SIZE         create PATH, write SIZE bytes, keep it open
 *   release                ... and close it
 *   sleep MS               wait MS milliseconds of guest time
 *
 * File i of a set holds byte (i * 7 + offset * 13 + 1) & 0xff at each
 * offset (a held file is file 0), so a block of another file, of zeros or
 * of another place shows as wrong.  For the harness:
 *
 *   fileset: wrote N files of SIZE bytes
 *   fileset: verified N files: missing=M short=S bad_bytes=B
 *
 * (missing: could not be opened; short: fewer bytes than SIZE; bad_bytes:
 * bytes missing or different, counting a missing file's SIZE).  The exit
 * status is 1 if a verify found anything wrong, 2 on a bad command line.
 */
#include "user.h"

#define CHUNK 4096

static char buf[CHUNK];
static int held = -1;

static char expected(int i, unsigned int off)
{
    return (char)((i * 7 + off * 13 + 1) & 0xff);
}

static void usage(void)
{
    fprintf(2, "usage: fileset [write|verify PREFIX N SIZE] [remove PREFIX N] [hold PATH SIZE] "
               "[release] [sleep MS] ...\n");
    exit(2);
}

static int fill(int fd, int i, unsigned int size)
{
    for (unsigned int off = 0; off < size;) {
        unsigned int n = size - off < CHUNK ? size - off : CHUNK;
        for (unsigned int k = 0; k < n; k++)
            buf[k] = expected(i, off + k);
        if (write(fd, buf, n) != (int)n)
            return -1;
        off += n;
    }
    return 0;
}

/* Bytes wrong or missing in file i; *state 1: missing, 2: short. */
static unsigned int check(const char *path, int i, unsigned int size, int *state)
{
    *state = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        *state = 1;
        return size;
    }
    unsigned int bad = 0, off = 0;
    int n;
    while (off < size && (n = read(fd, buf, CHUNK)) > 0) {
        for (int k = 0; k < n && off + k < size; k++)
            bad += buf[k] != expected(i, off + k);
        off += n;
    }
    close(fd);
    if (off < size) {
        *state = 2;
        bad += size - off;
    }
    return bad;
}

static void die(const char *path)
{
    fprintf(2, "fileset: %s: %s\n", path, strerror(errno));
    exit(1);
}

int main(int argc, char *argv[])
{
    char path[MAXPATH];
    int status = 0;
    if (argc < 2)
        usage();
    for (int a = 1; a < argc;) {
        const char *act = argv[a];
        if ((strcmp(act, "write") == 0 || strcmp(act, "verify") == 0) && a + 3 < argc) {
            const char *prefix = argv[a + 1];
            int n = atoi(argv[a + 2]);
            unsigned int size = (unsigned int)atoi(argv[a + 3]);
            unsigned int missing = 0, shorter = 0, bad = 0;
            for (int i = 0; i < n; i++) {
                snprintf(path, sizeof path, "%s%d", prefix, i);
                if (act[0] == 'w') {
                    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY);
                    if (fd < 0 || fill(fd, i, size) < 0 || close(fd) < 0)
                        die(path);
                } else {
                    int state;
                    bad += check(path, i, size, &state);
                    missing += state == 1;
                    shorter += state == 2;
                }
            }
            if (act[0] == 'w')
                printf("fileset: wrote %d files of %u bytes\n", n, size);
            else
                printf("fileset: verified %d files: missing=%u short=%u bad_bytes=%u\n", n,
                       missing, shorter, bad);
            status |= bad != 0;
            a += 4;
        } else if (strcmp(act, "remove") == 0 && a + 2 < argc) {
            int n = atoi(argv[a + 2]);
            for (int i = 0; i < n; i++) {
                snprintf(path, sizeof path, "%s%d", argv[a + 1], i);
                if (unlink(path) < 0)
                    die(path);
            }
            printf("fileset: removed %d files\n", n);
            a += 3;
        } else if (strcmp(act, "hold") == 0 && a + 2 < argc && held < 0) {
            held = open(argv[a + 1], O_CREAT | O_TRUNC | O_WRONLY);
            if (held < 0 || fill(held, 0, (unsigned int)atoi(argv[a + 2])) < 0)
                die(argv[a + 1]);
            a += 3;
        } else if (strcmp(act, "release") == 0 && held >= 0) {
            if (close(held) < 0)
                die("the held file");
            held = -1;
            a += 1;
        } else if (strcmp(act, "sleep") == 0 && a + 1 < argc) {
            sleep((unsigned int)atoi(argv[a + 1]) * 1000u);
            a += 2;
        } else {
            usage();
        }
    }
    return status;
}
