/*
 * Packet buffers: a fixed pool of NBUF_COUNT buffers of NBUF_SIZE bytes,
 * two to a page, taken from kalloc when the network starts (a NIC found
 * at boot, or the first socket).  Not a static array: a pool in .bss would
 * move the first free page, and with it every user page, on a kernel that
 * never uses the network.
 *
 * A buffer is free or has exactly one owner: a NIC's ring, a socket's
 * queue, the loopback queue, or the code handling it now.  Whoever runs
 * short gives up the packet and counts it (rx_nobuf, tx_nobuf): a flood
 * can empty the pool but never make the kernel wait for a buffer.
 */
#include "net.h"

struct pool {
    struct nbuf *free;                 /* the free list                     */
    uint32 nfree;
    struct nbuf bufs[NBUF_COUNT];
};
_Static_assert(sizeof(struct pool) <= PGSIZE, "the pool's headers fit in a page");

static struct pool *pool;

int nbuf_init(void)
{
    if (pool)
        return 0;
    struct pool *p = kalloc();
    if (!p)
        return -ENOMEM;
    for (int i = 0; i < NBUF_COUNT; i += PGSIZE / NBUF_SIZE) {
        uint8 *page = kalloc();
        if (!page)
            return -ENOMEM;            /* at boot: the pages taken stay taken */
        for (int j = 0; j < PGSIZE / NBUF_SIZE; j++) {
            struct nbuf *b = &p->bufs[i + j];
            b->mem = page + j * NBUF_SIZE;
            b->next = p->free;
            p->free = b;
            p->nfree++;
        }
    }
    pool = p;
    return 0;
}

struct nbuf *nbuf_alloc(void)
{
    struct nbuf *b = pool ? pool->free : 0;
    if (!b)
        return 0;
    pool->free = b->next;
    pool->nfree--;
    b->next = 0;
    b->data = b->mem + NBUF_PAYLOAD;
    b->len = 0;
    b->addr = b->port = 0;
    return b;
}

void nbuf_free(struct nbuf *b)
{
    assert(b >= pool->bufs && b < pool->bufs + NBUF_COUNT);
    b->next = pool->free;
    pool->free = b;
    pool->nfree++;
}

uint8 *nbuf_push(struct nbuf *b, uint32 n)
{
    assert(b->data - n >= b->mem + NBUF_FRAME);
    b->data -= n;
    b->len += n;
    return b->data;
}

void nbuf_pull(struct nbuf *b, uint32 n)
{
    assert(n <= b->len);
    b->data += n;
    b->len -= n;
}

uint32 nbuf_nfree(void) { return pool ? pool->nfree : 0; }

/* The physical bytes the pool's buffers lie in, [*lo, *hi): for a NIC
 * that reaches memory through a window of its own (the LANCE's 24 address
 * bits, the Q-bus map).  Nothing if there is no pool. */
void nbuf_extent(paddr *lo, paddr *hi)
{
    for (int i = 0; pool && i < NBUF_COUNT; i++) {
        paddr pa = V2P(pool->bufs[i].mem);
        if (pa < *lo)
            *lo = pa;
        if (pa + NBUF_SIZE > *hi)
            *hi = pa + NBUF_SIZE;
    }
}
uint32 nbuf_count(void) { return pool ? NBUF_COUNT : 0; }

void nbufq_put(struct nbufq *q, struct nbuf *b)
{
    b->next = 0;
    if (q->tail)
        q->tail->next = b;
    else
        q->head = b;
    q->tail = b;
    q->n++;
}

struct nbuf *nbufq_get(struct nbufq *q)
{
    struct nbuf *b = q->head;
    if (b) {
        q->head = b->next;
        if (!q->head)
            q->tail = 0;
        q->n--;
        b->next = 0;
    }
    return b;
}

void nbufq_drain(struct nbufq *q)
{
    struct nbuf *b;
    while ((b = nbufq_get(q)) != 0)
        nbuf_free(b);
}
