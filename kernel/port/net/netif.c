/*
 * The interface between a NIC driver and the stack, and the stack's start.
 *
 * A driver that finds its device at boot fills in a struct netif (its
 * Ethernet address, its transmit function) and calls netif_attach(); from
 * then on it hands every frame it receives to net_input(), from its
 * interrupt.  There is one NIC at most; without one the stack still runs,
 * over the loopback only.
 *
 * net_tx_kicked() and net_idle() are the seams for the deterministic
 * two-machine model (docs/network.md): a driver calls net_tx_kicked()
 * right after it has told its device to send, and the timing model holds
 * the CPU at its address until the device has sent the frame; the
 * scheduler's idle (sched_idle, below) calls net_idle() with the time to
 * its next deadline and the frames taken from the card so far before it
 * waits for an interrupt, and the model holds
 * the CPU there until a frame arrives, the deadline comes, or a key is
 * typed.  So both must stay empty functions of their own, called, never
 * inlined or left out.
 *
 * The network starts (net_start) when a NIC attaches, so that the kernel
 * answers ARP and echo requests from boot on, or at the first socket():
 * the buffer pool, the tables, the kernel process.  A kernel that never
 * sees either takes no memory for any of it.
 */
#include "net.h"
#include "sock.h"
#include "proc.h"

struct netstat netstat;
struct netif *netif;

/* 0, or -errno and the NIC is not used.  The driver fills its receive
 * ring after this (the pool exists then). */
int netif_attach(struct netif *nif)
{
    if (netif) {
        printf("net: %s ignored, %s attached already\n", nif->name, netif->name);
        return -EBUSY;
    }
    int r = net_start();
    if (r < 0) {
        printf("net: %s ignored, no memory for the stack\n", nif->name);
        return r;
    }
    netif = nif;
    ip_addr = 0x0a000000u | nif->mac[5];        /* ip.c: 10.0.0.<last byte> */
    ip_netmask = 0xffffff00u;
    printf("net: %s %02x:%02x:%02x:%02x:%02x:%02x addr %u.%u.%u.%u\n", nif->name,
           nif->mac[0], nif->mac[1], nif->mac[2], nif->mac[3], nif->mac[4], nif->mac[5],
           ip_addr >> 24, (ip_addr >> 16) & 0xff, (ip_addr >> 8) & 0xff, ip_addr & 0xff);
    return 0;
}

void net_input(struct nbuf *b)
{
    netstat.rx_frames++;
    netstat.rx_bytes += b->len;
    ether_input(b);
}

/* Empty on purpose: see above.  The asm keeps the compiler from deciding
 * that a call to it does nothing. */
__attribute__((noinline)) void net_tx_kicked(void)
{
    __asm__ volatile("");
}

__attribute__((noinline)) void net_idle(uint64 ns, uint32 frames)
{
    __asm__ volatile("" : : "r"(ns), "r"(frames));
}

/* ns from now to the earliest deadline of a sleeping process, 0 if none
 * has one.  This is sched.c's earliest_deadline(), which scheduler() keeps
 * inlined: a copy here, linked after everything else, left the kernel's
 * code where it was (a call of sched_idle where it called arch_idle is
 * the same instruction), and with it every result measured without a
 * network. */
static uint64 idle_distance(void)
{
    uint64 best = 0;
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->state == SLEEPING && p->deadline && (!best || !time_reached(p->deadline, best)))
            best = p->deadline;
    if (!best)
        return 0;
    uint64 now = arch_time_ns();
    return time_reached(now, best) ? 1 : best - now;
}

/* The scheduler's wait for an interrupt, interrupts off (sched.c).  With
 * a NIC, tell the model first (net_idle) how far off the next deadline is
 * and how many of the frames it put into the card the driver has
 * accounted for: handed to the stack, dropped for want of a buffer,
 * received damaged or too long (one count per frame), or lost by the card
 * itself for want of a descriptor (the LANCE counts those; the driver
 * adds them at its interrupt).  A frame not yet accounted for, which the
 * model put in while the kernel ran with interrupts off, has its
 * interrupt pending and ends the wait at once.  Without a NIC, only
 * arch_idle(). */
void sched_idle(void)
{
    if (netif)
        net_idle(idle_distance(), netstat.rx_frames + netstat.rx_nobuf + netstat.rx_errors +
                                  netstat.rx_missed);
    arch_idle();
}

/* The pool and the tables, once; the kernel process too, once processes
 * exist (not yet when a driver attaches at boot: the first socket()
 * starts it then).  0 or -ENOMEM. */
int net_start(void)
{
    int r;
    if ((r = nbuf_init()) < 0 || (r = sock_init()) < 0 || (r = tcp_init()) < 0)
        return r;
    if (curproc && (r = netproc_start()) < 0)
        return r;
    return 0;
}

static void get_conf(struct netconf *c)
{
    memset(c, 0, sizeof *c);
    if (netif) {
        c->nic = 1;
        memcpy(c->mac, netif->mac, ETH_ALEN);
    }
    c->mtu = ETH_MTU;
    c->addr = ip_addr;
    c->netmask = ip_netmask;
    c->nbufs = nbuf_count();                  /* 0: the network never started */
    c->nbufs_free = nbuf_nfree();
}

int32 sys_netctl(const uint32 *arg)
{
    struct netconf c;
    switch (arg[0]) {
    case NETCTL_STATS:
        return copyout(arg[1], &netstat, sizeof netstat);
    case NETCTL_CONF:
        get_conf(&c);
        return copyout(arg[1], &c, sizeof c);
    default:
        return -EINVAL;
    }
}
