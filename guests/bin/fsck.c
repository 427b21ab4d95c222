/*
 * fsck: check the file system's consistency (the kernel's checker, through
 * fsctl(FSCTL_FSCK): kernel/port/fsck.c).  The kernel prints each problem
 * ("fsck: leak: ..." for those that only waste space); this prints the
 * summary,
 *
 *   fsck: 17 files, 4 directories, 244 blocks used, 3785 free, 0 problems
 *
 * and exits 0 if there were none, 1 if there were.  `fsck -y` then repairs
 * what it can (FSCTL_REPAIR: orphaned inodes, link counts, the bitmap,
 * entries naming free inodes, blocks past the end of a file) if there were
 * problems, writing each repair to the disk at once, and prints a second
 * line,
 *
 *   fsck: 3 repairs, 0 problems left
 *
 * exiting 0 if none are left.  Run it when no other program is using the
 * file system.
 */
#include "user.h"

int main(int argc, char *argv[])
{
    int repair = argc == 2 && strcmp(argv[1], "-y") == 0;
    if (argc != 1 + repair) {
        fprintf(2, "usage: fsck [-y]\n");
        return 2;
    }
    struct fsckinfo info;
    int r = fsctl(FSCTL_FSCK, &info);
    if (r < 0) {
        fprintf(2, "fsck: %s\n", strerror(errno));
        return 2;
    }
    printf("fsck: %u files, %u directories, %u blocks used, %u free, %u problems\n",
           info.files, info.dirs, info.used_blocks, info.free_blocks, info.problems);
    if (!repair || info.problems == 0)
        return info.problems ? 1 : 0;
    if ((r = fsctl(FSCTL_REPAIR, &info)) < 0) {
        fprintf(2, "fsck: %s\n", strerror(errno));
        return 2;
    }
    printf("fsck: %u repairs, %u problems left\n", info.repairs, info.problems);
    return info.problems ? 1 : 0;
}
