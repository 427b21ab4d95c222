/*
 * vax_ether.c: the Ethernet under our SIMH's DELQA (SIMH's XQ,
 * PDP11/pdp11_xq.c).  SIMH reaches a network through sim_ether.c's
 * interface (eth_open, eth_read, eth_write, eth_filter ...), which it
 * serves with libpcap; our build has none, so vax-model.patch leaves those
 * functions out and this file serves them instead, with a transport named
 * when the XQ is attached:
 *
 *   attach xq dgram:LOCAL,REMOTE
 *      Unix datagram sockets, one frame per datagram, as QEMU's
 *      `-netdev dgram,local.type=unix,...,remote.type=unix,...` does: the
 *      XQ takes frames from the socket it binds at LOCAL and sends to
 *      REMOTE, so a VAX can talk to another SIMH, a QEMU guest or a host
 *      program (harness/guest/netpair.py, netflood.py).  Frames arrive when
 *      the host delivers them: the service looks for them every
 *      DGRAM_POLL instructions.  For development and functional tests, not
 *      timing.
 *
 *      A guest that waits for such a frame must let host time pass: our
 *      VAX kernel's idle loop moves its clock straight to its next
 *      deadline (kernel/arch/vax/timer.c), and TCP's retransmission timer
 *      would fire, again and again, before the other machine had run at
 *      all.  So while the XQ is on this transport, a forward move of the
 *      clock (vax_clock_skip, called by the KA655's timer, patched) first
 *      waits in host time, as QEMU's -icount sleep=on does: until a frame
 *      arrives (which the XQ then takes), a key is typed, or the time has
 *      passed; the clock moves by the time waited.
 *
 *   attach xq wire
 *      The deterministic two-machine link (docs/network.md, "Two machines
 *      in step"): frames go to and come from the hardware model's wire
 *      (hw-models/core/wire.c), which the MODEL command's wire= opens
 *      (after this attach: the harness's script has the XQ's commands
 *      first).  A frame the XQ sends goes on the wire stamped with the
 *      model's time (vax_wire.c); a frame the wire delivers, at its
 *      modelled time, comes in through vax_ether_inject(), which hands it
 *      to the XQ at once.  While the guest's receive list is stopped the
 *      frames wait here, in the card's queue, and the XQ's service looks
 *      again every WIRE_POLL instructions until they have all gone in.
 *      No host time anywhere: the guest's idle goes through the wire's
 *      idle rule (vax_wire.c), not vax_clock_skip.
 *
 * What the DELQA does with a frame (its address filter, the receive list,
 * the interrupt) is SIMH's; this file only moves frames.  On dgram it
 * applies the filter the XQ sets (eth_filter: its setup frame's
 * addresses, all multicast, promiscuous), as the packet filter under pcap
 * would.  On the wire it does not: the model counts every frame it
 * delivers as one the guest's driver must take (wire_idle's `taken`), and
 * our driver runs the card promiscuous anyway (kernel/arch/vax/delqa.c).
 *
 * Taking frames: the XQ's service (xq_svc, patched) reads one frame at a
 * time, and only when the last one went into the guest's receive list;
 * the rest wait in the socket, whose sender then waits too.
 *
 * Interrupts: SIMH's CPU looks again at the devices' interrupt requests
 * (SET_IRQL) after each event it runs, and after an instruction that
 * changes the IPL; a device called from anywhere else (here: the XQ from
 * a clock skip, and its transmit from inside the guest's register write)
 * must say so itself, or its interrupt waits for the next event.
 */
#include "vax_defs.h"                  /* SET_IRQL */
#include "sim_ether.h"
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define DGRAM_POLL   2000          /* instructions between looks at the socket */
#define WIRE_POLL    200           /* ... at the wire's queue, while it holds frames */
#define WIRE_QUEUE   256           /* frames the card holds for a stopped list */

extern int32 trpirq;                            /* vax_cpu.c (SET_IRQL) */
extern int32 eval_int (void);

uint32 (*vax_clock_skip) (uint32 ns) = NULL;    /* vax_sysdev.c calls it */
static ETH_DEV *waiting_dev;                    /* the XQ's, for the skip */

struct transport {
    int wire;                      /* 1: the model's wire, 0: dgram       */
    int fd;                        /* dgram: our bound socket             */
    struct sockaddr_un remote;     /* ... where frames go                 */
    char local[sizeof(((struct sockaddr_un *) 0)->sun_path)];
};

static int unix_address (struct sockaddr_un *a, const char *path)
{
memset (a, 0, sizeof (*a));
a->sun_family = AF_UNIX;
if (strlen (path) >= sizeof (a->sun_path))
    return -1;
strcpy (a->sun_path, path);
return 0;
}

/* "dgram:LOCAL,REMOTE" */
static t_stat open_dgram (struct transport *t, const char *spec)
{
char buf[2 * sizeof (t->remote.sun_path) + 2];
char *comma;
struct sockaddr_un local;

if (strlen (spec) >= sizeof (buf))
    return SCPE_ARG;
strcpy (buf, spec);
comma = strchr (buf, ',');
if (comma == NULL || comma == buf || comma[1] == 0) {
    printf ("XQ: dgram:LOCAL,REMOTE needs both socket paths\n");
    return SCPE_ARG;
    }
*comma = 0;
if (unix_address (&local, buf) || unix_address (&t->remote, comma + 1)) {
    printf ("XQ: socket path too long\n");
    return SCPE_ARG;
    }
t->fd = socket (AF_UNIX, SOCK_DGRAM, 0);
if (t->fd < 0)
    return SCPE_OPENERR;
unlink (buf);
if (bind (t->fd, (struct sockaddr *) &local, sizeof (local)) < 0) {
    printf ("XQ: cannot bind %s: %s\n", buf, strerror (errno));
    close (t->fd);
    return SCPE_OPENERR;
    }
strcpy (t->local, buf);
return SCPE_OK;
}

static t_uint64 host_ns (void)
{
struct timespec ts;

clock_gettime (CLOCK_MONOTONIC, &ts);
return (t_uint64) ts.tv_sec * 1000000000u + (t_uint64) ts.tv_nsec;
}

/* The guest moves its clock ns forward: wait that long in host time, or
   until a frame comes (the XQ's service takes it at once) or a key is
   typed on the console (SIMH's, on stdin); how long it waited. */
static uint32 dgram_clock_skip (uint32 ns)
{
struct transport *t = (struct transport *) waiting_dev->handle;
t_uint64 start = host_ns (), waited = 0;
struct pollfd fds[2];
UNIT *xq = waiting_dev->dptr->units;

fds[0].fd = t->fd;
fds[0].events = POLLIN;
fds[1].fd = 0;
fds[1].events = POLLIN;
while (waited < ns) {
    int ms = (int) ((ns - waited + 999999) / 1000000);
    int n = poll (fds, 2, ms);
    waited = host_ns () - start;
    if (n > 0) {
        if (fds[0].revents & POLLIN) {
            xq->action (xq);                    /* the frame in, RI raised ... */
            SET_IRQL;                           /* ... and seen at once */
            }
        break;
        }
    if (n < 0 && errno != EINTR)
        break;
    }
return waited < ns? (uint32) waited: ns;
}

/* ------------------------------------------------------------ wire */

extern int vax_wire_send (const uint8 *frame, uint32 len);     /* vax_wire.c */

static ETH_DEV *wire_dev;                       /* the XQ's, on the wire */
static struct {
    uint32 len;
    uint8 data[ETH_FRAME_SIZE];
} wire_queue[WIRE_QUEUE];
static uint32 wq_head, wq_tail;                 /* frames put in, taken by the XQ */

/* Whether the XQ is attached to the wire (vax_wire.c checks, at MODEL). */
int vax_ether_on_wire (void)
{
return wire_dev != NULL;
}

/* A frame from the wire, due now: into the card's queue, and the card
   takes what it can at once (its service: into the guest's receive list,
   the receive interrupt requested), seen before the next instruction. */
void vax_ether_inject (const uint8 *frame, uint32 len)
{
UNIT *xq;

if (wire_dev == NULL)
    return;
if (wq_head - wq_tail >= WIRE_QUEUE) {
    fprintf (stderr, "XQ: nic_not_receiving: %d frames wait for the guest's receive "
             "list\n", WIRE_QUEUE);
    exit (3);
    }
if (len > ETH_FRAME_SIZE)                       /* (wire.h's frames are shorter) */
    len = ETH_FRAME_SIZE;
wire_queue[wq_head % WIRE_QUEUE].len = len;
memcpy (wire_queue[wq_head % WIRE_QUEUE].data, frame, len);
wq_head++;
xq = wire_dev->dptr->units;
xq->action (xq);
SET_IRQL;
}

static t_stat open_wire (ETH_DEV* dev, struct transport *t)
{
if (wire_dev != NULL) {
    printf ("XQ: only one card on the wire\n");
    return SCPE_ARG;
    }
t->wire = 1;
wire_dev = dev;
wq_head = wq_tail = 0;
return SCPE_OK;
}

/* ------------------------------------------------------------ either */

t_stat eth_open (ETH_DEV* dev, char* name, DEVICE* dptr, uint32 dbit)
{
struct transport *t;
t_stat r;

memset (dev, 0, sizeof (*dev));
t = (struct transport *) calloc (1, sizeof (*t));
if (t == NULL)
    return SCPE_MEM;
t->fd = -1;
if (strncmp (name, "dgram:", 6) == 0)
    r = open_dgram (t, name + 6);
else if (strcmp (name, "wire") == 0)
    r = open_wire (dev, t);
else {
    printf ("XQ: unknown transport \"%s\" (dgram:LOCAL,REMOTE or wire)\n", name);
    r = SCPE_ARG;
    }
if (r != SCPE_OK) {
    free (t);
    return r;
    }
dev->name = name;
dev->handle = t;
dev->dptr = dptr;
dev->dbit = dbit;
if (!t->wire) {
    waiting_dev = dev;
    vax_clock_skip = dgram_clock_skip;
    }
return SCPE_OK;
}

t_stat eth_close (ETH_DEV* dev)
{
struct transport *t = (struct transport *) dev->handle;

if (t == NULL)
    return SCPE_UNATT;
if (waiting_dev == dev) {
    vax_clock_skip = NULL;
    waiting_dev = NULL;
    }
if (wire_dev == dev)
    wire_dev = NULL;
if (t->fd >= 0) {
    close (t->fd);
    unlink (t->local);
    }
free (t);
dev->handle = NULL;
return SCPE_OK;
}

int32 eth_service_interval (ETH_DEV* dev)
{
struct transport *t = (struct transport *) (dev? dev->handle: NULL);

if (t != NULL && t->wire)                       /* only while frames wait */
    return wq_head != wq_tail? WIRE_POLL: 0;
return DGRAM_POLL;
}

t_stat eth_write (ETH_DEV* dev, ETH_PACK* packet, ETH_PCALLBACK routine)
{
struct transport *t = (struct transport *) (dev? dev->handle: NULL);
int status;

if (t == NULL)
    return SCPE_UNATT;
eth_packet_trace (dev, packet->msg, packet->len, "writing");
if (t->wire) {
    status = vax_wire_send (packet->msg, (uint32) packet->len) == 0? 0: 1;
    if (status)
        printf ("XQ: attached to the wire, but the model has no wire= (MODEL)\n");
    }
else status = sendto (t->fd, packet->msg, packet->len, 0,
                 (struct sockaddr *) &t->remote, sizeof (t->remote)) == packet->len? 0: 1;
if (routine)
    (routine) (status);                    /* XI requested ... */
SET_IRQL;                                  /* ... and seen at the next instruction */
return SCPE_OK;
}

/* Whether the XQ's filter lets a frame to `dst` in. */
static int wanted (ETH_DEV* dev, const uint8 *dst)
{
int i;

if (dev->promiscuous || (dev->all_multicast && (dst[0] & 1)))
    return 1;
for (i = 0; i < dev->addr_count; i++)
    if (memcmp (dst, dev->filter_address[i], 6) == 0)
        return 1;
return 0;
}

/* The next frame the filter lets in, through the callback; none if the
   socket has none left. */
t_stat eth_read (ETH_DEV* dev, ETH_PACK* packet, ETH_PCALLBACK routine)
{
struct transport *t = (struct transport *) (dev? dev->handle: NULL);
ssize_t n;

if (t == NULL)
    return SCPE_UNATT;
packet->len = 0;
if (t->wire) {                                  /* the next frame the wire brought */
    if (wq_head == wq_tail)
        return SCPE_OK;
    packet->len = (int) wire_queue[wq_tail % WIRE_QUEUE].len;
    memcpy (packet->msg, wire_queue[wq_tail % WIRE_QUEUE].data, (size_t) packet->len);
    wq_tail++;
    packet->crc_len = 0;
    packet->used = 0;
    eth_packet_trace (dev, packet->msg, packet->len, "reading");
    if (routine)
        (routine) (0);
    return SCPE_OK;
    }
for (;;) {
    n = recv (t->fd, packet->msg, ETH_FRAME_SIZE, MSG_DONTWAIT);
    if (n <= 0)
        return SCPE_OK;
    if (n >= 6 && !wanted (dev, packet->msg))
        continue;
    packet->len = (int) n;
    packet->crc_len = 0;
    packet->used = 0;
    eth_packet_trace (dev, packet->msg, packet->len, "reading");
    if (routine)
        (routine) (0);
    return SCPE_OK;
    }
}

t_stat eth_filter (ETH_DEV* dev, int addr_count, ETH_MAC* addresses,
                   ETH_BOOL all_multicast, ETH_BOOL promiscuous)
{
int i;

if (!dev)
    return SCPE_UNATT;
if (addr_count > ETH_FILTER_MAX)
    return SCPE_ARG;
for (i = 0; i < addr_count; i++)
    memcpy (dev->filter_address[i], addresses[i], sizeof (ETH_MAC));
dev->addr_count = addr_count;
dev->all_multicast = all_multicast;
dev->promiscuous = promiscuous;
return SCPE_OK;
}

/* No host interfaces to list: the transports are named, not found. */
int eth_devices (int max, ETH_LIST* list)
{
return 0;
}
