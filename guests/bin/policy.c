/*
 * policy: show or set the file system's write policy and its knobs
 * (fsctl, kernel/port/writeback.c).
 *
 *   policy                        print the settings
 *   policy sync|delayed|writethrough
 *   policy nfs|sprite             the remote file system's protocol
 *                                 (kernel/port/rfs/: what `mount` mounted;
 *                                 prints a second line, remote=PROTO)
 *   policy -age MS                delayed: write a dirty block once MS old
 *   policy -cache BLOCKS          buffer-cache size (empties the cache)
 *   policy -disk OVERHEAD SEEK ROTATION KB/S
 *                                 the disk's latency model (ns, ns, ns, KB/s;
 *                                 all 0: a RAM disk with no delay)
 *   policy -paging eager|demand   the kernel's paging mode for the programs
 *                                 started from then on (kernel/port/paging.c);
 *                                 prints a second line, paging=MODE faults=N
 *                                 (page faults served since boot)
 *   policy -pages list|coloured|random
 *                                 the page-allocation policy for the pages
 *                                 allocated from then on (kernel/port/kalloc.c;
 *                                 Chen et al.'s Figure 4); prints a line
 *                                 pages=NEW was=OLD
 *   policy -fork copy|cow         what fork does with the parent's pages:
 *                                 copy them, or share them copy-on-write
 *                                 (kernel/port/cow.c); prints a line
 *                                 fork=MODE copies=N cowfaults=N
 *
 * Options combine; the settings are printed after any change, as
 *   policy=sync age_ms=30000 cache=2048 cache_max=4096 disk=0,0,0,0
 * Changing the policy first writes every dirty block to the disk.
 */
#include "user.h"
#include "fsutil.h"

static void usage(void)
{
    fprintf(2, "usage: policy [sync|delayed|writethrough|nfs|sprite] [-age MS] [-cache BLOCKS]\n"
               "              [-disk OVERHEAD_NS SEEK_NS ROTATION_NS KB_PER_S]\n"
               "              [-paging eager|demand] [-pages list|coloured|random]\n"
               "              [-fork copy|cow]\n");
    exit(2);
}

static unsigned int number(const char *s)
{
    if (*s < '0' || *s > '9')
        usage();
    return (unsigned int)atoi(s);
}

int main(int argc, char *argv[])
{
    struct fsconf c;
    int paging = -1;                    /* PAGING_*, if -paging was given */
    int fork = -1;                      /* FORK_*, if -fork was given */
    int pages = -1, was = -1;           /* PAGES_*, if -pages was given; the old one */
    if (fsctl(FSCTL_GETCONF, &c) < 0) {
        fprintf(2, "policy: %s\n", strerror(errno));
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-age") == 0 && i + 1 < argc) {
            c.flush_age_ms = number(argv[++i]);
        } else if (strcmp(argv[i], "-cache") == 0 && i + 1 < argc) {
            c.cache_blocks = number(argv[++i]);
        } else if (strcmp(argv[i], "-disk") == 0 && i + 4 < argc) {
            c.disk_overhead_ns = number(argv[++i]);
            c.disk_seek_ns = number(argv[++i]);
            c.disk_rotation_ns = number(argv[++i]);
            c.disk_kb_per_s = number(argv[++i]);
        } else if (strcmp(argv[i], "-paging") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "eager") == 0)
                paging = PAGING_EAGER;
            else if (strcmp(argv[i], "demand") == 0)
                paging = PAGING_DEMAND;
            else
                usage();
        } else if (strcmp(argv[i], "-pages") == 0 && i + 1 < argc) {
            i++;
            pages = pages_by_name(argv[i]);
            if (pages < 0)
                usage();
        } else if (strcmp(argv[i], "-fork") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "copy") == 0)
                fork = FORK_COPY;
            else if (strcmp(argv[i], "cow") == 0)
                fork = FORK_COW;
            else
                usage();
        } else if (POLICY_IS_REMOTE(policy_by_name(argv[i]))) {
            c.remote = (unsigned)(policy_by_name(argv[i]) - POLICY_WRITETHROUGH);
        } else if (policy_by_name(argv[i]) >= 0) {
            c.policy = (unsigned)policy_by_name(argv[i]);
        } else {
            usage();
        }
    }
    if (paging >= 0 && fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)paging) < 0) {
        fprintf(2, "policy: paging: %s\n", strerror(errno));
        return 1;
    }
    if (pages >= 0 && (was = fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)pages)) < 0) {
        fprintf(2, "policy: pages: %s\n", strerror(errno));
        return 1;
    }
    if (fork >= 0 && fsctl(FSCTL_PAGEPOLICY, (void *)(uintptr_t)fork) < 0) {
        fprintf(2, "policy: fork: %s\n", strerror(errno));
        return 1;
    }
    if (argc > 1 && (fsctl(FSCTL_SETCONF, &c) < 0 || fsctl(FSCTL_GETCONF, &c) < 0)) {
        fprintf(2, "policy: %s\n", strerror(errno));
        return 1;
    }
    printf("policy=%s age_ms=%u cache=%u cache_max=%u disk=%u,%u,%u,%u\n",
           policy_name((int)c.policy), c.flush_age_ms, c.cache_blocks, c.cache_max,
           c.disk_overhead_ns, c.disk_seek_ns, c.disk_rotation_ns, c.disk_kb_per_s);
    if (c.remote)
        printf("remote=%s\n", policy_name(POLICY_WRITETHROUGH + (int)c.remote));
    if (paging >= 0)
        printf("paging=%s faults=%d\n",
               fsctl(FSCTL_PAGEPOLICY, (void *)PAGING_MODE) == PAGING_DEMAND ? "demand" : "eager",
               fsctl(FSCTL_PAGEPOLICY, (void *)PAGING_FAULTS));
    if (pages >= 0)
        printf("pages=%s was=%s\n", pages_name(pages), pages_name(was));
    if (fork >= 0)
        printf("fork=%s copies=%d cowfaults=%d\n",
               fsctl(FSCTL_PAGEPOLICY, (void *)FORK_MODE) == FORK_COW ? "cow" : "copy",
               fsctl(FSCTL_PAGEPOLICY, (void *)FORK_COPIES),
               fsctl(FSCTL_PAGEPOLICY, (void *)FORK_COWFAULTS));
    return 0;
}
