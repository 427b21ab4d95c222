/*
 * The few string and memory functions the kernel uses.  memcpy copies a
 * word at a time when it can: the kernel copies pipe data and ELF images.
 */
#include "kernel.h"

void *memset(void *dst, int c, uint32 n)
{
    uint8 *d = dst;
    if ((((uintptr)d | n) & 3) == 0) {
        uint32 w = (uint8)c * 0x01010101u;
        for (uint32 *p = dst; n; n -= 4)
            *p++ = w;
        return dst;
    }
    while (n--)
        *d++ = (uint8)c;
    return dst;
}

void *memcpy(void *dst, const void *src, uint32 n)
{
    uint8 *d = dst;
    const uint8 *s = src;
    if ((((uintptr)d | (uintptr)s) & 3) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32 *)d = *(const uint32 *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, uint32 n)
{
    uint8 *d = dst;
    const uint8 *s = src;
    if (s < d && s + n > d) {
        while (n--)
            d[n] = s[n];
        return dst;
    }
    return memcpy(dst, src, n);
}

int memcmp(const void *a, const void *b, uint32 n)
{
    const uint8 *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

int strncmp(const char *a, const char *b, uint32 n)
{
    for (; n && *a && *a == *b; n--, a++, b++)
        ;
    return n ? (uint8)*a - (uint8)*b : 0;
}

int strcmp(const char *a, const char *b)
{
    return strncmp(a, b, ~0u);
}

uint32 strlen(const char *s)
{
    uint32 n = 0;
    while (s[n])
        n++;
    return n;
}

char *strncpy_safe(char *dst, const char *src, uint32 size)
{
    uint32 i = 0;
    for (; i + 1 < size && src[i]; i++)
        dst[i] = src[i];
    if (size)
        dst[i] = 0;
    return dst;
}
