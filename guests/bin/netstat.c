/*
 * netstat: the network interface and the stack's counters since boot
 * (netctl, kernel/port/net/netif.c; each counter is described in
 * kernel/include/abi.h, FOR_EACH_NETSTAT).
 *
 *   netstat          the interface, then every counter that is not 0
 *   netstat -a       every counter, 0 or not
 *
 * The first line, for people and scripts alike:
 *   net nic=1 mac=52:54:00:00:00:01 addr=10.0.0.1 mtu=1500 nbufs=128 free=94
 * then one `name=value` line per counter.
 */
#include "socket.h"

#define NAME(n) #n,
static const char *const names[] = { FOR_EACH_NETSTAT(NAME) };
#undef NAME

int main(int argc, char *argv[])
{
    int all = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-a") == 0) {
            all = 1;
        } else {
            fprintf(2, "usage: netstat [-a]\n");
            return 2;
        }
    }
    struct netconf c;
    struct netstat s;
    if (netctl(NETCTL_CONF, &c) < 0 || netctl(NETCTL_STATS, &s) < 0) {
        fprintf(2, "netstat: %s\n", strerror(errno));
        return 1;
    }
    struct in_addr a = { htonl(c.addr) };
    char addr[16];
    printf("net nic=%u mac=%02x:%02x:%02x:%02x:%02x:%02x addr=%s mtu=%u nbufs=%u free=%u\n",
           c.nic, c.mac[0], c.mac[1], c.mac[2], c.mac[3], c.mac[4], c.mac[5],
           inet_ntoa_r(a, addr), c.mtu, c.nbufs, c.nbufs_free);
    const unsigned int *v = (const unsigned int *)&s;
    for (unsigned int i = 0; i < sizeof names / sizeof names[0]; i++)
        if (all || v[i])
            printf("%s=%u\n", names[i], v[i]);
    return 0;
}
