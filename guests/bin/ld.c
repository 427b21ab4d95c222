/*
 * ld: link M object files (guests/include/mobj.h) made by cc into one
 * executable: lay the objects' code, data and bss end to end, find every
 * symbol one refers to in the one that defines it, and fill in the
 * addresses.  The last step of the Andrew benchmark's compile phase.
 *
 *   ld -o OUT FILE.o...
 *   ld -o OUT @LIST              LIST names the objects, one per line
 *
 * (@LIST because exec passes at most MAXARG arguments, and a program has
 * more objects than that.)  Errors: an undefined or twice-defined symbol,
 * or a file that is not an object; each stops ld with status 1.
 */
#include "user.h"
#include "mobj.h"

#define MAXOBJS 256
#define NHASH   512

struct object {
    const char *path;
    struct mobj_header *h;
    unsigned int *code;
    unsigned char *data;
    struct mobj_sym *syms;
    struct mobj_reloc *relocs;
    const char *names;
    unsigned int codebase, database, bssbase;   /* where its parts go */
};

static struct object objs[MAXOBJS];
static int nobjs;

struct def {                            /* a global symbol and its definer */
    const char *name;
    struct object *o;
    struct mobj_sym *s;
    struct def *next;
};
static struct def *defs[NHASH];
static unsigned int total_code, total_data, total_bss;

static void die(const char *fmt, const char *a, const char *b)
{
    fprintf(2, "ld: ");
    fprintf(2, fmt, a, b);
    fprintf(2, "\n");
    exit(1);
}

static char *read_file(const char *path, unsigned int *size)
{
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) < 0)
        die("cannot read %s: %s", path, strerror(errno));
    char *buf = malloc(st.st_size + 1);
    if (!buf)
        die("out of memory reading %s%s", path, "");
    unsigned int got = 0;
    int n;
    while (got < st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
        got += n;
    close(fd);
    if (got != st.st_size)
        die("short read of %s%s", path, "");
    buf[got] = 0;
    *size = got;
    return buf;
}

static unsigned int hash(const char *s)
{
    unsigned int h = 0;
    while (*s)
        h = h * 31 + (unsigned char)*s++;
    return h % NHASH;
}

static void add_object(const char *path)
{
    if (nobjs == MAXOBJS)
        die("too many objects (%s)%s", path, "");
    unsigned int size;
    char *buf = read_file(path, &size);
    struct object *o = &objs[nobjs++];
    o->path = path;
    o->h = (struct mobj_header *)buf;
    struct mobj_header *h = o->h;
    if (size < sizeof *h || h->magic != MOBJ_MAGIC)
        die("%s is not an object file%s", path, "");
    unsigned int need = sizeof *h + h->ncode * 4 + h->ndata + h->nsyms * sizeof(struct mobj_sym) +
                        h->nrelocs * sizeof(struct mobj_reloc) + h->strsize;
    if (need != size)
        die("%s is damaged (its sizes do not add up)%s", path, "");
    char *p = buf + sizeof *h;
    o->code = (unsigned int *)p;
    p += h->ncode * 4;
    o->data = (unsigned char *)p;
    p += h->ndata;
    o->syms = (struct mobj_sym *)p;
    p += h->nsyms * sizeof(struct mobj_sym);
    o->relocs = (struct mobj_reloc *)p;
    p += h->nrelocs * sizeof(struct mobj_reloc);
    o->names = p;
    o->codebase = total_code;
    o->database = total_data;
    o->bssbase = total_bss;
    total_code += h->ncode;
    total_data += h->ndata;
    total_bss += h->nbss;

    for (unsigned int i = 0; i < h->nsyms; i++) {
        struct mobj_sym *s = &o->syms[i];
        if (s->kind == SYM_UNDEF || !s->global)
            continue;
        const char *name = o->names + s->name;
        unsigned int hh = hash(name);
        for (struct def *d = defs[hh]; d; d = d->next)
            if (strcmp(d->name, name) == 0)
                die("%s is defined twice (again in %s)", name, path);
        struct def *d = malloc(sizeof *d);
        d->name = name;
        d->o = o;
        d->s = s;
        d->next = defs[hh];
        defs[hh] = d;
    }
}

/* The address of symbol s, defined in object o. */
static unsigned int address(struct object *o, struct mobj_sym *s)
{
    switch (s->kind) {
    case SYM_CODE: return o->codebase + s->value;
    case SYM_DATA: return DATA_BASE + o->database + s->value;
    default:       return DATA_BASE + total_data + o->bssbase + s->value;
    }
}

static unsigned int resolve(struct object *o, unsigned int sym)
{
    struct mobj_sym *s = &o->syms[sym];
    if (s->kind != SYM_UNDEF)
        return address(o, s);
    const char *name = o->names + s->name;
    for (struct def *d = defs[hash(name)]; d; d = d->next)
        if (strcmp(d->name, name) == 0)
            return address(d->o, d->s);
    die("undefined: %s (used in %s)", name, o->path);
    return 0;
}

static void relocate(struct object *o)
{
    for (unsigned int i = 0; i < o->h->nrelocs; i++) {
        struct mobj_reloc *r = &o->relocs[i];
        if (r->where == RELOC_CODE) {
            if (r->at >= o->h->ncode)
                die("%s: relocation outside the code%s", o->path, "");
            unsigned int w = o->code[r->at];
            unsigned int v = r->sym == RELOC_DATA
                ? DATA_BASE + o->database + (unsigned int)M_ARG(w) : resolve(o, r->sym);
            if (v >= (1u << 23))
                die("%s: an address does not fit in an instruction%s", o->path, "");
            o->code[r->at] = M_WORD(M_OP(w), v);
        } else {
            if (r->at + 4 > o->h->ndata)
                die("%s: relocation outside the data%s", o->path, "");
            unsigned int *w = (unsigned int *)(o->data + r->at);
            *w = r->sym == RELOC_DATA ? DATA_BASE + o->database + *w : resolve(o, r->sym);
        }
    }
    /* Jumps are relative to the object's own code: move them too. */
    for (unsigned int i = 0; i < o->h->ncode; i++) {
        unsigned int op = M_OP(o->code[i]);
        if (op == M_JMP || op == M_JZ || op == M_JNZ)
            o->code[i] = M_WORD(op, M_ARG(o->code[i]) + o->codebase);
        if (op == M_PUSHW || op == M_CALL)
            i++;                        /* the next word is not an instruction */
    }
}

static void write_all(int fd, const void *p, unsigned int n, const char *path)
{
    if (n && write(fd, p, (int)n) != (int)n)
        die("cannot write %s: %s", path, strerror(errno));
}

int main(int argc, char *argv[])
{
    const char *out = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (argv[i][0] == '@') {
            unsigned int size;
            char *list = read_file(argv[i] + 1, &size);
            for (char *line = list; *line;) {
                char *end = strchr(line, '\n');
                if (end)
                    *end = 0;
                if (*line)
                    add_object(line);
                if (!end)
                    break;
                line = end + 1;
            }
        } else {
            add_object(argv[i]);
        }
    }
    if (!out || nobjs == 0) {
        fprintf(2, "usage: ld -o OUT FILE.o... | @LIST\n");
        return 2;
    }
    for (int i = 0; i < nobjs; i++)
        relocate(&objs[i]);

    struct mobj_header h = {
        .magic = MEXE_MAGIC, .ncode = total_code, .ndata = total_data, .nbss = total_bss,
    };
    struct def *m = 0;
    for (m = defs[hash("main")]; m && strcmp(m->name, "main") != 0; m = m->next)
        ;
    if (!m || m->s->kind != SYM_CODE)
        die("no main function%s%s", "", "");
    h.entry = address(m->o, m->s);

    int fd = open(out, O_CREAT | O_TRUNC | O_WRONLY);
    if (fd < 0)
        die("cannot create %s: %s", out, strerror(errno));
    write_all(fd, &h, sizeof h, out);
    for (int i = 0; i < nobjs; i++)
        write_all(fd, objs[i].code, objs[i].h->ncode * 4, out);
    for (int i = 0; i < nobjs; i++)
        write_all(fd, objs[i].data, objs[i].h->ndata, out);
    close(fd);
    return 0;
}
