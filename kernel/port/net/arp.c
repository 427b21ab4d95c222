/*
 * ARP (RFC 826): which Ethernet address has this IPv4 address?
 *
 * A small table, filled by asking: a datagram for an address not in it
 * waits in the entry (one at a time: a newer one replaces it, and the
 * older is dropped and counted) while a request is broadcast; the reply
 * fills the entry and sends the datagram.  Requests for our address are
 * answered, and teach us the asker's address on the way.  Entries never
 * expire (machines here keep their addresses); when the table is full the
 * entry used longest ago is replaced.
 *
 * Why not a static table: a machine's Ethernet address is the emulator's
 * (or the harness's) choice, not the kernel's, and asking costs one
 * exchange per peer, before any benchmark's timed loop.  No timer: an
 * unanswered request is sent again when the next datagram for the address
 * comes (TCP's retransmissions bring one), at most once per ARP_RETRY_NS.
 */
#include "net.h"

#define NARP          8
#define ARP_HLEN     28                 /* for IPv4 over Ethernet */
#define ARP_REQUEST   1
#define ARP_REPLY     2
#define ARP_RETRY_NS (100ull * 1000000) /* 100 ms between requests */

struct arpentry {
    uint32 ip;                          /* 0: unused */
    int resolved;
    uint8 mac[ETH_ALEN];
    struct nbuf *waiting;               /* a datagram for it, before resolved */
    uint64 asked;                       /* when the last request went out */
    uint32 used;                        /* arp_clock when last used: LRU */
};

static struct arpentry arptab[NARP];
static uint32 arp_clock;
static const uint8 broadcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static struct arpentry *lookup(uint32 ip)
{
    for (struct arpentry *e = arptab; e < &arptab[NARP]; e++)
        if (e->ip == ip)
            return e;
    return 0;
}

/* A fresh entry for ip: an unused one, else the least recently used. */
static struct arpentry *make(uint32 ip)
{
    struct arpentry *e, *old = arptab;
    for (e = arptab; e < &arptab[NARP]; e++) {
        if (!e->ip)
            break;
        if ((int32)(e->used - old->used) < 0)
            old = e;
    }
    if (e == &arptab[NARP]) {
        e = old;
        if (e->waiting) {
            nbuf_free(e->waiting);
            netstat.arp_dropped++;
        }
    }
    memset(e, 0, sizeof *e);
    e->ip = ip;
    e->used = ++arp_clock;
    return e;
}

static void send_arp(uint32 op, const uint8 *tha, uint32 tpa, const uint8 *dst)
{
    struct nbuf *b = nbuf_alloc();
    if (!b) {
        netstat.tx_nobuf++;
        return;
    }
    b->data = b->mem + NBUF_FRAME + ETH_HLEN;
    b->len = ARP_HLEN;
    uint8 *p = b->data;
    put16(p, 1);                        /* hardware: Ethernet */
    put16(p + 2, ETHERTYPE_IP);         /* protocol: IPv4 */
    p[4] = ETH_ALEN;
    p[5] = 4;
    put16(p + 6, op);
    memcpy(p + 8, netif->mac, ETH_ALEN);
    put32(p + 14, ip_addr);
    memcpy(p + 18, tha, ETH_ALEN);
    put32(p + 24, tpa);
    if (op == ARP_REQUEST)
        netstat.arp_requests++;
    else
        netstat.arp_replies++;
    ether_output(b, dst, ETHERTYPE_ARP);
}

void arp_input(struct nbuf *b)
{
    const uint8 *p = b->data;
    if (b->len < ARP_HLEN || get16(p) != 1 || get16(p + 2) != ETHERTYPE_IP ||
        p[4] != ETH_ALEN || p[5] != 4) {
        netstat.arp_bad++;
        nbuf_free(b);
        return;
    }
    uint32 op = get16(p + 6), spa = get32(p + 14), tpa = get32(p + 24);
    uint8 sha[ETH_ALEN];
    memcpy(sha, p + 8, ETH_ALEN);
    nbuf_free(b);
    if ((op != ARP_REQUEST && op != ARP_REPLY) || spa == 0 || spa == IP_BROADCAST ||
        (sha[0] & 1)) {
        netstat.arp_bad++;
        return;
    }
    netstat.arp_in++;
    /* Learn the sender if we know it already, or if it asks us. */
    struct arpentry *e = lookup(spa);
    if (!e && tpa == ip_addr)
        e = make(spa);
    if (e) {
        memcpy(e->mac, sha, ETH_ALEN);
        e->resolved = 1;
        if (e->waiting) {
            struct nbuf *w = e->waiting;
            e->waiting = 0;
            ether_output(w, e->mac, ETHERTYPE_IP);
        }
    }
    if (op == ARP_REQUEST && tpa == ip_addr)
        send_arp(ARP_REPLY, sha, spa, sha);
}

/* Send an IP datagram (b: IP header first) to the station nexthop.  Takes b. */
int arp_output(struct nbuf *b, uint32 nexthop)
{
    if (nexthop == IP_BROADCAST || nexthop == (ip_addr | ~ip_netmask))
        return ether_output(b, broadcast, ETHERTYPE_IP);
    struct arpentry *e = lookup(nexthop);
    if (!e)
        e = make(nexthop);
    e->used = ++arp_clock;
    if (e->resolved)
        return ether_output(b, e->mac, ETHERTYPE_IP);
    if (e->waiting) {
        nbuf_free(e->waiting);
        netstat.arp_dropped++;
    }
    e->waiting = b;
    uint64 now = arch_time_ns();
    if (!e->asked || time_reached(now, e->asked + ARP_RETRY_NS)) {
        e->asked = now;
        static const uint8 unknown[ETH_ALEN];
        send_arp(ARP_REQUEST, unknown, nexthop, broadcast);
    }
    return 0;
}
