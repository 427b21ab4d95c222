/*
 * TCP's output side: connections' slots, sending segments, retransmission
 * and the other timers, and what the socket layer asks of a connection
 * (connect, close).  The input side, the state machine, is tcp.c.
 *
 * The subset (docs/network.md): three-way handshake; sequence numbers and
 * cumulative ACKs, an ACK for every segment that brings data (no delayed
 * ACKs); a fixed window, the receiver's free buffer space, and no
 * congestion control; retransmission on timeout, go-back-N from the
 * oldest unacknowledged byte, with a fixed first timeout that doubles
 * with each try (no round-trip estimate: every number here is a constant,
 * and a run repeats exactly); FIN both ways; RST for a closed port and an
 * aborted connection.  A peer that stops answering gets TCP_MAXRXT
 * retransmissions, and then the connection is dropped with ETIMEDOUT, so
 * a process waiting on it gets an error, never a hang.
 *
 * A zero window is probed by the same timer: when the peer offers no room,
 * one byte is sent past it on each timeout, and the ACK it brings says
 * when there is room again.  Any ACK counts as a sign of life and starts
 * the count of tries again, so a live but slow reader never times out.
 */
#include "net.h"
#include "sock.h"

#define TCP_RTO_NS     (200ull * 1000000)  /* first retransmission timeout    */
#define TCP_RTO_MAX_NS (3200ull * 1000000) /* it doubles up to this           */
#define TCP_MAXRXT       6                 /* tries before ETIMEDOUT: 9.4 s    */
#define TCP_TIMEWAIT_NS (2000ull * 1000000)/* TIME_WAIT: 2 s, not the RFC's 4
                                            * minutes: nothing here wanders
                                            * that long, and the oldest is
                                            * reused when the table is full  */
#define TCP_FIN2_NS    (10000ull * 1000000)/* an orphan's FIN_WAIT_2, at most */
#define TCP_ISS_STEP    64000              /* between two connections' first
                                            * sequence numbers: a constant, so
                                            * runs repeat                     */

struct tcpcb *tcbs;
int ntcp;
static uint32 next_iss = 1;

int tcp_init(void)
{
    if (!tcbs) {
        if (!(tcbs = kalloc()))
            return -ENOMEM;
        ntcp = PGSIZE / sizeof(struct tcpcb);
    }
    return 0;
}

/* A free slot, in state TCP_CLOSED; or, when none is free, the one that
 * entered TIME_WAIT first.  0 if there is neither. */
struct tcpcb *tcp_alloc(void)
{
    struct tcpcb *tp, *old = 0;
    for (tp = tcbs; tp < tcbs + ntcp; tp++) {
        if (tp->state == TCP_FREE)
            break;
        if (tp->state == TCP_TIME_WAIT && (!old || !time_reached(tp->deadline, old->deadline)))
            old = tp;
    }
    if (tp == tcbs + ntcp) {
        if (!old)
            return 0;
        tcp_release(old);
        tp = old;
    }
    memset(tp, 0, sizeof *tp);
    tp->state = TCP_CLOSED;
    tp->peer_mss = TCP_MSS;
    return tp;
}

int tcp_buffers(struct tcpcb *tp)
{
    if (!tp->sndbuf)
        tp->sndbuf = kalloc();
    if (!tp->rcvbuf)
        tp->rcvbuf = kalloc();
    return tp->sndbuf && tp->rcvbuf ? 0 : -ENOBUFS;
}

static void free_buffers(struct tcpcb *tp)
{
    if (tp->sndbuf)
        kfree(tp->sndbuf);
    if (tp->rcvbuf)
        kfree(tp->rcvbuf);
    tp->sndbuf = tp->rcvbuf = 0;
}

void tcp_release(struct tcpcb *tp)
{
    free_buffers(tp);
    memset(tp, 0, sizeof *tp);          /* TCP_FREE */
}

void tcp_set_timer(struct tcpcb *tp, uint64 deadline)
{
    tp->deadline = deadline;
    if (deadline)
        netproc_alarm(deadline);
}

static void set_rexmt(struct tcpcb *tp)
{
    uint64 rto = TCP_RTO_NS << tp->rxt;
    if (rto > TCP_RTO_MAX_NS)
        rto = TCP_RTO_MAX_NS;
    tcp_set_timer(tp, arch_time_ns() + rto);
}

/* The connection is over, by close or by error: an orphan's slot is
 * free again; otherwise it waits, closed, for its socket. */
static void closed(struct tcpcb *tp)
{
    struct tcpcb *l = tp->listener;
    if (l && tp->state == TCP_SYN_RCVD) {
        l->pending--;                  /* half made: nobody will accept it */
        tp->listener = 0;
    }
    tp->state = TCP_CLOSED;
    tp->deadline = 0;
    if (!tp->so && !tp->listener) {
        tcp_release(tp);
        return;
    }
    if (tp->so)
        sock_wakeup(tp->so);
}

void tcp_drop(struct tcpcb *tp, int error)
{
    if (tp->state >= TCP_SYN_RCVD && tp->state != TCP_TIME_WAIT) {
        tcp_respond(tp->laddr, tp->faddr, tp->lport, tp->fport, tp->snd_nxt, tp->rcv_nxt,
                    TH_RST | TH_ACK);
    }
    tp->error = error;
    closed(tp);
}

/* A segment with no connection behind it (an RST, or a bare ACK), from
 * src:sport to dst:dport. */
void tcp_respond(uint32 src, uint32 dst, uint32 sport, uint32 dport,
                 uint32 seq, uint32 ack, uint32 flags)
{
    struct nbuf *b = nbuf_alloc();
    if (!b) {
        netstat.tx_nobuf++;
        return;
    }
    uint8 *h = nbuf_push(b, TCP_HLEN);
    memset(h, 0, TCP_HLEN);
    put16(h, sport);
    put16(h + 2, dport);
    put32(h + 4, seq);
    put32(h + 8, (flags & TH_ACK) ? ack : 0);
    h[12] = (TCP_HLEN / 4) << 4;
    h[13] = (uint8)flags;
    put16(h + 16, inet_fold(inet_sum(h, TCP_HLEN, inet_pseudo(src, dst, IPPROTO_TCP, TCP_HLEN))));
    if (flags & TH_RST)
        netstat.tcp_resets_out++;
    netstat.tcp_out++;
    ip_output(b, src, dst, IPPROTO_TCP);
}

/* The room we offer: the receive ring's free space. */
static uint32 window(struct tcpcb *tp)
{
    return tp->rcvbuf ? TCP_BUFSIZE - tp->rcv_len : 0;
}

/* One segment: flags, and len bytes of data from offset off of the send
 * ring (off bytes past snd_una), at sequence number seq. */
static void send_segment(struct tcpcb *tp, uint32 seq, uint32 flags, uint32 off, uint32 len)
{
    struct nbuf *b = nbuf_alloc();
    if (!b) {
        netstat.tx_nobuf++;            /* the retransmission timer tries again */
        return;
    }
    uint32 at = (tp->snd_head + off) % TCP_BUFSIZE;
    uint32 first = len < TCP_BUFSIZE - at ? len : TCP_BUFSIZE - at;
    memcpy(b->data, tp->sndbuf + at, first);
    memcpy(b->data + first, tp->sndbuf, len - first);
    b->len = len;
    uint32 hlen = (flags & TH_SYN) ? TCP_HLEN_MAX : TCP_HLEN;
    uint8 *h = nbuf_push(b, hlen);
    put16(h, tp->lport);
    put16(h + 2, tp->fport);
    put32(h + 4, seq);
    put32(h + 8, (flags & TH_ACK) ? tp->rcv_nxt : 0);
    h[12] = (uint8)((hlen / 4) << 4);
    h[13] = (uint8)(flags | (len ? TH_PSH : 0));
    uint32 wnd = window(tp);
    put16(h + 14, wnd);
    put16(h + 16, 0);
    put16(h + 18, 0);
    if (flags & TH_SYN) {
        h[20] = 2;                     /* option: maximum segment size */
        h[21] = 4;
        put16(h + 22, TCP_MSS);
    }
    put16(h + 16, inet_fold(inet_sum(h, b->len,
                                     inet_pseudo(tp->laddr, tp->faddr, IPPROTO_TCP, b->len))));
    tp->rcv_wnd_sent = wnd;
    tp->ack_now = 0;
    netstat.tcp_out++;
    ip_output(b, tp->laddr, tp->faddr, IPPROTO_TCP);
}

/* Send what may be sent now: a SYN; data, as far as the peer's window
 * allows; a FIN after the last byte; an ACK if one is owed.  Then the
 * timer: running while anything is unacknowledged, or while data waits
 * for a window.  probe (the timer, into a zero window): one byte past
 * the window, sent but not counted as sent (snd_nxt stays), as BSD's
 * persist timer does: the peer most likely drops it, and the data is
 * sent from the same place once the window opens. */
static void output(struct tcpcb *tp, int probe)
{
    for (;;) {
        uint32 flags = TH_ACK, off = 0, len = 0;
        uint32 seq = tp->snd_nxt;
        switch (tp->state) {
        case TCP_SYN_SENT:
        case TCP_SYN_RCVD:
            if (tp->snd_nxt == tp->iss)
                flags = tp->state == TCP_SYN_SENT ? TH_SYN : TH_SYN | TH_ACK;
            break;
        case TCP_ESTABLISHED:
        case TCP_CLOSE_WAIT:
        case TCP_FIN_WAIT_1:
        case TCP_CLOSING:
        case TCP_LAST_ACK: {
            off = tp->snd_nxt - tp->snd_una;
            uint32 wnd = tp->snd_wnd;
            if (probe)
                wnd = off + 1;
            if (off < tp->snd_len && wnd > off) {
                len = tp->snd_len - off;
                if (len > wnd - off)
                    len = wnd - off;
                if (len > tp->peer_mss)
                    len = tp->peer_mss;
            }
            uint32 fin_seq = tp->snd_una + tp->snd_len;    /* after the data */
            if (tp->fin_queued && off + len == tp->snd_len && SEQ_LEQ(tp->snd_nxt + len, fin_seq))
                flags |= TH_FIN;
            break;
        }
        default:                       /* FIN_WAIT_2, TIME_WAIT: ACKs only */
            break;
        }
        if (len == 0 && !(flags & (TH_SYN | TH_FIN)) && !tp->ack_now)
            break;
        send_segment(tp, seq, flags, off, len);
        uint32 end = tp->snd_nxt + len + ((flags & TH_SYN) ? 1 : 0) + ((flags & TH_FIN) ? 1 : 0);
        if (SEQ_GT(end, tp->snd_max))
            tp->snd_max = end;
        if (probe)
            break;
        tp->snd_nxt = end;
        if (len == 0)
            break;
    }
    int unacked = tp->snd_una != tp->snd_max;
    int starved = tp->snd_wnd == 0 && tp->snd_len > 0;
    if ((unacked || starved) && !tp->deadline)
        set_rexmt(tp);
}

void tcp_output(struct tcpcb *tp) { output(tp, 0); }

/* The retransmission timer went off. */
static void rexmt(struct tcpcb *tp)
{
    if (tp->rxt == TCP_MAXRXT) {
        netstat.tcp_timeouts++;
        tcp_drop(tp, ETIMEDOUT);
        return;
    }
    tp->rxt++;
    tp->snd_nxt = tp->snd_una;         /* go back */
    if (tp->state == TCP_SYN_SENT || tp->state == TCP_SYN_RCVD)
        tp->snd_nxt = tp->iss;
    int probe = tp->snd_wnd == 0 && tp->state >= TCP_ESTABLISHED;
    if (!probe)
        netstat.tcp_retransmits++;
    output(tp, probe);
}

/* netproc.c: run every timer that is due; the next deadline (0: none). */
uint64 tcp_timers(uint64 now)
{
    uint64 next = 0;
    if (!tcbs)
        return 0;
    for (struct tcpcb *tp = tcbs; tp < tcbs + ntcp; tp++) {
        if (tp->state == TCP_FREE || !tp->deadline)
            continue;
        if (time_reached(now, tp->deadline)) {
            tp->deadline = 0;
            if (tp->state == TCP_TIME_WAIT || tp->state == TCP_FIN_WAIT_2)
                closed(tp);
            else
                rexmt(tp);
        }
        if (tp->state != TCP_FREE && tp->deadline &&
            (!next || time_reached(next, tp->deadline)))
            next = tp->deadline;
    }
    return next;
}

/* connect(): the addresses are set; send the SYN. */
int tcp_connect(struct tcpcb *tp)
{
    tp->iss = next_iss;
    next_iss += TCP_ISS_STEP;
    tp->snd_una = tp->snd_nxt = tp->snd_max = tp->iss;
    tp->state = TCP_SYN_SENT;
    netstat.tcp_connects++;
    tcp_output(tp);
    return 0;
}

/* An accepted connection's first sequence number (tcp.c). */
uint32 tcp_new_iss(void)
{
    uint32 iss = next_iss;
    next_iss += TCP_ISS_STEP;
    return iss;
}

/* The socket is closing: finish the connection as an orphan. */
int tcp_usr_close(struct tcpcb *tp)
{
    tp->so = 0;
    switch (tp->state) {
    case TCP_LISTEN:
        /* Connections half made, or made and never accepted, go too. */
        for (struct tcpcb *c = tcbs; c < tcbs + ntcp; c++)
            if (c->state != TCP_FREE && c->listener == tp) {
                c->listener = 0;
                tcp_drop(c, 0);
            }
        tcp_release(tp);
        return 0;
    case TCP_CLOSED:
    case TCP_SYN_SENT:
        tcp_release(tp);
        return 0;
    }
    if (tp->rcv_len > 0) {             /* unread data: abort, as BSD does */
        tcp_drop(tp, 0);
        return 0;
    }
    switch (tp->state) {
    case TCP_SYN_RCVD:
    case TCP_ESTABLISHED:
        tp->state = TCP_FIN_WAIT_1;
        break;
    case TCP_CLOSE_WAIT:
        tp->state = TCP_LAST_ACK;
        break;
    case TCP_FIN_WAIT_2:               /* cannot be: close() comes once */
    default:
        return 0;
    }
    tp->fin_queued = 1;
    tcp_output(tp);
    return 0;
}

/* The user took bytes from the receive ring: if that opened the window
 * by a segment's worth, say so (the peer may be waiting for it). */
void tcp_window_update(struct tcpcb *tp)
{
    uint32 wnd = window(tp), step = TCP_MSS < TCP_BUFSIZE / 2 ? TCP_MSS : TCP_BUFSIZE / 2;
    if (wnd >= tp->rcv_wnd_sent + step && tp->state >= TCP_ESTABLISHED && !tp->fin_rcvd) {
        tp->ack_now = 1;
        tcp_output(tp);
    }
}

/* tcp.c: the FIN we sent was acknowledged in FIN_WAIT_1 or CLOSING, or
 * the peer's came in FIN_WAIT_2: wait, then free the slot. */
void tcp_time_wait(struct tcpcb *tp)
{
    tp->state = TCP_TIME_WAIT;
    free_buffers(tp);
    tcp_set_timer(tp, arch_time_ns() + TCP_TIMEWAIT_NS);
}

void tcp_fin_wait_2(struct tcpcb *tp)
{
    tp->state = TCP_FIN_WAIT_2;
    tcp_set_timer(tp, arch_time_ns() + TCP_FIN2_NS);   /* an orphan: see there */
}

void tcp_closed(struct tcpcb *tp) { closed(tp); }
