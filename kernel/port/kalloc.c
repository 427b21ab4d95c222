/*
 * The physical page allocator.  Pages are named by their kernel virtual
 * address.  kalloc() returns zeroed pages so that no process ever sees
 * another's old data.
 *
 * Every free page is on two lists at once, threaded through the page
 * itself: the free list, last freed first out, which kalloc() takes from;
 * and the list of its cache colour, its physical page number modulo
 * NCOLOURS, from which kalloc_user() may take instead, by the page policy
 * (seed 004's Figure 4: how pages are placed decides how a physically
 * indexed cache behaves):
 *
 *   PAGES_LIST      the free list's head, like every other allocation (the
 *                   default, and what the kernel always did);
 *   PAGES_COLOURED  a page of the same colour as the virtual page, so that
 *                   consecutive virtual pages get consecutive colours and an
 *                   array no bigger than a cache never collides with itself
 *                   in it (Windows NT's "deterministic page mapping");
 *   PAGES_RANDOM    a page of a pseudo-random colour, as the free list of a
 *                   long-running system ends up (NetBSD's in 1995); the
 *                   generator restarts with the policy, so runs repeat.
 *
 * NCOLOURS pages span 1 MB of cache, more than any profile's largest
 * cache (hw-models/profiles/), so colours agree modulo every cache's size.
 */
#include "kernel.h"

#define NCOLOURS 256

struct run {
    struct run *next, *prev;          /* the free list                    */
    struct run *cnext, *cprev;        /* the list of its colour           */
};

static struct run freelist;           /* circular; sentinels               */
static struct run colours[NCOLOURS];
static uint32 nfree, ntotal;
static int policy = PAGES_LIST;
static uint32 seed;

static uint32 colour_of(const void *page)
{
    return (uint32)(V2P(page) >> PGSHIFT) % NCOLOURS;
}

void kalloc_init(uintptr start, uintptr end)
{
    freelist.next = freelist.prev = &freelist;
    for (int c = 0; c < NCOLOURS; c++)
        colours[c].cnext = colours[c].cprev = &colours[c];
    for (uintptr p = PGROUNDUP(start); p + PGSIZE <= end; p += PGSIZE) {
        kfree((void *)p);
        ntotal++;
    }
}

void kfree(void *page)
{
    assert(((uintptr)page & (PGSIZE - 1)) == 0);
    struct run *r = page, *c = &colours[colour_of(page)];
    r->next = freelist.next;
    r->prev = &freelist;
    freelist.next->prev = r;
    freelist.next = r;
    r->cnext = c->cnext;
    r->cprev = c;
    c->cnext->cprev = r;
    c->cnext = r;
    nfree++;
}

/* Take r off both lists, zero it, hand it out. */
static void *take(struct run *r)
{
    r->prev->next = r->next;
    r->next->prev = r->prev;
    r->cprev->cnext = r->cnext;
    r->cnext->cprev = r->cprev;
    nfree--;
    memset(r, 0, PGSIZE);
    return r;
}

void *kalloc(void)
{
    return freelist.next == &freelist ? 0 : take(freelist.next);
}

/* The first free page of colour c or, if it has none, of the colours after it. */
static void *from_colour(uint32 c)
{
    for (uint32 i = 0; i < NCOLOURS; i++) {
        struct run *head = &colours[(c + i) % NCOLOURS];
        if (head->cnext != head)
            return take(head->cnext);
    }
    return 0;
}

void *kalloc_user(uaddr va)
{
    switch (policy) {
    case PAGES_COLOURED:
        return from_colour((va >> PGSHIFT) % NCOLOURS);
    case PAGES_RANDOM:
        seed = seed * 1103515245u + 12345u;       /* the C standard's example LCG */
        return from_colour((seed >> 16) % NCOLOURS);
    default:
        return kalloc();
    }
}

int kalloc_policy(int p)
{
    if (p < PAGES_LIST || p > PAGES_RANDOM)
        return -EINVAL;
    int old = policy;
    policy = p;
    seed = 1;
    return old;
}

uint32 kalloc_free_pages(void)  { return nfree; }
uint32 kalloc_total_pages(void) { return ntotal; }
