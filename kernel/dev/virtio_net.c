/*
 * virtio-net over MMIO: the network card of QEMU's riscv and m68k virt
 * boards.  The board finds the slot and routes the interrupt (its nic.c);
 * this driver does the rest, the same on both.
 *
 * Why virtio 1.0 ("modern", MMIO version 2) and not the legacy interface:
 * the m68k virt board offers only modern devices, and a modern queue's
 * three parts go wherever the driver likes (legacy ties them to one
 * physically contiguous run of pages, which kalloc does not hand out).
 * QEMU's riscv virt board makes legacy devices unless told otherwise:
 * `-global virtio-mmio.force-legacy=false` (the harness passes it).
 *
 * No features beyond the card's address and VERSION_1: no checksum
 * offload, no merged receive buffers, no control queue.  Each frame is one
 * buffer with the 12-byte virtio-net header in front of it, in the room
 * the packet buffer keeps before the frame (net.h, NBUF_FRAME).
 *
 * Written for the deterministic two-machine model (docs/network.md):
 *  - transmit: after telling the device (QueueNotify) the driver calls
 *    net_tx_kicked(), where the model holds the CPU until the device has
 *    sent the frame;
 *  - receive: the driver learns of frames only from the card's interrupt,
 *    and refills the receive ring there, so the ring is always full: a
 *    frame for which the pool has no fresh buffer is dropped (rx_nobuf)
 *    and its buffer goes straight back to the ring;
 *  - transmit completions: the device is told not to interrupt for them
 *    (VIRTQ_AVAIL_F_NO_INTERRUPT); sent buffers are taken back when the
 *    driver next needs a descriptor, and a frame that finds the ring
 *    still full is dropped and counted (tx_ring_full).  So nothing
 *    depends on when the device reports a frame sent.
 */
#include "kernel.h"
#include "virtio.h"
#include "net/net.h"

#define VQ_SIZE   32                           /* descriptors per queue */
#define VNET_HDR  12                           /* virtio_net_hdr (VERSION_1) */
#define RXQ        0
#define TXQ        1
#define VIRTIO_NET_F_MAC (1u << 5)

_Static_assert(NBUF_FRAME >= VNET_HDR, "the packet buffer keeps room for the header");

struct vq {
    struct virtq_desc *desc;                   /* VQ_SIZE of them           */
    volatile uint16 *avail;                    /* flags, idx, ring[VQ_SIZE] */
    volatile uint32 *used;                     /* flags|idx, {id, len}[VQ_SIZE] */
    uint16 avail_idx;                          /* entries ever made available */
    uint16 used_seen;                          /* used entries taken back     */
    struct nbuf *buf[VQ_SIZE];                 /* each descriptor's buffer    */
    uint16 free[VQ_SIZE];                      /* transmit: descriptors free  */
    uint32 nfree;
};

static struct {
    volatile uint32 *regs;
    struct vq rx, tx;
    struct netif nif;
} vn;

/* The registers, in the CPU's order (virtio.h). */
static uint32 rd(int reg)          { return vle32(vn.regs[reg]); }
static void   wr(int reg, uint32 v) { vn.regs[reg] = vle32(v); }

static uint16 used_idx(struct vq *q)
{
    virtio_barrier();
    return vle16(((volatile uint16 *)q->used)[1]);
}

/* The i-th used entry: which descriptor, how many bytes written. */
static void used_entry(struct vq *q, uint16 i, uint32 *id, uint32 *len)
{
    volatile uint32 *e = q->used + 1 + 2 * (i % VQ_SIZE);
    *id = vle32(e[0]);
    *len = vle32(e[1]);
}

static void set_desc(struct vq *q, uint32 id, void *addr, uint32 len, uint16 flags)
{
    struct virtq_desc *d = &q->desc[id];
    d->addr_lo = vle32((uint32)V2P(addr));
    d->addr_hi = 0;
    d->len = vle32(len);
    d->flags = vle16(flags);
    d->next = 0;
}

/* Offer descriptor id to the device (publish later, with publish()). */
static void offer(struct vq *q, uint32 id)
{
    q->avail[2 + q->avail_idx % VQ_SIZE] = vle16((uint16)id);
    q->avail_idx++;
}

static void publish(struct vq *q, int qnum)
{
    virtio_barrier();                          /* the ring before its index */
    q->avail[1] = vle16(q->avail_idx);
    virtio_barrier();
    wr(VIRTIO_QUEUE_NOTIFY, qnum);
}

/* A receive descriptor takes a buffer: the header, then the longest frame. */
static void rx_give(uint32 id, struct nbuf *b)
{
    vn.rx.buf[id] = b;
    set_desc(&vn.rx, id, b->mem + NBUF_FRAME - VNET_HDR, VNET_HDR + NBUF_RXMAX,
             VIRTQ_DESC_F_WRITE);
    offer(&vn.rx, id);
}

/* Sent frames' buffers back to the pool, their descriptors free again. */
static void tx_reclaim(void)
{
    struct vq *q = &vn.tx;
    uint16 end = used_idx(q);
    while (q->used_seen != end) {
        uint32 id, len;
        used_entry(q, q->used_seen++, &id, &len);
        if (id >= VQ_SIZE || !q->buf[id])
            continue;                          /* not ours: ignore it */
        nbuf_free(q->buf[id]);
        q->buf[id] = 0;
        q->free[q->nfree++] = (uint16)id;
    }
}

static int vn_transmit(struct netif *nif, struct nbuf *b)
{
    struct vq *q = &vn.tx;
    if (q->nfree == 0)
        tx_reclaim();
    if (q->nfree == 0) {
        netstat.tx_ring_full++;
        nbuf_free(b);
        return -ENOBUFS;
    }
    uint32 id = q->free[--q->nfree];
    uint8 *hdr = b->data - VNET_HDR;           /* room kept: NBUF_FRAME */
    memset(hdr, 0, VNET_HDR);
    q->buf[id] = b;
    set_desc(q, id, hdr, VNET_HDR + b->len, 0);
    offer(q, id);
    publish(q, TXQ);
    net_tx_kicked();                           /* the model's hold point */
    return 0;
}

/* The card's interrupt: take every frame received so far, each
 * descriptor refilled at once, then hand the frames up. */
void virtio_net_intr(void)
{
    struct vq *q = &vn.rx;
    netstat.rx_intr++;
    wr(VIRTIO_INTERRUPT_ACK, rd(VIRTIO_INTERRUPT_STATUS));
    uint16 end = used_idx(q);
    struct nbufq up = { 0, 0, 0 };
    while (q->used_seen != end) {
        uint32 id, len;
        used_entry(q, q->used_seen++, &id, &len);
        if (id >= VQ_SIZE || !q->buf[id])
            continue;
        struct nbuf *b = q->buf[id], *fresh = nbuf_alloc();
        if (!fresh) {                          /* keep the ring full: drop */
            netstat.rx_nobuf++;
            rx_give(id, b);
            continue;
        }
        rx_give(id, fresh);
        b->data = b->mem + NBUF_FRAME;
        b->len = len > VNET_HDR ? len - VNET_HDR : 0;
        nbufq_put(&up, b);
    }
    publish(q, RXQ);
    struct nbuf *b;
    while ((b = nbufq_get(&up)) != 0)
        net_input(b);
}

static int setup_queue(int qnum, struct vq *q)
{
    uint8 *page = kalloc();
    if (!page)
        return -ENOMEM;
    q->desc = (struct virtq_desc *)page;
    q->avail = (volatile uint16 *)(page + VQ_SIZE * sizeof(struct virtq_desc));
    q->used = (volatile uint32 *)(page + PGSIZE / 2);
    wr(VIRTIO_QUEUE_SEL, qnum);
    if (rd(VIRTIO_QUEUE_READY) || rd(VIRTIO_QUEUE_NUM_MAX) < VQ_SIZE)
        return -EIO;
    wr(VIRTIO_QUEUE_NUM, VQ_SIZE);
    wr(VIRTIO_QUEUE_DESC_LOW, (uint32)V2P(q->desc));
    wr(VIRTIO_QUEUE_DESC_HIGH, 0);
    wr(VIRTIO_QUEUE_AVAIL_LOW, (uint32)V2P(q->avail));
    wr(VIRTIO_QUEUE_AVAIL_HIGH, 0);
    wr(VIRTIO_QUEUE_USED_LOW, (uint32)V2P(q->used));
    wr(VIRTIO_QUEUE_USED_HIGH, 0);
    wr(VIRTIO_QUEUE_READY, 1);
    return 0;
}

int virtio_net_probe(volatile uint32 *regs)
{
    if (vle32(regs[VIRTIO_MAGIC]) != VIRTIO_MAGIC_VALUE ||
        vle32(regs[VIRTIO_DEVICE_ID]) != VIRTIO_ID_NET)
        return 0;
    if (vn.regs)
        return 0;                              /* one card is all we drive */
    if (vle32(regs[VIRTIO_VERSION]) != 2) {
        printf("virtio-net: a legacy device (version %u): give QEMU "
               "-global virtio-mmio.force-legacy=false\n", vle32(regs[VIRTIO_VERSION]));
        return 0;
    }
    vn.regs = regs;
    wr(VIRTIO_STATUS, 0);                      /* reset */
    wr(VIRTIO_STATUS, VIRTIO_S_ACKNOWLEDGE | VIRTIO_S_DRIVER);
    wr(VIRTIO_DEVICE_FEATURES_SEL, 0);
    uint32 lo = rd(VIRTIO_DEVICE_FEATURES);
    wr(VIRTIO_DEVICE_FEATURES_SEL, 1);
    uint32 hi = rd(VIRTIO_DEVICE_FEATURES);
    const char *why = 0;
    if (!(lo & VIRTIO_NET_F_MAC) || !(hi & VIRTIO_F_VERSION_1_HI)) {
        why = "the device lacks MAC or VERSION_1";
        goto fail;
    }
    wr(VIRTIO_DRIVER_FEATURES_SEL, 0);
    wr(VIRTIO_DRIVER_FEATURES, VIRTIO_NET_F_MAC);
    wr(VIRTIO_DRIVER_FEATURES_SEL, 1);
    wr(VIRTIO_DRIVER_FEATURES, VIRTIO_F_VERSION_1_HI);
    wr(VIRTIO_STATUS, VIRTIO_S_ACKNOWLEDGE | VIRTIO_S_DRIVER | VIRTIO_S_FEATURES_OK);
    if (!(rd(VIRTIO_STATUS) & VIRTIO_S_FEATURES_OK)) {
        why = "the device refused our features";
        goto fail;
    }
    if (setup_queue(RXQ, &vn.rx) < 0 || setup_queue(TXQ, &vn.tx) < 0) {
        why = "cannot set up the queues";
        goto fail;
    }
    volatile uint8 *config = (volatile uint8 *)regs + VIRTIO_CONFIG;
    for (int i = 0; i < ETH_ALEN; i++)
        vn.nif.mac[i] = config[i];
    vn.nif.name = "virtio-net";
    vn.nif.transmit = vn_transmit;
    if (netif_attach(&vn.nif) < 0) {
        why = "the stack cannot start";
        goto fail;
    }
    for (uint32 id = 0; id < VQ_SIZE; id++) {
        struct nbuf *b = nbuf_alloc();
        if (!b) {
            why = "no buffers for the receive ring";
            goto fail;
        }
        rx_give(id, b);
        vn.tx.free[vn.tx.nfree++] = (uint16)(VQ_SIZE - 1 - id);
    }
    vn.tx.avail[0] = vle16(VIRTQ_AVAIL_F_NO_INTERRUPT);
    wr(VIRTIO_STATUS, VIRTIO_S_ACKNOWLEDGE | VIRTIO_S_DRIVER | VIRTIO_S_FEATURES_OK |
                      VIRTIO_S_DRIVER_OK);
    publish(&vn.rx, RXQ);
    return 1;
fail:
    printf("virtio-net: %s\n", why);
    wr(VIRTIO_STATUS, 0);
    vn.regs = 0;
    return 0;
}
