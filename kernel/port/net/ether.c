/*
 * Ethernet: check a received frame and pass it up by its type; put the
 * header on one to send.
 *
 * A frame is dropped, and counted, when it is shorter than its header
 * (eth_runt), longer than the largest Ethernet frame (eth_oversize: the
 * NIC's receive buffers are larger on purpose, so that it reaches us), not
 * for us (eth_not_mine: another station's address, or a multicast one; the
 * NIC is promiscuous), or neither IPv4 nor ARP (eth_unknown_type).  A frame
 * shorter than Ethernet's 60 bytes is accepted: a virtual NIC need not pad.
 * Frames we send are padded to 60 bytes, as a real Ethernet needs.
 */
#include "net.h"

static const uint8 broadcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

void ether_input(struct nbuf *b)
{
    if (b->len < ETH_HLEN) {
        netstat.eth_runt++;
        goto drop;
    }
    if (b->len > ETH_FRAME_MAX) {
        netstat.eth_oversize++;
        goto drop;
    }
    const uint8 *h = b->data;
    if (memcmp(h, netif->mac, ETH_ALEN) != 0 && memcmp(h, broadcast, ETH_ALEN) != 0) {
        netstat.eth_not_mine++;
        goto drop;
    }
    uint32 type = get16(h + 12);
    nbuf_pull(b, ETH_HLEN);
    if (type == ETHERTYPE_IP) {
        ip_input(b);
        return;
    }
    if (type == ETHERTYPE_ARP) {
        arp_input(b);
        return;
    }
    netstat.eth_unknown_type++;
drop:
    nbuf_free(b);
}

/* Put the header on (dst: the next station's address) and send.  Takes b. */
int ether_output(struct nbuf *b, const uint8 *dst, uint32 type)
{
    uint8 *h = nbuf_push(b, ETH_HLEN);
    memcpy(h, dst, ETH_ALEN);
    memcpy(h + ETH_ALEN, netif->mac, ETH_ALEN);
    put16(h + 12, type);
    if (b->len < ETH_FRAME_MIN) {
        memset(b->data + b->len, 0, ETH_FRAME_MIN - b->len);
        b->len = ETH_FRAME_MIN;
    }
    netstat.tx_frames++;
    netstat.tx_bytes += b->len;
    return netif->transmit(netif, b);
}
