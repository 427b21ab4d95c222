/*
 * rm: remove files.  `rm [-r] PATH...`: without -r, files only (and empty
 * directories, as rmdir does); with -r, directories and all they hold.
 */
#include "user.h"
#include "fsutil.h"

int main(int argc, char *argv[])
{
    int i = 1, recursive = 0, status = 0;
    if (i < argc && strcmp(argv[i], "-r") == 0) {
        recursive = 1;
        i++;
    }
    if (i == argc) {
        fprintf(2, "usage: rm [-r] PATH...\n");
        return 2;
    }
    for (; i < argc; i++) {
        struct stat st;
        int r;
        if (recursive)
            r = rm_tree(argv[i]);
        else if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            r = rmdir(argv[i]);
        else
            r = unlink(argv[i]);
        if (r < 0) {
            fprintf(2, "rm: %s: %s\n", argv[i], strerror(errno));
            status = 1;
        }
    }
    return status;
}
