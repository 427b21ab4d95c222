/*
 * malloc/free/realloc/calloc: the classic first-fit allocator with a
 * circular free list kept in address order (Kernighan & Ritchie, 8.7).
 *
 * Memory comes from sbrk and is never given back.  Every block starts with
 * a header holding its size in header-sized units; the header is 8 bytes,
 * so every pointer handed out is 8-byte aligned.  Adjacent free blocks are
 * merged when freed.  Good enough for small programs, and short enough to
 * read in one sitting.
 */
#include "user.h"

typedef union header {
    struct {
        union header *next;     /* next block on the free list */
        size_t units;           /* size of this block, header included */
    } s;
    long long align;            /* forces 8-byte alignment */
} Header;

#define NALLOC 512              /* ask sbrk for at least this many units (4 KB) */

static Header base;             /* a zero-size block: the list's anchor */
static Header *freep;           /* where the last search stopped */

/* Grow the heap by at least `units` units and put the new memory on the
 * free list.  Returns the free-list pointer, or NULL if sbrk fails. */
static Header *morecore(size_t units)
{
    if (units < NALLOC)
        units = NALLOC;
    if (units > 0x7fffffff / sizeof(Header))
        return NULL;

    /* The initial break need not be 8-byte aligned: align it once. */
    char *brk = sbrk(0);
    if (brk == (char *)-1)
        return NULL;
    size_t mis = (uintptr_t)brk & (sizeof(Header) - 1);
    if (mis && sbrk(sizeof(Header) - mis) == (void *)-1)
        return NULL;

    char *p = sbrk(units * sizeof(Header));
    if (p == (char *)-1)
        return NULL;
    Header *h = (Header *)p;
    h->s.units = units;
    free(h + 1);
    return freep;
}

void *malloc(size_t n)
{
    if (n == 0 || n > 0x7fffffff - sizeof(Header))
        return NULL;
    size_t units = (n + sizeof(Header) - 1) / sizeof(Header) + 1;

    if (freep == NULL) {        /* first call: an empty list */
        base.s.next = freep = &base;
        base.s.units = 0;
    }
    Header *prev = freep;
    for (Header *p = prev->s.next;; prev = p, p = p->s.next) {
        if (p->s.units >= units) {
            if (p->s.units == units) {
                prev->s.next = p->s.next;
            } else {            /* hand out the tail end of the block */
                p->s.units -= units;
                p += p->s.units;
                p->s.units = units;
            }
            freep = prev;
            return p + 1;
        }
        if (p == freep) {       /* went all the way round: grow the heap */
            p = morecore(units);
            if (p == NULL)
                return NULL;
        }
    }
}

void free(void *ap)
{
    if (ap == NULL)
        return;
    Header *b = (Header *)ap - 1;

    /* Find p such that b lies between p and p->next in address order
     * (or beyond either end of the list, at the wrap-around point). */
    Header *p = freep;
    while (!(b > p && b < p->s.next)) {
        if (p >= p->s.next && (b > p || b < p->s.next))
            break;
        p = p->s.next;
    }

    if (b + b->s.units == p->s.next) {  /* merge with the upper neighbour */
        b->s.units += p->s.next->s.units;
        b->s.next = p->s.next->s.next;
    } else {
        b->s.next = p->s.next;
    }
    if (p + p->s.units == b) {          /* merge with the lower neighbour */
        p->s.units += b->s.units;
        p->s.next = b->s.next;
    } else {
        p->s.next = b;
    }
    freep = p;
}

void *realloc(void *old, size_t n)
{
    if (old == NULL)
        return malloc(n);
    if (n == 0) {
        free(old);
        return NULL;
    }
    Header *h = (Header *)old - 1;
    size_t have = (h->s.units - 1) * sizeof(Header);
    if (n <= have)
        return old;
    void *p = malloc(n);
    if (p == NULL)
        return NULL;
    memcpy(p, old, have);
    free(old);
    return p;
}

void *calloc(size_t count, size_t size)
{
    if (size != 0 && count > 0x7fffffff / size)
        return NULL;
    void *p = malloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}
