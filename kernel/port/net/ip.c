/*
 * IPv4 (RFC 791): check a received datagram and pass it to its protocol;
 * put the header on one to send and route it: to the loopback (127.0.0.0/8
 * and our own address), or to a station on the NIC's network.  There is
 * no gateway: a machine reaches the machines on its wire, which is all an
 * experiment here has.
 *
 * No fragments.  Every datagram we send fits in one frame: UDP refuses a
 * larger one (EMSGSIZE), TCP's segments are at most TCP_MSS, ICMP's
 * echoes are limited like UDP's.  So we never fragment, and a fragment
 * that arrives is dropped and counted (ip_fragment) rather than
 * reassembled.  Received options are skipped; we send none.
 *
 * The address: 10.0.0.N, N the last byte of the NIC's Ethernet address
 * (netif.c), netmask 255.255.255.0; 127.0.0.1 always.
 *
 * The loopback: a datagram for ourselves is queued and delivered by the
 * network's kernel process (netproc.c), not at once: delivering it from inside ip_output would let a protocol
 * answer itself (TCP's ACK of its own segment) before the first call has
 * returned.
 */
#include "net.h"

uint32 ip_addr, ip_netmask;
static uint32 ip_id;
static struct nbufq loopq;

/* The Internet checksum (RFC 1071): the ones' complement sum of 16-bit
 * big-endian words, a trailing odd byte padded with zero.  Partial sums
 * add up (n even except for the last piece); inet_fold ends one.
 *
 * It runs over every byte sent and received, so it sums the words as the
 * machine loads them, four at a time, and turns the folded sum into the
 * network's order at the end: a ones' complement sum of byte-swapped
 * words is the byte-swapped sum (RFC 1071, "byte order independence"), so
 * this is a swap on a little-endian machine and nothing on a big-endian
 * one.  Packets start on even addresses here; an odd one is summed a
 * byte at a time. */
static uint32 swap_if_little(uint32 v)
{
    const union { uint16 v; uint8 b[2]; } one = { 1 };
    return one.b[0] ? ((v & 0xff) << 8) | (v >> 8) : v;
}

uint32 inet_sum(const uint8 *p, uint32 n, uint32 sum)
{
    if ((uintptr)p & 1) {
        for (; n >= 2; p += 2, n -= 2)
            sum += (uint32)p[0] << 8 | p[1];
    } else {
        const uint16 *w = (const uint16 *)p;
        uint32 s = 0;                      /* < 2^32: n is at most a frame */
        for (; n >= 8; w += 4, n -= 8)
            s += (uint32)w[0] + w[1] + w[2] + w[3];
        for (; n >= 2; w++, n -= 2)
            s += *w;
        s = (s & 0xffff) + (s >> 16);
        s = (s & 0xffff) + (s >> 16);
        sum += swap_if_little(s);
        p = (const uint8 *)w;
    }
    if (n)
        sum += (uint32)p[0] << 8;
    return sum;
}

uint32 inet_fold(uint32 sum)
{
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return ~sum & 0xffff;
}

/* The pseudo-header UDP and TCP include in their checksums. */
uint32 inet_pseudo(uint32 src, uint32 dst, uint32 proto, uint32 len)
{
    return (src >> 16) + (src & 0xffff) + (dst >> 16) + (dst & 0xffff) + proto + len;
}

int ip_is_local(uint32 a)
{
    return IP_LOOPBACK(a) || (ip_addr && a == ip_addr);
}

int ip_route(uint32 dst)
{
    if (ip_is_local(dst))
        return 0;
    if (!netif || !ip_addr || dst == 0 || ((dst ^ ip_addr) & ip_netmask) != 0) {
        netstat.ip_no_route++;
        return -ENETUNREACH;
    }
    return 0;
}

uint32 ip_source(uint32 dst)
{
    return IP_LOOPBACK(dst) ? dst : ip_addr;
}

void ip_input(struct nbuf *b)
{
    const uint8 *h = b->data;
    uint32 hlen = (h[0] & 0x0f) * 4;
    if (b->len < IP_HLEN || (h[0] >> 4) != 4 || hlen < IP_HLEN || hlen > b->len ||
        get16(h + 2) < hlen || get16(h + 2) > b->len) {
        netstat.ip_bad_header++;
        goto drop;
    }
    if (inet_fold(inet_sum(h, hlen, 0)) != 0) {
        netstat.ip_bad_checksum++;
        goto drop;
    }
    if (get16(h + 6) & 0x3fff) {               /* more fragments, or an offset */
        netstat.ip_fragment++;
        goto drop;
    }
    uint32 src = get32(h + 12), dst = get32(h + 16);
    uint32 bcast = ip_addr | ~ip_netmask;
    if (!ip_is_local(dst) && dst != IP_BROADCAST && !(ip_addr && dst == bcast)) {
        netstat.ip_not_mine++;
        goto drop;
    }
    uint32 proto = h[9];
    b->len = get16(h + 2);                     /* without the frame's padding */
    nbuf_pull(b, hlen);
    netstat.ip_in++;
    switch (proto) {
    case IPPROTO_ICMP: icmp_input(b, src, dst); return;
    case IPPROTO_UDP:  udp_input(b, src, dst);  return;
    case IPPROTO_TCP:  tcp_input(b, src, dst);  return;
    }
    netstat.ip_unknown_proto++;
drop:
    nbuf_free(b);
}

/* Put the IP header in front of b's payload and send it.  Takes b.
 * 0, or -ENETUNREACH, -EMSGSIZE, -ENOBUFS. */
int ip_output(struct nbuf *b, uint32 src, uint32 dst, uint32 proto)
{
    int r = ip_route(dst);
    if (r == 0 && b->len + IP_HLEN > ETH_MTU)
        r = -EMSGSIZE;                         /* a caller's bug: we never fragment */
    if (r < 0) {
        nbuf_free(b);
        return r;
    }
    uint8 *h = nbuf_push(b, IP_HLEN);
    h[0] = 0x45;                               /* version 4, 5 words */
    h[1] = 0;
    put16(h + 2, b->len);
    put16(h + 4, ip_id++);
    put16(h + 6, 0x4000);                      /* don't fragment */
    h[8] = 64;                                 /* time to live */
    h[9] = (uint8)proto;
    put16(h + 10, 0);
    put32(h + 12, src);
    put32(h + 16, dst);
    put16(h + 10, inet_fold(inet_sum(h, IP_HLEN, 0)));
    netstat.ip_out++;
    if (ip_is_local(dst)) {
        if (!netproc_kick()) {                 /* no socket yet: nobody to */
            nbuf_free(b);                      /* deliver it, nobody wants it */
            return -ENETUNREACH;
        }
        netstat.loop_frames++;
        nbufq_put(&loopq, b);
        return 0;
    }
    return arp_output(b, dst);
}

/* netproc.c: deliver what the loopback holds, including what delivering
 * it sends.  How many datagrams that was. */
int loop_deliver(void)
{
    struct nbuf *b;
    int n = 0;
    for (; (b = nbufq_get(&loopq)) != 0; n++)
        ip_input(b);
    return n;
}
