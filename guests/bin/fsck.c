/*
 * fsck: check the file system's consistency (the kernel's checker, through
 * fsctl(FSCTL_FSCK): kernel/port/fsck.c).  The kernel prints each problem;
 * this prints the summary,
 *
 *   fsck: 17 files, 4 directories, 244 blocks used, 3785 free, 0 problems
 *
 * and exits 0 if there were none, 1 if there were.  Run it when no other
 * program is using the file system.
 */
#include "user.h"

int main(void)
{
    struct fsckinfo info;
    int r = fsctl(FSCTL_FSCK, &info);
    if (r < 0) {
        fprintf(2, "fsck: %s\n", strerror(errno));
        return 2;
    }
    printf("fsck: %u files, %u directories, %u blocks used, %u free, %u problems\n",
           info.files, info.dirs, info.used_blocks, info.free_blocks, info.problems);
    return info.problems ? 1 : 0;
}
