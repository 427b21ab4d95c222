/*
 * The network stack's shared declarations (kernel/port/net/, a folder
 * beside the rest of the portable kernel, as Plan 9 keeps its IP stack
 * beside its port): packet buffers, the interface a NIC driver
 * offers and calls, and each protocol's entry points.  docs/network.md
 * tells the whole story; each file here says what it does.
 *
 *   nbuf.c     the pool of packet buffers
 *   netif.c    the NIC's interface: a frame out, a frame in; the counters
 *   ether.c    Ethernet framing and demultiplexing
 *   arp.c      the ARP table: IPv4 address -> Ethernet address
 *   ip.c       IPv4 in and out, the loopback
 *   icmp.c     echo replies (the kernel's own), ICMP sockets' replies
 *   udp.c      UDP
 *   tcp.c      TCP's input: the state machine
 *   tcp_out.c  TCP's output, retransmission and timers
 *   socket.c   BSD sockets over the file layer, and their system calls
 *   netproc.c  the network's kernel process: timers, the loopback queue
 *
 * Packets are parsed and built a byte at a time (get16, put32 ...), never
 * by laying a struct over them: the same code then works whatever the
 * machine's byte order and alignment rules, on all six ISAs.
 *
 * One CPU, and the kernel runs with interrupts off: a NIC's interrupt
 * arrives only in user mode or while the scheduler idles, so the input
 * path (which runs in the interrupt) never finds a structure half changed.
 * Nothing here sleeps except the system calls in socket.c.
 */
#ifndef NET_H
#define NET_H

#include "kernel.h"

/* ---- the wire ---- */
#define ETH_ALEN        6
#define ETH_HLEN       14               /* destination, source, type         */
#define ETH_MTU      1500               /* bytes of IP datagram in a frame   */
#define ETH_FRAME_MAX (ETH_HLEN + ETH_MTU)  /* 1514: no FCS, the NIC's job    */
#define ETH_FRAME_MIN  60               /* shorter frames are padded to this */
#define ETHERTYPE_IP   0x0800
#define ETHERTYPE_ARP  0x0806

#define IP_HLEN        20               /* we send no options                */
#define UDP_HLEN        8
#define TCP_HLEN       20
#define TCP_HLEN_MAX   24               /* with the MSS option (SYN)          */
#define ICMP_HLEN       8
#define UDP_MAXDATA   (ETH_MTU - IP_HLEN - UDP_HLEN)   /* 1472 */
#define TCP_MSS       (ETH_MTU - IP_HLEN - TCP_HLEN)   /* 1460 */

/* Big-endian fields in a packet, a byte at a time. */
static inline uint32 get16(const uint8 *p) { return (uint32)p[0] << 8 | p[1]; }
static inline uint32 get32(const uint8 *p)
{
    return (uint32)p[0] << 24 | (uint32)p[1] << 16 | (uint32)p[2] << 8 | p[3];
}
static inline void put16(uint8 *p, uint32 v) { p[0] = (uint8)(v >> 8); p[1] = (uint8)v; }
static inline void put32(uint8 *p, uint32 v)
{
    p[0] = (uint8)(v >> 24); p[1] = (uint8)(v >> 16); p[2] = (uint8)(v >> 8); p[3] = (uint8)v;
}

#define IP_LOOPBACK(a)  (((a) >> 24) == 127)        /* 127.0.0.0/8 */
#define IP_BROADCAST    0xffffffffu

/* ---- counters (struct netstat, abi.h): netstat.rx_frames++ ... ---- */
extern struct netstat netstat;

/* ---- nbuf.c: packet buffers ----
 * A buffer holds one frame.  It is NBUF_SIZE bytes of a page taken at
 * boot; data/len say which part holds the packet now.  The frame starts
 * NBUF_FRAME bytes in: the NIC's own header (virtio's is 12 bytes) goes
 * just before it, and the 14-byte Ethernet header then leaves the IP
 * header on a 4-byte boundary.  On output a protocol puts its payload at
 * NBUF_PAYLOAD and each layer below pushes its header in front. */
#define NBUF_SIZE     2048                    /* two to a page               */
#define NBUF_FRAME      18
#define NBUF_PAYLOAD  (NBUF_FRAME + ETH_HLEN + IP_HLEN + TCP_HLEN_MAX)
#define NBUF_RXMAX    (NBUF_SIZE - NBUF_FRAME)   /* the longest frame received:
                                               * longer than the MTU, so that
                                               * an oversized frame reaches
                                               * ether.c to be counted      */
#define NBUF_COUNT     128                    /* the pool                    */

struct nbuf {
    struct nbuf *next;           /* a queue's link                            */
    uint8 *mem;                  /* NBUF_SIZE bytes                           */
    uint8 *data;                 /* the packet's first byte                   */
    uint32 len;                  /* its bytes                                 */
    uint32 addr;                 /* a datagram on a socket's queue: sender's  */
    uint32 port;                 /* address and port (host byte order)        */
};

int   nbuf_init(void);                      /* the pool: 0 or -ENOMEM (once) */
struct nbuf *nbuf_alloc(void);              /* data at NBUF_PAYLOAD; 0 if none */
void  nbuf_free(struct nbuf *b);
uint8 *nbuf_push(struct nbuf *b, uint32 n); /* room for a header in front    */
void  nbuf_pull(struct nbuf *b, uint32 n);  /* drop a header in front        */
uint32 nbuf_nfree(void);
void  nbuf_extent(paddr *lo, paddr *hi);    /* widen [lo, hi) to the pool's bytes */
uint32 nbuf_count(void);                    /* NBUF_COUNT, or 0 before the pool */

/* A queue of buffers (a socket's datagrams, the loopback). */
struct nbufq {
    struct nbuf *head, *tail;
    uint32 n;
};
void  nbufq_put(struct nbufq *q, struct nbuf *b);
struct nbuf *nbufq_get(struct nbufq *q);    /* 0 if empty */
void  nbufq_drain(struct nbufq *q);         /* free them all */

/* ---- netif.c: the interface a NIC driver offers and calls ---- */
struct netif {
    const char *name;
    uint8 mac[ETH_ALEN];
    /* Send the frame in b (b->data, b->len: Ethernet header first).  The
     * driver owns b from here: it frees it once the device is done, or at
     * once if it cannot take it (counted in tx_ring_full).  0 or -ENOBUFS. */
    int (*transmit)(struct netif *nif, struct nbuf *b);
};
extern struct netif *netif;                 /* the one NIC, or 0          */
int   netif_attach(struct netif *nif);      /* a driver found its NIC: 0/-errno */
void  net_input(struct nbuf *b);            /* a frame arrived; b is ours */
void  net_tx_kicked(void);                  /* the driver told the device to send */
void  net_idle(uint64 ns, uint32 frames);   /* the CPU idles: its next deadline ns away
                                             * (0: none), frames taken from the NIC */
int   net_start(void);                      /* pool, tables, kernel process */

/* ---- ether.c ---- */
void  ether_input(struct nbuf *b);
int   ether_output(struct nbuf *b, const uint8 *dst, uint32 type);

/* ---- arp.c ---- */
void  arp_input(struct nbuf *b);
int   arp_output(struct nbuf *b, uint32 nexthop);   /* resolve, then send */

/* ---- ip.c ---- */
extern uint32 ip_addr, ip_netmask;          /* ours (0: no NIC), host order */
void  ip_input(struct nbuf *b);
int   ip_output(struct nbuf *b, uint32 src, uint32 dst, uint32 proto);
int   ip_route(uint32 dst);                 /* 0 if reachable, or -errno  */
uint32 ip_source(uint32 dst);               /* our address to send to dst from */
int   ip_is_local(uint32 a);                /* one of ours (or loopback)   */
int   loop_deliver(void);                   /* netproc: the loopback queue */
uint32 inet_sum(const uint8 *p, uint32 n, uint32 sum);      /* partial sums */
uint32 inet_fold(uint32 sum);               /* -> the 16-bit checksum      */
uint32 inet_pseudo(uint32 src, uint32 dst, uint32 proto, uint32 len);

/* ---- icmp.c, udp.c, tcp.c ---- */
void  icmp_input(struct nbuf *b, uint32 src, uint32 dst);
void  udp_input(struct nbuf *b, uint32 src, uint32 dst);
void  tcp_input(struct nbuf *b, uint32 src, uint32 dst);

/* ---- netproc.c: the kernel process ---- */
int   netproc_start(void);
int   netproc_kick(void);                   /* look at the queues now (0: none) */
void  netproc_alarm(uint64 when);           /* ... and no later than `when` */

#endif
