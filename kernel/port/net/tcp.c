/*
 * TCP's input side (RFC 793, the subset tcp_out.c describes): check a
 * segment, find its connection, and move the connection along.
 *
 * A segment for no connection gets an RST (a closed port), unless it is
 * an RST itself.  A listener answers a SYN with a new connection in
 * SYN_RCVD, while its backlog has room (otherwise the SYN is dropped and
 * counted, and the peer's retransmission may find room); the handshake's
 * last ACK puts the connection on the listener's accept queue.
 *
 * Data is taken only in order: a segment that is not the next one
 * expected is dropped (tcp_out_of_order) and answered with an ACK saying
 * what is expected, and the sender's timeout sends it again.  Bytes
 * beyond the room we offered are dropped too.  Every segment that brings
 * something new is acknowledged at once.
 */
#include "net.h"
#include "sock.h"

/* The connection a segment to dst:dport from src:sport belongs to: the
 * exact one, else a listener on the port. */
static struct tcpcb *lookup(uint32 dst, uint32 dport, uint32 src, uint32 sport)
{
    struct tcpcb *listener = 0;
    for (struct tcpcb *tp = tcbs; tp < tcbs + ntcp; tp++) {
        if (tp->state == TCP_FREE || tp->lport != dport)
            continue;
        if (tp->state == TCP_LISTEN) {
            if (tp->laddr == 0 || tp->laddr == dst)
                listener = tp;
        } else if (tp->fport == sport && tp->faddr == src && tp->laddr == dst) {
            return tp;
        }
    }
    return listener;
}

/* The peer's maximum segment size, from a SYN's options (RFC 1122's 536
 * if it sends none). */
static uint32 peer_mss(const uint8 *opt, uint32 n)
{
    uint32 mss = 536;
    while (n > 0 && opt[0] != 0) {             /* 0: end of the list */
        if (opt[0] == 1) {                     /* no-op */
            opt++, n--;
            continue;
        }
        if (n < 2 || opt[1] < 2 || opt[1] > n)
            break;                             /* malformed: stop looking */
        if (opt[0] == 2 && opt[1] == 4)
            mss = get16(opt + 2);
        n -= opt[1];
        opt += opt[1];
    }
    if (mss > TCP_MSS)
        mss = TCP_MSS;
    return mss < 64 ? 64 : mss;
}

/* The reply to a segment nothing here wants: an RST, as RFC 793 says. */
static void reset(uint32 src, uint32 dst, uint32 sport, uint32 dport, uint32 seq,
                  uint32 ack, uint32 flags, uint32 seglen)
{
    if (flags & TH_RST)
        return;
    if (flags & TH_ACK)
        tcp_respond(dst, src, dport, sport, ack, 0, TH_RST);
    else
        tcp_respond(dst, src, dport, sport, 0, seq + seglen, TH_RST | TH_ACK);
}

/* A SYN for a listener: a new connection, half made. */
static void passive_open(struct tcpcb *l, uint32 src, uint32 dst, uint32 sport, uint32 seq,
                         uint32 wnd, uint32 mss)
{
    if (l->qlen + l->pending >= l->backlog) {
        netstat.tcp_backlog_full++;
        return;
    }
    struct tcpcb *tp = tcp_alloc();
    if (!tp || tcp_buffers(tp) < 0) {
        if (tp)
            tcp_release(tp);
        netstat.tcp_backlog_full++;
        return;
    }
    tp->laddr = dst;
    tp->lport = l->lport;
    tp->faddr = src;
    tp->fport = sport;
    tp->listener = l;
    l->pending++;
    tp->irs = seq;
    tp->rcv_nxt = seq + 1;
    tp->iss = tcp_new_iss();
    tp->snd_una = tp->snd_nxt = tp->snd_max = tp->iss;
    tp->snd_wnd = wnd;
    tp->peer_mss = mss;
    tp->state = TCP_SYN_RCVD;
    tcp_output(tp);                            /* SYN+ACK */
}

/* The handshake's last ACK: on to the listener's accept queue. */
static void established_passive(struct tcpcb *tp)
{
    struct tcpcb *l = tp->listener;
    tp->state = TCP_ESTABLISHED;
    l->pending--;
    l->qlen++;
    tp->qnext = 0;
    if (l->qtail)
        l->qtail->qnext = tp;
    else
        l->qhead = tp;
    l->qtail = tp;
    netstat.tcp_accepts++;
    if (l->so)
        sock_wakeup(l->so);
}

/* The bytes acknowledged leave the send ring; a FIN acknowledged moves
 * the state on.  0 if the connection is gone. */
static int take_ack(struct tcpcb *tp, uint32 ack)
{
    uint32 n = ack - tp->snd_una;
    int fin_acked = 0;
    if (n > tp->snd_len) {                     /* the FIN too */
        fin_acked = tp->fin_queued;
        n = tp->snd_len;
    }
    tp->snd_head = (tp->snd_head + n) % TCP_BUFSIZE;
    tp->snd_len -= n;
    tp->snd_una = ack;
    if (SEQ_LT(tp->snd_nxt, tp->snd_una))
        tp->snd_nxt = tp->snd_una;
    tp->deadline = 0;                          /* tcp_output sets it again if */
    if (tp->so)                                /* anything is still unacked   */
        sock_wakeup(tp->so);                   /* room to write               */
    if (!fin_acked)
        return 1;
    switch (tp->state) {
    case TCP_FIN_WAIT_1:
        tcp_fin_wait_2(tp);
        break;
    case TCP_CLOSING:
        tcp_time_wait(tp);
        break;
    case TCP_LAST_ACK:
        tcp_closed(tp);
        return 0;
    }
    return 1;
}

/* The peer's data and FIN, in order only. */
static void take_data(struct tcpcb *tp, uint32 seq, const uint8 *data, uint32 dlen, int fin)
{
    uint32 seglen = dlen + (fin ? 1 : 0);
    if (seglen == 0)
        return;                                /* a bare ACK: nothing to answer */
    if (SEQ_LT(seq, tp->rcv_nxt)) {           /* starts with bytes we have */
        uint32 skip = tp->rcv_nxt - seq;
        if (skip >= seglen) {                  /* nothing new: say what is */
            tp->ack_now = 1;
            if (fin && tp->state == TCP_TIME_WAIT)
                tcp_time_wait(tp);             /* our ACK was lost: wait again */
            return;
        }
        data += skip;
        dlen -= skip;
        seq = tp->rcv_nxt;
    }
    if (tp->state != TCP_ESTABLISHED && tp->state != TCP_FIN_WAIT_1 &&
        tp->state != TCP_FIN_WAIT_2)
        return;                                /* after the peer's FIN: bogus */
    if (seq != tp->rcv_nxt) {
        netstat.tcp_out_of_order++;
        tp->ack_now = 1;
        return;
    }
    if (dlen > 0 && !tp->so && !tp->listener) {   /* the user has closed: abort */
        tcp_drop(tp, 0);
        return;
    }
    uint32 room = TCP_BUFSIZE - tp->rcv_len;
    uint32 n = dlen < room ? dlen : room;
    if (n > 0) {
        uint32 at = (tp->rcv_head + tp->rcv_len) % TCP_BUFSIZE;
        uint32 first = n < TCP_BUFSIZE - at ? n : TCP_BUFSIZE - at;
        memcpy(tp->rcvbuf + at, data, first);
        memcpy(tp->rcvbuf, data + first, n - first);
        tp->rcv_len += n;
        tp->rcv_nxt += n;
    }
    tp->ack_now = 1;
    if (n < dlen)                              /* beyond our window: dropped, */
        return;                                /* and the FIN with them */
    if (fin) {
        tp->rcv_nxt++;
        tp->fin_rcvd = 1;
        switch (tp->state) {
        case TCP_ESTABLISHED:
            tp->state = TCP_CLOSE_WAIT;
            break;
        case TCP_FIN_WAIT_1:                   /* both FINs crossed */
            tp->state = TCP_CLOSING;
            break;
        case TCP_FIN_WAIT_2:
            tcp_time_wait(tp);
            break;
        }
    }
    if (tp->so)
        sock_wakeup(tp->so);
}

void tcp_input(struct nbuf *b, uint32 src, uint32 dst)
{
    const uint8 *h = b->data;
    uint32 hlen = b->len >= TCP_HLEN ? (uint32)(h[12] >> 4) * 4 : 0;
    if (hlen < TCP_HLEN || hlen > b->len ||
        inet_fold(inet_sum(h, b->len, inet_pseudo(src, dst, IPPROTO_TCP, b->len))) != 0) {
        netstat.tcp_bad++;
        goto drop;
    }
    netstat.tcp_in++;
    uint32 sport = get16(h), dport = get16(h + 2);
    uint32 seq = get32(h + 4), ack = get32(h + 8), flags = h[13] & 0x3f, wnd = get16(h + 14);
    const uint8 *data = h + hlen;
    uint32 dlen = b->len - hlen;
    uint32 seglen = dlen + ((flags & TH_SYN) ? 1 : 0) + ((flags & TH_FIN) ? 1 : 0);

    struct tcpcb *tp = tcbs ? lookup(dst, dport, src, sport) : 0;
    if (!tp || tp->state == TCP_CLOSED) {
        reset(src, dst, sport, dport, seq, ack, flags, seglen);
        goto drop;
    }

    if (tp->state == TCP_LISTEN) {
        if (flags & TH_RST)
            goto drop;
        if (flags & TH_ACK) {
            reset(src, dst, sport, dport, seq, ack, flags, seglen);
            goto drop;
        }
        if (flags & TH_SYN)
            passive_open(tp, src, dst, sport, seq, wnd, peer_mss(h + TCP_HLEN, hlen - TCP_HLEN));
        goto drop;
    }

    if (tp->state == TCP_SYN_SENT) {
        int ack_ok = (flags & TH_ACK) && ack == tp->iss + 1;
        if ((flags & TH_ACK) && !ack_ok) {
            reset(src, dst, sport, dport, seq, ack, flags, seglen);
            goto drop;
        }
        if (flags & TH_RST) {
            if (ack_ok) {                      /* the port is closed */
                netstat.tcp_resets_in++;
                tp->error = ECONNREFUSED;
                tcp_closed(tp);
            }
            goto drop;
        }
        if (!(flags & TH_SYN) || !ack_ok)      /* (no simultaneous open) */
            goto drop;
        tp->irs = seq;
        tp->rcv_nxt = seq + 1;
        tp->snd_una = tp->snd_nxt = ack;
        tp->snd_wnd = wnd;
        tp->peer_mss = peer_mss(h + TCP_HLEN, hlen - TCP_HLEN);
        tp->rxt = 0;
        tp->deadline = 0;
        tp->state = TCP_ESTABLISHED;
        tp->ack_now = 1;
        tcp_output(tp);                        /* the handshake's last ACK */
        if (tp->so)
            sock_wakeup(tp->so);
        goto drop;
    }

    /* Synchronized: SYN_RCVD and every state after ESTABLISHED. */
    if (flags & TH_RST) {
        uint32 wndr = TCP_BUFSIZE - tp->rcv_len;
        if (SEQ_GEQ(seq, tp->rcv_nxt) && SEQ_LT(seq, tp->rcv_nxt + (wndr ? wndr : 1))) {
            netstat.tcp_resets_in++;
            tp->error = ECONNRESET;
            tcp_closed(tp);
        }
        goto drop;
    }
    if (flags & TH_SYN) {
        if (tp->state == TCP_SYN_RCVD && seq == tp->irs) {
            tp->snd_nxt = tp->iss;             /* our SYN+ACK was lost: again */
            tcp_output(tp);
        } else {
            tp->ack_now = 1;                   /* a stray SYN: say where we are */
            tcp_output(tp);
        }
        goto drop;
    }
    if (!(flags & TH_ACK))
        goto drop;
    if (SEQ_GT(ack, tp->snd_max)) {            /* acknowledges what we never sent */
        if (tp->state == TCP_SYN_RCVD)
            reset(src, dst, sport, dport, seq, ack, flags, seglen);
        else {
            tp->ack_now = 1;
            tcp_output(tp);
        }
        goto drop;
    }
    if (tp->state == TCP_SYN_RCVD) {
        if (!SEQ_GT(ack, tp->snd_una)) {
            reset(src, dst, sport, dport, seq, ack, flags, seglen);
            goto drop;
        }
        established_passive(tp);
    }
    if (SEQ_GEQ(ack, tp->snd_una)) {
        tp->snd_wnd = wnd;
        tp->rxt = 0;                           /* the peer is alive */
        if (SEQ_GT(ack, tp->snd_una) && !take_ack(tp, ack))
            goto drop;                         /* LAST_ACK done: freed */
    }
    take_data(tp, seq, data, dlen, flags & TH_FIN);
    if (tp->state != TCP_FREE && tp->state != TCP_CLOSED)
        tcp_output(tp);
drop:
    nbuf_free(b);
}
