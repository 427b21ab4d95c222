/*
 * Formatted output for the kernel: printf to the console, snprintf into a
 * buffer, and panic.  Supports %d %u %x %p %s %c and the l/ll sizes.
 *
 * Why not the guests' engine (guests/lib/printf.c, a superset: flags,
 * precision, *)?  Building both from that one source was tried at a78d06e.
 * The guest programs stayed byte for byte the same, but the kernel's text
 * grew by 1.4 KB (RISC-V; 1.7 KB MIPS) near its start, which moves the
 * code behind it and so the results under the cache models: 22 of 25
 * paper cases on riscv/ds3100-riscv (select 1empty +15%), 24 of 25 on
 * mips/ds3100 (createdelete 10k-delayed +10%, select 1empty -8%); under
 * profile none nothing moved.  So the kernel keeps its smaller engine.
 */
#include "kernel.h"
#include <stdarg.h>

struct out {
    char *buf;          /* 0: straight to the console */
    int size, len;
};

static void put(struct out *o, char c)
{
    if (!o->buf)
        console_putc(c);
    else if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void put_num(struct out *o, uint64 v, int base, int neg, int width, char pad)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    if (neg)
        tmp[n++] = '-';
    while (width-- > n)
        put(o, pad);
    while (n)
        put(o, tmp[--n]);
}

static void format(struct out *o, const char *fmt, va_list ap)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(o, *fmt);
            continue;
        }
        fmt++;
        char pad = ' ';
        int width = 0, longs = 0;
        if (*fmt == '0')
            pad = '0';
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l') {
            longs++;
            fmt++;
        }
        switch (*fmt) {
        case 'd': {
            int64 v = longs >= 2 ? va_arg(ap, int64) : longs ? va_arg(ap, long) : va_arg(ap, int);
            put_num(o, v < 0 ? -(uint64)v : (uint64)v, 10, v < 0, width, pad);
            break;
        }
        case 'u':
        case 'x': {
            uint64 v = longs >= 2 ? va_arg(ap, uint64) : longs ? va_arg(ap, unsigned long)
                                                              : va_arg(ap, unsigned int);
            put_num(o, v, *fmt == 'u' ? 10 : 16, 0, width, pad);
            break;
        }
        case 'p':
            put(o, '0');
            put(o, 'x');
            put_num(o, (uintptr)va_arg(ap, void *), 16, 0, 8, '0');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            for (s = s ? s : "(null)"; *s; s++)
                put(o, *s);
            break;
        }
        case 'c':
            put(o, (char)va_arg(ap, int));
            break;
        case '%':
            put(o, '%');
            break;
        default:
            put(o, '%');
            put(o, *fmt);
            if (!*fmt)
                return;
        }
    }
}

void printf(const char *fmt, ...)
{
    struct out o = { 0, 0, 0 };
    va_list ap;
    va_start(ap, fmt);
    format(&o, fmt, ap);
    va_end(ap);
}

int snprintf(char *buf, int size, const char *fmt, ...)
{
    struct out o = { buf, size, 0 };
    va_list ap;
    va_start(ap, fmt);
    format(&o, fmt, ap);
    va_end(ap);
    if (size > 0)
        buf[o.len < size ? o.len : size - 1] = 0;
    return o.len;
}

/* Stop the machine with a message the harness recognises ("panic: "). */
void panic(const char *fmt, ...)
{
    arch_intr_off();
    struct out o = { 0, 0, 0 };
    printf("\npanic: ");
    va_list ap;
    va_start(ap, fmt);
    format(&o, fmt, ap);
    va_end(ap);
    printf("\n");
    arch_halt();
}
