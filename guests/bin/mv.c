/*
 * mv: rename files.  `mv FROM TO` gives FROM the name TO (replacing a file
 * TO, in one step: rename(2)); if TO is a directory, FROM moves into it
 * under its own last name.  `mv FROM... DIR` moves each into DIR.
 */
#include "user.h"

/* FROM's last path element. */
static const char *last_name(const char *path)
{
    const char *base = path;
    for (const char *s = path; *s; s++)
        if (*s == '/' && s[1] != 0 && s[1] != '/')
            base = s + 1;
    return base;
}

static int move(const char *from, const char *to, int into)
{
    char path[MAXPATH];
    if (into) {
        const char *base = last_name(from);
        int n = snprintf(path, sizeof path, "%s/%s", to, base);
        if (n >= (int)sizeof path) {
            fprintf(2, "mv: %s/%s: %s\n", to, base, strerror(ENAMETOOLONG));
            return 1;
        }
        /* "a/" names a; its trailing slashes are not part of the name */
        for (char *e = path + n - 1; e > path && *e == '/'; e--)
            *e = 0;
        to = path;
    }
    if (rename(from, to) < 0) {
        fprintf(2, "mv: %s -> %s: %s\n", from, to, strerror(errno));
        return 1;
    }
    return 0;
}

int main(int argc, char *argv[])
{
    if (argc < 3) {
        fprintf(2, "usage: mv FROM TO, or mv FROM... DIR\n");
        return 2;
    }
    struct stat st;
    const char *to = argv[argc - 1];
    int into = stat(to, &st) == 0 && S_ISDIR(st.st_mode);
    if (argc > 3 && !into) {
        fprintf(2, "mv: %s: %s\n", to, strerror(ENOTDIR));
        return 1;
    }
    int status = 0;
    for (int i = 1; i < argc - 1; i++)
        status |= move(argv[i], to, into);
    return status;
}
