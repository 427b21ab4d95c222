/*
 * Memory and string functions.
 *
 * memcpy is "the library's bcopy" of Ousterhout's Table 5, so it is written
 * the way a 1989 C library would have been: when source and destination are
 * equally aligned it copies a word at a time, eight words per loop turn
 * (eight loads, then eight stores, so a pipelined machine is not waiting on
 * each load), and falls back to bytes only for the ragged ends or for
 * buffers whose alignments differ.  memset is built the same way.
 *
 * GCC recognises simple byte loops as memcpy/memset and would replace them
 * by calls to these very functions (infinite recursion); NO_LIBCALLS turns
 * that transformation off where it could happen.
 */
#include "user.h"

#define NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))

/* A word that may alias anything: copying through it is not a strict
 * aliasing violation whatever the caller's types are. */
typedef uint32_t __attribute__((may_alias)) word;

#define WSIZE   sizeof(word)
#define WMASK   (WSIZE - 1)

NO_LIBCALLS
void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if ((((uintptr_t)d ^ (uintptr_t)s) & WMASK) == 0) {
        /* Equally aligned: bytes up to a word boundary, then words. */
        while (n > 0 && ((uintptr_t)d & WMASK)) {
            *d++ = *s++;
            n--;
        }
        word *dw = (word *)d;
        const word *sw = (const word *)s;
        while (n >= 8 * WSIZE) {
            word w0 = sw[0], w1 = sw[1], w2 = sw[2], w3 = sw[3];
            word w4 = sw[4], w5 = sw[5], w6 = sw[6], w7 = sw[7];
            dw[0] = w0; dw[1] = w1; dw[2] = w2; dw[3] = w3;
            dw[4] = w4; dw[5] = w5; dw[6] = w6; dw[7] = w7;
            dw += 8;
            sw += 8;
            n -= 8 * WSIZE;
        }
        while (n >= WSIZE) {
            *dw++ = *sw++;
            n -= WSIZE;
        }
        d = (unsigned char *)dw;
        s = (const unsigned char *)sw;
    }
    while (n > 0) {
        *d++ = *s++;
        n--;
    }
    return dst;
}

/* Overlap-safe copy.  Copying forward is safe whenever the destination
 * starts below the source (memcpy reads each chunk before writing a lower
 * address), so only a destination inside the source needs a backward copy. */
NO_LIBCALLS
void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (d <= s || d >= s + n)
        return memcpy(dst, src, n);

    d += n;
    s += n;
    if ((((uintptr_t)d ^ (uintptr_t)s) & WMASK) == 0) {
        while (n > 0 && ((uintptr_t)d & WMASK)) {
            *--d = *--s;
            n--;
        }
        while (n >= WSIZE) {
            d -= WSIZE;
            s -= WSIZE;
            *(word *)d = *(const word *)s;
            n -= WSIZE;
        }
    }
    while (n > 0) {
        *--d = *--s;
        n--;
    }
    return dst;
}

NO_LIBCALLS
void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    unsigned char b = (unsigned char)c;

    while (n > 0 && ((uintptr_t)d & WMASK)) {
        *d++ = b;
        n--;
    }
    word w = b * 0x01010101u;
    word *dw = (word *)d;
    while (n >= 8 * WSIZE) {
        dw[0] = w; dw[1] = w; dw[2] = w; dw[3] = w;
        dw[4] = w; dw[5] = w; dw[6] = w; dw[7] = w;
        dw += 8;
        n -= 8 * WSIZE;
    }
    while (n >= WSIZE) {
        *dw++ = w;
        n -= WSIZE;
    }
    d = (unsigned char *)dw;
    while (n > 0) {
        *d++ = b;
        n--;
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n > 0; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return p - s;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n > 0; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (*a == '\0')
            break;
    }
    return 0;
}

NO_LIBCALLS
char *strcpy(char *dst, const char *src)
{
    char *d = dst;
    while ((*d++ = *src++) != '\0')
        ;
    return dst;
}

/* As in C: the terminating NUL counts as part of the string. */
char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (*s == '\0')
            return NULL;
    }
}
