/*
 * UDP (RFC 768): datagrams to and from sockets by port.
 *
 * A datagram received is checked (its length against the IP datagram's,
 * its checksum if the sender computed one) and queued on the socket bound
 * to its port, up to UDP_QLEN of them; the datagram for a port no socket
 * has, or for a full queue, is dropped and counted.  A datagram sent is
 * at most UDP_MAXDATA bytes, one frame (ip.c: no fragments): larger ones
 * get EMSGSIZE.  The data goes from user memory straight into the packet
 * buffer, one copy, as it leaves it with one copy in recvfrom.
 */
#include "net.h"
#include "sock.h"

void udp_input(struct nbuf *b, uint32 src, uint32 dst)
{
    const uint8 *h = b->data;
    uint32 len = b->len >= UDP_HLEN ? get16(h + 4) : 0;
    if (len < UDP_HLEN || len > b->len) {
        netstat.udp_bad++;
        goto drop;
    }
    b->len = len;
    if (get16(h + 6) != 0 &&                   /* 0: the sender computed none */
        inet_fold(inet_sum(h, len, inet_pseudo(src, dst, IPPROTO_UDP, len))) != 0) {
        netstat.udp_bad++;
        goto drop;
    }
    netstat.udp_in++;
    uint32 sport = get16(h), dport = get16(h + 2);
    struct socket *so = sock_lookup_dgram(IPPROTO_UDP, dst, dport, src, sport);
    if (!so) {
        netstat.udp_no_port++;
        goto drop;
    }
    nbuf_pull(b, UDP_HLEN);
    sock_deliver(so, b, src, sport);
    return;
drop:
    nbuf_free(b);
}

int udp_send(struct socket *so, uaddr ubuf, uint32 n, uint32 dst, uint32 dport)
{
    if (n > UDP_MAXDATA)
        return -EMSGSIZE;
    if (dport == 0)
        return -EINVAL;
    int r = ip_route(dst);
    if (r < 0)
        return r;
    struct nbuf *b = nbuf_alloc();
    if (!b) {
        netstat.tx_nobuf++;
        return -ENOBUFS;
    }
    if (n && copyin(b->data, ubuf, n) < 0) {
        nbuf_free(b);
        return -EFAULT;
    }
    b->len = n;
    r = udp_output(so, b, dst, dport);
    return r < 0 ? r : (int)n;
}

/* The UDP header in front of b's payload, and on to IP.  0 or -errno; b
 * belongs to the layers below from here, sent or not. */
int udp_output(struct socket *so, struct nbuf *b, uint32 dst, uint32 dport)
{
    uint32 src = so->laddr ? so->laddr : ip_source(dst);
    uint8 *h = nbuf_push(b, UDP_HLEN);
    put16(h, so->lport);
    put16(h + 2, dport);
    put16(h + 4, b->len);
    put16(h + 6, 0);
    uint32 sum = inet_fold(inet_sum(h, b->len, inet_pseudo(src, dst, IPPROTO_UDP, b->len)));
    put16(h + 6, sum ? sum : 0xffff);          /* 0 would mean "none" */
    netstat.udp_out++;
    return ip_output(b, src, dst, IPPROTO_UDP);
}
