/*
 * The network's odds and ends for guest programs: BSD's send and recv
 * (sendto and recvfrom without an address; no flags are supported), and
 * dotted-quad addresses.  The socket calls themselves are system calls
 * (guests/lib/arch/<isa>/netcalls.S).
 */
#include "socket.h"

int send(int fd, const void *buf, int n, int flags)
{
    if (flags != 0) {
        errno = EINVAL;
        return -1;
    }
    return sendto(fd, buf, n, 0, 0);
}

int recv(int fd, void *buf, int n, int flags)
{
    if (flags != 0) {
        errno = EINVAL;
        return -1;
    }
    return recvfrom(fd, buf, n, 0, 0);
}

int inet_aton(const char *s, struct in_addr *a)
{
    uint32_t addr = 0;
    for (int part = 0; part < 4; part++) {
        if (*s < '0' || *s > '9')
            return 0;
        uint32_t v = 0;
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (uint32_t)(*s++ - '0');
            if (v > 255)
                return 0;
        }
        addr = addr << 8 | v;
        if (part < 3 && *s++ != '.')
            return 0;
    }
    if (*s)
        return 0;
    a->s_addr = htonl(addr);
    return 1;
}

char *inet_ntoa_r(struct in_addr a, char *buf)
{
    uint32_t h = ntohl(a.s_addr);
    snprintf(buf, 16, "%u.%u.%u.%u", (unsigned)(h >> 24), (unsigned)(h >> 16) & 0xff,
             (unsigned)(h >> 8) & 0xff, (unsigned)h & 0xff);
    return buf;
}
