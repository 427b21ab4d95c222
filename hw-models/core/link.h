/*
 * link.h: one modelled Ethernet link in time, pure arithmetic (link.c).
 *
 * The link joins two machines, full duplex: each direction is a wire of
 * its own, owned by its sender, which alone decides when each of its
 * frames arrives.  A frame handed to the sender's NIC at t_send:
 *
 *   starts   = max(t_send + nic_tx, wire_free)
 *   t_arr    = starts + serialisation + latency + nic_rx
 *   wire_free = starts + serialisation + inter-frame gap
 *
 * where serialisation is the preamble and the frame with its FCS, padded
 * to the minimum frame, at the link's bit rate.  Times are on the common
 * timeline (both machines count from their boot, which is the same
 * moment), in the model's units: link_init() is told how many make a ns
 * (the QEMU plugin: millicycles, clock_khz / 1000 of them; the unit test:
 * ns), and every delay is rounded into them once, so that no time ever
 * rounds again.  docs/network.md gives the numbers and their sources.
 *
 * The least t_arr - t_send over all frames, the link's lookahead, is what
 * lets two machines run apart from each other (wire.c): a frame sent at t
 * cannot arrive before t + lookahead.
 *
 * For tests the link may lose or damage frames: every drop_every-th frame
 * of a direction is lost, every corrupt_every-th has one bit flipped (which
 * bit: a function of the frame's number).  Frames longer than max_frame are
 * not sent at all (counted: a real NIC would refuse them), and a sender
 * that gets more than LINK_TX_QUEUE frames ahead of its wire loses the
 * excess (counted: its NIC's transmit queue is full).
 */
#ifndef HWMODEL_LINK_H
#define HWMODEL_LINK_H

#include <stdbool.h>
#include <stdint.h>

/* Frames a NIC holds waiting for its wire (virtio-net's queue is 32 long;
 * the LANCE drivers of the period used 16 or 32 transmit descriptors). */
#define LINK_TX_QUEUE 32

struct link_params {
    double mbps;                        /* bit rate, 10^6 bit/s */
    double latency_ns;                  /* propagation: first bit out to first bit in */
    double nic_tx_ns, nic_rx_ns;        /* each NIC's own delay per frame */
    uint32_t preamble;                  /* bytes before the frame (preamble + SFD) */
    uint32_t ifg;                       /* inter-frame gap, in byte times */
    uint32_t fcs;                       /* the frame check sequence's bytes */
    uint32_t min_frame, max_frame;      /* with the FCS; shorter ones are padded */
    uint64_t drop_every, corrupt_every; /* 0: never (tests only) */
};

/* What becomes of a frame. */
enum link_fate { LINK_DELIVER, LINK_DROP, LINK_CORRUPT, LINK_OVERSIZE, LINK_OVERFLOW };

/* One direction: its sender's state. */
struct link {
    struct link_params p;
    uint64_t ps_per_bit;                /* the bit time, in picoseconds */
    uint64_t num, den;                  /* num / den units make a ns */
    uint64_t nic_tx, nic_rx, latency;   /* in units */
    uint64_t wire_free;                 /* the wire may start the next frame then */
    uint64_t starts[LINK_TX_QUEUE];     /* when recent frames start on the wire (a ring) */
    uint64_t frames;                    /* frames offered to it, each numbered from 1 */
    uint64_t fate[LINK_OVERFLOW + 1];   /* how many met each fate */
    uint64_t bytes;                     /* bytes of the frames delivered or corrupted */
};

/* What is wrong with p, naming the parameter (params.def's link.*), or NULL. */
const char *link_check(const struct link_params *p);
/* num / den units make one ns (1, 1: ns). */
void link_init(struct link *l, const struct link_params *p, uint64_t num, uint64_t den);
/* Units on the wire for a frame of len bytes (without its FCS), preamble
 * and padding included, gap excluded. */
uint64_t link_wire_ns(const struct link *l, uint32_t len);
/* The least t_arr - t_send: a minimum frame on an idle wire. */
uint64_t link_lookahead(const struct link *l);
/* The earliest a frame handed to the NIC at t_send or later can arrive,
 * given the frames already sent: a minimum frame, started when the wire
 * is free of them.  t_send + the lookahead on an idle wire; later while
 * the wire still carries earlier frames (wire.c: how far the peer may run). */
uint64_t link_first_arrival(const struct link *l, uint64_t t_send);
/* A frame of len bytes (without FCS) handed to the NIC at t_send: its
 * arrival time and its fate; for LINK_CORRUPT, *bit is the bit to flip
 * (< 8 * len).  LINK_OVERSIZE and LINK_OVERFLOW frames take no wire time. */
uint64_t link_send(struct link *l, uint64_t t_send, uint32_t len, enum link_fate *fate,
                   uint32_t *bit);

#endif
