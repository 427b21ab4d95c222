/*
 * Programs linked into the kernel image, until the file system exists:
 * scripts/mkprogs.sh turns each guest ELF file into bytes in progs.S with
 * a table `progs` of name, start and size.  exec finds a program here by
 * the last component of its path ("/bin/getpid" and "getpid" are the same).
 */
#include "kernel.h"
#include "exec.h"

struct prog {
    const char *name;
    const uint8 *data;
    uint32 size;
};
extern const struct prog progs[];        /* ends with a zero entry */

static int prog_read(struct exec_source *src, void *dst, uint32 off, uint32 n)
{
    if (off > src->size || n > src->size - off)
        return -ENOEXEC;
    memcpy(dst, (const uint8 *)src->obj + off, n);
    return 0;
}

int progs_open(const char *path, struct exec_source *src)
{
    const char *base = path;
    for (const char *s = path; *s; s++)
        if (*s == '/')
            base = s + 1;
    for (const struct prog *p = progs; p->name; p++)
        if (strcmp(p->name, base) == 0) {
            src->read = prog_read;
            src->obj = p->data;
            src->size = p->size;
            return 0;
        }
    return -ENOENT;
}
