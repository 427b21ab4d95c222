/*
 * Sockets for guest programs (kernel/port/net/socket.c, docs/network.md),
 * as BSD's <sys/socket.h> and <netinet/in.h> give them: the system calls,
 * a few helpers (guests/lib/net.c) and byte order.  struct sockaddr_in,
 * AF_INET, SOCK_STREAM ... are in abi.h, shared with the kernel.  Apart
 * from user.h so that a program that uses no network keeps its own names
 * (the Andrew benchmark's compiler has an accept() of its own).
 *
 * sendto and recvfrom take no flags (a system call has five arguments at
 * most); send and recv take BSD's, which must be 0.
 */
#ifndef SOCKET_H
#define SOCKET_H

#include "user.h"

int   socket(int domain, int type, int protocol);
int   bind(int fd, const struct sockaddr *addr, int addrlen);
int   connect(int fd, const struct sockaddr *addr, int addrlen);
int   listen(int fd, int backlog);
int   accept(int fd, struct sockaddr *addr, int *addrlen);
int   sendto(int fd, const void *buf, int n, const struct sockaddr *to, int tolen);
int   recvfrom(int fd, void *buf, int n, struct sockaddr *from, int *fromlen);
int   netctl(int op, void *arg);           /* NETCTL_STATS, NETCTL_CONF */

/* net.c */
int   send(int fd, const void *buf, int n, int flags);
int   recv(int fd, void *buf, int n, int flags);
int   inet_aton(const char *s, struct in_addr *a);   /* "10.0.0.2": 1, or 0 if malformed */
char *inet_ntoa_r(struct in_addr a, char *buf);      /* "a.b.c.d" into buf[16] */

/* Host and network (big-endian) byte order, whatever the machine's: the
 * union holds the bytes in the order the network wants. */
static inline uint16_t htons(uint16_t v)
{
    union { uint16_t v; uint8_t b[2]; } u;
    u.b[0] = (uint8_t)(v >> 8);
    u.b[1] = (uint8_t)v;
    return u.v;
}

static inline uint32_t htonl(uint32_t v)
{
    union { uint32_t v; uint8_t b[4]; } u;
    u.b[0] = (uint8_t)(v >> 24);
    u.b[1] = (uint8_t)(v >> 16);
    u.b[2] = (uint8_t)(v >> 8);
    u.b[3] = (uint8_t)v;
    return u.v;
}

static inline uint16_t ntohs(uint16_t v) { return htons(v); }
static inline uint32_t ntohl(uint32_t v) { return htonl(v); }

#endif
