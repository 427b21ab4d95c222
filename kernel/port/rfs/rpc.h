/*
 * Remote procedure calls over UDP, for the remote file systems (rfs.h):
 * the shape of Sun RPC as NFS version 2 used it (RFC 1057, RFC 1094), cut
 * to what they need.
 *
 *   - A call carries a transaction id (xid), a program and a procedure; its
 *     reply carries the same xid, a status (0 or an errno) and the server's
 *     boot epoch.  Fields are 4-byte big-endian words, as XDR's, written and
 *     read a word at a time (put32, get32), never by laying a struct over
 *     the bytes: the same code on every ISA.
 *   - A message may be longer than a datagram (an 8 KB read or write):
 *     it travels in up to RPC_MAXFRAGS fragments, each one UDP datagram
 *     with a header of its own (xid, call or reply, its index, how many).
 *     Our IP does not fragment (net/ip.c); NFS's 8 KB datagrams were IP
 *     fragments, Sprite's RPC fragmented its own messages as this does.
 *     A message lost in part is lost whole, and sent again whole.
 *   - The caller sends, sleeps, and sends again when no reply has come
 *     after a timeout that doubles each time (rpc_call): the caller cannot
 *     tell a lost call from a lost reply, so a call may reach the server
 *     twice.
 *   - The server keeps a duplicate-request cache (rpc_dup_*): the replies
 *     to its recent non-idempotent calls, by caller and xid, so that a call
 *     it has done already is answered again and not done twice (a second
 *     remove would say ENOENT); and a call still being served when its
 *     copy arrives is not started twice.
 *
 * An endpoint is a UDP port of the kernel's own (net/socket.c,
 * sock_kernel_dgram): its fragments arrive through an upcall in the input
 * path, which files replies with their waiting calls and queues complete
 * calls for the endpoint's serving processes.  The server listens on
 * RPC_PORT; each mount of a client has an endpoint of its own, which also
 * takes the server's callbacks (Sprite's recalls).
 */
#ifndef RPC_H
#define RPC_H

#include "../net/net.h"

#define RPC_PORT        2049                 /* the server's: NFS's port       */
#define RPC_FRAG_HDR      16                 /* xid, kind, index, count, length */
#define RPC_FRAG_DATA   (UDP_MAXDATA - RPC_FRAG_HDR)   /* 1456 message bytes    */
#define RPC_MAXFRAGS       8
#define RPC_MAXMSG      (RPC_MAXFRAGS * RPC_FRAG_DATA)

#define RPC_CALL   0
#define RPC_REPLY  1

/* Retransmission (guest time): the first timeout is SunOS's NFS default
 * (timeo=7, tenths of a second), doubled after each try up to the cap; a
 * call is tried until it is answered (NFS's "hard" mount) or its process
 * is killed (EINTR, the "intr" option). */
#define RPC_TIMEO_NS       700000000ull
#define RPC_TIMEO_MAX_NS  5600000000ull

/* A message: its fragments in order, each an nbuf whose data starts with
 * the fragment header (RPC_FRAG_HDR bytes) and holds RPC_FRAG_DATA bytes
 * of the message after it, but the last.  Written with rmsg_put*, read
 * with rmsg_get* from pos; a failure (no buffer, reading past the end, a
 * bad user address) is kept in error and makes the rest a no-op. */
struct rmsg {
    struct nbuf *frag[RPC_MAXFRAGS];
    uint32 nfrag;
    uint32 len;                  /* message bytes                         */
    uint32 pos;                  /* reading: the next one                 */
    int error;                   /* 0, -ENOBUFS, -EMSGSIZE, -EBADMSG, -EFAULT */
};

void   rmsg_init(struct rmsg *m);
void   rmsg_free(struct rmsg *m);            /* its buffers back to the pool */
void   rmsg_put32(struct rmsg *m, uint32 v);
void   rmsg_put(struct rmsg *m, int user, uintptr src, uint32 n);
void   rmsg_putstr(struct rmsg *m, const char *s);          /* length, bytes, pad */
uint32 rmsg_get32(struct rmsg *m);
void   rmsg_get(struct rmsg *m, int user, uintptr dst, uint32 n);
int    rmsg_getstr(struct rmsg *m, char *s, uint32 size);   /* 0 or -errno */

/* The counters, in struct rfsstat (abi.h) as rpc_*. */
struct rpcstat;

/* A call in flight: on its caller's stack while it waits. */
struct rpc_call {
    struct rpc_call *next;
    uint32 xid, addr, port;
    struct rmsg reply;           /* fragments as they come                  */
    uint32 got;                  /* of reply.nfrag                          */
    int done;
};

/* A call received: reassembled in a slot, queued, served. */
struct rpc_in {
    int state;                   /* IN_FREE, IN_PARTIAL, IN_QUEUED, IN_SERVING */
    uint32 addr, port, xid;
    struct rmsg msg;
    uint32 got;
    uint64 first;                /* when its first fragment came             */
    struct rpc_in *next;         /* the queue                                */
};

struct rpc_dup;

struct rpc_ep {
    struct socket *so;
    uint32 port;
    uint32 next_xid;
    struct rpc_call *calls;      /* waiting for replies                      */
    struct rpc_in *in;           /* RPC_NIN slots; 0: takes no calls         */
    struct rpc_in *qhead, *qtail;
    struct rpc_dup *dup;         /* the duplicate-request cache, or 0        */
    uint32 ndup, dupnext;
    int deaf;                    /* a crashed server: every fragment dropped */
    struct rfsstat *stat;        /* where to count                           */
};

/* A new endpoint on port (0: any); serving: takes calls (and a duplicate
 * cache of ndup entries, 0: none).  0, or -errno. */
int    rpc_ep_open(struct rpc_ep *ep, uint32 port, int serving, uint32 ndup,
                   struct rfsstat *stat);

/* Call: encode(m, arg) writes the call's message (program, procedure,
 * arguments), again for every try.  0 with the reply's message in *reply
 * (positioned after its status and epoch, which go to *status and
 * *epoch), or -errno if it could not be sent (EINTR: killed while
 * waiting).  The caller frees *reply. */
int    rpc_call(struct rpc_ep *ep, uint32 addr, uint32 port,
                void (*encode)(struct rmsg *m, void *arg), void *arg,
                struct rmsg *reply, int *status, uint32 *epoch);

/* Serving: the next call (sleeping until there is one), its message
 * positioned at its start; then exactly one of rpc_reply (send, and with
 * save, keep the reply in the duplicate cache) or rpc_done (no reply). */
struct rpc_in *rpc_next(struct rpc_ep *ep);
int    rpc_queued(struct rpc_ep *ep);              /* calls waiting now      */
void   rpc_reply(struct rpc_ep *ep, struct rpc_in *in, struct rmsg *reply, int save);
void   rpc_done(struct rpc_ep *ep, struct rpc_in *in);
/* A call already answered (its reply is sent again: 1), or 0. */
int    rpc_dup_answer(struct rpc_ep *ep, struct rpc_in *in);
void   rpc_forget(struct rpc_ep *ep);              /* a crash: calls queued, partial, the cache */

#endif
