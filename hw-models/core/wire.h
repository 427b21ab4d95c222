/*
 * wire.h: two machines on one modelled Ethernet, each in its own emulator
 * process, kept in step on modelled time (wire.c; docs/network.md has the
 * design and the argument for its determinism).
 *
 * The harness creates one shared-memory file for the pair (WIRE_MAGIC
 * below: harness/net/wire.py writes the header) and gives its path and a
 * node number, 0 or 1, to each machine's model.  In it each node
 * publishes how far it may have got (`msf` and `first_arrival`, below) and
 * receives its frames in a ring that only its peer writes.  No third
 * process decides anything: each node works out from what the other
 * published how far it may run (its horizon) and stops there until the
 * other has moved on.
 *
 * Times are on the common timeline: both models count from their
 * machine's boot, and both boot at 0.  Their unit is the front end's
 * (wire_open: the QEMU plugin's millicycles; the two machines have the
 * same profile, so the same clock), so that a frame's arrival is an exact
 * number of them after its sending and nothing rounds twice.
 *
 * A machine boots off the wire: it joins at its kernel's first idle
 * (wire.c, "Booting"), and until then its check points do nothing.
 *
 * A front end (the QEMU plugin, hw-models/qemu/net.c; our SIMH,
 * hw-models/simh/vax_wire.c) calls, with the model's current time:
 *   wire_check()   at check points, one every wire_quantum() ns of the
 *                  machine's execution counted without stalls (below),
 *                  once it has joined (wire_joined(); before, none): it
 *                  publishes the time, hands the guest each frame now due
 *                  (inject()), waits until it knows every frame due within
 *                  the next quantum, and returns the first of those still
 *                  to come;
 *   wire_batch()   at that frame's time, measured from the check point (its
 *                  time + the difference in static cost): it hands the
 *                  guest the frames of the batch now due and returns the
 *                  next one's time;
 *   wire_send()    for each frame the guest's NIC transmits;
 *   wire_idle()    where the guest's kernel idles, with the time to its
 *                  next timer deadline and the frames it has taken from its
 *                  NIC: it returns the time the machine wakes at (a frame's
 *                  arrival, the deadline) or, when a frame it has not taken
 *                  or a console character is on its way, at once; a check
 *                  point follows at once;
 *   wire_console_taken()  for each character the guest takes from its
 *                  console, so that it knows when one is on its way.
 * With wire_record= or wire_replay= the same calls record a node's frames
 * or play them again to one machine alone (replay.h).
 * "Counted without stalls": the check points and the batch's times must
 * fall where the guest's execution alone puts them, so a front end counts
 * the distance to the next one in the static cost of the instructions run
 * (QEMU: an inline counter), never in memory or disk stalls, which it adds
 * to the clock elsewhere.  A check point comes late by the stalls since
 * the last one; the same stalls every run, so the same lateness.
 * inject() must leave the frame in the NIC with its interrupt raised
 * before it returns: the machine then takes it at the next instruction
 * boundary it checks interrupts at, wherever the host happened to be.
 */
#ifndef HWMODEL_WIRE_H
#define HWMODEL_WIRE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "link.h"

/* ---- the shared file: harness/net/wire.py writes its header and keeps
 * these numbers in step (tests/unit/test_wire.py compares them) ---- */
#define WIRE_MAGIC      "ousterhout-wire"       /* 16 bytes with its NUL */
#define WIRE_VERSION    1
#define WIRE_NODES      2
#define WIRE_RING       256                     /* frames per direction */
#define WIRE_FRAME_MAX  2048                    /* bytes a frame may have: more than
                                                   any NIC takes (tests send longer
                                                   than Ethernet allows) */
#define WIRE_NEVER      UINT64_MAX              /* a time that never comes */

/* wire_node.sleeping: how a node waits on its bell. */
#define SLEEP_RUN       1                       /* for its peer's time, running */
#define SLEEP_IDLE      2                       /* idle, for a frame or its peer */

struct wire_frame {
    uint64_t t_arr;                             /* when it arrives */
    uint32_t len;
    uint32_t flags;                             /* unused */
    uint8_t data[WIRE_FRAME_MAX];
};

/* One node's part: four cache lines, each written by one party, then the
 * ring of frames to it. */
struct wire_node {
    /* Written by this node. */
    _Atomic uint64_t msf;               /* "may send from": the earliest time at
                                           which this node may still send a frame,
                                           frames to it aside: while running its
                                           time; idle, its next deadline or local
                                           event; WIRE_NEVER idle with neither, or
                                           done (the peer reads first_arrival,
                                           made from it; tests read it) */
    _Atomic uint64_t first_arrival;     /* the earliest a frame it may still send can
                                           arrive: msf + the lookahead, or later
                                           while its wire is busy with frames it
                                           sent (link_first_arrival); WIRE_NEVER
                                           with msf */
    _Atomic uint64_t acked_now;         /* its time when it acknowledged ... */
    _Atomic uint32_t acked;             /* ... the peer's ack_req of this value */
    _Atomic uint32_t ack_req;           /* bumped when its msf went down (a
                                           console wake): the peer must say how
                                           far it has got */
    _Atomic uint32_t done;              /* the machine has stopped */
    _Atomic uint32_t sleeping;          /* it waits on `bell`: SLEEP_RUN at a check
                                           point or the like, SLEEP_IDLE idle */
    _Atomic uint64_t want;              /* ... for the peer's first_arrival to
                                           pass this */
    _Atomic uint32_t pid;               /* its emulator's process (a peer that
                                           died without saying done is done) */
    uint32_t pad0;
    _Atomic uint64_t joined;            /* 1 + its time when it joined the wire
                                           (wire.c, "Booting"); 0: not yet */
    /* Written by whoever wakes this node: its peer, the harness. */
    _Atomic uint32_t bell;              /* futex word: bumped for each wake */
    _Atomic uint32_t pinned;            /* 1 + the CPU its peer pinned its thread to
                                           when it woke it (wire.c, "Sharing a
                                           core"); 0: not pinned */
    _Atomic uint64_t input;             /* console characters the harness wrote */
    /* Written by this node (here to keep the offsets above): host time
     * only, for a peer deciding whether to look or sleep (wire.c,
     * look_until); nothing modelled depends on them. */
    _Atomic uint64_t check_host;        /* host ns of its last check point */
    _Atomic uint64_t check_gap;         /* host ns between its check points, averaged */
    _Atomic uint32_t tid;               /* the host thread that runs it (0: not yet) */
    _Atomic uint32_t cpu;               /* 1 + the host CPU it last ran on */
    _Atomic uint64_t rung_host;         /* host ns when its peer last woke it (written
                                           by the peer) */
    uint8_t pad2[16];
    /* The ring of frames to this node: head by the peer, tail by this node. */
    _Atomic uint64_t head;
    uint8_t pad3[56];
    _Atomic uint64_t tail;
    uint8_t pad4[56];
    struct wire_frame ring[WIRE_RING];
};

struct wire_shm {
    char magic[16];
    uint32_t version, nodes, ring, frame_max;
    uint8_t pad[32];
    struct wire_node node[WIRE_NODES];
};

/* ---- what a model is given ---- */
struct wire_params {
    const char *path;                   /* the shared file, or NULL: no wire */
    uint32_t node;                      /* 0 or 1 */
    struct link_params link;
    /* Malformed frames for this node (tests): a file of frames, each a
     * 2-byte big-endian length and its bytes, delivered one every
     * garbage_every_ns from garbage_start_ns on. */
    const char *garbage;
    uint64_t garbage_start_ns, garbage_every_ns;
    bool share_core;                    /* host scheduling only: wire.c, "Sharing a core" */
    /* Write down the frames this node takes, or play such a recording as
     * its peer (replay.h); NULL: neither. */
    const char *record, *replay;
};

/* Why wire_idle() returned. */
enum wire_wake { WIRE_WAKE_FRAME, WIRE_WAKE_DEADLINE, WIRE_WAKE_INPUT };

typedef void (*wire_inject_fn)(const uint8_t *frame, uint32_t len);

/* What the node has done, all deterministic. */
struct wire_stats {
    uint64_t tx_frames, tx_bytes;       /* handed to the link by the guest */
    uint64_t fate[LINK_OVERFLOW + 1];   /* what the link made of them (link.h) */
    uint64_t rx_frames, rx_bytes;       /* injected into the guest, garbage too */
    uint64_t garbage;                   /* of those, malformed ones from the file */
    uint64_t idle;                      /* time jumped over while idle (units) */
    uint64_t input_wakes;
    uint64_t lookahead;                 /* units */
    uint64_t joined;                    /* the time it joined the wire (units) */
    uint64_t tx_unjoined;               /* frames sent before it joined: dropped */
};

/* What waiting cost the host: not deterministic (HWNETHOST, like HWTOTAL's
 * times, may differ between runs). */
struct wire_host {
    uint64_t checks, sleeps, wakes, sleep_ns;
    uint64_t looks_won, looks_lost;     /* waits ended by looking; looks that gave up */
    uint64_t timeouts;                  /* check points' and idles' sleeps that no ring
                                           ended, a second each: a wake missed */
    uint64_t pins, unpins;              /* the peer's thread put on my core; mine let go
                                           (wire.c, "Sharing a core") */
};

/* Open the shared file and the link, num / den time units making a ns;
 * an error message, or NULL. */
const char *wire_open(const struct wire_params *p, uint64_t num, uint64_t den);
bool wire_on(void);
/* The machine has stopped or powers off: its peer runs on without it;
 * from now on nothing goes in or out, and no check point waits. */
void wire_close(void);

/* Join the wire at `now`, the machine's first idle (wire_idle does it):
 * wait for the peer to join too; the time both go on from, the later of
 * the two joining times.  Until then check points do nothing. */
uint64_t wire_join(uint64_t now);
bool wire_joined(void);
uint64_t wire_lookahead(void);
uint64_t wire_quantum(void);
uint64_t wire_horizon(void);            /* how far this node may run (tests) */
/* A check point at `now` (see the top): the time of the next frame of the
 * batch, or WIRE_NEVER. */
uint64_t wire_check(uint64_t now, wire_inject_fn inject);
/* At a batch frame's time: the time of the next one, or WIRE_NEVER. */
uint64_t wire_batch(uint64_t now, wire_inject_fn inject);
/* The guest's NIC transmitted a frame at t_send. */
void wire_send(uint64_t t_send, const uint8_t *frame, uint32_t len);
/* Idle at `now` with the next timer deadline `dist` ns away (0: none),
 * the guest having taken `taken` frames from its NIC (mod 2^32): the time
 * the machine wakes at, and why.  At once if it has not taken every frame
 * injected: that frame's interrupt is pending. */
uint64_t wire_idle(uint64_t now, uint64_t dist, uint64_t taken, wire_inject_fn inject,
                   enum wire_wake *why);
void wire_console_taken(void);
void wire_get_stats(struct wire_stats *s);
void wire_get_host(struct wire_host *h);

#endif
