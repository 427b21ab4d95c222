/*
 * t_net: sockets behave like BSD's, over the loopback (127.0.0.1), so it
 * runs on any machine, with a network card or without.
 *
 *   - bad arguments get an errno, never a crash: EAFNOSUPPORT, EINVAL and
 *     EPROTONOSUPPORT from socket(); EBADF and ENOTSOCK for descriptors
 *     that are not open or not sockets; EFAULT for addresses and buffers
 *     nothing is mapped at (NULL, the kernel's half, an unmapped page);
 *     EINVAL for a short address or a negative length; EAFNOSUPPORT for a
 *     family not AF_INET; EADDRNOTAVAIL for an address not ours;
 *     EADDRINUSE for a port taken; EOPNOTSUPP, EISCONN, ENOTCONN,
 *     EDESTADDRREQ for calls the socket's kind or state forbids; EMSGSIZE
 *     for a datagram over the MTU; and netctl's EINVAL and EFAULT;
 *   - UDP: a datagram comes back whole, with its sender's address;
 *   - TCP: a connection to a closed port is refused (ECONNREFUSED); one to
 *     a listener is accepted, with the peer's address; 200 KB sent by a
 *     child arrive in order, byte for byte, then end of file; a peer that
 *     closes with data unread resets the connection (ECONNRESET);
 *   - ICMP: the kernel answers an echo request, same sequence and data;
 *   - select: a socket is readable when a datagram or a connection waits,
 *     not before; a connected stream is writable;
 *   - the packet buffers run out: datagrams sent faster than anyone takes
 *     them (the loopback delivers them only when the sender gives up the
 *     CPU) empty the pool, and sendto fails with ENOBUFS, counted, rather
 *     than waiting or crashing; once they are delivered (or dropped for a
 *     full queue) the pool is whole again.
 */
#include "test.h"
#include "socket.h"

#define BIG (200 * 1024)

static struct sockaddr_in loop_addr(int port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

#define SA(a) ((struct sockaddr *)(a))

/* Byte i of the big transfer: not periodic at any small power of two. */
static unsigned char pattern(uint32_t i)
{
    return (unsigned char)(i * 7 + (i >> 8) * 13 + (i >> 16));
}

/* select() with a zero timeout: is fd readable (write=0) or writable? */
static int ready(int fd, int write)
{
    fd_set s;
    struct timeval tv = { 0, 0 };
    FD_ZERO(&s);
    FD_SET(fd, &s);
    int n = write ? select(fd + 1, 0, &s, 0, &tv) : select(fd + 1, &s, 0, 0, &tv);
    return n == 1 && FD_ISSET(fd, &s);
}

/* ... and waiting up to a second for it. */
static int ready_within(int fd)
{
    fd_set s;
    struct timeval tv = { 1, 0 };
    FD_ZERO(&s);
    FD_SET(fd, &s);
    return select(fd + 1, &s, 0, 0, &tv) == 1 && FD_ISSET(fd, &s);
}

static void bad_arguments(void)
{
    test_errno("socket_family", socket(99, SOCK_STREAM, 0), EAFNOSUPPORT);
    test_errno("socket_type", socket(AF_INET, 99, 0), EINVAL);
    test_errno("socket_proto", socket(AF_INET, SOCK_STREAM, IPPROTO_UDP), EPROTONOSUPPORT);
    test_errno("socket_proto_dgram", socket(AF_INET, SOCK_DGRAM, 99), EPROTONOSUPPORT);

    struct sockaddr_in a = loop_addr(7000);
    test_errno("bind_ebadf", bind(25, SA(&a), sizeof a), EBADF);
    test_errno("bind_negative_fd", bind(-1, SA(&a), sizeof a), EBADF);
    test_errno("bind_enotsock", bind(0, SA(&a), sizeof a), ENOTSOCK);   /* the console */
    test_errno("accept_enotsock", accept(1, 0, 0), ENOTSOCK);
    test_errno("sendto_ebadf", sendto(30, "x", 1, 0, 0), EBADF);
    test_errno("recvfrom_enotsock", recvfrom(2, 0, 0, 0, 0), ENOTSOCK);

    int s = socket(AF_INET, SOCK_DGRAM, 0);
    if (s < 0) {
        test_fail("socket_dgram", "%s", strerror(errno));
        return;
    }
    static const uintptr_t bad[] = { 0, 0x80000000u, 0xfffff000u, 0x40000000u };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "bind_efault_%u", i);
        test_errno(name, bind(s, (struct sockaddr *)bad[i], sizeof a), EFAULT);
        snprintf(name, sizeof name, "sendto_efault_addr_%u", i);
        uintptr_t to = bad[i] ? bad[i] : 0x10;     /* NULL: "no address" */
        test_errno(name, sendto(s, "x", 1, (struct sockaddr *)to, sizeof a), EFAULT);
    }
    test_errno("bind_short", bind(s, SA(&a), sizeof a - 1), EINVAL);
    struct sockaddr_in f = a;
    f.sin_family = 99;
    test_errno("bind_family", bind(s, SA(&f), sizeof f), EAFNOSUPPORT);
    struct sockaddr_in far = a;
    far.sin_addr.s_addr = htonl(0xc0000201u);          /* 192.0.2.1: not ours */
    test_errno("bind_eaddrnotavail", bind(s, SA(&far), sizeof far), EADDRNOTAVAIL);
    test_errno("send_edestaddrreq", send(s, "x", 1, 0), EDESTADDRREQ);
    test_errno("send_flags", send(s, "x", 1, 1), EINVAL);
    test_errno("sendto_negative", sendto(s, "x", -1, SA(&a), sizeof a), EINVAL);
    static char big[1500];
    test_errno("sendto_emsgsize", sendto(s, big, 1473, SA(&a), sizeof a), EMSGSIZE);
    test_errno("listen_dgram", listen(s, 1), EOPNOTSUPP);
    test_errno("accept_dgram", accept(s, 0, 0), EOPNOTSUPP);
    test_errno("sendto_efault_buf", sendto(s, (void *)0x40000000, 16, SA(&a), sizeof a), EFAULT);
    close(s);

    int t = socket(AF_INET, SOCK_STREAM, 0);
    test_errno("send_enotconn", send(t, "x", 1, 0), ENOTCONN);
    test_errno("recv_enotconn", recv(t, big, 1, 0), ENOTCONN);
    test_errno("accept_not_listening", accept(t, 0, 0), EINVAL);
    test_errno("connect_unreachable", connect(t, SA(&far), sizeof far), ENETUNREACH);
    close(t);

    struct netstat st;
    test_errno("netctl_op", netctl(99, &st), EINVAL);
    test_errno("netctl_efault", netctl(NETCTL_STATS, (void *)0x80000000u), EFAULT);
}

static void addr_in_use(void)
{
    struct sockaddr_in a = loop_addr(7001);
    int u1 = socket(AF_INET, SOCK_DGRAM, 0), u2 = socket(AF_INET, SOCK_DGRAM, 0);
    test_check("bind_udp", bind(u1, SA(&a), sizeof a) == 0, "%s", strerror(errno));
    test_errno("bind_udp_eaddrinuse", bind(u2, SA(&a), sizeof a), EADDRINUSE);
    test_errno("bind_twice", bind(u1, SA(&a), sizeof a), EINVAL);
    int t1 = socket(AF_INET, SOCK_STREAM, 0), t2 = socket(AF_INET, SOCK_STREAM, 0);
    test_check("bind_tcp_same_port_as_udp", bind(t1, SA(&a), sizeof a) == 0, "%s",
               strerror(errno));
    test_errno("bind_tcp_eaddrinuse", bind(t2, SA(&a), sizeof a), EADDRINUSE);
    close(u1);
    close(u2);
    close(t1);
    close(t2);
    /* closed: the port is free again */
    int u3 = socket(AF_INET, SOCK_DGRAM, 0);
    test_check("bind_after_close", bind(u3, SA(&a), sizeof a) == 0, "%s", strerror(errno));
    close(u3);
}

static void udp(void)
{
    struct sockaddr_in a = loop_addr(7002);
    int srv = socket(AF_INET, SOCK_DGRAM, 0), cli = socket(AF_INET, SOCK_DGRAM, 0);
    if (srv < 0 || cli < 0 || bind(srv, SA(&a), sizeof a) < 0) {
        test_fail("udp_setup", "%s", strerror(errno));
        return;
    }
    test_check("select_udp_empty", !ready(srv, 0), "readable with nothing sent");
    int n = sendto(cli, "hello, udp", 10, SA(&a), sizeof a);
    test_check("udp_sendto", n == 10, "sendto returned %d: %s", n, strerror(errno));
    test_check("select_udp_readable", ready_within(srv), "not readable after a datagram");
    char buf[64];
    struct sockaddr_in from;
    int flen = sizeof from;
    n = recvfrom(srv, buf, sizeof buf, SA(&from), &flen);
    test_check("udp_recvfrom", n == 10 && memcmp(buf, "hello, udp", 10) == 0,
               "recvfrom returned %d", n);
    test_check("udp_from", flen == sizeof from && from.sin_family == AF_INET &&
               from.sin_addr.s_addr == htonl(INADDR_LOOPBACK) && from.sin_port != 0,
               "from family %d addr %x port %d len %d", from.sin_family,
               (unsigned)ntohl(from.sin_addr.s_addr), ntohs(from.sin_port), flen);
    /* reply to the sender's address: the echo */
    n = sendto(srv, buf, 10, SA(&from), flen);
    int m = recv(cli, buf, sizeof buf, 0);
    test_check("udp_reply", n == 10 && m == 10, "sent %d got %d", n, m);
    /* a bad buffer or address pointer loses nothing but the datagram */
    sendto(cli, "again", 5, SA(&a), sizeof a);
    test_errno("recvfrom_efault_len", recvfrom(srv, buf, sizeof buf, SA(&from),
                                               (int *)0x40000000), EFAULT);
    test_errno("recvfrom_efault_buf", recvfrom(srv, (void *)0x40000000, 5, 0, 0), EFAULT);
    test_check("select_udp_drained", !ready(srv, 0), "still readable");
    /* a connected datagram socket: write and read */
    test_check("udp_connect", connect(cli, SA(&a), sizeof a) == 0, "%s", strerror(errno));
    test_check("udp_write", write(cli, "abc", 3) == 3, "%s", strerror(errno));
    test_check("udp_read", read(srv, buf, sizeof buf) == 3, "%s", strerror(errno));
    close(srv);
    close(cli);
}

static void refused(void)
{
    struct sockaddr_in a = loop_addr(7003);
    int t = socket(AF_INET, SOCK_STREAM, 0);
    test_errno("connect_econnrefused", connect(t, SA(&a), sizeof a), ECONNREFUSED);
    close(t);
}

/* A child sends BIG bytes over a connection; the parent checks them. */
static void tcp(void)
{
    struct sockaddr_in a = loop_addr(7004);
    int l = socket(AF_INET, SOCK_STREAM, 0);
    if (l < 0 || bind(l, SA(&a), sizeof a) < 0 || listen(l, 2) < 0) {
        test_fail("tcp_setup", "%s", strerror(errno));
        return;
    }
    test_check("select_listen_empty", !ready(l, 0), "readable with no connection");
    int pid = fork();
    if (pid == 0) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(c, SA(&a), sizeof a) < 0)
            exit(1);
        if (connect(c, SA(&a), sizeof a) != -1 || errno != EISCONN)
            exit(2);
        static unsigned char buf[3000];        /* odd size: sends straddle segments */
        for (uint32_t i = 0; i < BIG; ) {
            uint32_t n = BIG - i < sizeof buf ? BIG - i : sizeof buf;
            for (uint32_t j = 0; j < n; j++)
                buf[j] = pattern(i + j);
            int w = send(c, buf, (int)n, 0);
            if (w <= 0)
                exit(3);
            i += (uint32_t)w;
        }
        close(c);
        exit(0);
    }
    test_check("select_listen_ready", ready_within(l), "no connection to accept");
    struct sockaddr_in peer;
    int plen = sizeof peer;
    int s = accept(l, SA(&peer), &plen);
    test_check("tcp_accept", s >= 0, "%s", strerror(errno));
    test_check("tcp_accept_addr", plen == sizeof peer &&
               peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK) && ntohs(peer.sin_port) >= 49152,
               "peer %x:%d", (unsigned)ntohl(peer.sin_addr.s_addr), ntohs(peer.sin_port));
    test_check("select_stream_writable", ready(s, 1), "a connected stream is not writable");
    static unsigned char buf[1000];
    uint32_t got = 0, wrong = 0;
    int n;
    while ((n = recv(s, buf, sizeof buf, 0)) > 0) {
        for (int j = 0; j < n; j++)
            if (buf[j] != pattern(got + (uint32_t)j) && wrong++ == 0)
                test_fail("tcp_data", "byte %u is %u, wanted %u", (unsigned)(got + j), buf[j],
                          pattern(got + (uint32_t)j));
        got += (uint32_t)n;
    }
    test_check("tcp_eof", n == 0, "recv returned %d: %s", n, strerror(errno));
    test_check("tcp_bytes", got == BIG && wrong == 0, "got %u bytes, %u wrong", (unsigned)got,
               (unsigned)wrong);
    int status = -1;
    wait(&status);
    test_check("tcp_child", status == 0, "the sender exited %d", status);
    close(s);
    close(l);
}

/* The server closes without reading: the client's connection is reset. */
static void reset(void)
{
    struct sockaddr_in a = loop_addr(7005);
    int l = socket(AF_INET, SOCK_STREAM, 0);
    if (l < 0 || bind(l, SA(&a), sizeof a) < 0 || listen(l, 1) < 0) {
        test_fail("reset_setup", "%s", strerror(errno));
        return;
    }
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(c, SA(&a), sizeof a) < 0) {
        test_fail("reset_connect", "%s", strerror(errno));
        return;
    }
    int s = accept(l, 0, 0);
    send(c, "unread", 6, 0);
    sleep(10000);                              /* let it arrive */
    close(s);                                  /* data unread: RST */
    char buf[8];
    int n = recv(c, buf, sizeof buf, 0);
    test_check("recv_econnreset", n == -1 && errno == ECONNRESET, "recv returned %d errno %d",
               n, errno);
    close(c);
    close(l);
}

static void echo(void)
{
    int s = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
    if (s < 0) {
        test_fail("icmp_socket", "%s", strerror(errno));
        return;
    }
    struct sockaddr_in a = loop_addr(0);
    unsigned char req[64], rep[64];
    memset(req, 0, sizeof req);
    req[0] = 8;                                /* echo request */
    req[6] = 0x12, req[7] = 0x34;              /* sequence */
    memcpy(req + 8, "ping", 4);
    test_check("icmp_send", sendto(s, req, sizeof req, SA(&a), sizeof a) == sizeof req, "%s",
               strerror(errno));
    int n = recv(s, rep, sizeof rep, 0);
    test_check("icmp_reply", n == sizeof req && rep[0] == 0 && rep[6] == 0x12 && rep[7] == 0x34 &&
               memcmp(rep + 8, "ping", 4) == 0, "recv returned %d type %d", n, rep[0]);
    req[0] = 13;                               /* a timestamp request: not ours to send */
    test_errno("icmp_not_echo", sendto(s, req, sizeof req, SA(&a), sizeof a), EINVAL);
    test_errno("icmp_short", sendto(s, req, 4, SA(&a), sizeof a), EINVAL);
    close(s);
}

static void pool(void)
{
    struct sockaddr_in a = loop_addr(7006);
    int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0);
    if (r < 0 || s < 0 || bind(r, SA(&a), sizeof a) < 0) {
        test_fail("pool_setup", "%s", strerror(errno));
        return;
    }
    struct netconf c0, c1;
    struct netstat s0, s1;
    netctl(NETCTL_CONF, &c0);
    netctl(NETCTL_STATS, &s0);
    int sent = 0, n;
    while ((n = sendto(s, "x", 1, SA(&a), sizeof a)) == 1 && sent < 1000)
        sent++;
    test_check("pool_enobufs", n == -1 && errno == ENOBUFS && sent > 0,
               "after %d datagrams sendto returned %d errno %d", sent, n, errno);
    sleep(10000);                              /* the loopback delivers them */
    netctl(NETCTL_CONF, &c1);
    netctl(NETCTL_STATS, &s1);
    char buf[4];
    int got = 0;
    while (ready(r, 0) && recv(r, buf, sizeof buf, 0) == 1)
        got++;
    /* each one queued (and now received) or dropped for a full queue */
    test_check("pool_counted", s1.tx_nobuf == s0.tx_nobuf + 1 && got > 0 &&
               s1.udp_queue_full - s0.udp_queue_full + (unsigned)got == (unsigned)sent,
               "tx_nobuf %u -> %u, udp_queue_full %u -> %u, %d received of %d sent",
               s0.tx_nobuf, s1.tx_nobuf, s0.udp_queue_full, s1.udp_queue_full, got, sent);
    netctl(NETCTL_CONF, &c1);
    test_check("pool_whole", c1.nbufs_free == c0.nbufs_free, "%u buffers free, %u before",
               c1.nbufs_free, c0.nbufs_free);
    test_check("pool_recovers", sendto(s, "x", 1, SA(&a), sizeof a) == 1, "%s", strerror(errno));
    close(r);
    close(s);
}

int main(void)
{
    test_start("t_net");
    bad_arguments();
    addr_in_use();
    udp();
    refused();
    tcp();
    reset();
    echo();
    pool();
    return test_summary();
}
