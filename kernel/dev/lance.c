/*
 * The AMD LANCE (Am7990) in its 16-bit mode: the network card of QEMU's
 * Malta and PC (a PCnet-PCI, which starts in that mode) and of the sun4m
 * board (its on-board LANCE).  The DECstation 3100 had a LANCE too.  The
 * board (its nic.c) finds the chip, resets it, gives its Ethernet address
 * and routes its interrupt; lance.h says what it provides.  This file is
 * the same on all three.
 *
 * The chip works from memory: an initialization block (mode, address,
 * where the rings are), a ring of receive descriptors and one of transmit
 * descriptors, 8 bytes each: the buffer's address (24 bits), status bits
 * (OWN: the chip's), the buffer's length as a negative number, and the
 * bytes received (or transmit errors).  Each frame is one buffer: a
 * packet buffer of the stack's (net.h), the frame NBUF_FRAME bytes in.
 * The chip sees 24 address bits; the board supplies the rest, the same
 * for every buffer (lance_dma_map), so all it touches must lie in one
 * window: the board says whether the pool and the rings do (kalloc hands
 * out the top of memory first, and they are taken together at boot).
 *
 * Written for the deterministic two-machine model (docs/network.md):
 *  - transmit: the driver gives the descriptor to the chip, writes TDMD
 *    ("look at the ring now"), then calls net_tx_kicked(), where the model
 *    holds the CPU until the chip has sent the frame (QEMU's does so
 *    before the write returns);
 *  - receive: the driver learns of frames only from the chip's interrupt,
 *    and gives each descriptor straight back, with a fresh buffer, so the
 *    ring stays full: a frame for which the pool has no fresh buffer is
 *    dropped (rx_nobuf) and its buffer goes back to the ring;
 *  - transmit completions: masked (CSR3.TINTM); sent buffers are taken
 *    back when the driver next transmits, and a frame that finds the ring
 *    still full is dropped and counted (tx_ring_full).
 *
 * Frames the chip could not store for want of a descriptor it counts
 * itself (CSR112); each interrupt adds what it counted to rx_missed.
 *
 * What a real Am7990 would do differently: it has CSR0-3 only, so the
 * writes to CSR4 (no polling of the transmit ring: QEMU's chip would
 * otherwise poll on a timer of its virtual clock) and the masks in CSR3
 * are the PCnet's, and the real chip would interrupt for each frame sent
 * (the handler would clear TINT and go on).
 */
#include "kernel.h"
#include "lance.h"
#include "net/net.h"

#define RX_LOG2   5                  /* 32 receive descriptors             */
#define TX_LOG2   4                  /* 16 transmit descriptors            */
#define RX_RING   (1u << RX_LOG2)
#define TX_RING   (1u << TX_LOG2)
#define FCS_LEN   4                  /* counted in a received frame's length */
#define INIT_SPINS 100000            /* reads of CSR0 for IDON before giving up */

/* A descriptor: four 16-bit words in the CPU's order (lance.h). */
struct desc {
    uint16 addr_lo;                  /* buffer address 15:0                */
    uint16 status;                   /* DESC_OWN ... | address 23:16       */
    uint16 bcnt;                     /* -(buffer length), 15:12 all ones   */
    uint16 mcnt;                     /* receive: bytes stored; transmit: errors */
};

/* The initialization block (16-bit mode). */
struct initblock {
    uint16 mode;
    uint16 padr[3];                  /* our address, first byte low         */
    uint16 ladrf[4];                 /* multicast filter: none              */
    uint16 rdra_lo, rdra_hi;         /* ring address 23:16 | log2(length) << 13 */
    uint16 tdra_lo, tdra_hi;
};

_Static_assert(sizeof(struct desc) == 8 && sizeof(struct initblock) == 24,
               "the chip's layouts");

static struct {
    volatile struct desc *rx, *tx;
    struct initblock *ib;
    struct nbuf *rxbuf[RX_RING], *txbuf[TX_RING];
    uint32 rx_next;                  /* the next receive descriptor to look at */
    uint32 tx_next, tx_done;         /* transmit: next to fill, oldest not taken back */
    uint32 missed;                   /* CSR112 when last read */
    struct netif nif;
} ln;

/* A descriptor's address words for a buffer at va. */
static void desc_set(volatile struct desc *d, const void *va, uint32 len, uint32 status)
{
    uint32 a = lance_dma_addr(va);
    d->addr_lo = (uint16)a;
    d->bcnt = (uint16)(0xf000 | (-len & 0x0fff));
    d->mcnt = 0;
    lance_barrier();                 /* everything before the chip may take it */
    d->status = (uint16)(status | ((a >> 16) & 0xff));
}

static void rx_give(uint32 i, struct nbuf *b)
{
    ln.rxbuf[i] = b;
    desc_set(&ln.rx[i], b->mem + NBUF_FRAME, NBUF_RXMAX, DESC_OWN);
}

/* Sent frames' buffers back to the pool. */
static void tx_reclaim(void)
{
    lance_barrier();
    while (ln.tx_done != ln.tx_next && !(ln.tx[ln.tx_done % TX_RING].status & DESC_OWN)) {
        uint32 i = ln.tx_done++ % TX_RING;
        nbuf_free(ln.txbuf[i]);
        ln.txbuf[i] = 0;
    }
}

static int lance_transmit(struct netif *nif, struct nbuf *b)
{
    tx_reclaim();
    if (ln.tx_next - ln.tx_done == TX_RING) {
        netstat.tx_ring_full++;
        nbuf_free(b);
        return -ENOBUFS;
    }
    uint32 i = ln.tx_next++ % TX_RING;
    ln.txbuf[i] = b;
    desc_set(&ln.tx[i], b->data, b->len, DESC_OWN | DESC_STP | DESC_ENP);
    lance_barrier();
    lance_csr_write(LANCE_CSR0, CSR0_INEA | CSR0_TDMD);
    net_tx_kicked();                 /* the model's hold point */
    return 0;
}

/* The chip's interrupt: acknowledge it, take every frame received so
 * far, each descriptor refilled at once, then hand the frames up. */
void lance_intr(void)
{
    netstat.rx_intr++;
    uint32 csr0 = lance_csr_read(LANCE_CSR0);
    lance_csr_write(LANCE_CSR0, (csr0 & CSR0_ACK) | CSR0_INEA);
    if (csr0 & CSR0_MISS) {
        uint32 missed = lance_csr_read(LANCE_CSR112);
        netstat.rx_missed += (missed - ln.missed) & 0xffff;
        ln.missed = missed;
    }
    struct nbufq up = { 0, 0, 0 };
    lance_barrier();
    for (;;) {
        uint32 i = ln.rx_next % RX_RING;
        uint32 status = ln.rx[i].status;
        if (status & DESC_OWN)
            break;
        /* A first buffer without its end may be one the chip is still
         * writing: QEMU's gives a descriptor up (OWN clear, STP) before it
         * writes the end and the count, while the CPU may be running (on
         * a plain wire; the model's holds the CPU until the chip is
         * done).  While the next descriptor is still the chip's, take it
         * at the interrupt that follows; once the chip has touched the
         * next, it finished this one first, so look again: only a frame
         * that really went on into the next buffer stays without its
         * end (read once, a frame finished between the two looks was
         * counted as an error: test_net's flood, 1 of 2,000 on sparc). */
        if ((status & (DESC_ERR | DESC_STP | DESC_ENP)) == DESC_STP) {
            if (ln.rx[(i + 1) % RX_RING].status & DESC_OWN)
                break;
            lance_barrier();
            status = ln.rx[i].status;
        }
        struct nbuf *b = ln.rxbuf[i];
        uint32 len = ln.rx[i].mcnt & 0x0fff;
        /* One buffer holds any frame we take (NBUF_RXMAX): a frame that
         * is not whole in one, or has an error, is dropped here, and
         * counted once, at its first buffer. */
        if ((status & (DESC_ERR | DESC_STP | DESC_ENP)) != (DESC_STP | DESC_ENP) ||
            len < FCS_LEN) {
            ln.rx_next++;
            if (status & DESC_STP)
                netstat.rx_errors++;
            rx_give(i, b);
            continue;
        }
        ln.rx_next++;
        struct nbuf *fresh = nbuf_alloc();
        if (!fresh) {                /* keep the ring full: drop */
            netstat.rx_nobuf++;
            rx_give(i, b);
            continue;
        }
        rx_give(i, fresh);
        b->data = b->mem + NBUF_FRAME;
        b->len = len - FCS_LEN;
        nbufq_put(&up, b);
    }
    struct nbuf *b;
    while ((b = nbufq_get(&up)) != 0)
        net_input(b);
}

/* The initialization block and the rings, in one page. */
static int setup_memory(const uint8 mac[ETH_ALEN], uint32 *csr2_high)
{
    uint8 *page = kalloc();
    if (!page)
        return -ENOMEM;
    ln.ib = (struct initblock *)page;
    ln.rx = (volatile struct desc *)(page + 64);
    ln.tx = ln.rx + RX_RING;
    paddr lo = V2P(page), hi = lo + PGSIZE;     /* what the chip touches: */
    nbuf_extent(&lo, &hi);                      /* this page, the buffers */
    int high = lance_dma_map(lo, hi);
    if (high < 0)
        return high;
    for (uint32 i = 0; i < RX_RING; i++) {
        struct nbuf *b = nbuf_alloc();
        if (!b)
            return -ENOMEM;
        rx_give(i, b);
    }
    struct initblock *ib = ln.ib;
    ib->mode = MODE_PROM;            /* the stack counts frames not for us */
    for (int i = 0; i < 3; i++)
        ib->padr[i] = (uint16)(mac[2 * i] | mac[2 * i + 1] << 8);
    uint32 rdra = lance_dma_addr((const void *)ln.rx), tdra = lance_dma_addr((const void *)ln.tx);
    ib->rdra_lo = (uint16)rdra;
    ib->rdra_hi = (uint16)(RX_LOG2 << 13 | ((rdra >> 16) & 0xff));
    ib->tdra_lo = (uint16)tdra;
    ib->tdra_hi = (uint16)(TX_LOG2 << 13 | ((tdra >> 16) & 0xff));
    *csr2_high = (uint32)high;
    return 0;
}

/* Big-endian machines want the chip to swap its words' bytes (CSR3.BSWP). */
static int big_endian(void)
{
    union { uint16 v; uint8 b[2]; } u = { .v = 1 };
    return u.b[0] == 0;
}

int lance_attach(const char *name, const uint8 mac[ETH_ALEN])
{
    const char *why;
    uint32 csr2_high = 0;
    lance_csr_write(LANCE_CSR0, CSR0_STOP);
    int r = net_start();             /* the pool, for the receive ring */
    if (r == 0)
        r = setup_memory(mac, &csr2_high);
    if (r == -EFAULT) {
        why = "the packet buffers are not all in the chip's reach";
        goto fail;
    } else if (r < 0) {
        why = "no memory for the stack or the rings";
        goto fail;
    }
    uint32 iadr = lance_dma_addr(ln.ib);
    lance_csr_write(LANCE_CSR1, iadr & 0xffff);
    lance_csr_write(LANCE_CSR2, csr2_high << 8 | ((iadr >> 16) & 0xff));
    lance_csr_write(LANCE_CSR3, CSR3_TINTM | CSR3_IDONM | (big_endian() ? CSR3_BSWP : 0));
    lance_csr_write(LANCE_CSR4, CSR4_DEFAULT | CSR4_DPOLL);
    ln.missed = lance_csr_read(LANCE_CSR112);
    lance_barrier();
    lance_csr_write(LANCE_CSR0, CSR0_INIT);
    uint32 spins = 0;
    while (!(lance_csr_read(LANCE_CSR0) & CSR0_IDON)) {
        if (++spins == INIT_SPINS) {
            why = "the chip did not initialize";
            goto fail;
        }
    }
    memcpy(ln.nif.mac, mac, ETH_ALEN);
    ln.nif.name = name;
    ln.nif.transmit = lance_transmit;
    if (netif_attach(&ln.nif) < 0) {
        why = "the stack would not take it";
        goto fail;
    }
    lance_csr_write(LANCE_CSR0, CSR0_IDON | CSR0_STRT | CSR0_INEA);
    return 1;
fail:
    printf("lance: %s\n", why);
    lance_csr_write(LANCE_CSR0, CSR0_STOP);
    return 0;
}
