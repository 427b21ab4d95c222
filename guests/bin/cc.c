/*
 * cc: a compiler for a subset of C, producing code for the M stack machine
 * (guests/include/mobj.h).  The compile phase of the Andrew benchmark runs
 * it once per source file, as make runs a compiler.
 *
 *   cc [-I DIR]... -o OUT.o FILE.c
 *
 * One pass, as the early C compilers: a preprocessor inside the lexer
 * (#include "file", object-like #define, #ifdef/#ifndef/#else/#endif), a
 * recursive-descent parser, and code emitted as each construct is parsed.
 *
 * The language: int, char and void; pointers; arrays (one dimension);
 * global variables with constant or string initialisers; functions with
 * up to 8 parameters; static; if/else, while, for, return, break,
 * continue, blocks; the operators of C but for ?: , casts and sizeof;
 * decimal, hex, character and string constants.  Locals and scalar globals
 * occupy a word each; only arrays and pointers see single chars.
 *
 * An error stops the compiler with "cc: FILE:LINE: message" and status 1.
 */
#include "user.h"
#include "mobj.h"

#define MAXINC     8                   /* -I directories                */
#define MAXDEPTH   16                  /* nested includes and macros    */
#define MAXLOCALS  64
#define MAXLABELS  1024
#define MAXPARAMS  8
#define NHASH      256

static void error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* ---------------------------------------------------------------- memory */

static void strncpy_(char *dst, const char *src, size_t size)
{
    size_t i = 0;
    for (; i + 1 < size && src[i]; i++)
        dst[i] = src[i];
    dst[i] = 0;
}

static void *xalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        error("out of memory");
    return p;
}

static char *xstrdup(const char *s, size_t n)
{
    char *p = xalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

/* A growing array of bytes. */
struct vec {
    char *p;
    unsigned int len, cap;
};

static void vec_add(struct vec *v, const void *src, unsigned int n)
{
    if (v->len + n > v->cap) {
        unsigned int cap = v->cap ? v->cap * 2 : 1024;
        while (cap < v->len + n)
            cap *= 2;
        char *p = realloc(v->p, cap);
        if (!p)
            error("out of memory");
        v->p = p;
        v->cap = cap;
    }
    memcpy(v->p + v->len, src, n);
    v->len += n;
}

/* ---------------------------------------------------------------- input */

struct source {
    char *text;                        /* the whole file, or a macro body   */
    const char *p;
    int line;
    int bol;                           /* at the beginning of a line        */
    char name[MAXPATH];                /* the file (a macro: its file's)    */
    int macro;
};

static struct source srcs[MAXDEPTH];
static int nsrc;
static const char *incdirs[MAXINC];
static int nincdirs;

static struct source *cur(void) { return &srcs[nsrc - 1]; }

static void error(const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int i = nsrc - 1;
    while (i > 0 && srcs[i].macro)
        i--;
    if (nsrc > 0)
        fprintf(2, "cc: %s:%d: %s\n", srcs[i].name, srcs[i].line, msg);
    else
        fprintf(2, "cc: %s\n", msg);
    exit(1);
}

static char *read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        close(fd);
        return 0;
    }
    char *buf = xalloc(st.st_size + 1);
    int got = 0, n;
    while (got < (int)st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
        got += n;
    close(fd);
    buf[got] = 0;
    return buf;
}

static void push_source(char *text, const char *name, int macro)
{
    if (nsrc == MAXDEPTH)
        error("includes or macros nested too deeply");
    struct source *s = &srcs[nsrc++];
    s->text = text;
    s->p = text;
    s->line = 1;
    s->bol = 1;
    s->macro = macro;
    strncpy_(s->name, name, sizeof s->name);
}

/* ---------------------------------------------------------------- macros */

struct macro {
    char *name, *body;
    struct macro *next;
};
static struct macro *macros[NHASH];

static unsigned int hash(const char *s)
{
    unsigned int h = 0;
    while (*s)
        h = h * 31 + (unsigned char)*s++;
    return h % NHASH;
}

static struct macro *find_macro(const char *name)
{
    for (struct macro *m = macros[hash(name)]; m; m = m->next)
        if (strcmp(m->name, name) == 0)
            return m;
    return 0;
}

/* ---------------------------------------------------------------- lexer */

enum {
    T_EOF = 256, T_NUM, T_STR, T_ID,
    T_INT, T_CHAR, T_VOID, T_IF, T_ELSE, T_WHILE, T_FOR, T_RETURN, T_BREAK,
    T_CONTINUE, T_STATIC,
    T_EQ, T_NE, T_LE, T_GE, T_SHL, T_SHR, T_ANDAND, T_OROR, T_INC, T_DEC,
    T_ADDEQ, T_SUBEQ, T_MULEQ, T_ANDEQ, T_OREQ, T_XOREQ,
};

static const struct { const char *word; int tok; } keywords[] = {
    { "int", T_INT }, { "char", T_CHAR }, { "void", T_VOID }, { "if", T_IF },
    { "else", T_ELSE }, { "while", T_WHILE }, { "for", T_FOR }, { "return", T_RETURN },
    { "break", T_BREAK }, { "continue", T_CONTINUE }, { "static", T_STATIC },
};

static const struct { char a, b; int tok; } pairs[] = {
    { '=', '=', T_EQ }, { '!', '=', T_NE }, { '<', '=', T_LE }, { '>', '=', T_GE },
    { '<', '<', T_SHL }, { '>', '>', T_SHR }, { '&', '&', T_ANDAND }, { '|', '|', T_OROR },
    { '+', '+', T_INC }, { '-', '-', T_DEC }, { '+', '=', T_ADDEQ }, { '-', '=', T_SUBEQ },
    { '*', '=', T_MULEQ }, { '&', '=', T_ANDEQ }, { '|', '=', T_OREQ }, { '^', '=', T_XOREQ },
};

static int tok;                        /* the current token              */
static int tokval;                     /* T_NUM: its value               */
static char tokstr[256];               /* T_ID, T_STR: the text          */
static int toklen;                     /* T_STR: its length              */

/* #ifdef nesting: each level is active or not. */
static int cond_active[32];
static int ncond;

static int skipping(void)
{
    for (int i = 0; i < ncond; i++)
        if (!cond_active[i])
            return 1;
    return 0;
}

static int is_id(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* The rest of the current line, trimmed, and step past it. */
static char *rest_of_line(struct source *s)
{
    while (*s->p == ' ' || *s->p == '\t')
        s->p++;
    const char *start = s->p;
    while (*s->p && *s->p != '\n')
        s->p++;
    const char *end = s->p;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    return xstrdup(start, end - start);
}

static void directive(struct source *s)
{
    char word[16];
    int n = 0;
    while (*s->p == ' ')
        s->p++;
    while (is_id(*s->p) && n < (int)sizeof word - 1)
        word[n++] = *s->p++;
    word[n] = 0;
    char *arg = rest_of_line(s);
    char name[64];
    n = 0;
    while (is_id(arg[n]) && n < (int)sizeof name - 1) {
        name[n] = arg[n];
        n++;
    }
    name[n] = 0;

    if (strcmp(word, "ifdef") == 0 || strcmp(word, "ifndef") == 0) {
        if (ncond == (int)(sizeof cond_active / sizeof cond_active[0]))
            error("#if nested too deeply");
        int defined = find_macro(name) != 0;
        cond_active[ncond++] = word[2] == 'd' ? defined : !defined;
    } else if (strcmp(word, "else") == 0) {
        if (ncond == 0)
            error("#else without #if");
        cond_active[ncond - 1] = !cond_active[ncond - 1];
    } else if (strcmp(word, "endif") == 0) {
        if (ncond == 0)
            error("#endif without #if");
        ncond--;
    } else if (skipping()) {
        /* nothing else counts inside a false #if */
    } else if (strcmp(word, "define") == 0) {
        if (!name[0])
            error("#define without a name");
        struct macro *m = xalloc(sizeof *m);
        m->name = xstrdup(name, strlen(name));
        const char *body = arg + strlen(name);
        while (*body == ' ' || *body == '\t')
            body++;
        m->body = xstrdup(body, strlen(body));
        unsigned int h = hash(name);
        m->next = macros[h];
        macros[h] = m;
    } else if (strcmp(word, "include") == 0) {
        char *q = strchr(arg, '"'), *e = q ? strchr(q + 1, '"') : 0;
        if (!q || !e)
            error("#include wants \"file\"");
        *e = 0;
        char path[MAXPATH];
        char *text = 0;
        /* The including file's directory first, then each -I directory. */
        const char *slash = 0;
        for (const char *c = s->name; *c; c++)
            if (*c == '/')
                slash = c;
        if (q[1] == '/') {
            snprintf(path, sizeof path, "%s", q + 1);
            text = read_file(path);
        } else {
            if (slash)
                snprintf(path, sizeof path, "%.*s/%s", (int)(slash - s->name), s->name, q + 1);
            else
                snprintf(path, sizeof path, "%s", q + 1);
            text = read_file(path);
            for (int i = 0; !text && i < nincdirs; i++) {
                snprintf(path, sizeof path, "%s/%s", incdirs[i], q + 1);
                text = read_file(path);
            }
        }
        if (!text)
            error("cannot find include file \"%s\"", q + 1);
        free(arg);
        push_source(text, path, 0);
        return;
    }
    /* #undef, #pragma ... are ignored. */
    free(arg);
}

static int escape(const char **pp)
{
    const char *p = *pp;
    int c = *p++;
    if (c == '\\') {
        c = *p++;
        switch (c) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case '0': c = 0; break;
        default: break;                /* \\ \' \" */
        }
    }
    *pp = p;
    return c;
}

static void next(void)
{
    for (;;) {
        struct source *s = cur();
        int c = *s->p;
        if (c == 0) {
            if (nsrc == 1) {
                tok = T_EOF;
                return;
            }
            if (!s->macro)
                free(s->text);
            nsrc--;
            continue;
        }
        if (c == '\n') {
            s->p++;
            s->line++;
            s->bol = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            s->p++;
            continue;
        }
        if (c == '/' && s->p[1] == '*') {
            s->p += 2;
            while (*s->p && !(s->p[0] == '*' && s->p[1] == '/'))
                if (*s->p++ == '\n')
                    s->line++;
            if (*s->p)
                s->p += 2;
            continue;
        }
        if (c == '/' && s->p[1] == '/') {
            while (*s->p && *s->p != '\n')
                s->p++;
            continue;
        }
        if (c == '#' && s->bol && !s->macro) {
            s->p++;
            directive(s);
            continue;
        }
        s->bol = 0;
        if (skipping()) {
            while (*s->p && *s->p != '\n')
                s->p++;
            continue;
        }

        if (c >= '0' && c <= '9') {
            int v = 0;
            if (c == '0' && (s->p[1] == 'x' || s->p[1] == 'X')) {
                s->p += 2;
                for (;; s->p++) {
                    int d = *s->p;
                    if (d >= '0' && d <= '9') v = v * 16 + d - '0';
                    else if (d >= 'a' && d <= 'f') v = v * 16 + d - 'a' + 10;
                    else if (d >= 'A' && d <= 'F') v = v * 16 + d - 'A' + 10;
                    else break;
                }
            } else {
                while (*s->p >= '0' && *s->p <= '9')
                    v = v * 10 + (*s->p++ - '0');
            }
            tok = T_NUM;
            tokval = v;
            return;
        }
        if (is_id(c)) {
            int n = 0;
            while (is_id(*s->p)) {
                if (n < (int)sizeof tokstr - 1)
                    tokstr[n++] = *s->p;
                s->p++;
            }
            tokstr[n] = 0;
            struct macro *m = find_macro(tokstr);
            if (m) {
                push_source(m->body, s->name, 1);
                cur()->line = s->line;
                continue;
            }
            tok = T_ID;
            for (unsigned int i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
                if (strcmp(tokstr, keywords[i].word) == 0)
                    tok = keywords[i].tok;
            return;
        }
        if (c == '\'') {
            s->p++;
            tokval = escape(&s->p);
            if (*s->p++ != '\'')
                error("bad character constant");
            tok = T_NUM;
            return;
        }
        if (c == '"') {
            s->p++;
            toklen = 0;
            while (*s->p && *s->p != '"') {
                int ch = escape(&s->p);
                if (toklen < (int)sizeof tokstr - 1)
                    tokstr[toklen++] = (char)ch;
            }
            if (*s->p++ != '"')
                error("unterminated string");
            tokstr[toklen] = 0;
            tok = T_STR;
            return;
        }
        s->p++;
        for (unsigned int i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            if (c == pairs[i].a && *s->p == pairs[i].b) {
                s->p++;
                tok = pairs[i].tok;
                return;
            }
        tok = c;
        return;
    }
}

static void expect(int t, const char *what)
{
    if (tok != t)
        error("expected %s", what);
    next();
}

static int accept(int t)
{
    if (tok != t)
        return 0;
    next();
    return 1;
}

/* ---------------------------------------------------------------- output */

static struct vec code, data, strtab, syms, relocs;
static unsigned int bss;

static unsigned int here(void) { return code.len / 4; }

static void emit(int op, int arg)
{
    unsigned int w = M_WORD(op, arg);
    vec_add(&code, &w, 4);
}

static void emit_word(unsigned int w)
{
    vec_add(&code, &w, 4);
}

static void reloc(unsigned int where, unsigned int at, unsigned int sym)
{
    struct mobj_reloc r = { where, at, sym };
    vec_add(&relocs, &r, sizeof r);
}

static void push_const(int v)
{
    if (v >= -(1 << 23) && v < (1 << 23)) {
        emit(M_PUSHI, v);
    } else {
        emit(M_PUSHW, 0);
        emit_word((unsigned int)v);
    }
}

/* A string constant: into the data section, its address on the stack. */
static unsigned int add_string(const char *s, int len)
{
    unsigned int off = data.len;
    vec_add(&data, s, len);
    static const char zeros[4];
    vec_add(&data, zeros, 4 - len % 4);    /* the NUL, and padding */
    return off;
}

/* ---------------------------------------------------------------- types, symbols */

/* A type: base (1 char, 2 int, 0 void) in the low two bits, pointer depth above. */
#define TVOID 0
#define TCHAR 1
#define TINT  2
#define PTR(t)   ((t) + 4)
#define DEREF(t) ((t) - 4)
#define ISPTR(t) ((t) >= 4)

static int size_of(int t) { return ISPTR(t) || (t & 3) == TINT ? 4 : 1; }

struct global {
    char *name;
    int type, array;                   /* array: element count, or 0    */
    int func, nparams, isstatic;
    int defined;                       /* 0 no, 1 code or data, 2 bss   */
    unsigned int value;                /* word index or byte offset     */
    unsigned int sym;                  /* index in the object's symbols */
    struct global *next;
};
static struct global *globals[NHASH];
static unsigned int nsyms;
static struct vec bysym;               /* struct global *, by symbol index */

static struct global *find_global(const char *name)
{
    for (struct global *g = globals[hash(name)]; g; g = g->next)
        if (strcmp(g->name, name) == 0)
            return g;
    return 0;
}

static struct global *declare_global(const char *name, int type, int array, int func)
{
    struct global *g = find_global(name);
    if (g)
        return g;
    g = xalloc(sizeof *g);
    memset(g, 0, sizeof *g);
    g->name = xstrdup(name, strlen(name));
    g->type = type;
    g->array = array;
    g->func = func;
    g->sym = nsyms++;
    vec_add(&bysym, &g, sizeof g);
    unsigned int h = hash(name);
    g->next = globals[h];
    globals[h] = g;
    return g;
}

struct local {
    char name[32];
    int type, array, offset;
};
static struct local locals[MAXLOCALS];
static int nlocals, frame;             /* frame: bytes of locals so far */

static struct local *find_local(const char *name)
{
    for (int i = nlocals - 1; i >= 0; i--)
        if (strcmp(locals[i].name, name) == 0)
            return &locals[i];
    return 0;
}

/* ---------------------------------------------------------------- labels */

static unsigned int labels[MAXLABELS];  /* code index, or ~0 until placed */
static int nlabels;
static struct { unsigned int at; int label; } patches[4 * MAXLABELS];
static int npatches;

static int new_label(void)
{
    if (nlabels == MAXLABELS)
        error("function too long");
    labels[nlabels] = ~0u;
    return nlabels++;
}

static void place(int l) { labels[l] = here(); }

static void jump(int op, int l)
{
    if (npatches == (int)(sizeof patches / sizeof patches[0]))
        error("function too long");
    patches[npatches].at = here();
    patches[npatches].label = l;
    npatches++;
    emit(op, 0);
}

static void resolve_labels(void)
{
    unsigned int *w = (unsigned int *)code.p;
    for (int i = 0; i < npatches; i++)
        w[patches[i].at] = M_WORD(M_OP(w[patches[i].at]), labels[patches[i].label]);
    nlabels = npatches = 0;
}

/* ---------------------------------------------------------------- expressions */

/* An expression just parsed: its type, and where its value is. */
enum { V_STACK, V_LOCAL, V_GLOBAL, V_MEM };
struct ex {
    int type;
    int where;                         /* V_STACK: value on the stack; V_LOCAL,
                                        * V_GLOBAL: a variable not yet loaded;
                                        * V_MEM: its address on the stack  */
    int arg;                           /* frame offset or symbol          */
};

static void expr(struct ex *e);
static void assign_expr(struct ex *e);

static void rvalue(struct ex *e)
{
    switch (e->where) {
    case V_LOCAL:  emit(M_LOADL, e->arg); break;
    case V_GLOBAL: reloc(RELOC_CODE, here(), e->arg); emit(M_LOADG, 0); break;
    case V_MEM:    emit(size_of(e->type) == 1 ? M_LOADB : M_LOADW, 0); break;
    }
    e->where = V_STACK;
}

static void need_lvalue(struct ex *e)
{
    if (e->where == V_STACK)
        error("not an lvalue");
}

/* Store the value on top of the stack into e (whose address, if V_MEM, is
 * just below it); the value stays on the stack. */
static void store(struct ex *e)
{
    switch (e->where) {
    case V_LOCAL:  emit(M_STOREL, e->arg); break;
    case V_GLOBAL: reloc(RELOC_CODE, here(), e->arg); emit(M_STOREG, 0); break;
    case V_MEM:    emit(size_of(e->type) == 1 ? M_STOREB : M_STOREW, 0); break;
    }
    e->where = V_STACK;
}

/* e op= (value on the stack); for V_MEM the address is below it, twice. */
static void load_for_update(struct ex *e)
{
    if (e->where == V_MEM) {
        emit(M_DUP, 0);
        emit(size_of(e->type) == 1 ? M_LOADB : M_LOADW, 0);
    } else if (e->where == V_LOCAL) {
        emit(M_LOADL, e->arg);
    } else {
        reloc(RELOC_CODE, here(), e->arg);
        emit(M_LOADG, 0);
    }
}

/* ++e or --e (delta 1 or -1), leaving the new value. */
static void increment(struct ex *e, int delta)
{
    need_lvalue(e);
    int where = e->where;
    load_for_update(e);
    push_const(delta * (ISPTR(e->type) ? size_of(DEREF(e->type)) : 1));
    emit(M_ADD, 0);
    e->where = where;
    store(e);
}

static void call(struct global *f, struct ex *e)
{
    int n = 0;
    if (tok != ')') {
        do {
            struct ex a;
            assign_expr(&a);
            rvalue(&a);
            n++;
        } while (accept(','));
    }
    expect(')', "')' after the arguments");
    if (f->nparams >= 0 && n != f->nparams)
        error("%s takes %d arguments, not %d", f->name, f->nparams, n);
    reloc(RELOC_CODE, here(), f->sym);
    emit(M_CALL, 0);
    emit_word((unsigned int)n);
    e->type = f->type;
    e->where = V_STACK;
}

static void primary(struct ex *e)
{
    e->where = V_STACK;
    if (tok == T_NUM) {
        push_const(tokval);
        e->type = TINT;
        next();
    } else if (tok == T_STR) {
        reloc(RELOC_CODE, here(), RELOC_DATA);
        emit(M_ADDRD, (int)add_string(tokstr, toklen));
        e->type = PTR(TCHAR);
        next();
    } else if (accept('(')) {
        expr(e);
        expect(')', "')'");
    } else if (tok == T_ID) {
        struct local *l = find_local(tokstr);
        struct global *g = l ? 0 : find_global(tokstr);
        if (!l && !g)
            error("undeclared identifier %s", tokstr);
        next();
        if (l) {
            e->type = l->type;
            if (l->array) {
                emit(M_ADDRL, l->offset);
                e->type = PTR(l->type);
            } else {
                e->where = V_LOCAL;
                e->arg = l->offset;
            }
        } else if (g->func) {
            expect('(', "'(' to call a function");
            call(g, e);
        } else if (g->array) {
            reloc(RELOC_CODE, here(), g->sym);
            emit(M_ADDRG, 0);
            e->type = PTR(g->type);
        } else {
            e->type = g->type;
            e->where = V_GLOBAL;
            e->arg = (int)g->sym;
        }
    } else {
        error("expected an expression");
    }
}

static void postfix(struct ex *e)
{
    primary(e);
    for (;;) {
        if (accept('[')) {
            rvalue(e);
            if (!ISPTR(e->type))
                error("subscript of something not an array or pointer");
            struct ex i;
            expr(&i);
            rvalue(&i);
            expect(']', "']'");
            int sz = size_of(DEREF(e->type));
            if (sz != 1) {
                push_const(sz);
                emit(M_MUL, 0);
            }
            emit(M_ADD, 0);
            e->type = DEREF(e->type);
            e->where = V_MEM;
        } else if (tok == T_INC || tok == T_DEC) {
            /* e++ is (++e) - 1: the same value, without juggling the stack. */
            int delta = tok == T_INC ? 1 : -1;
            next();
            increment(e, delta);
            push_const(delta * (ISPTR(e->type) ? size_of(DEREF(e->type)) : 1));
            emit(M_SUB, 0);
        } else {
            return;
        }
    }
}

static void unary(struct ex *e)
{
    int t = tok;
    if (t == '-' || t == '!' || t == '~') {
        next();
        unary(e);
        rvalue(e);
        emit(t == '-' ? M_NEG : t == '!' ? M_NOT : M_BNOT, 0);
        e->type = TINT;
    } else if (t == '*') {
        next();
        unary(e);
        rvalue(e);
        if (!ISPTR(e->type))
            error("* of something not a pointer");
        e->type = DEREF(e->type);
        e->where = V_MEM;
    } else if (t == '&') {
        next();
        unary(e);
        need_lvalue(e);
        if (e->where == V_LOCAL)
            emit(M_ADDRL, e->arg);
        else if (e->where == V_GLOBAL) {
            reloc(RELOC_CODE, here(), e->arg);
            emit(M_ADDRG, 0);
        }
        e->type = PTR(e->type);
        e->where = V_STACK;
    } else if (t == T_INC || t == T_DEC) {
        next();
        unary(e);
        increment(e, t == T_INC ? 1 : -1);
    } else {
        postfix(e);
    }
}

/* Binary operators by precedence, lowest first (&& and || apart). */
static const struct { int tok, prec, op; } binops[] = {
    { '|', 1, M_OR }, { '^', 2, M_XOR }, { '&', 3, M_AND },
    { T_EQ, 4, M_EQ }, { T_NE, 4, M_NE },
    { '<', 5, M_LT }, { '>', 5, M_GT }, { T_LE, 5, M_LE }, { T_GE, 5, M_GE },
    { T_SHL, 6, M_SHL }, { T_SHR, 6, M_SHR },
    { '+', 7, M_ADD }, { '-', 7, M_SUB },
    { '*', 8, M_MUL }, { '/', 8, M_DIV }, { '%', 8, M_MOD },
};

static int binop(int t, int *op)
{
    for (unsigned int i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (binops[i].tok == t) {
            *op = binops[i].op;
            return binops[i].prec;
        }
    return 0;
}

static void binary(struct ex *e, int minprec)
{
    unary(e);
    int op, prec;
    while ((prec = binop(tok, &op)) >= minprec && prec > 0) {
        next();
        rvalue(e);
        struct ex r;
        binary(&r, prec + 1);
        rvalue(&r);
        /* pointer + int: scale the int */
        if ((op == M_ADD || op == M_SUB) && ISPTR(e->type) && !ISPTR(r.type) &&
            size_of(DEREF(e->type)) != 1) {
            push_const(size_of(DEREF(e->type)));
            emit(M_MUL, 0);
        }
        emit(op, 0);
        if (!(ISPTR(e->type) && (op == M_ADD || op == M_SUB)))
            e->type = TINT;
        e->where = V_STACK;
    }
}

/* && and ||: the right side only when needed; the value is 0 or 1. */
static void logical(struct ex *e, int andand)
{
    andand ? binary(e, 1) : logical(e, 1);
    int t = andand ? T_ANDAND : T_OROR;
    if (tok != t)
        return;
    int decided = new_label(), end = new_label();
    while (accept(t)) {
        rvalue(e);
        jump(andand ? M_JZ : M_JNZ, decided);
        andand ? binary(e, 1) : logical(e, 1);
    }
    rvalue(e);
    jump(andand ? M_JZ : M_JNZ, decided);
    push_const(andand ? 1 : 0);
    jump(M_JMP, end);
    place(decided);
    push_const(andand ? 0 : 1);
    place(end);
    e->type = TINT;
    e->where = V_STACK;
}

static void assign_expr(struct ex *e)
{
    logical(e, 0);
    int t = tok, op;
    if (t == '=') {
        next();
        need_lvalue(e);
        struct ex r;
        assign_expr(&r);
        rvalue(&r);
        store(e);
        return;
    }
    switch (t) {
    case T_ADDEQ: op = M_ADD; break;
    case T_SUBEQ: op = M_SUB; break;
    case T_MULEQ: op = M_MUL; break;
    case T_ANDEQ: op = M_AND; break;
    case T_OREQ:  op = M_OR; break;
    case T_XOREQ: op = M_XOR; break;
    default: return;
    }
    next();
    need_lvalue(e);
    int where = e->where;
    load_for_update(e);
    struct ex r;
    assign_expr(&r);
    rvalue(&r);
    if ((op == M_ADD || op == M_SUB) && ISPTR(e->type) && size_of(DEREF(e->type)) != 1) {
        push_const(size_of(DEREF(e->type)));
        emit(M_MUL, 0);
    }
    emit(op, 0);
    e->where = where;
    store(e);
}

static void expr(struct ex *e)
{
    assign_expr(e);
}

/* ---------------------------------------------------------------- statements */

static int break_label = -1, continue_label = -1;

static int base_type(void)
{
    if (accept(T_INT))
        return TINT;
    if (accept(T_CHAR))
        return TCHAR;
    if (accept(T_VOID))
        return TVOID;
    return -1;
}

/* `int a, *b, c[10] = ...;` inside a function, after the base type. */
static void local_decl(int base)
{
    do {
        int t = base;
        while (accept('*'))
            t = PTR(t);
        if (tok != T_ID)
            error("expected a name in the declaration");
        if (nlocals == MAXLOCALS)
            error("too many local variables");
        struct local *l = &locals[nlocals++];
        strncpy_(l->name, tokstr, sizeof l->name);
        next();
        l->type = t;
        l->array = 0;
        int bytes = 4;
        if (accept('[')) {
            if (tok != T_NUM || tokval <= 0)
                error("array size must be a positive number");
            l->array = tokval;
            bytes = (size_of(t) * tokval + 3) & ~3;
            next();
            expect(']', "']'");
        }
        frame += bytes;
        l->offset = -frame;
        if (accept('=')) {
            if (l->array)
                error("cannot initialise a local array");
            struct ex e;
            assign_expr(&e);
            rvalue(&e);
            emit(M_STOREL, l->offset);
            emit(M_POP, 0);
        }
    } while (accept(','));
    expect(';', "';' after the declaration");
}

static void statement(void);

static void block(void)
{
    int mark = nlocals;
    while (tok != '}' && tok != T_EOF)
        statement();
    expect('}', "'}'");
    nlocals = mark;
}

static void condition(void)
{
    struct ex e;
    expect('(', "'('");
    expr(&e);
    rvalue(&e);
    expect(')', "')'");
}

static void statement(void)
{
    int base;
    struct ex e;
    if (accept('{')) {
        block();
    } else if ((base = base_type()) >= 0) {
        local_decl(base);
    } else if (accept(T_IF)) {
        int other = new_label(), end = new_label();
        condition();
        jump(M_JZ, other);
        statement();
        if (accept(T_ELSE)) {
            jump(M_JMP, end);
            place(other);
            statement();
        } else {
            place(other);
        }
        place(end);
    } else if (accept(T_WHILE)) {
        int top = new_label(), end = new_label();
        int ob = break_label, oc = continue_label;
        place(top);
        condition();
        jump(M_JZ, end);
        break_label = end;
        continue_label = top;
        statement();
        jump(M_JMP, top);
        place(end);
        break_label = ob;
        continue_label = oc;
    } else if (accept(T_FOR)) {
        /* init; top: cond; JZ end; JMP body; step: step; JMP top; body: ...; JMP step; end: */
        int top = new_label(), step = new_label(), body = new_label(), end = new_label();
        int ob = break_label, oc = continue_label;
        expect('(', "'('");
        if (tok != ';') {
            expr(&e);
            rvalue(&e);
            emit(M_POP, 0);
        }
        expect(';', "';'");
        place(top);
        if (tok != ';') {
            expr(&e);
            rvalue(&e);
            jump(M_JZ, end);
        }
        expect(';', "';'");
        jump(M_JMP, body);
        place(step);
        if (tok != ')') {
            expr(&e);
            rvalue(&e);
            emit(M_POP, 0);
        }
        expect(')', "')'");
        jump(M_JMP, top);
        place(body);
        break_label = end;
        continue_label = step;
        statement();
        jump(M_JMP, step);
        place(end);
        break_label = ob;
        continue_label = oc;
    } else if (accept(T_RETURN)) {
        if (accept(';')) {
            emit(M_RET, 0);
        } else {
            expr(&e);
            rvalue(&e);
            expect(';', "';' after return");
            emit(M_RETV, 0);
        }
    } else if (tok == T_BREAK || tok == T_CONTINUE) {
        int l = tok == T_BREAK ? break_label : continue_label;
        next();
        if (l < 0)
            error("break or continue outside a loop");
        jump(M_JMP, l);
        expect(';', "';'");
    } else if (accept(';')) {
        /* empty */
    } else {
        expr(&e);
        rvalue(&e);
        emit(M_POP, 0);
        expect(';', "';' after the expression");
    }
}

/* ---------------------------------------------------------------- top level */

static void function_body(struct global *f, int nparams, char params[][32], int ptypes[])
{
    nlocals = 0;
    frame = 0;
    break_label = continue_label = -1;
    for (int i = 0; i < nparams; i++) {
        struct local *l = &locals[nlocals++];
        strncpy_(l->name, params[i], sizeof l->name);
        l->type = ptypes[i];
        l->array = 0;
        l->offset = 8 + 4 * (nparams - 1 - i);      /* above the saved fp and pc */
    }
    if (f->defined)
        error("%s is defined twice", f->name);
    f->defined = 1;
    f->value = here();
    unsigned int enter = here();
    emit(M_ENTER, 0);
    block();
    emit(M_RET, 0);
    resolve_labels();
    ((unsigned int *)code.p)[enter] = M_WORD(M_ENTER, frame);
}

static void global_init(struct global *g)
{
    /* int x = NUMBER;   char *s = "string";   int x = -NUMBER; */
    g->defined = 1;
    g->value = data.len;
    unsigned int word = 0;
    if (tok == T_STR) {
        unsigned int at = data.len;
        vec_add(&data, &word, 4);
        unsigned int off = add_string(tokstr, toklen);
        ((unsigned int *)data.p)[at / 4] = off;
        reloc(RELOC_INDATA, at, RELOC_DATA);
        next();
        return;
    }
    int neg = accept('-');
    if (tok != T_NUM)
        error("a global's initialiser must be a number or a string");
    word = (unsigned int)(neg ? -tokval : tokval);
    vec_add(&data, &word, 4);
    next();
}

static void top_level(void)
{
    int isstatic = accept(T_STATIC);
    int base = base_type();
    if (base < 0)
        error("expected a declaration");
    do {
        int t = base;
        while (accept('*'))
            t = PTR(t);
        if (tok != T_ID)
            error("expected a name");
        char name[64];
        strncpy_(name, tokstr, sizeof name);
        next();
        if (accept('(')) {
            /* a function: prototype or definition */
            char params[MAXPARAMS][32];
            int ptypes[MAXPARAMS], n = 0;
            if (tok == T_VOID) {
                next();
            } else if (tok != ')') {
                do {
                    int pt = base_type();
                    if (pt < 0)
                        error("expected a parameter type");
                    while (accept('*'))
                        pt = PTR(pt);
                    if (n == MAXPARAMS)
                        error("too many parameters");
                    if (tok == T_ID) {
                        strncpy_(params[n], tokstr, sizeof params[n]);
                        next();
                    } else {
                        params[n][0] = 0;
                    }
                    ptypes[n++] = pt;
                } while (accept(','));
            }
            expect(')', "')' after the parameters");
            struct global *f = declare_global(name, t, 0, 1);
            f->nparams = n;
            f->isstatic |= isstatic;
            if (accept('{')) {
                function_body(f, n, params, ptypes);
                return;
            }
        } else {
            int array = 0;
            if (accept('[')) {
                if (tok != T_NUM || tokval <= 0)
                    error("array size must be a positive number");
                array = tokval;
                next();
                expect(']', "']'");
            }
            struct global *g = declare_global(name, t, array, 0);
            g->isstatic |= isstatic;
            if (accept('=')) {
                if (array)
                    error("cannot initialise a global array");
                global_init(g);
            } else if (!g->defined) {
                g->defined = 2;                     /* in bss */
                g->value = bss;
                bss += array ? ((array * size_of(t) + 3) & ~3) : 4;
            }
        }
    } while (accept(','));
    expect(';', "';'");
}

/* ---------------------------------------------------------------- the object file */

static void write_all(int fd, const void *p, unsigned int n, const char *path)
{
    if (n && write(fd, p, (int)n) != (int)n)
        error("cannot write %s: %s", path, strerror(errno));
}

static void write_object(const char *path)
{
    struct global **g = (struct global **)bysym.p;
    for (unsigned int i = 0; i < nsyms; i++) {
        struct mobj_sym s;
        s.name = strtab.len;
        vec_add(&strtab, g[i]->name, strlen(g[i]->name) + 1);
        s.global = !g[i]->isstatic;
        s.value = g[i]->value;
        if (!g[i]->defined)
            s.kind = SYM_UNDEF;
        else if (g[i]->func)
            s.kind = SYM_CODE;
        else
            s.kind = g[i]->defined == 2 ? SYM_BSS : SYM_DATA;
        if (s.kind == SYM_UNDEF && g[i]->isstatic)
            error("static %s is used but never defined", g[i]->name);
        vec_add(&syms, &s, sizeof s);
    }
    struct mobj_header h = {
        .magic = MOBJ_MAGIC, .ncode = here(), .ndata = data.len, .nbss = bss,
        .nsyms = nsyms, .nrelocs = relocs.len / sizeof(struct mobj_reloc),
        .strsize = strtab.len, .entry = 0,
    };
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY);
    if (fd < 0)
        error("cannot create %s: %s", path, strerror(errno));
    write_all(fd, &h, sizeof h, path);
    write_all(fd, code.p, code.len, path);
    write_all(fd, data.p, data.len, path);
    write_all(fd, syms.p, syms.len, path);
    write_all(fd, relocs.p, relocs.len, path);
    write_all(fd, strtab.p, strtab.len, path);
    close(fd);
}

static void usage(void)
{
    fprintf(2, "usage: cc [-I DIR]... -o OUT.o FILE.c\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    const char *out = 0, *in = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-I") == 0 && i + 1 < argc && nincdirs < MAXINC)
            incdirs[nincdirs++] = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (argv[i][0] != '-' && !in)
            in = argv[i];
        else
            usage();
    }
    if (!in || !out)
        usage();
    char *text = read_file(in);
    if (!text) {
        fprintf(2, "cc: cannot read %s: %s\n", in, strerror(errno));
        return 1;
    }
    push_source(text, in, 0);
    next();
    while (tok != T_EOF)
        top_level();
    if (ncond)
        error("#if without #endif");
    write_object(out);
    return 0;
}
