/*
 * Sockets and TCP connections: the structures socket.c, udp.c, icmp.c
 * and tcp*.c share.  A socket is what a file descriptor points at
 * (struct file's obj); a TCP socket has a connection (struct tcpcb),
 * which may outlive it: close() leaves the connection to finish its
 * goodbyes (FIN, TIME_WAIT) on its own, an orphan.
 *
 * Whoever waits on a socket sleeps on the socket itself; every change to
 * it (data in, room to write, a connection made, broken or accepted)
 * wakes them all with sock_wakeup(), and select() too.
 */
#ifndef SOCK_H
#define SOCK_H

#include "net.h"

#define NSOCK        32          /* sockets, system wide (a page of them)    */
#define UDP_QLEN      8          /* datagrams waiting on a socket, at most   */
#define PORT_EPHEMERAL_FIRST 49152   /* bind() to port 0, and connect(), pick
                                      * from here up (IANA's dynamic range) */

struct tcpcb;

struct socket {
    int type;                    /* SOCK_STREAM, SOCK_DGRAM; 0: a free slot  */
    int proto;                   /* IPPROTO_TCP, _UDP, _ICMP                 */
    uint32 laddr, lport;         /* bound to (host order); lport 0: unbound;
                                  * ICMP: lport is the echo identifier       */
    uint32 faddr, fport;         /* connected to (datagram: the default peer) */
    int connected;
    struct nbufq rq;             /* datagrams received, sender in addr/port  */
    struct tcpcb *tp;            /* a stream's connection, or its listener   */
    /* A kernel socket (sock_kernel_dgram): each datagram goes to this
     * function, from the input path, instead of onto rq; it owns b. */
    void (*upcall)(struct socket *so, struct nbuf *b, uint32 from, uint32 fport);
    void *upcall_arg;
};

/* TCP's states (RFC 793), and TCP_FREE for an unused slot. */
enum {
    TCP_FREE, TCP_CLOSED, TCP_LISTEN, TCP_SYN_SENT, TCP_SYN_RCVD, TCP_ESTABLISHED,
    TCP_CLOSE_WAIT, TCP_FIN_WAIT_1, TCP_CLOSING, TCP_LAST_ACK, TCP_FIN_WAIT_2,
    TCP_TIME_WAIT,
};

/* Each direction's bytes wait in a one-page ring: 4.3BSD's 4096-byte
 * socket buffers.  The receive ring's free space is the window we offer;
 * the send ring holds what the peer has not acknowledged. */
#define TCP_BUFSIZE  PGSIZE

struct tcpcb {
    int state;
    struct socket *so;           /* 0: orphaned by close()                   */
    uint32 laddr, lport, faddr, fport;

    /* A listener's connections: made (SYN_RCVD) or waiting for accept(). */
    struct tcpcb *listener;      /* the listener this one came from          */
    struct tcpcb *qnext;         /* next on the listener's accept queue      */
    struct tcpcb *qhead, *qtail; /* a listener: the accept queue             */
    int qlen, pending, backlog;  /* queued, half-made, allowed in all        */

    /* Sending: bytes [snd_una, snd_una + snd_len) are in sndbuf, from
     * snd_head; sequence numbers up to snd_nxt have been sent, snd_max is
     * the highest ever sent (a retransmission starts again at snd_una). */
    uint32 iss, snd_una, snd_nxt, snd_max, snd_wnd, peer_mss;
    uint8 *sndbuf;
    uint32 snd_head, snd_len;
    int fin_queued;              /* close(): a FIN follows the data          */

    /* Receiving: rcv_len bytes in rcvbuf from rcv_head; rcv_nxt is the
     * next sequence number expected. */
    uint32 irs, rcv_nxt;
    uint8 *rcvbuf;
    uint32 rcv_head, rcv_len;
    uint32 rcv_wnd_sent;         /* the window our last segment offered      */
    int fin_rcvd;

    /* The one timer: a retransmission (rxt tries so far), or the end of
     * TIME_WAIT or of an orphan's FIN_WAIT_2. */
    uint64 deadline;             /* 0: not running                           */
    int rxt;
    int ack_now;                 /* send an ACK with the next output         */
    int error;                   /* why it closed, for the socket: ECONNRESET,
                                  * ECONNREFUSED, ETIMEDOUT                  */
};

/* socket.c */
int   sock_init(void);                       /* the table: 0 / -ENOMEM */
struct socket *sock_lookup_dgram(uint32 proto, uint32 addr, uint32 port,
                                 uint32 faddr, uint32 fport);
void  sock_deliver(struct socket *so, struct nbuf *b, uint32 from, uint32 fport);
void  sock_wakeup(struct socket *so);
struct socket *sock_alloc(void);
void  sock_free(struct socket *so);
struct socket *sock_kernel_dgram(uint32 port,     /* bound UDP, 0: ephemeral */
                                 void (*upcall)(struct socket *, struct nbuf *, uint32, uint32),
                                 void *arg);

/* icmp.c and udp.c: send n bytes of user memory to dst; n or -errno */
int   icmp_send(struct socket *so, uaddr ubuf, uint32 n, uint32 dst);
int   udp_send(struct socket *so, uaddr ubuf, uint32 n, uint32 dst, uint32 dport);
/* udp.c: send the payload already in b (b->data, b->len); b is gone after */
int   udp_output(struct socket *so, struct nbuf *b, uint32 dst, uint32 dport);

/* tcp.c and tcp_out.c */
extern struct tcpcb *tcbs;                   /* a page of them */
extern int ntcp;                             /* how many fit */
int   tcp_init(void);
struct tcpcb *tcp_alloc(void);               /* 0 if none (and no orphan to reuse) */
int   tcp_buffers(struct tcpcb *tp);         /* 0 / -ENOBUFS */
void  tcp_release(struct tcpcb *tp);         /* the slot is free again */
void  tcp_output(struct tcpcb *tp);          /* send what may be sent now */
void  tcp_respond(uint32 src, uint32 dst, uint32 sport, uint32 dport,
                  uint32 seq, uint32 ack, uint32 flags);   /* RST, bare ACK */
void  tcp_drop(struct tcpcb *tp, int error); /* give up: RST, wake the user */
void  tcp_set_timer(struct tcpcb *tp, uint64 deadline);
uint64 tcp_timers(uint64 now);               /* netproc: run those due; next one */
int   tcp_connect(struct tcpcb *tp);
int   tcp_usr_close(struct tcpcb *tp);       /* close(): FIN, or RST if unread */
void  tcp_window_update(struct tcpcb *tp);   /* the user read: offer the room */
uint32 tcp_new_iss(void);                    /* a connection's first sequence number */
void  tcp_time_wait(struct tcpcb *tp);       /* enter TIME_WAIT */
void  tcp_fin_wait_2(struct tcpcb *tp);      /* enter FIN_WAIT_2 */
void  tcp_closed(struct tcpcb *tp);          /* over: free an orphan, wake a socket */

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_PSH 0x08
#define TH_ACK 0x10

#define SEQ_LT(a, b)  ((int32)((a) - (b)) < 0)
#define SEQ_LEQ(a, b) ((int32)((a) - (b)) <= 0)
#define SEQ_GT(a, b)  ((int32)((a) - (b)) > 0)
#define SEQ_GEQ(a, b) ((int32)((a) - (b)) >= 0)

#endif
