/*
 * cat: copy each named file, or the standard input if none, to the
 * standard output.
 */
#include "user.h"

static char buf[512];

/* Copy fd to the standard output.  Returns 0, or -1 after a message. */
static int copy(int fd, const char *name)
{
    int n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        if (write(1, buf, n) != n) {
            fprintf(2, "cat: write: %s\n", strerror(errno));
            return -1;
        }
    }
    if (n < 0) {
        fprintf(2, "cat: %s: %s\n", name, strerror(errno));
        return -1;
    }
    return 0;
}

int main(int argc, char *argv[])
{
    if (argc < 2)
        return copy(0, "standard input") < 0;

    int status = 0;
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) {
            fprintf(2, "cat: %s: %s\n", argv[i], strerror(errno));
            status = 1;
            continue;
        }
        if (copy(fd, argv[i]) < 0)
            status = 1;
        close(fd);
    }
    return status;
}
