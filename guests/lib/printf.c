/*
 * Formatted output: printf, fprintf, snprintf and their v- forms.
 *
 * One formatting engine (format()) writes characters into a `struct out`,
 * which either fills a caller's buffer (snprintf) or collects them in a
 * small buffer on the stack and write()s that to a file descriptor when it
 * is full and at the end (fprintf).  There is no buffering between calls,
 * so nothing is left half-printed when a program forks or exits, and a
 * line of up to OUTBUF bytes reaches the console in a single write.
 *
 * No floating point: the guests print fractions with integer arithmetic.
 * The kernel has a smaller engine of its own; kernel/port/printf.c says
 * why the two are not one source.
 */
#include "user.h"

#define OUTBUF 256

struct out {
    char *buf;          /* where characters go */
    size_t cap;         /* room in buf */
    size_t len;         /* characters now in buf */
    int fd;             /* -1: a caller's buffer; else flush buf to fd */
    int total;          /* characters produced so far (what printf returns) */
    int failed;         /* a write() failed */
};

static void flush(struct out *o)
{
    size_t done = 0;
    while (done < o->len) {
        int n = write(o->fd, o->buf + done, (int)(o->len - done));
        if (n <= 0) {
            o->failed = 1;
            break;
        }
        done += n;
    }
    o->len = 0;
}

static void put(struct out *o, char c)
{
    o->total++;
    if (o->fd >= 0) {
        if (o->len == o->cap)
            flush(o);
        o->buf[o->len++] = c;
    } else if (o->len + 1 < o->cap) {   /* keep room for the NUL */
        o->buf[o->len++] = c;
    }
}

static void pad(struct out *o, char c, int n)
{
    while (n-- > 0)
        put(o, c);
}

/* One integer conversion.  `prec` is the minimum number of digits (-1 if
 * none given); zero-padding fills the field after the sign, as in C. */
static void putint(struct out *o, unsigned long long v, int neg, int base,
                   int upper, int width, int prec, int zero, int left)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    int n = 0;

    /* Most numbers fit in 32 bits: divide in 32 bits then, which is
     * much cheaper than libgcc's 64-bit division on rv32. */
    if (v >> 32) {
        do {
            tmp[n++] = digits[v % base];
            v /= base;
        } while (v);
    } else {
        unsigned int w = (unsigned int)v;
        do {
            tmp[n++] = digits[w % base];
            w /= base;
        } while (w);
    }

    int ndigits = n > prec ? n : prec;
    int len = ndigits + neg;
    if (prec >= 0)
        zero = 0;               /* C: a precision turns off the 0 flag */
    if (!left && !zero)
        pad(o, ' ', width - len);
    if (neg)
        put(o, '-');
    if (!left && zero)
        pad(o, '0', width - len);
    pad(o, '0', ndigits - n);
    while (n > 0)
        put(o, tmp[--n]);
    if (left)
        pad(o, ' ', width - len);
}

static void format(struct out *o, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(o, *fmt);
            continue;
        }
        fmt++;

        /* flags, width, precision, length */
        int left = 0, zero = 0, width = 0, prec = -1, lng = 0;
        for (;; fmt++) {
            if (*fmt == '-')
                left = 1;
            else if (*fmt == '0')
                zero = 1;
            else
                break;
        }
        if (*fmt == '*') {
            width = va_arg(ap, int);
            if (width < 0) {
                left = 1;
                width = -width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                width = width * 10 + (*fmt++ - '0');
        }
        if (*fmt == '.') {
            fmt++;
            prec = 0;
            if (*fmt == '*') {
                prec = va_arg(ap, int);
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9')
                    prec = prec * 10 + (*fmt++ - '0');
            }
        }
        while (*fmt == 'l') {
            lng++;
            fmt++;
        }
        if (*fmt == 'z')        /* size_t: the same size as long here */
            fmt++, lng = 1;

        switch (*fmt) {
        case 'd':
        case 'i': {
            long long v;
            if (lng >= 2)
                v = va_arg(ap, long long);
            else if (lng == 1)
                v = va_arg(ap, long);
            else
                v = va_arg(ap, int);
            unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
            putint(o, u, v < 0, 10, 0, width, prec, zero, left);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            unsigned long long u;
            if (lng >= 2)
                u = va_arg(ap, unsigned long long);
            else if (lng == 1)
                u = va_arg(ap, unsigned long);
            else
                u = va_arg(ap, unsigned int);
            int base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
            putint(o, u, 0, base, *fmt == 'X', width, prec, zero, left);
            break;
        }
        case 'p': {
            uintptr_t p = (uintptr_t)va_arg(ap, void *);
            put(o, '0');
            put(o, 'x');
            putint(o, p, 0, 16, 0, 0, 2 * sizeof(p), 0, 0);
            break;
        }
        case 'c': {
            if (!left)
                pad(o, ' ', width - 1);
            put(o, (char)va_arg(ap, int));
            if (left)
                pad(o, ' ', width - 1);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (s == NULL)
                s = "(null)";
            int len = 0;
            while (s[len] && (prec < 0 || len < prec))
                len++;
            if (!left)
                pad(o, ' ', width - len);
            for (int i = 0; i < len; i++)
                put(o, s[i]);
            if (left)
                pad(o, ' ', width - len);
            break;
        }
        case '%':
            put(o, '%');
            break;
        case '\0':              /* a lone % at the end */
            return;
        default:                /* unknown: print it as written */
            put(o, '%');
            put(o, *fmt);
            break;
        }
    }
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = { buf, size, 0, -1, 0, 0 };
    format(&o, fmt, ap);
    if (size > 0)
        buf[o.len] = '\0';
    return o.total;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int vfprintf(int fd, const char *fmt, va_list ap)
{
    char buf[OUTBUF];
    struct out o = { buf, sizeof(buf), 0, fd, 0, 0 };
    format(&o, fmt, ap);
    flush(&o);
    return o.failed ? -1 : o.total;
}

int fprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(fd, fmt, ap);
    va_end(ap);
    return n;
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(1, fmt, ap);
    va_end(ap);
    return n;
}

int fputs(const char *s, int fd)
{
    int n = strlen(s);
    return write(fd, s, n) == n ? n : -1;
}
