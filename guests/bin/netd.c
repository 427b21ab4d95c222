/*
 * netd: the server the network benchmarks (netbench) talk to, one
 * process serving every service at once from one select() loop
 * (guests/include/netbench.h): UDP and TCP echo, the TCP sink that checks
 * a bulk transfer byte by byte, and a port that accepts a connection and
 * closes it at once.
 *
 *   netd          serve until killed (Ctrl-C), or
 *   netd -n N     until N connections to the sink have finished
 *   netd -hold N  also bind N UDP ports from NET_PORT_HOLD up, and never
 *                 read them (netbench.h)
 *
 * It prints `netd: ready` once every socket is bound and listening, and
 * for each bulk transfer a line
 *   netd: sink bytes=1048576 wrong=0
 * (bytes received, bytes wrong or missing).
 */
#include "socket.h"
#include "netbench.h"

#define MAXCONN 16

enum { ECHO, SINK };

struct conn {
    int fd;                     /* -1: unused */
    int kind;
    uint32_t want, got, wrong;  /* sink: length announced, bytes so far, wrong */
    int header;                 /* sink: bytes of the length read so far */
    unsigned char len[4];
};

static struct conn conns[MAXCONN];
static unsigned char buf[8192];

static void die(const char *what)
{
    fprintf(2, "netd: %s: %s\n", what, strerror(errno));
    exit(1);
}

static int listener(int port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, SOMAXCONN) < 0)
        die("listen");
    return s;
}

static void add(int fd, int kind)
{
    for (int i = 0; i < MAXCONN; i++)
        if (conns[i].fd < 0) {
            memset(&conns[i], 0, sizeof conns[i]);
            conns[i].fd = fd;
            conns[i].kind = kind;
            return;
        }
    close(fd);                  /* too many: refuse by closing */
}

/* The sink: the length first, then the bytes, each checked.  1 when the
 * transfer is over (the answer sent). */
static int sink(struct conn *c, const unsigned char *p, int n)
{
    while (n > 0 && c->header < 4) {
        c->len[c->header++] = *p++;
        n--;
        if (c->header == 4)
            c->want = (uint32_t)c->len[0] << 24 | (uint32_t)c->len[1] << 16 |
                      (uint32_t)c->len[2] << 8 | c->len[3];
    }
    for (int i = 0; i < n; i++, c->got++)
        if (c->got >= c->want || p[i] != net_pattern(c->got))
            c->wrong++;
    if (c->header < 4 || c->got < c->want)
        return 0;
    uint32_t answer = htonl(c->wrong);
    send(c->fd, &answer, 4, 0);
    printf("netd: sink bytes=%u wrong=%u\n", (unsigned)c->got, (unsigned)c->wrong);
    return 1;
}

int main(int argc, char *argv[])
{
    int limit = 0, sinks = 0, hold = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            limit = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-hold") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            hold = atoi(argv[++i]);
        } else {
            fprintf(2, "usage: netd [-n SINK_TRANSFERS] [-hold PORTS]\n");
            return 2;
        }
    }
    for (int i = 0; i < MAXCONN; i++)
        conns[i].fd = -1;

    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(NET_PORT_ECHO);
    int udp = socket(AF_INET, SOCK_DGRAM, 0);
    if (udp < 0 || bind(udp, (struct sockaddr *)&a, sizeof a) < 0)
        die("udp");
    int echo = listener(NET_PORT_ECHO), snk = listener(NET_PORT_SINK),
        acc = listener(NET_PORT_ACCEPT);
    for (int i = 0; i < hold; i++) {
        a.sin_port = htons((uint16_t)(NET_PORT_HOLD + i));
        int h = socket(AF_INET, SOCK_DGRAM, 0);
        if (h < 0 || bind(h, (struct sockaddr *)&a, sizeof a) < 0)
            die("hold");
    }
    printf("netd: ready\n");

    while (!limit || sinks < limit) {
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(udp, &rd);
        FD_SET(echo, &rd);
        FD_SET(snk, &rd);
        FD_SET(acc, &rd);
        int nfds = acc + 1;
        for (int i = 0; i < MAXCONN; i++)
            if (conns[i].fd >= 0) {
                FD_SET(conns[i].fd, &rd);
                if (conns[i].fd + 1 > nfds)
                    nfds = conns[i].fd + 1;
            }
        if (select(nfds, &rd, 0, 0, 0) < 0)
            die("select");
        if (FD_ISSET(udp, &rd)) {
            struct sockaddr_in from;
            int flen = sizeof from;
            int n = recvfrom(udp, buf, sizeof buf, (struct sockaddr *)&from, &flen);
            if (n >= 0)
                sendto(udp, buf, n, (struct sockaddr *)&from, flen);
        }
        if (FD_ISSET(acc, &rd)) {
            int s = accept(acc, 0, 0);
            if (s >= 0)
                close(s);
        }
        if (FD_ISSET(echo, &rd)) {
            int s = accept(echo, 0, 0);
            if (s >= 0)
                add(s, ECHO);
        }
        if (FD_ISSET(snk, &rd)) {
            int s = accept(snk, 0, 0);
            if (s >= 0)
                add(s, SINK);
        }
        for (int i = 0; i < MAXCONN; i++) {
            struct conn *c = &conns[i];
            if (c->fd < 0 || !FD_ISSET(c->fd, &rd))
                continue;
            int n = recv(c->fd, buf, sizeof buf, 0);
            int done = n <= 0;
            if (n > 0 && c->kind == ECHO)
                done = send(c->fd, buf, n, 0) != n;
            else if (n > 0 && c->kind == SINK && sink(c, buf, n))
                done = 1, sinks++;
            else if (n <= 0 && c->kind == SINK)
                printf("netd: sink bytes=%u wrong=%u (cut short: %s)\n", (unsigned)c->got,
                       (unsigned)(c->wrong + (c->want - c->got)), n ? strerror(errno) : "eof");
            if (done) {
                close(c->fd);
                c->fd = -1;
            }
        }
    }
    return 0;
}
