/*
 * netbench: the network benchmarks of seed 002's Network section, a
 * client of netd (guests/include/netbench.h) on the machine at ADDR:
 *
 *   udp-rtt      round trip of 64 bytes over UDP: sendto, recvfrom
 *   tcp-rtt      round trip of 64 bytes over a TCP connection: send, recv
 *   icmp-rtt     round trip of a 64-byte ICMP echo, which the far kernel
 *                answers itself: no process, no protection-domain
 *                crossing on that side
 *   tcp-bulk     a bulk transfer to the sink: bandwidth (bytes=BLOCK per
 *                iteration); the sink checks every byte, and the line
 *                says how many were wrong or missing (wrong=)
 *   tcp-connect  connection setup and teardown: socket, connect, the
 *                server's close (end of file), close
 *
 *   netbench [-n N] [-c CASE]... ADDR
 *
 * -n: iterations of each timed loop (round trips, connections; blocks of
 * the bulk transfer), default per case below; -c: only these cases.
 * Each case warms up first (ARP, the first page faults), then times its
 * loop and an empty loop of the same count, and prints a RESULT line
 * (docs/protocol.md), bench=net.  A case that fails prints why on the
 * error output and the program exits 1.
 */
#include "socket.h"
#include "bench.h"
#include "netbench.h"

#define MSG        64
#define BLOCK    8192
#define WARMUP     10
_Static_assert(NET_PATTERN_BYTES % BLOCK == 0, "whole blocks tile the pattern: netbench.h");

static struct sockaddr_in server;
static uint32_t n_arg;                 /* -n, 0: each case's default */
static unsigned char buf[BLOCK];

#define SA(a) ((struct sockaddr *)(a))

static void fail(const char *c, const char *what)
{
    fprintf(2, "netbench: %s: %s: %s\n", c, what, strerror(errno));
    exit(1);
}

static struct sockaddr_in at(int port)
{
    struct sockaddr_in a = server;
    a.sin_port = htons((uint16_t)port);
    return a;
}

/* The spans are locals, copied out at the end, never timed through a
 * pointer: the VAX's GCC (12.2) takes the second clock read through a
 * pointer's span for the first and stores 0 (bench_span_end's ns - s->ns,
 * s a pointer argument: it keeps the first call's r0:r1 for the second's). */
static void empty_loop(struct bench_span *e, int k, uint32_t n)
{
    struct bench_span s;
    bench_span_begin(&s, BENCH_EMPTY(k));
    for (uint32_t i = 0; i < n; i++)
        asm volatile("" : : "r"(i));
    bench_span_end(&s, BENCH_EMPTY(k));
    *e = s;
}

static void report(const char *c, uint32_t n, uint32_t bytes, struct bench_span *t,
                   struct bench_span *e, const char *extra)
{
    struct bench_result r = {
        .bench = "net", .casename = c, .iters = n, .bytes = bytes,
        .ns = t->ns, .loop_ns = e->ns, .insns = t->insns, .loop_insns = e->insns,
        .extra = extra,
    };
    bench_report(&r);
}

/* All n bytes, or -1 (a stream's send may take part of them, when the
 * connection breaks on the way: the next one says why). */
static int send_all(int s, const void *p, int n)
{
    for (int done = 0; done < n; ) {
        int w = send(s, (const char *)p + done, n - done, 0);
        if (w <= 0)
            return -1;
        done += w;
    }
    return n;
}

/* One round trip over a connected socket s: MSG bytes out, MSG back. */
static int roundtrip(int s)
{
    if (send_all(s, buf, MSG) != MSG)
        return -1;
    for (int got = 0; got < MSG; ) {
        int n = recv(s, buf + got, MSG - got, 0);
        if (n <= 0)
            return -1;
        got += n;
    }
    return 0;
}

static void rtt(int k, const char *c, int type, int port)
{
    uint32_t n = n_arg ? n_arg : 1000;
    int s = socket(AF_INET, type, 0);
    struct sockaddr_in a = at(port);
    if (s < 0 || connect(s, SA(&a), sizeof a) < 0)
        fail(c, "connect");
    for (int i = 0; i < WARMUP; i++)
        if (roundtrip(s) < 0)
            fail(c, "warm-up");
    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        if (roundtrip(s) < 0)
            fail(c, "round trip");
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));
    empty_loop(&e, k, n);
    close(s);
    report(c, n, 0, &t, &e, 0);
}

/* An echo request of MSG bytes, sequence seq; its reply checked. */
static int ping(int s, uint32_t seq)
{
    buf[0] = 8;                        /* echo request */
    buf[1] = 0;
    buf[6] = (unsigned char)(seq >> 8);
    buf[7] = (unsigned char)seq;
    if (send(s, buf, MSG, 0) != MSG)
        return -1;
    int n = recv(s, buf, MSG, 0);
    if (n != MSG || buf[0] != 0 || buf[6] != (unsigned char)(seq >> 8) ||
        buf[7] != (unsigned char)seq)
        return -1;
    return 0;
}

static void icmp(int k)
{
    const char *c = "icmp-rtt";
    uint32_t n = n_arg ? n_arg : 1000;
    int s = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
    if (s < 0 || connect(s, SA(&server), sizeof server) < 0)
        fail(c, "socket");
    memset(buf, 0x5a, MSG);
    for (uint32_t i = 0; i < WARMUP; i++)
        if (ping(s, i) < 0)
            fail(c, "warm-up");
    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        if (ping(s, i) < 0)
            fail(c, "echo");
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));
    empty_loop(&e, k, n);
    close(s);
    report(c, n, 0, &t, &e, 0);
}

/* The bytes the sink expects, made before any timing, n blocks of them or
 * the pattern's period if that is less (it repeats: netbench.h):
 * made inside the timed loop and subtracted with an empty loop that made
 * them too, their cost was taken out of a time in which the wire kept
 * sending (the CPU makes a block while the last one's segments are on
 * the wire), and a wire-bound transfer came out faster than the wire
 * (x86 pc-p5: 5.08 ms per 8 KB against the wire's 6.90; ds3100-riscv at
 * 5 Mb/s: 0.671 MB/s against the wire's 0.593). */
static unsigned char *bulk_data(const char *c, uint32_t n)
{
    uint32_t size = n < NET_PATTERN_BYTES / BLOCK ? n * BLOCK : NET_PATTERN_BYTES;
    unsigned char *d = sbrk((int)size);
    if (d == (unsigned char *)-1)
        fail(c, "sbrk");
    for (uint32_t i = 0; i < size; i++)
        d[i] = net_pattern(i);
    return d;
}

/* n blocks of BLOCK bytes of data to the sink; its answer, the bytes wrong. */
static uint32_t bulk_once(const char *c, const unsigned char *data, uint32_t n,
                          struct bench_span *t, int k)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = at(NET_PORT_SINK);
    if (s < 0 || connect(s, SA(&a), sizeof a) < 0)
        fail(c, "connect");
    uint32_t total = n * BLOCK, len = htonl(total), wrong;
    struct bench_span span;                        /* a local: empty_loop says why */
    if (t)
        bench_span_begin(&span, BENCH_TIMED(k));
    if (send_all(s, &len, 4) != 4)
        fail(c, "send");
    for (uint32_t i = 0; i < n; i++)
        if (send_all(s, data + i * BLOCK % NET_PATTERN_BYTES, BLOCK) != BLOCK)
            fail(c, "send");
    for (int got = 0; got < 4; ) {
        int r = recv(s, (char *)&wrong + got, 4 - got, 0);
        if (r <= 0)
            fail(c, "the sink's answer");
        got += r;
    }
    if (t) {
        bench_span_end(&span, BENCH_TIMED(k));
        *t = span;
    }
    close(s);
    return ntohl(wrong);
}

static void bulk(int k)
{
    const char *c = "tcp-bulk";
    uint32_t n = n_arg ? n_arg : 128;              /* 1 MB */
    const unsigned char *data = bulk_data(c, n);
    if (bulk_once(c, data, 1, 0, k) != 0)
        fail(c, "the warm-up's bytes were wrong");
    struct bench_span t, e;
    uint32_t wrong = bulk_once(c, data, n, &t, k);
    empty_loop(&e, k, n);
    char extra[32];
    snprintf(extra, sizeof extra, "wrong=%u", (unsigned)wrong);
    report(c, n, BLOCK, &t, &e, extra);
    if (wrong) {
        fprintf(2, "netbench: tcp-bulk: %u bytes wrong or missing\n", (unsigned)wrong);
        exit(1);
    }
}

static int connect_once(void)
{
    struct sockaddr_in a = at(NET_PORT_ACCEPT);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0 || connect(s, SA(&a), sizeof a) < 0)
        return -1;
    int r = recv(s, buf, 1, 0);                    /* the server's close */
    close(s);
    return r == 0 ? 0 : -1;
}

static void connection(int k)
{
    const char *c = "tcp-connect";
    uint32_t n = n_arg ? n_arg : 100;
    for (int i = 0; i < WARMUP; i++)
        if (connect_once() < 0)
            fail(c, "warm-up");
    struct bench_span t, e;
    bench_span_begin(&t, BENCH_TIMED(k));
    for (uint32_t i = 0; i < n; i++) {
        if (connect_once() < 0)
            fail(c, "connection");
        asm volatile("" : : "r"(i));
    }
    bench_span_end(&t, BENCH_TIMED(k));
    empty_loop(&e, k, n);
    report(c, n, 0, &t, &e, 0);
}

static const char *const cases[] = { "udp-rtt", "tcp-rtt", "icmp-rtt", "tcp-bulk", "tcp-connect" };
#define NCASES (sizeof cases / sizeof cases[0])

static void usage(void)
{
    fprintf(2, "usage: netbench [-n N] [-c udp-rtt|tcp-rtt|icmp-rtt|tcp-bulk|tcp-connect]... ADDR\n");
    exit(2);
}

int main(int argc, char *argv[])
{
    int want[NCASES] = { 0 }, any = 0;
    const char *addr = 0;
    for (int i = 1; i < argc; i++) {
        if (BENCH_ARG_N(argc, argv, i)) {
            n_arg = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
            unsigned j;
            for (j = 0; j < NCASES && strcmp(argv[i + 1], cases[j]) != 0; j++)
                ;
            if (j == NCASES)
                usage();
            want[j] = any = 1;
            i++;
        } else if (!addr && argv[i][0] != '-') {
            addr = argv[i];
        } else {
            usage();
        }
    }
    if (!addr)
        usage();
    memset(&server, 0, sizeof server);
    server.sin_family = AF_INET;
    if (!inet_aton(addr, &server.sin_addr)) {
        fprintf(2, "netbench: %s: not an address like 10.0.0.1\n", addr);
        return 2;
    }
    memset(buf, 0xa5, sizeof buf);
    for (unsigned j = 0; j < NCASES; j++) {
        if (any && !want[j])
            continue;
        int k = (int)j + 1;                        /* region ids: one pair per case */
        switch (j) {
        case 0: rtt(k, cases[j], SOCK_DGRAM, NET_PORT_ECHO); break;
        case 1: rtt(k, cases[j], SOCK_STREAM, NET_PORT_ECHO); break;
        case 2: icmp(k); break;
        case 3: bulk(k); break;
        case 4: connection(k); break;
        }
    }
    return 0;
}
