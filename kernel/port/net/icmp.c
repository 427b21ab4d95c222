/*
 * ICMP (RFC 792): the kernel answers echo requests itself, as every IP
 * host does: the "kernel-level echo" of the network benchmarks, a round
 * trip that crosses no protection domain on the far side.  And an ICMP
 * socket (socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP), Linux's "ping
 * socket") sends echo requests and receives the replies: the kernel puts
 * the socket's identifier in each request it sends and gives each reply
 * to the socket whose identifier it carries.  Other messages are counted
 * and dropped; we send none but echo replies.
 */
#include "net.h"
#include "sock.h"

#define ICMP_ECHOREPLY 0
#define ICMP_ECHO      8

void icmp_input(struct nbuf *b, uint32 src, uint32 dst)
{
    uint8 *h = b->data;
    if (b->len < ICMP_HLEN || inet_fold(inet_sum(h, b->len, 0)) != 0) {
        netstat.icmp_bad++;
        nbuf_free(b);
        return;
    }
    netstat.icmp_in++;
    if (h[0] == ICMP_ECHO && h[1] == 0 && ip_is_local(dst)) {
        /* Answer in the same buffer: same identifier, sequence and data. */
        h[0] = ICMP_ECHOREPLY;
        put16(h + 2, 0);
        put16(h + 2, inet_fold(inet_sum(h, b->len, 0)));
        netstat.icmp_echo_replies++;
        ip_output(b, dst, src, IPPROTO_ICMP);
        return;
    }
    if (h[0] == ICMP_ECHOREPLY) {
        struct socket *so = sock_lookup_dgram(IPPROTO_ICMP, dst, get16(h + 4), src, 0);
        if (so) {
            sock_deliver(so, b, src, 0);
            return;
        }
    }
    nbuf_free(b);
}

/* An ICMP socket sends n bytes from user memory, an echo request with
 * its header, to dst.  The socket's identifier replaces the request's. */
int icmp_send(struct socket *so, uaddr ubuf, uint32 n, uint32 dst)
{
    if (n < ICMP_HLEN)
        return -EINVAL;
    if (n > ETH_MTU - IP_HLEN)                 /* one frame: we never fragment */
        return -EMSGSIZE;
    int r = ip_route(dst);
    if (r < 0)
        return r;
    struct nbuf *b = nbuf_alloc();
    if (!b) {
        netstat.tx_nobuf++;
        return -ENOBUFS;
    }
    if (copyin(b->data, ubuf, n) < 0) {
        nbuf_free(b);
        return -EFAULT;
    }
    b->len = n;
    uint8 *h = b->data;
    if (h[0] != ICMP_ECHO || h[1] != 0) {
        nbuf_free(b);
        return -EINVAL;                        /* only echo requests */
    }
    put16(h + 2, 0);
    put16(h + 4, so->lport);
    put16(h + 2, inet_fold(inet_sum(h, n, 0)));
    r = ip_output(b, ip_source(dst), dst, IPPROTO_ICMP);
    return r < 0 ? r : (int)n;
}
