/*
 * The physical page allocator: a free list threaded through the free pages
 * themselves.  Pages are named by their kernel virtual address.  kalloc()
 * returns zeroed pages so that no process ever sees another's old data.
 */
#include "kernel.h"

struct run { struct run *next; };

static struct run *freelist;
static uint32 nfree, ntotal;

void kalloc_init(uintptr start, uintptr end)
{
    for (uintptr p = PGROUNDUP(start); p + PGSIZE <= end; p += PGSIZE) {
        kfree((void *)p);
        ntotal++;
    }
}

void kfree(void *page)
{
    assert(((uintptr)page & (PGSIZE - 1)) == 0);
    struct run *r = page;
    r->next = freelist;
    freelist = r;
    nfree++;
}

void *kalloc(void)
{
    struct run *r = freelist;
    if (!r)
        return 0;
    freelist = r->next;
    nfree--;
    memset(r, 0, PGSIZE);
    return r;
}

uint32 kalloc_free_pages(void)  { return nfree; }
uint32 kalloc_total_pages(void) { return ntotal; }
