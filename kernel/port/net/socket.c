/*
 * BSD sockets over the file layer: socket() makes a struct file whose
 * operations (read, write, select's readable and writable, close) are a
 * socket's, so read, write, close, dup, fork and select work on sockets
 * as on pipes; and the socket calls themselves: bind, connect, listen,
 * accept, sendto, recvfrom.  IPv4 only (AF_INET): TCP streams, UDP
 * datagrams, and ICMP echo (icmp.c).
 *
 * Bad arguments get an errno, never a panic: a descriptor that is not
 * open (EBADF) or not a socket (ENOTSOCK), an address that is too short
 * (EINVAL), not readable or writable (EFAULT) or not AF_INET
 * (EAFNOSUPPORT), a port taken (EADDRINUSE), an address not ours
 * (EADDRNOTAVAIL), a datagram over the MTU (EMSGSIZE), the wrong call for
 * the socket's type (EOPNOTSUPP) or state (EINVAL, EISCONN, ENOTCONN,
 * EDESTADDRREQ).  A connection refused, reset or timed out gives
 * ECONNREFUSED, ECONNRESET or ETIMEDOUT to whoever waits on it.
 *
 * The calls that wait (connect, accept, recvfrom, a send into a full
 * buffer) sleep on the socket and look again whenever sock_wakeup() says
 * it changed; a killed process stops waiting (EINTR).  Nothing here is
 * non-blocking: select() says when a call would not wait.
 *
 * Sending copies from user memory once (into a packet buffer, or into a
 * TCP connection's send ring), receiving once (out of one): no more than
 * a pipe does each way.
 */
#include "net.h"
#include "sock.h"
#include "proc.h"
#include "file.h"

_Static_assert(NSOCK * sizeof(struct socket) <= PGSIZE, "a page of sockets");
_Static_assert(sizeof(struct sockaddr_in) == 16, "struct sockaddr_in is BSD's");

static struct socket *socks;
static uint32 next_port = PORT_EPHEMERAL_FIRST;

static const struct fileops sock_ops;

int sock_init(void)
{
    if (!socks && !(socks = kalloc()))
        return -ENOMEM;
    return 0;
}

struct socket *sock_alloc(void)
{
    for (struct socket *so = socks; so < socks + NSOCK; so++)
        if (!so->type) {
            memset(so, 0, sizeof *so);
            return so;
        }
    return 0;
}

void sock_free(struct socket *so)
{
    nbufq_drain(&so->rq);
    memset(so, 0, sizeof *so);
}

void sock_wakeup(struct socket *so)
{
    wakeup(so);
    select_wakeup();
}

/* ---------------------------------------------------------------- addresses */

/* A struct sockaddr_in from user memory: its address and port, host order. */
static int getaddr(uaddr uaddr_, uint32 len, uint32 *addr, uint32 *port)
{
    struct sockaddr_in sin;
    if ((int32)len < (int32)sizeof sin)
        return -EINVAL;
    if (copyin(&sin, uaddr_, sizeof sin) < 0)
        return -EFAULT;
    if (sin.sin_family != AF_INET)
        return -EAFNOSUPPORT;
    *addr = get32((const uint8 *)&sin.sin_addr);
    *port = get16((const uint8 *)&sin.sin_port);
    return 0;
}

/* Check that (uaddr_, ulen) can take an address: *ulen readable, not
 * negative, and that many bytes writable.  Done before waiting, so that
 * what arrives is not lost to a bad pointer afterwards. */
static int addr_room(uaddr uaddr_, uaddr ulen)
{
    int32 len;
    if (!uaddr_)
        return 0;
    if (copyin(&len, ulen, sizeof len) < 0)
        return -EFAULT;
    if (len < 0)
        return -EINVAL;
    struct sockaddr_in zero;
    memset(&zero, 0, sizeof zero);
    if (copyout(uaddr_, &zero, (uint32)len < sizeof zero ? (uint32)len : sizeof zero) < 0 ||
        copyout(ulen, &len, sizeof len) < 0)
        return -EFAULT;
    return 0;
}

/* Give the user an address (as much as *ulen allows), and its length. */
static int putaddr(uaddr uaddr_, uaddr ulen, uint32 addr, uint32 port)
{
    int32 len;
    if (!uaddr_)
        return 0;
    if (copyin(&len, ulen, sizeof len) < 0)
        return -EFAULT;
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    put16((uint8 *)&sin.sin_port, port);
    put32((uint8 *)&sin.sin_addr, addr);
    uint32 n = (uint32)len < sizeof sin ? (uint32)len : sizeof sin;
    len = sizeof sin;
    if (copyout(uaddr_, &sin, n) < 0 || copyout(ulen, &len, sizeof len) < 0)
        return -EFAULT;
    return 0;
}

/* ---------------------------------------------------------------- ports */

/* Is port taken by a socket?  An orphan connection, finishing on its own
 * after close, does not keep a server from binding its port again (BSD's
 * SO_REUSEADDR, always on); but an ephemeral port is picked only if no
 * connection uses it at all, so that no two connections look alike. */
static int port_taken(int proto, uint32 addr, uint32 port, int orphans_too)
{
    for (struct socket *so = socks; so < socks + NSOCK; so++)
        if (so->type && so->proto == proto && so->lport == port &&
            (!so->laddr || !addr || so->laddr == addr))
            return 1;
    if (proto == IPPROTO_TCP && orphans_too)
        for (struct tcpcb *tp = tcbs; tp < tcbs + ntcp; tp++)
            if (tp->state != TCP_FREE && tp->lport == port)
                return 1;
    return 0;
}

/* Bind so to addr:port; port 0 picks one of the ephemeral ports. */
static int bind_port(struct socket *so, uint32 addr, uint32 port)
{
    if (port == 0) {
        for (uint32 i = 0; i <= 0xffff - PORT_EPHEMERAL_FIRST; i++) {
            uint32 p = next_port;
            next_port = next_port == 0xffff ? PORT_EPHEMERAL_FIRST : next_port + 1;
            if (!port_taken(so->proto, addr, p, 1)) {
                port = p;
                break;
            }
        }
        if (port == 0)
            return -EADDRINUSE;
    } else if (port_taken(so->proto, addr, port, 0)) {
        return -EADDRINUSE;
    }
    so->laddr = addr;
    so->lport = port;
    return 0;
}

/* A UDP socket of the kernel's own, with no file and no queue: every
 * datagram for it goes to upcall, from the input path (interrupts off, so
 * upcall must not sleep).  Bound to port, or an ephemeral one for 0.  The
 * remote file system's RPC (kernel/port/rfs/rpc.c) is its user.  0 if the
 * table is full or the port taken. */
struct socket *sock_kernel_dgram(uint32 port,
                                 void (*upcall)(struct socket *, struct nbuf *, uint32, uint32),
                                 void *arg)
{
    if (net_start() < 0)
        return 0;
    struct socket *so = sock_alloc();
    if (!so)
        return 0;
    so->type = SOCK_DGRAM;
    so->proto = IPPROTO_UDP;
    if (bind_port(so, 0, port) < 0) {
        sock_free(so);
        return 0;
    }
    so->upcall = upcall;
    so->upcall_arg = arg;
    return so;
}

/* ---------------------------------------------------------------- delivery */

/* The datagram socket for a datagram to addr:port from faddr:fport. */
struct socket *sock_lookup_dgram(uint32 proto, uint32 addr, uint32 port,
                                 uint32 faddr, uint32 fport)
{
    if (!socks)
        return 0;
    for (struct socket *so = socks; so < socks + NSOCK; so++)
        if (so->type == SOCK_DGRAM && (uint32)so->proto == proto && so->lport == port &&
            (!so->laddr || so->laddr == addr) &&
            (!so->connected || (so->faddr == faddr && (proto == IPPROTO_ICMP || so->fport == fport))))
            return so;
    return 0;
}

void sock_deliver(struct socket *so, struct nbuf *b, uint32 from, uint32 fport)
{
    if (so->upcall) {
        so->upcall(so, b, from, fport);
        return;
    }
    if (so->rq.n >= UDP_QLEN) {
        netstat.udp_queue_full++;
        nbuf_free(b);
        return;
    }
    b->addr = from;
    b->port = fport;
    nbufq_put(&so->rq, b);
    sock_wakeup(so);
}

/* ---------------------------------------------------------------- streams */

static int stream_send(struct socket *so, uaddr ubuf, uint32 n)
{
    struct tcpcb *tp = so->tp;
    if (!tp || tp->state == TCP_LISTEN)
        return -ENOTCONN;
    uint32 done = 0;
    while (done < n) {
        if (tp->error)
            return done ? (int)done : -tp->error;
        if (tp->state != TCP_ESTABLISHED && tp->state != TCP_CLOSE_WAIT)
            return done ? (int)done : -EPIPE;
        if (tp->snd_len == TCP_BUFSIZE) {      /* full: wait for ACKs */
            if (curproc->killed)
                return done ? (int)done : -EINTR;
            sleep(so);
            continue;
        }
        uint32 at = (tp->snd_head + tp->snd_len) % TCP_BUFSIZE;
        uint32 chunk = TCP_BUFSIZE - tp->snd_len;
        if (chunk > TCP_BUFSIZE - at)
            chunk = TCP_BUFSIZE - at;
        if (chunk > n - done)
            chunk = n - done;
        if (copyin(tp->sndbuf + at, ubuf + done, chunk) < 0)
            return done ? (int)done : -EFAULT;
        tp->snd_len += chunk;
        done += chunk;
        tcp_output(tp);
    }
    return done;
}

static int stream_recv(struct socket *so, uaddr ubuf, uint32 n)
{
    struct tcpcb *tp = so->tp;
    if (!tp || tp->state == TCP_LISTEN)
        return -ENOTCONN;
    while (tp->rcv_len == 0) {
        if (tp->fin_rcvd)
            return 0;                          /* end of file */
        if (tp->error)
            return -tp->error;
        if (tp->state == TCP_CLOSED)
            return 0;
        if (curproc->killed)
            return -EINTR;
        sleep(so);
    }
    if (n > tp->rcv_len)
        n = tp->rcv_len;
    uint32 first = n < TCP_BUFSIZE - tp->rcv_head ? n : TCP_BUFSIZE - tp->rcv_head;
    if (copyout(ubuf, tp->rcvbuf + tp->rcv_head, first) < 0 ||
        copyout(ubuf + first, tp->rcvbuf, n - first) < 0)
        return -EFAULT;
    tp->rcv_head = (tp->rcv_head + n) % TCP_BUFSIZE;
    tp->rcv_len -= n;
    tcp_window_update(tp);
    return n;
}

/* ---------------------------------------------------------------- datagrams */

static int dgram_send(struct socket *so, uaddr ubuf, uint32 n, uint32 dst, uint32 dport)
{
    if (!so->lport) {
        int r = bind_port(so, 0, 0);
        if (r < 0)
            return r;
    }
    if (so->proto == IPPROTO_ICMP)
        return icmp_send(so, ubuf, n, dst);
    return udp_send(so, ubuf, n, dst, dport);
}

/* The next datagram: as much of it as n allows (the rest is lost, as in
 * BSD), and who sent it. */
static int dgram_recv(struct socket *so, uaddr ubuf, uint32 n, uaddr ufrom, uaddr ulen)
{
    int r = addr_room(ufrom, ulen);
    if (r < 0)
        return r;
    while (!so->rq.head) {
        if (curproc->killed)
            return -EINTR;
        sleep(so);
    }
    struct nbuf *b = nbufq_get(&so->rq);
    if (n > b->len)
        n = b->len;
    r = copyout(ubuf, b->data, n) < 0 ? -EFAULT : (int)n;
    uint32 from = b->addr, fport = b->port;
    nbuf_free(b);
    if (r >= 0 && putaddr(ufrom, ulen, from, fport) < 0)
        r = -EFAULT;
    return r;
}

/* ---------------------------------------------------------------- file operations */

static int sock_read(struct file *f, uaddr buf, uint32 n)
{
    struct socket *so = f->obj;
    return so->type == SOCK_STREAM ? stream_recv(so, buf, n) : dgram_recv(so, buf, n, 0, 0);
}

static int sock_write(struct file *f, uaddr buf, uint32 n)
{
    struct socket *so = f->obj;
    if (so->type == SOCK_STREAM)
        return stream_send(so, buf, n);
    if (!so->connected)
        return -EDESTADDRREQ;
    return dgram_send(so, buf, n, so->faddr, so->fport);
}

/* select(): would a read (write) return now, without waiting?  An
 * unconnected stream would: with an error. */
static int sock_readable(struct file *f)
{
    struct socket *so = f->obj;
    struct tcpcb *tp = so->tp;
    if (so->type == SOCK_DGRAM)
        return so->rq.head != 0;
    if (!tp)
        return 1;
    if (tp->state == TCP_LISTEN)
        return tp->qhead != 0;
    return tp->rcv_len > 0 || tp->fin_rcvd || tp->error || tp->state == TCP_CLOSED;
}

static int sock_writable(struct file *f)
{
    struct socket *so = f->obj;
    struct tcpcb *tp = so->tp;
    if (so->type == SOCK_DGRAM || !tp || tp->state == TCP_LISTEN)
        return 1;
    if (tp->state == TCP_ESTABLISHED || tp->state == TCP_CLOSE_WAIT)
        return tp->snd_len < TCP_BUFSIZE;
    return tp->state != TCP_SYN_SENT && tp->state != TCP_SYN_RCVD;
}

static void sock_close(struct file *f)
{
    struct socket *so = f->obj;
    if (so->tp)
        tcp_usr_close(so->tp);
    sock_free(so);
}

static const struct fileops sock_ops = {
    .read = sock_read, .write = sock_write,
    .readable = sock_readable, .writable = sock_writable,
    .close = sock_close,
};

/* The socket behind descriptor fd: EBADF, ENOTSOCK. */
static int fd_sock(uint32 fd, struct socket **sop)
{
    struct file *f = fd_get((int)fd);
    if (!f)
        return -EBADF;
    if (f->ops != &sock_ops)
        return -ENOTSOCK;
    *sop = f->obj;
    return 0;
}

/* ---------------------------------------------------------------- system calls */

int32 sys_socket(const uint32 *arg)
{
    uint32 domain = arg[0], type = arg[1], proto = arg[2];
    if (domain != AF_INET)
        return -EAFNOSUPPORT;
    if (type == SOCK_STREAM) {
        if (proto != 0 && proto != IPPROTO_TCP)
            return -EPROTONOSUPPORT;
        proto = IPPROTO_TCP;
    } else if (type == SOCK_DGRAM) {
        if (proto != 0 && proto != IPPROTO_UDP && proto != IPPROTO_ICMP)
            return -EPROTONOSUPPORT;
        if (proto == 0)
            proto = IPPROTO_UDP;
    } else {
        return -EINVAL;
    }
    int r;
    if ((r = net_start()) < 0)
        return r;
    struct socket *so = sock_alloc();
    if (!so)
        return -ENFILE;
    so->type = type;
    so->proto = proto;
    if (proto == IPPROTO_ICMP && (r = bind_port(so, 0, 0)) < 0) {   /* its identifier */
        sock_free(so);
        return r;
    }
    struct file *f = file_alloc(&sock_ops, so, 1, 1);
    if (!f) {
        sock_free(so);
        return -ENFILE;
    }
    int fd = fd_alloc(f);
    if (fd < 0)
        file_close(f);
    return fd;
}

int32 sys_bind(const uint32 *arg)
{
    struct socket *so;
    uint32 addr, port;
    int r;
    if ((r = fd_sock(arg[0], &so)) < 0 || (r = getaddr(arg[1], arg[2], &addr, &port)) < 0)
        return r;
    if (so->lport || so->tp)
        return -EINVAL;                        /* bound already */
    if (addr != INADDR_ANY && !ip_is_local(addr))
        return -EADDRNOTAVAIL;
    return bind_port(so, addr, port);
}

int32 sys_connect(const uint32 *arg)
{
    struct socket *so;
    uint32 addr, port;
    int r;
    if ((r = fd_sock(arg[0], &so)) < 0 || (r = getaddr(arg[1], arg[2], &addr, &port)) < 0)
        return r;
    if (so->type == SOCK_DGRAM) {
        if (port == 0 && so->proto == IPPROTO_UDP)
            return -EINVAL;
        if ((r = ip_route(addr)) < 0)
            return r;
        if (!so->lport && (r = bind_port(so, 0, 0)) < 0)
            return r;
        so->faddr = addr;
        so->fport = port;
        so->connected = 1;
        return 0;
    }
    if (so->tp)
        return so->tp->state == TCP_LISTEN ? -EINVAL : -EISCONN;
    if (port == 0)
        return -ECONNREFUSED;
    if ((r = ip_route(addr)) < 0)
        return r;
    if (!so->lport && (r = bind_port(so, 0, 0)) < 0)
        return r;
    struct tcpcb *tp = tcp_alloc();
    if (!tp)
        return -ENOBUFS;
    if (tcp_buffers(tp) < 0) {
        tcp_release(tp);
        return -ENOBUFS;
    }
    tp->so = so;
    so->tp = tp;
    tp->laddr = so->laddr ? so->laddr : ip_source(addr);
    tp->lport = so->lport;
    tp->faddr = addr;
    tp->fport = port;
    so->faddr = addr;
    so->fport = port;
    tcp_connect(tp);
    while (tp->state == TCP_SYN_SENT) {
        if (curproc->killed) {
            r = -EINTR;
            break;
        }
        sleep(so);
    }
    if (tp->state == TCP_CLOSED)
        r = -(tp->error ? tp->error : ECONNREFUSED);
    if (r < 0) {                               /* the socket may connect again */
        tcp_release(tp);
        so->tp = 0;
        return r;
    }
    so->connected = 1;
    return 0;
}

int32 sys_listen(const uint32 *arg)
{
    struct socket *so;
    int backlog = (int)arg[1], r;
    if ((r = fd_sock(arg[0], &so)) < 0)
        return r;
    if (so->type != SOCK_STREAM)
        return -EOPNOTSUPP;
    if (backlog < 1)
        backlog = 1;
    if (backlog > SOMAXCONN)
        backlog = SOMAXCONN;
    if (so->tp) {
        if (so->tp->state != TCP_LISTEN)
            return -EINVAL;                    /* connected */
        so->tp->backlog = backlog;
        return 0;
    }
    if (!so->lport && (r = bind_port(so, 0, 0)) < 0)
        return r;
    struct tcpcb *tp = tcp_alloc();
    if (!tp)
        return -ENOBUFS;
    tp->state = TCP_LISTEN;
    tp->laddr = so->laddr;
    tp->lport = so->lport;
    tp->backlog = backlog;
    tp->so = so;
    so->tp = tp;
    return 0;
}

int32 sys_accept(const uint32 *arg)
{
    struct socket *so;
    int r;
    if ((r = fd_sock(arg[0], &so)) < 0)
        return r;
    if (so->type != SOCK_STREAM)
        return -EOPNOTSUPP;
    struct tcpcb *l = so->tp;
    if (!l || l->state != TCP_LISTEN)
        return -EINVAL;
    if ((r = addr_room(arg[1], arg[2])) < 0)
        return r;
    while (!l->qhead) {
        if (curproc->killed)
            return -EINTR;
        sleep(so);
    }
    /* Everything the new descriptor needs first: the connection waits on
     * the queue if any of it is missing. */
    struct socket *nso = sock_alloc();
    if (!nso)
        return -ENFILE;
    nso->type = SOCK_STREAM;
    nso->proto = IPPROTO_TCP;
    struct file *f = file_alloc(&sock_ops, nso, 1, 1);
    if (!f) {
        sock_free(nso);
        return -ENFILE;
    }
    int fd = fd_alloc(f);
    if (fd < 0) {
        f->ref = 0;                            /* never opened: no close */
        sock_free(nso);
        return fd;
    }
    struct tcpcb *tp = l->qhead;
    l->qhead = tp->qnext;
    if (!l->qhead)
        l->qtail = 0;
    l->qlen--;
    tp->qnext = 0;
    tp->listener = 0;
    tp->so = nso;
    nso->tp = tp;
    nso->laddr = tp->laddr;
    nso->lport = tp->lport;
    nso->faddr = tp->faddr;
    nso->fport = tp->fport;
    nso->connected = 1;
    putaddr(arg[1], arg[2], tp->faddr, tp->fport);   /* checked by addr_room */
    return fd;
}

int32 sys_sendto(const uint32 *arg)
{
    struct socket *so;
    uint32 n = arg[2], addr, port;
    int r;
    if ((r = fd_sock(arg[0], &so)) < 0)
        return r;
    if ((int32)n < 0)
        return -EINVAL;
    if (so->type == SOCK_STREAM)
        return stream_send(so, arg[1], n);     /* (a destination is ignored) */
    if (arg[3]) {
        if ((r = getaddr(arg[3], arg[4], &addr, &port)) < 0)
            return r;
    } else if (so->connected) {
        addr = so->faddr;
        port = so->fport;
    } else {
        return -EDESTADDRREQ;
    }
    return dgram_send(so, arg[1], n, addr, port);
}

int32 sys_recvfrom(const uint32 *arg)
{
    struct socket *so;
    uint32 n = arg[2];
    int r;
    if ((r = fd_sock(arg[0], &so)) < 0)
        return r;
    if ((int32)n < 0)
        return -EINVAL;
    if (so->type == SOCK_STREAM) {
        if ((r = addr_room(arg[3], arg[4])) < 0)
            return r;
        r = stream_recv(so, arg[1], n);
        if (r >= 0 && so->tp)
            putaddr(arg[3], arg[4], so->tp->faddr, so->tp->fport);
        return r;
    }
    return dgram_recv(so, arg[1], n, arg[3], arg[4]);
}
