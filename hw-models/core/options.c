/*
 * options.c: the model's key=value arguments, the same for every front
 * end.  The harness writes them from a profile (harness/model/modelargs.py);
 * QEMU hands them over one by one (-plugin lib,k=v,k=v), SIMH as one
 * comma-separated list (`MODEL k=v,k=v`).
 *
 * The keys, their types, ranges and defaults are params.def's, expanded
 * here into the option table (the harness reads the same file).  An unknown
 * key, a value that does not parse, or one outside its range is an error
 * that names the key.  Whether the values together make a machine (a cache
 * geometry that divides) is checked by hw_start() and memsys_new().
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

enum type { T_F64, T_U32, T_U64, T_I64, T_BOOL, T_CHOICE, T_STR, T_PC };
enum kind { C_ANY, C_GT0, C_GE0, C_POW2, C_IN, C_ONEOF };

struct check {
    enum kind kind;
    double lo, hi;                      /* C_IN */
    const char *words;                  /* C_ONEOF: "a|b", a -> 0, b -> 1 */
};

/* params.def's columns, as C sees them */
#define ANY { C_ANY, 0, 0, NULL }
#define GT0 { C_GT0, 0, 0, NULL }
#define GE0 { C_GE0, 0, 0, NULL }
#define POW2 { C_POW2, 0, 0, NULL }
#define IN(lo, hi) { C_IN, lo, hi, NULL }
#define ONEOF(words) { C_ONEOF, 0, 0, words }
#define FIELD(path) (&hw.p.path)
#define NOFIELD ((void *)0)

/* Each row's field must have its type's C type: checked at compile time. */
typedef double ctype_F64;
typedef uint32_t ctype_U32;
typedef uint64_t ctype_U64;
typedef int64_t ctype_I64;
typedef bool ctype_BOOL;
typedef bool ctype_CHOICE;              /* the word's index, 0 or 1 */
typedef const char *ctype_STR;
typedef uint64_t ctype_PC[HW_MAX_TRAP_PCS];
#define STORED_AS(field, type) \
    (__builtin_types_compatible_p(__typeof__(field), ctype_##type *) || \
     __builtin_types_compatible_p(__typeof__(field), void *))
#define SECTION(name, presence, doc)
#define PARAM(name, type, check, presence, field, unit, dflt, doc) \
    _Static_assert(STORED_AS(field, type), name ": its field is not a " #type);
#define RUNARG(name, type, field, dflt, doc) \
    _Static_assert(STORED_AS(field, type), name ": its field is not a " #type);
#include "params.def"
#undef PARAM
#undef RUNARG

/* A NOFIELD parameter's value, kept for the HWMODEL line only. */
union spare {
    double f;
    uint64_t u;
    int64_t i;
    uint32_t u32;
    bool b;
    const char *s;
};

static struct opt {
    const char *key;
    enum type type;
    struct check check;
    void *p;                            /* NULL: spare[] */
    const char *dflt;                   /* "": zero */
    bool param;                         /* a profile's (in HWMODEL), not the run's */
} opts[] = {
#define PARAM(name, type, check, presence, field, unit, dflt, doc) \
    { name, T_##type, check, field, dflt, true },
#define RUNARG(name, type, field, dflt, doc) \
    { name, T_##type, ANY, field, dflt, false },
#include "params.def"
#undef PARAM
#undef RUNARG
#undef SECTION
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))
static union spare spare[NOPTS];

static void *where(const struct opt *o)
{
    return o->p ? o->p : &spare[o - opts];
}

static bool parse_bool(const char *s, bool *v)
{
    static const char *const yes[] = { "on", "true", "yes" }, *const no[] = { "off", "false", "no" };
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(s, yes[i]) == 0 || strcmp(s, no[i]) == 0) {
            *v = strcmp(s, yes[i]) == 0;
            return true;
        }
    }
    return false;
}

/* The index of word s in "a|b", or -1. */
static int choice(const char *words, const char *s)
{
    size_t n = strlen(s);
    for (int i = 0; *words; i++) {
        size_t len = strcspn(words, "|");
        if (len == n && strncmp(words, s, n) == 0)
            return i;
        words += len + (words[len] == '|');
    }
    return -1;
}

/* Why number v is outside o's range, or NULL. */
static const char *out_of_range(const struct opt *o, double v)
{
    static char why[80];
    switch (o->check.kind) {
    case C_GT0:
        return v > 0 ? NULL : "must be > 0";
    case C_GE0:
        return v >= 0 ? NULL : "must be >= 0";
    case C_POW2: {
        uint64_t u = (uint64_t)v;
        return u && (u & (u - 1)) == 0 ? NULL : "must be a power of two";
    }
    case C_IN:
        if (v >= o->check.lo && v <= o->check.hi)
            return NULL;
        snprintf(why, sizeof(why), "must be from %g to %g", o->check.lo, o->check.hi);
        return why;
    default:
        return NULL;
    }
}

/* Option o = the n bytes at v. */
static const char *set(const struct opt *o, const char *v, size_t n)
{
    static char msg[240];
    char *val = strndup(v, n), *end = NULL;
    void *p = where(o);
    const char *why = NULL;
    double num = 0;
    bool unsig = o->type == T_U32 || o->type == T_U64 || o->type == T_PC;
    if (unsig && val[strspn(val, " ")] == '-')
        why = "must be >= 0";
    else switch (o->type) {
    case T_STR:
        *(const char **)p = val;        /* kept for the whole run */
        return NULL;
    case T_BOOL:
        if (!parse_bool(val, (bool *)p))
            why = "must be true or false";
        break;
    case T_CHOICE: {
        int i = choice(o->check.words, val);
        static char words[120];
        snprintf(words, sizeof(words), "must be one of %s", o->check.words);
        if (i < 0)
            why = words;
        else
            *(bool *)p = i;
        break;
    }
    case T_F64:
        num = *(double *)p = strtod(val, &end);
        break;
    case T_U64:
        num = (double)(*(uint64_t *)p = strtoull(val, &end, 0));
        break;
    case T_I64:
        num = (double)(*(int64_t *)p = strtoll(val, &end, 0));
        break;
    case T_U32: {
        unsigned long long u = strtoull(val, &end, 0);
        if (u > UINT32_MAX)
            why = "is too large";
        num = *(uint32_t *)p = (uint32_t)u;
        break;
    }
    case T_PC:
        if (hw.p.n_trap_pc == HW_MAX_TRAP_PCS) {
            why = "given too many times";
            break;
        }
        hw.p.trap_pc[hw.p.n_trap_pc++] = strtoull(val, &end, 0);
        break;
    }
    if (!why && end && (end == val || *end != '\0'))
        why = "does not parse";
    if (!why && end && !isfinite(num))
        why = "must be a finite number";
    if (!why && end)
        why = out_of_range(o, num);
    if (why)
        snprintf(msg, sizeof(msg), "bad value for %s: %s %s", o->key, val, why);
    free(val);
    return why ? msg : NULL;
}

void hw_defaults(void)
{
    memset(&hw.p, 0, sizeof(hw.p));
    memset(spare, 0, sizeof(spare));
    for (size_t i = 0; i < NOPTS; i++) {
        if (*opts[i].dflt && set(&opts[i], opts[i].dflt, strlen(opts[i].dflt))) {
            fprintf(stderr, "hwmodel: params.def: bad default for %s\n", opts[i].key);
            abort();
        }
    }
}

const char *hw_option(const char *arg, size_t len)
{
    static char msg[200];
    const char *eq = memchr(arg, '=', len);
    if (!eq) {
        snprintf(msg, sizeof(msg), "argument %.*s is not key=value", (int)len, arg);
        return msg;
    }
    size_t klen = (size_t)(eq - arg);
    for (size_t i = 0; i < NOPTS; i++) {
        const struct opt *o = &opts[i];
        if (strlen(o->key) == klen && strncmp(o->key, arg, klen) == 0)
            return set(o, eq + 1, len - klen - 1);
    }
    snprintf(msg, sizeof(msg), "unknown argument %.*s", (int)klen, arg);
    return msg;
}

const char *hw_options(const char *list)
{
    while (*list) {
        size_t len = strcspn(list, ",");
        const char *err = hw_option(list, len);
        if (err)
            return err;
        list += len;
        if (*list == ',')
            list++;
    }
    return NULL;
}

/* " key=value" for each of the profile's parameters, as the model has them
 * (the HWMODEL line: records.c). */
size_t hw_format_params(char *buf, size_t size)
{
    size_t at = 0;
    for (size_t i = 0; i < NOPTS && at < size; i++) {
        const struct opt *o = &opts[i];
        const void *p = where(o);
        if (!o->param)
            continue;
        int n = snprintf(buf + at, size - at, " %s=", o->key);
        at += n > 0 ? (size_t)n : 0;
        if (at >= size)
            break;
        switch (o->type) {
        case T_F64:
            n = snprintf(buf + at, size - at, "%g", *(const double *)p);
            break;
        case T_U32:
            n = snprintf(buf + at, size - at, "%" PRIu32, *(const uint32_t *)p);
            break;
        case T_U64:
            n = snprintf(buf + at, size - at, "%" PRIu64, *(const uint64_t *)p);
            break;
        case T_I64:
            n = snprintf(buf + at, size - at, "%" PRId64, *(const int64_t *)p);
            break;
        case T_BOOL:
            n = snprintf(buf + at, size - at, "%s", *(const bool *)p ? "true" : "false");
            break;
        case T_CHOICE: {
            const char *w = o->check.words;
            if (*(const bool *)p && strchr(w, '|'))
                w = strchr(w, '|') + 1;
            n = snprintf(buf + at, size - at, "%.*s", (int)strcspn(w, "|"), w);
            break;
        }
        default:                        /* no profile parameter is text or a list */
            n = snprintf(buf + at, size - at, "?");
            break;
        }
        at += n > 0 ? (size_t)n : 0;
    }
    return at < size ? at : size - 1;
}
