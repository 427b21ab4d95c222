/*
 * Remote procedure calls over UDP (rpc.h says what and why): messages in
 * fragments, the input upcall, calls with retransmission, serving, and
 * the duplicate-request cache.
 *
 * The fragment header, 16 bytes, big-endian:
 *
 *    0  xid        the call's transaction id (its reply carries it back)
 *    4  kind       RPC_CALL or RPC_REPLY
 *    5  index      this fragment's place, from 0
 *    6  count      fragments in the message (1..RPC_MAXFRAGS)
 *    7  0
 *    8  length     the message's bytes
 *   12  0
 *
 * Every fragment but the last holds RPC_FRAG_DATA bytes of the message;
 * one that does not add up is dropped and counted (rpc_bad).  A call's
 * message starts with its program and procedure, a reply's with its
 * status (0 or an errno) and the server's boot epoch.
 *
 * Interrupts are off in the kernel and there is one CPU: the input upcall
 * runs only while a process is in user mode or the scheduler idles, so it
 * never finds a list half changed, and nothing here needs a lock.
 */
#include "rpc.h"
#include "../net/sock.h"
#include "../proc.h"

enum { IN_FREE, IN_PARTIAL, IN_QUEUED, IN_SERVING };

#define RPC_NIN     16                   /* calls being received or served */
#define RPC_DUPMAX  112                  /* the longest reply kept          */

struct rpc_dup {
    uint32 addr, port, xid, len;
    uint8 body[RPC_DUPMAX];
};
_Static_assert(RPC_NIN * sizeof(struct rpc_in) <= PGSIZE, "a page of call slots");

/* ---------------------------------------------------------------- messages */

void rmsg_init(struct rmsg *m)
{
    memset(m, 0, sizeof *m);
}

void rmsg_free(struct rmsg *m)
{
    for (uint32 i = 0; i < RPC_MAXFRAGS; i++)
        if (m->frag[i]) {
            nbuf_free(m->frag[i]);
            m->frag[i] = 0;
        }
    m->nfrag = 0;
}

void rmsg_put(struct rmsg *m, int user, uintptr src, uint32 n)
{
    while (n > 0 && !m->error) {
        struct nbuf *b = m->nfrag ? m->frag[m->nfrag - 1] : 0;
        if (!b || b->len == UDP_MAXDATA) {
            if (m->nfrag == RPC_MAXFRAGS) {
                m->error = -EMSGSIZE;
                return;
            }
            if (!(b = nbuf_alloc())) {
                m->error = -ENOBUFS;
                return;
            }
            b->len = RPC_FRAG_HDR;                 /* filled in when sent */
            m->frag[m->nfrag++] = b;
        }
        uint32 k = UDP_MAXDATA - b->len < n ? UDP_MAXDATA - b->len : n;
        if (!user)
            memcpy(b->data + b->len, (const void *)src, k);
        else if (copyin(b->data + b->len, src, k) < 0)
            m->error = -EFAULT;
        b->len += k;
        m->len += k;
        src += k;
        n -= k;
    }
}

void rmsg_put32(struct rmsg *m, uint32 v)
{
    uint8 w[4];
    put32(w, v);
    rmsg_put(m, 0, (uintptr)w, 4);
}

/* XDR's string: its length, its bytes, zeros to a multiple of 4. */
void rmsg_putstr(struct rmsg *m, const char *s)
{
    static const uint8 zeros[4];
    uint32 n = strlen(s);
    rmsg_put32(m, n);
    rmsg_put(m, 0, (uintptr)s, n);
    rmsg_put(m, 0, (uintptr)zeros, -n & 3);
}

void rmsg_get(struct rmsg *m, int user, uintptr dst, uint32 n)
{
    if (!m->error && (m->pos > m->len || n > m->len - m->pos))
        m->error = -EBADMSG;
    if (m->error) {
        if (!user)
            memset((void *)dst, 0, n);            /* a decoder reads zeros */
        return;
    }
    while (n > 0) {
        uint32 i = m->pos / RPC_FRAG_DATA, o = m->pos % RPC_FRAG_DATA;
        uint32 k = RPC_FRAG_DATA - o < n ? RPC_FRAG_DATA - o : n;
        const uint8 *src = m->frag[i]->data + RPC_FRAG_HDR + o;
        if (!user)
            memcpy((void *)dst, src, k);
        else if (copyout(dst, src, k) < 0) {
            m->error = -EFAULT;
            return;
        }
        m->pos += k;
        dst += k;
        n -= k;
    }
}

uint32 rmsg_get32(struct rmsg *m)
{
    uint8 w[4];
    rmsg_get(m, 0, (uintptr)w, 4);
    return get32(w);
}

int rmsg_getstr(struct rmsg *m, char *s, uint32 size)
{
    uint32 n = rmsg_get32(m);
    if (m->error)
        return m->error;
    if (n >= size) {
        m->error = -EBADMSG;
        return -ENAMETOOLONG;
    }
    rmsg_get(m, 0, (uintptr)s, n);
    s[n] = 0;
    m->pos += -n & 3;
    if (m->error || strlen(s) != n)
        return -EBADMSG;                           /* short, or a NUL inside */
    return 0;
}

/* ---------------------------------------------------------------- sending */

static void send(struct rpc_ep *ep, struct rmsg *m, int kind, uint32 xid, uint32 addr,
                 uint32 port)
{
    for (uint32 i = 0; i < m->nfrag; i++) {
        struct nbuf *b = m->frag[i];
        uint8 *h = b->data;
        put32(h, xid);
        h[4] = (uint8)kind;
        h[5] = (uint8)i;
        h[6] = (uint8)m->nfrag;
        h[7] = 0;
        put32(h + 8, m->len);
        put32(h + 12, 0);
        m->frag[i] = 0;
        ep->stat->rpc_frags_out++;
        udp_output(ep->so, b, addr, port);        /* b is the stack's now */
    }
    m->nfrag = 0;
}

/* ---------------------------------------------------------------- input */

/* File fragment b (index idx of n, message length len) in m; 0 if it does
 * not belong (another count or length than its first, or a copy). */
static int add_frag(struct rmsg *m, uint32 *got, struct nbuf *b, uint32 idx, uint32 n,
                    uint32 len)
{
    if (*got == 0) {
        m->nfrag = n;
        m->len = len;
    } else if (m->nfrag != n || m->len != len) {
        return 0;
    }
    if (m->frag[idx])
        return 0;
    m->frag[idx] = b;
    (*got)++;
    return 1;
}

static struct rpc_in *in_slot(struct rpc_ep *ep, uint32 from, uint32 fport, uint32 xid)
{
    struct rpc_in *oldest = 0;
    for (struct rpc_in *in = ep->in; in < ep->in + RPC_NIN; in++)
        if (in->state != IN_FREE && in->addr == from && in->port == fport && in->xid == xid)
            return in;
    for (struct rpc_in *in = ep->in; in < ep->in + RPC_NIN; in++) {
        if (in->state == IN_FREE)
            return in;
        if (in->state == IN_PARTIAL && (!oldest || time_reached(oldest->first, in->first)))
            oldest = in;
    }
    if (oldest) {                       /* a call that will never be whole */
        rmsg_free(&oldest->msg);
        oldest->state = IN_FREE;
        ep->stat->rpc_nobuf++;
    }
    return oldest;
}

static void take_call(struct rpc_ep *ep, struct nbuf *b, uint32 from, uint32 fport,
                      uint32 xid, uint32 idx, uint32 n, uint32 len)
{
    struct rpc_in *in = ep->in ? in_slot(ep, from, fport, xid) : 0;
    if (!in) {
        ep->stat->rpc_nobuf++;
        nbuf_free(b);
        return;
    }
    if (in->state == IN_QUEUED || in->state == IN_SERVING) {
        ep->stat->srv_dup_busy += idx == 0;  /* a copy of a call not yet answered */
        nbuf_free(b);
        return;
    }
    if (in->state == IN_FREE) {
        memset(in, 0, sizeof *in);
        in->state = IN_PARTIAL;
        in->addr = from;
        in->port = fport;
        in->xid = xid;
        in->first = arch_time_ns();
    }
    if (!add_frag(&in->msg, &in->got, b, idx, n, len)) {
        nbuf_free(b);
        return;
    }
    if (in->got < n)
        return;
    in->state = IN_QUEUED;
    in->next = 0;
    if (ep->qtail)
        ep->qtail->next = in;
    else
        ep->qhead = in;
    ep->qtail = in;
    wakeup(&ep->qhead);
}

static void take_reply(struct rpc_ep *ep, struct nbuf *b, uint32 from, uint32 fport,
                       uint32 xid, uint32 idx, uint32 n, uint32 len)
{
    struct rpc_call *c = ep->calls;
    while (c && !(c->xid == xid && c->addr == from && c->port == fport))
        c = c->next;
    if (!c || c->done || !add_frag(&c->reply, &c->got, b, idx, n, len)) {
        ep->stat->rpc_stray++;
        nbuf_free(b);
        return;
    }
    if (c->got == n) {
        c->done = 1;
        wakeup(c);
    }
}

/* The socket's upcall: one fragment, from the input path. */
static void rpc_input(struct socket *so, struct nbuf *b, uint32 from, uint32 fport)
{
    struct rpc_ep *ep = so->upcall_arg;
    ep->stat->rpc_frags_in++;
    if (ep->deaf) {                     /* a crashed server hears nothing */
        nbuf_free(b);
        return;
    }
    const uint8 *h = b->data;
    uint32 body = b->len - RPC_FRAG_HDR;
    uint32 xid = b->len >= RPC_FRAG_HDR ? get32(h) : 0;
    uint32 kind = h[4], idx = h[5], n = h[6], len = get32(h + 8);
    if (b->len < RPC_FRAG_HDR || kind > RPC_REPLY || n == 0 || n > RPC_MAXFRAGS ||
        idx >= n || len <= (n - 1) * RPC_FRAG_DATA || len > n * RPC_FRAG_DATA ||
        body != (idx == n - 1 ? len - (n - 1) * RPC_FRAG_DATA : RPC_FRAG_DATA)) {
        ep->stat->rpc_bad++;
        nbuf_free(b);
        return;
    }
    if (kind == RPC_CALL)
        take_call(ep, b, from, fport, xid, idx, n, len);
    else
        take_reply(ep, b, from, fport, xid, idx, n, len);
}

/* ---------------------------------------------------------------- endpoints */

int rpc_ep_open(struct rpc_ep *ep, uint32 port, int serving, uint32 ndup,
                struct rfsstat *stat)
{
    memset(ep, 0, sizeof *ep);
    ep->stat = stat;
    ep->next_xid = 1;
    if (serving && !(ep->in = kalloc()))
        return -ENOMEM;
    if (ndup) {
        if (ndup > PGSIZE / sizeof(struct rpc_dup))
            ndup = PGSIZE / sizeof(struct rpc_dup);
        if (!(ep->dup = kalloc())) {
            if (ep->in)
                kfree(ep->in);
            return -ENOMEM;
        }
        ep->ndup = ndup;
    }
    if (!(ep->so = sock_kernel_dgram(port, rpc_input, ep))) {
        if (ep->in)
            kfree(ep->in);
        if (ep->dup)
            kfree(ep->dup);
        return -EADDRINUSE;
    }
    ep->port = ep->so->lport;
    return 0;
}

/* ---------------------------------------------------------------- calling */

int rpc_call(struct rpc_ep *ep, uint32 addr, uint32 port,
             void (*encode)(struct rmsg *m, void *arg), void *arg,
             struct rmsg *reply, int *status, uint32 *epoch)
{
    struct rpc_call c;
    memset(&c, 0, sizeof c);
    c.xid = ep->next_xid++;
    c.addr = addr;
    c.port = port;
    c.next = ep->calls;
    ep->calls = &c;
    uint64 timeo = RPC_TIMEO_NS;
    int r = 0;
    for (int tries = 0; !c.done; tries++) {
        struct rmsg m;
        rmsg_init(&m);
        encode(&m, arg);
        if (m.error && m.error != -ENOBUFS) {
            r = m.error;                    /* the arguments' fault: no retry */
            rmsg_free(&m);
            break;
        }
        if (m.error) {                      /* no buffer: as if it were lost */
            ep->stat->rpc_nobuf++;
            rmsg_free(&m);
        } else {
            send(ep, &m, RPC_CALL, c.xid, addr, port);
        }
        if (tries == 0)
            ep->stat->rpc_calls++;
        else
            ep->stat->rpc_retrans++;
        uint64 deadline = arch_time_ns() + timeo;
        while (!c.done && !curproc->killed)
            if (sleep_until(&c, deadline))
                break;
        if (!c.done && curproc->killed) {
            r = -EINTR;
            break;
        }
        timeo = timeo * 2 < RPC_TIMEO_MAX_NS ? timeo * 2 : RPC_TIMEO_MAX_NS;
    }
    struct rpc_call **pp = &ep->calls;
    while (*pp != &c)
        pp = &(*pp)->next;
    *pp = c.next;
    if (r < 0) {
        rmsg_free(&c.reply);
        return r;
    }
    *reply = c.reply;
    reply->pos = 0;
    *status = (int)rmsg_get32(reply);
    *epoch = rmsg_get32(reply);
    if (reply->error) {
        rmsg_free(reply);
        return -EBADMSG;
    }
    return 0;
}

/* ---------------------------------------------------------------- serving */

struct rpc_in *rpc_next(struct rpc_ep *ep)
{
    while (!ep->qhead)
        sleep(&ep->qhead);
    struct rpc_in *in = ep->qhead;
    ep->qhead = in->next;
    if (!ep->qhead)
        ep->qtail = 0;
    in->state = IN_SERVING;
    in->msg.pos = 0;
    return in;
}

int rpc_queued(struct rpc_ep *ep)
{
    return ep->qhead != 0;
}

void rpc_done(struct rpc_ep *ep, struct rpc_in *in)
{
    rmsg_free(&in->msg);
    in->state = IN_FREE;
}

static struct rpc_dup *dup_find(struct rpc_ep *ep, struct rpc_in *in)
{
    for (uint32 i = 0; i < ep->ndup; i++) {
        struct rpc_dup *d = &ep->dup[i];
        if (d->len && d->xid == in->xid && d->addr == in->addr && d->port == in->port)
            return d;
    }
    return 0;
}

void rpc_reply(struct rpc_ep *ep, struct rpc_in *in, struct rmsg *reply, int save)
{
    if (save && ep->ndup && reply->len <= RPC_DUPMAX && !reply->error) {
        struct rpc_dup *d = dup_find(ep, in);
        if (!d) {                           /* the oldest goes */
            d = &ep->dup[ep->dupnext];
            ep->dupnext = (ep->dupnext + 1) % ep->ndup;
        }
        d->addr = in->addr;
        d->port = in->port;
        d->xid = in->xid;
        d->len = reply->len;
        reply->pos = 0;
        rmsg_get(reply, 0, (uintptr)d->body, reply->len);
    }
    if (!reply->error)
        send(ep, reply, RPC_REPLY, in->xid, in->addr, in->port);
    else
        ep->stat->rpc_nobuf++;              /* the caller will ask again */
    rmsg_free(reply);
    rpc_done(ep, in);
}

int rpc_dup_answer(struct rpc_ep *ep, struct rpc_in *in)
{
    struct rpc_dup *d = ep->ndup ? dup_find(ep, in) : 0;
    if (!d)
        return 0;
    struct rmsg m;
    rmsg_init(&m);
    rmsg_put(&m, 0, (uintptr)d->body, d->len);
    ep->stat->srv_dup_replays++;
    if (!m.error)
        send(ep, &m, RPC_REPLY, in->xid, in->addr, in->port);
    rmsg_free(&m);
    return 1;
}

void rpc_forget(struct rpc_ep *ep)
{
    for (struct rpc_in *in = ep->in; in && in < ep->in + RPC_NIN; in++)
        if (in->state == IN_PARTIAL || in->state == IN_QUEUED) {
            rmsg_free(&in->msg);
            in->state = IN_FREE;
        }
    ep->qhead = ep->qtail = 0;
    if (ep->dup)
        memset(ep->dup, 0, ep->ndup * sizeof *ep->dup);
    ep->dupnext = 0;
}
