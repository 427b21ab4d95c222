/*
 * rfsd: serve this machine's file system to remote clients
 * (kernel/port/rfs/server.c): the kernel starts its serving processes and
 * this returns, as nfsd's did.
 *
 *   rfsd [-crash N | -crashwrites N] [-down MS] [-wait]
 *   rfsd -crashnow [-down MS]      (serving already: crash now, between calls)
 *
 * -crash N: after serving N calls the server crashes, losing what a
 * machine loses in a power failure (its buffer cache's dirty blocks, its
 * memory) but not its disk, answers nothing for MS milliseconds (default
 * 2000), then comes back after an fsck -y (docs/remote-files.md, "When a
 * server crashes").  -crashwrites N: after serving N writes (WRITE
 * calls: under sprite, a client's write-backs).  It prints `rfsd: serving` when ready;
 * with -wait it stays in the foreground until Ctrl-C (or a key), so that
 * what the server says later, on the console, is this command's output.
 */
#include "user.h"

static void usage(void)
{
    fprintf(2, "usage: rfsd [-crash CALLS | -crashwrites N | -crashnow] [-down MS] [-wait]\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    struct rfsserve s = { .crash_after = 0, .crash_writes = 0, .down_ms = 2000 };
    int now = 0, wait = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-crashnow") == 0 || strcmp(argv[i], "-wait") == 0) {
            now |= argv[i][1] == 'c';
            wait |= argv[i][1] == 'w';
            continue;
        }
        if (strcmp(argv[i], "-crash") == 0 && i + 1 < argc && argv[i + 1][0] >= '0' &&
            argv[i + 1][0] <= '9')
            s.crash_after = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "-crashwrites") == 0 && i + 1 < argc &&
                 argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
            s.crash_writes = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "-down") == 0 && i + 1 < argc && argv[i + 1][0] >= '0' &&
                 argv[i + 1][0] <= '9')
            s.down_ms = (unsigned)atoi(argv[++i]);
        else
            usage();
    }
    if (now) {
        if (fsctl(FSCTL_RFSCRASH, (void *)(uintptr_t)s.down_ms) < 0) {
            fprintf(2, "rfsd: crash: %s\n", strerror(errno));
            return 1;
        }
        printf("rfsd: crashed and up again\n");
        return 0;
    }
    if (fsctl(FSCTL_SERVE, &s) < 0) {
        fprintf(2, "rfsd: %s\n", strerror(errno));
        return 1;
    }
    printf("rfsd: serving\n");
    if (wait) {
        char c;
        read(0, &c, 1);                 /* no deadline: an idle machine waits */
    }
    return 0;
}
