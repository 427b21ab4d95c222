/*
 * The DELQA, DEC's Q-bus Ethernet controller (M7516), as SIMH's XQ
 * emulates it: the MicroVAX 3900's network card.  nic.c finds it, maps
 * the Q-bus for it and routes its interrupt; this file drives it.
 *
 * The controller has eight 16-bit registers: six that read as its
 * Ethernet address (and take, when written, the addresses of the receive
 * and transmit lists), the vector address register and the CSR.  It works
 * from buffer descriptor lists (BDLs) in memory: six words per buffer
 * (flag, address bits 21:16 with the V(alid), C(hain), E(nd of message)
 * and S(etup) bits, address 15:0, the length in words as a negative
 * number, and two status words the controller writes).  It follows a list
 * descriptor by descriptor; a chain descriptor (V and C) sends it to
 * another address, and one without V stops it (the CSR's RL or XL bit
 * says so) until the host writes the list's address again.
 *
 * Our lists are rings: RX_N (TX_N) descriptors and a chain back to the
 * first.  The controller does not give a descriptor back (it never clears
 * V), so a ring needs a fence: one descriptor, the one the host finished
 * with last, is kept invalid, and the controller stops there rather than
 * overwrite a frame the host has not taken.  Taking a frame moves the
 * fence onto its descriptor (made invalid first, then the old fence
 * valid); when the controller has stopped (RL), the interrupt starts it
 * again at the next descriptor.
 *
 * The station address and the mode go in a setup frame: a transmit with
 * S set, whose 128 bytes hold up to 14 addresses (ours, broadcast) and
 * whose length's low bits say promiscuous (the stack counts frames not
 * for us, as on every ISA).  The controller loops it back into the
 * receive list, where it is skipped.
 *
 * Written for the deterministic two-machine model (docs/network.md):
 *  - transmit: the driver validates the descriptor, writes the list's
 *    address when the controller has stopped (XL), then calls
 *    net_tx_kicked(); SIMH sends the frame before the write returns;
 *  - receive: the driver learns of frames only from the interrupt, and
 *    gives each descriptor straight back with a fresh buffer: a frame for
 *    which the pool has none is dropped (rx_nobuf), its buffer reused;
 *  - transmit completions: the DELQA interrupts for them too (it has no
 *    mask); the interrupt takes them back, as the next transmit does.
 */
#include "kernel.h"
#include "vax.h"
#include "fns.h"
#include "net/net.h"

/* Registers, as 16-bit words from the controller's base. */
#define REG_SA0     0           /* read: address byte 0 ... SA5         */
#define REG_RBDL_LO 2           /* write: receive list address 15:0     */
#define REG_RBDL_HI 3           /*        ... 21:16, which starts it    */
#define REG_XBDL_LO 4
#define REG_XBDL_HI 5
#define REG_VAR     6           /* vector address                       */
#define REG_CSR     7

#define CSR_RI      0x8000      /* receive interrupt (write 1: clear)   */
#define CSR_OK      0x1000      /* transceiver power: attached          */
#define CSR_IL      0x0100      /* 1: no internal loopback              */
#define CSR_XI      0x0080      /* transmit interrupt (write 1: clear)  */
#define CSR_IE      0x0040
#define CSR_RL      0x0020      /* receive list invalid: stopped        */
#define CSR_XL      0x0010      /* transmit list invalid: stopped       */
#define CSR_SR      0x0002      /* software reset (on 1 -> 0)           */
#define CSR_RE      0x0001      /* receiver enabled                     */
#define CSR_RUN     (CSR_RE | CSR_IE | CSR_IL)

#define VAR_MS      0x8000      /* DELQA (not DEQNA-lock) mode          */

/* Descriptor bits (word 1) and status values. */
#define BD_V        0x8000
#define BD_C        0x4000
#define BD_E        0x2000
#define BD_S        0x1000
#define BD_L        0x0080      /* the last word holds one byte         */
#define BD_NOTYET   0x8000      /* flag and status 1: not used yet      */
#define RS_LASTNOT  0x8000      /* status 1: more of this frame follows */
#define RS_ERR      0x4000      /* ... (with LASTNOT clear): an error   */
#define RS_ESETUP   0x2000      /* ... a setup frame looped back        */
#define RS_OVF      0x0001      /* ... frames were lost before this one */
#define RBL_BIAS    60          /* RBL is the length - 60, in 11 bits   */

#define RX_N        32          /* descriptors in each ring, chain aside */
#define TX_N        16
#define SETUP_LEN   128         /* a setup frame's 14 address columns   */
#define SETUP_PROMISC 2         /* ... its length + 2: promiscuous      */
#define SETUP_SLOTS 14

struct bd {
    uint16 flag;
    uint16 hi;                  /* BD_ bits | address 21:16             */
    uint16 lo;                  /* address 15:0                         */
    uint16 words;               /* -(buffer length in words)            */
    uint16 status1, status2;
};

/* The page the controller reads: the two rings, then the setup frame. */
struct bdpage {
    struct bd rx[RX_N + 1];
    struct bd tx[TX_N + 1];
    uint8 setup[SETUP_LEN + SETUP_PROMISC];
};
_Static_assert(sizeof(struct bd) == 12 && sizeof(struct bdpage) <= PGSIZE, "the lists fit a page");

static struct {
    volatile uint16 *regs;
    struct bdpage *bp;
    struct nbuf *rxbuf[RX_N], *txbuf[TX_N];
    uint32 rx_next;             /* the next receive descriptor to look at */
    uint32 rx_fence;            /* the invalid one                        */
    uint32 tx_next, tx_done;    /* transmit: next to fill, oldest not back */
    int discarding;             /* inside a frame that spans buffers      */
    struct netif nif;
} xq;

static void desc_set(volatile struct bd *d, const void *va, uint32 len, uint32 bits)
{
    uint32 qa = qbus_addr(va);
    d->flag = BD_NOTYET;
    d->status1 = BD_NOTYET;
    d->status2 = 0;
    d->lo = (uint16)qa;
    d->words = (uint16)-((len + 1) / 2);
    d->hi = (uint16)(bits | ((len & 1) ? BD_L : 0) | ((qa >> 16) & 0x3f));
}

static void chain_to(volatile struct bd *d, const void *first)
{
    uint32 qa = qbus_addr(first);
    d->lo = (uint16)qa;
    d->hi = (uint16)(BD_V | BD_C | ((qa >> 16) & 0x3f));
}

/* A receive descriptor takes a buffer: the longest frame, NBUF_FRAME in. */
static void rx_give(uint32 i, struct nbuf *b, uint32 valid)
{
    xq.rxbuf[i] = b;
    desc_set(&xq.bp->rx[i], b->mem + NBUF_FRAME, NBUF_RXMAX, valid);
}

/* Start (again) a list the controller has stopped in. */
static void start_list(int reg_lo, volatile struct bd *d)
{
    uint32 qa = qbus_addr((const void *)d);
    xq.regs[reg_lo] = (uint16)qa;
    xq.regs[reg_lo + 1] = (uint16)(qa >> 16);
}

static void tx_reclaim(void)
{
    while (xq.tx_done != xq.tx_next && xq.bp->tx[xq.tx_done % TX_N].status1 != BD_NOTYET) {
        uint32 i = xq.tx_done++ % TX_N;
        if (xq.txbuf[i])
            nbuf_free(xq.txbuf[i]);
        xq.txbuf[i] = 0;
    }
}

/* Put a frame in the transmit ring: slot tx_next (invalid, the fence)
 * takes it, the one after becomes the fence. */
static void tx_queue(const void *va, uint32 len, uint32 bits, struct nbuf *b)
{
    uint32 i = xq.tx_next % TX_N, next = (xq.tx_next + 1) % TX_N;
    xq.txbuf[i] = b;
    xq.bp->tx[next].hi &= (uint16)~BD_V;
    desc_set(&xq.bp->tx[i], va, len, BD_V | BD_E | bits);
    xq.tx_next++;
    if (xq.regs[REG_CSR] & CSR_XL)
        start_list(REG_XBDL_LO, &xq.bp->tx[i]);
}

static int delqa_transmit(struct netif *nif, struct nbuf *b)
{
    tx_reclaim();
    if (xq.tx_next - xq.tx_done >= TX_N - 1) {          /* one is the fence */
        netstat.tx_ring_full++;
        nbuf_free(b);
        return -ENOBUFS;
    }
    tx_queue(b->data, b->len, 0, b);
    net_tx_kicked();                                    /* the model's hold point */
    return 0;
}

/* Descriptor i is the host's: valid no more, and the fence; the old
 * fence is the controller's again (in that order: it must never find two
 * valid descriptors it has filled). */
static void rx_fence_at(uint32 i)
{
    xq.bp->rx[i].hi &= (uint16)~BD_V;
    xq.bp->rx[xq.rx_fence].hi |= BD_V;
    xq.rx_fence = i;
}

/* The controller's interrupt: acknowledge it, take every frame received
 * so far, each descriptor refilled at once, start the list again if the
 * controller stopped at the fence, then hand the frames up. */
void delqa_intr(void)
{
    netstat.rx_intr++;
    uint32 csr = xq.regs[REG_CSR];
    xq.regs[REG_CSR] = (uint16)(CSR_RUN | (csr & (CSR_RI | CSR_XI)));
    struct nbufq up = { 0, 0, 0 };
    for (;;) {
        uint32 i = xq.rx_next % RX_N;
        volatile struct bd *d = &xq.bp->rx[i];
        uint32 s1 = d->status1, s2 = d->status2;
        if (s1 == BD_NOTYET)
            break;
        xq.rx_next++;
        struct nbuf *b = xq.rxbuf[i];
        if (s1 & RS_OVF)
            netstat.rx_missed++;                        /* one at least */
        if (s1 & RS_LASTNOT) {                          /* a frame too long for one */
            if (!xq.discarding)
                netstat.rx_errors++;
            xq.discarding = 1;
        } else if (xq.discarding) {                     /* ... its last buffer */
            xq.discarding = 0;
        } else if (s1 & RS_ERR) {
            netstat.rx_errors++;
        } else if (!(s1 & RS_ESETUP)) {                 /* a frame, whole */
            struct nbuf *fresh = nbuf_alloc();
            if (!fresh) {
                netstat.rx_nobuf++;                     /* keep the ring full: drop */
            } else {
                b->data = b->mem + NBUF_FRAME;
                b->len = (((s1 & 0x0700) | (s2 & 0xff)) + RBL_BIAS) & 0x7ff;
                nbufq_put(&up, b);
                b = fresh;
            }
        }
        rx_give(i, b, 0);
        rx_fence_at(i);
    }
    if (xq.regs[REG_CSR] & CSR_RL)
        start_list(REG_RBDL_LO, &xq.bp->rx[xq.rx_next % RX_N]);
    tx_reclaim();
    struct nbuf *b;
    while ((b = nbufq_get(&up)) != 0)
        net_input(b);
}

/* The setup frame: our address and broadcast, the rest of the 14 slots
 * ours again; address i's byte j at column 1 + i % 7, row j (the second
 * seven in the frame's second half). */
static void setup_frame(uint8 *f, const uint8 mac[ETH_ALEN])
{
    static const uint8 bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    memset(f, 0, SETUP_LEN + SETUP_PROMISC);
    for (int i = 0; i < SETUP_SLOTS; i++) {
        const uint8 *a = i == 1 ? bcast : mac;
        for (int j = 0; j < ETH_ALEN; j++)
            f[(i / 7) * 64 + 1 + i % 7 + 8 * j] = a[j];
    }
}

/* Whether the controller at regs has its transceiver's power: SIMH
 * says so once its XQ is attached. */
int delqa_present(volatile uint16 *regs)
{
    return (regs[REG_CSR] & CSR_OK) != 0;
}

/* regs: the controller's registers (kernel address), vector: its Q-bus
 * vector (it interrupts through SCB offset 0x200 + vector).  1 if
 * attached to the stack. */
int delqa_attach(volatile uint16 *regs, uint32 vector)
{
    const char *why;
    xq.regs = regs;
    regs[REG_CSR] = CSR_SR;                     /* reset, on SR's fall */
    regs[REG_CSR] = 0;
    regs[REG_VAR] = (uint16)(VAR_MS | (vector & 0x1fc));
    for (int i = 0; i < ETH_ALEN; i++)
        xq.nif.mac[i] = (uint8)regs[REG_SA0 + i];
    paddr lo, hi;
    if (net_start() < 0 || !(xq.bp = kalloc())) {
        why = "no memory for the stack or the lists";
        goto fail;
    }
    lo = V2P(xq.bp);                            /* what the controller touches: */
    hi = lo + PGSIZE;                           /* the lists, the buffers */
    nbuf_extent(&lo, &hi);
    if (qbus_map(lo, hi) < 0) {
        why = "the packet buffers span more than the Q-bus window";
        goto fail;
    }
    struct bdpage *bp = xq.bp;
    for (uint32 i = 0; i < RX_N; i++) {
        struct nbuf *b = nbuf_alloc();
        if (!b) {
            why = "no buffers for the receive ring";
            goto fail;
        }
        rx_give(i, b, i == RX_N - 1 ? 0 : BD_V);
    }
    xq.rx_fence = RX_N - 1;
    chain_to(&bp->rx[RX_N], &bp->rx[0]);
    chain_to(&bp->tx[TX_N], &bp->tx[0]);
    start_list(REG_RBDL_LO, &bp->rx[0]);
    regs[REG_CSR] = CSR_RUN;
    setup_frame(bp->setup, xq.nif.mac);
    tx_queue(bp->setup, SETUP_LEN + SETUP_PROMISC, BD_S, 0);
    xq.nif.name = "delqa";
    xq.nif.transmit = delqa_transmit;
    if (netif_attach(&xq.nif) < 0) {
        why = "the stack would not take it";
        goto fail;
    }
    return 1;
fail:
    printf("delqa: %s\n", why);
    regs[REG_CSR] = CSR_SR;
    regs[REG_CSR] = 0;
    return 0;
}
