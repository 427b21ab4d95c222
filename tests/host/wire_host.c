/*
 * The modelled Ethernet's core (hw-models/core/link.c, wire.c) on the host,
 * without an emulator (tests/unit/test_wire.py runs it):
 *
 *   wire_host link                 the link's arithmetic, values asserted
 *   wire_host rules FILE           one node against a peer played by hand
 *                                  in the shared file: booting off the
 *                                  wire, horizons, check points, idling,
 *                                  a console wake
 *   wire_host layout               the shared file's layout, for the harness
 *   wire_host oneway MBPS TX RX LAT LEN...   one frame's arrival on an idle wire
 *   wire_host file FILE            an empty shared file
 *   wire_host typed FILE N NOW     node N, idle at NOW, woken by a character
 *   wire_host node FILE N SEED     one node of a simulated ping-pong (below);
 *                                  SEED jitters the host timing
 *
 * Each check prints "ok NAME" or "FAIL NAME: ..."; the last line is
 * "done N failed".  A node prints its trace: every frame it received, with
 * the time it took it, and every frame it sent.
 *
 * The simulated machine: time advances in steps of STEP ns (a translated
 * block), with a check point wherever wire_check() asked for one; a frame
 * injected at a check point is "taken" at the next step, as a QEMU guest
 * takes its interrupt at the next block; every fifth block stalls (as a
 * cache miss would), which moves the clock but not the check points.
 * Each boots off the wire first (node 0 longer, sending a frame that is
 * dropped) and joins at its first idle.  Node 0 sends ROUNDS requests,
 * each after some work, and idles until the reply; node 1 idles until a
 * request, works, and replies, and then works on, sending up to two
 * notices that node 0 takes while it works.  Both traces, every injection's time included, must come out the same
 * whatever the host does in between (the jitter: random sleeps).
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "link.h"
#include "wire.h"

static int failed;

static void check(int ok, const char *name, const char *fmt, ...)
{
    if (ok) {
        printf("ok %s\n", name);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", name);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failed++;
}

static void eq(const char *name, uint64_t got, uint64_t want)
{
    check(got == want, name, "%llu, want %llu", (unsigned long long)got,
          (unsigned long long)want);
}

#define EQ(name, got, want) eq(name, (uint64_t)(got), (uint64_t)(want))

/* 10 Mb/s Ethernet (IEEE 802.3), with the NIC latencies given. */
static struct link_params ether(double tx, double rx, double lat)
{
    struct link_params p = { .mbps = 10, .latency_ns = lat, .nic_tx_ns = tx, .nic_rx_ns = rx,
                             .preamble = 8, .ifg = 12, .fcs = 4, .min_frame = 64,
                             .max_frame = 1518 };
    return p;
}

static void test_link(void)
{
    struct link l;
    struct link_params p = ether(0, 0, 0);
    enum link_fate f;
    uint32_t bit;
    check(link_check(&p) == NULL, "link_valid", "%s", link_check(&p));
    link_init(&l, &p, 1, 1);
    EQ("bit_ps", l.ps_per_bit, 100000);
    EQ("wire_min", link_wire_ns(&l, 0), 57600);           /* (8 + 64) bytes x 800 ns */
    EQ("wire_60", link_wire_ns(&l, 60), 57600);           /* padded to 64 with its FCS */
    EQ("wire_61", link_wire_ns(&l, 61), 58400);
    EQ("wire_max", link_wire_ns(&l, 1514), 1220800);      /* (8 + 1518) x 800 */
    EQ("lookahead", link_lookahead(&l), 57600);
    /* Two minimum frames back to back: the second waits for the first and
     * the 9.6 us gap. */
    EQ("arrive_1", link_send(&l, 0, 60, &f, &bit), 57600);
    EQ("fate_1", f, LINK_DELIVER);
    EQ("arrive_2", link_send(&l, 0, 60, &f, &bit), 57600 + 9600 + 57600);
    /* Long after: the wire is idle again. */
    EQ("arrive_idle", link_send(&l, 10000000, 1514, &f, &bit), 10000000 + 1220800);

    p = ether(5000, 3000, 250);
    link_init(&l, &p, 1, 1);
    EQ("lookahead_nic", link_lookahead(&l), 5000 + 57600 + 250 + 3000);
    /* An idle wire: the earliest arrival is the lookahead away. */
    EQ("first_arrival_idle", link_first_arrival(&l, 1000), 1000 + link_lookahead(&l));
    EQ("arrive_nic", link_send(&l, 1000, 100, &f, &bit), 1000 + 5000 + 112 * 800 + 250 + 3000);
    /* That frame holds the wire until 1000 + 5000 + 112 x 800 + the gap:
     * a minimum frame handed over at once starts only then. */
    EQ("first_arrival_busy", link_first_arrival(&l, 1000),
       1000 + 5000 + 112 * 800 + 9600 + 57600 + 250 + 3000);
    EQ("first_arrival_free_again", link_first_arrival(&l, 1000000), 1000000 + link_lookahead(&l));

    /* Loss and damage, counted by frame number. */
    p = ether(0, 0, 0);
    p.drop_every = 3;
    p.corrupt_every = 2;
    link_init(&l, &p, 1, 1);
    enum link_fate want[] = { LINK_DELIVER, LINK_CORRUPT, LINK_DROP, LINK_CORRUPT,
                              LINK_DELIVER, LINK_DROP };
    int ok = 1;
    for (int i = 0; i < 6; i++) {
        link_send(&l, (uint64_t)i * 1000000, 100, &f, &bit);
        ok &= f == want[i] && bit < 800;
    }
    check(ok, "drop_corrupt", "fates differ");
    EQ("dropped", l.fate[LINK_DROP], 2);
    EQ("corrupted", l.fate[LINK_CORRUPT], 2);
    EQ("bytes", l.bytes, 400);

    /* Too long: not sent.  Too many at once: the 34th finds the queue full
     * (one on the wire, LINK_TX_QUEUE waiting). */
    p = ether(0, 0, 0);
    link_init(&l, &p, 1, 1);
    link_send(&l, 0, 1515, &f, &bit);
    EQ("oversize", f, LINK_OVERSIZE);
    int went = 0;
    for (int i = 0; i < 40; i++) {
        link_send(&l, 0, 60, &f, &bit);
        went += f == LINK_DELIVER;
    }
    EQ("queue", went, LINK_TX_QUEUE + 1);
    EQ("overflow", l.fate[LINK_OVERFLOW], 40 - LINK_TX_QUEUE - 1);

    p = ether(0, 0, 0);
    p.mbps = 0;
    check(link_check(&p) != NULL && strstr(link_check(&p), "link.bandwidth_mbps"), "bad_mbps",
          "not refused by name");
    p = ether(0, 0, 0);
    p.min_frame = 2000;
    check(link_check(&p) != NULL && strstr(link_check(&p), "link.min_frame"), "bad_min",
          "not refused by name");
}

/* ------------------------------------------------------------ the file */

static struct wire_shm *make_file(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, sizeof(struct wire_shm)) < 0) {
        perror(path);
        exit(2);
    }
    struct wire_shm *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    memcpy(s->magic, WIRE_MAGIC, sizeof(WIRE_MAGIC));
    s->version = WIRE_VERSION;
    s->nodes = WIRE_NODES;
    s->ring = WIRE_RING;
    s->frame_max = WIRE_FRAME_MAX;
    return s;
}

/* The peer (test_rules plays it) publishes msf, its wire idle. */
static void peer_at(struct wire_node *peer, uint64_t msf)
{
    atomic_store(&peer->msf, msf);
    atomic_store(&peer->first_arrival, msf == WIRE_NEVER ? WIRE_NEVER : msf + wire_lookahead());
}

/* The peer, later: it runs on by L and rings my bell, as wire.c would. */
static void *peer_moves_on(void *arg)
{
    struct wire_shm *s = arg;
    usleep(20000);
    peer_at(&s->node[1], atomic_load(&s->node[1].msf) + wire_lookahead());
    atomic_fetch_add(&s->node[0].bell, 1);
    syscall(SYS_futex, &s->node[0].bell, FUTEX_WAKE, 1, NULL, NULL, 0);
    return NULL;
}

static uint32_t injected[64];
static uint64_t n_injected;

static void record(const uint8_t *frame, uint32_t len)
{
    if (n_injected < 64)
        injected[n_injected] = len ? frame[0] : 0;
    n_injected++;
}

/* Node 0 against a node 1 played by writing its part of the file. */
static void test_rules(const char *path)
{
    struct wire_shm *s = make_file(path);
    struct wire_node *peer = &s->node[1];
    struct wire_params p = { .path = path, .node = 0, .link = ether(0, 0, 0) };
    const char *err = wire_open(&p, 1, 1);
    check(err == NULL, "open", "%s", err);
    uint64_t L = wire_lookahead(), Q = wire_quantum();
    peer_at(peer, 0);                   /* (what its wire_open publishes) */
    EQ("rules_lookahead", L, 57600);
    EQ("rules_quantum", Q, 57600 / 4);

    /* Booting, off the wire: a check point far past the peer's reach
     * (its msf 0) neither waits nor publishes, and a frame sent is
     * dropped and counted. */
    EQ("boot_check_does_nothing", wire_check(100 * L, record), WIRE_NEVER);
    EQ("boot_check_publishes_nothing", atomic_load(&s->node[0].msf), 0);
    EQ("boot_first_arrival", atomic_load(&s->node[0].first_arrival), L);    /* as opened */
    uint8_t early[60] = { 0x10 };
    wire_send(100 * L, early, 60);
    struct wire_stats st;
    wire_get_stats(&st);
    EQ("boot_send_dropped", st.tx_unjoined, 1);
    EQ("boot_send_not_on_wire", atomic_load(&peer->head), 0);
    /* The peer joined at 0; I join at 0 too, and go on from there. */
    atomic_store(&peer->joined, 1);
    EQ("join_at", wire_join(0), 0);
    EQ("join_published", atomic_load(&s->node[0].joined), 1);

    /* A peer at 0, running: my horizon is L. */
    EQ("horizon_start", wire_horizon(), L);
    /* The peer ran on to 1 ms: a check point just short of 1 ms + L - Q
     * knows its batch at once, with nothing in it. */
    peer_at(peer, 1000000);
    EQ("horizon_peer_on", wire_horizon(), 1000000 + L);
    EQ("check_runs", wire_check(1000000 + L - Q - 1, record), WIRE_NEVER);
    EQ("check_publishes_first_arrival", atomic_load(&s->node[0].first_arrival),
       1000000 + L - Q - 1 + L);
    /* The peer's wire still carries its frames until 3 ms: nothing it
     * sends can arrive before 3 ms + L, and I may run on to there. */
    atomic_store(&peer->first_arrival, 3000000 + L);
    EQ("horizon_peer_wire_busy", wire_horizon(), 3000000 + L);
    peer_at(peer, 1000000);
    /* The peer idles, with nothing due: no horizon. */
    peer_at(peer, WIRE_NEVER);
    EQ("horizon_peer_idle", wire_horizon(), WIRE_NEVER);
    /* A frame I send it wakes it at its arrival: horizon arrival + L. */
    uint8_t f[60] = { 0x11 };
    wire_send(5000000, f, 60);
    EQ("sent_head", atomic_load(&peer->head), 1);
    EQ("sent_t_arr", peer->ring[0].t_arr, 5000000 + 57600);
    /* My wire is busy with it until its end and the gap: what I send next
     * arrives no sooner than a minimum frame after that, and the peer is
     * told so (the frame already in its ring). */
    EQ("sent_first_arrival", atomic_load(&s->node[0].first_arrival), 5000000 + 57600 + 9600 + L);
    EQ("horizon_pending", wire_horizon(), 5000000 + 57600 + L);
    /* It takes the frame (publishing first): its msf rules again. */
    peer_at(peer, 5000000 + 57600);
    atomic_store(&peer->tail, 1);
    EQ("horizon_taken", wire_horizon(), 5000000 + 57600 + L);

    /* Frames to me: due ones go in at a check point; the rest of the
     * batch (within Q) at their times; later ones at a later check. */
    struct wire_node *me = &s->node[0];
    me->ring[0] = (struct wire_frame){ .t_arr = 6000000, .len = 1, .data = { 0xa1 } };
    me->ring[1] = (struct wire_frame){ .t_arr = 6010000, .len = 1, .data = { 0xa2 } };
    me->ring[2] = (struct wire_frame){ .t_arr = 6100000, .len = 1, .data = { 0xa3 } };
    atomic_store(&me->head, 3);
    peer_at(peer, 7000000);
    n_injected = 0;
    uint64_t next = wire_check(6000000, record);
    EQ("check_injects_due", n_injected, 1);
    EQ("check_injects_first", injected[0], 0xa1);
    EQ("check_batch_next", next, 6010000);
    EQ("batch_early", wire_batch(6005000, record), 6010000);
    EQ("batch_nothing_yet", n_injected, 1);
    EQ("batch_second", wire_batch(6010003, record), WIRE_NEVER);
    EQ("batch_injects_second", injected[1], 0xa2);
    /* Past the batch's end (6 ms + Q), even a late batch call takes
     * nothing more: the third frame is for a check point. */
    EQ("batch_not_beyond", wire_batch(6200000, record), WIRE_NEVER);
    EQ("batch_kept_third", n_injected, 2);
    EQ("check_beyond_batch", wire_check(6050000, record), WIRE_NEVER);
    EQ("check_next_batch", wire_check(6090000, record), 6100000);
    EQ("tail_two", atomic_load(&me->tail), 2);
    EQ("batch_third", wire_batch(6100000, record), WIRE_NEVER);
    EQ("batch_injects_third", injected[2], 0xa3);

    /* A check point too far ahead of its peer waits for it. */
    peer_at(peer, 8000000);
    pthread_t th;
    pthread_create(&th, NULL, peer_moves_on, s);
    uint64_t before = atomic_load(&peer->msf);
    wire_check(8000000 + L - Q, record);
    uint64_t after = atomic_load(&peer->msf);
    pthread_join(th, NULL);
    check(before == 8000000 && after == 8000000 + L, "check_waits", "the check did not wait "
          "for the peer (msf %llu then %llu)", (unsigned long long)before,
          (unsigned long long)after);

    /* Idle: the next frame wakes me at its arrival, if the peer is far
     * enough on; else the deadline does. */
    me->ring[3] = (struct wire_frame){ .t_arr = 8500000, .len = 1, .data = { 0xa4 } };
    atomic_store(&me->head, 4);
    peer_at(peer, 9000000);
    enum wire_wake why;
    n_injected = 0;
    uint64_t t = wire_idle(8200000, 0, 3, record, &why);
    EQ("idle_frame_at", t, 8500000);
    EQ("idle_frame_why", why, WIRE_WAKE_FRAME);
    EQ("idle_frame_taken", n_injected, 1);
    EQ("idle_msf", atomic_load(&me->msf), 8500000);
    t = wire_idle(8600000, 200000, 4, record, &why);
    EQ("idle_deadline_at", t, 8800000);
    EQ("idle_deadline_why", why, WIRE_WAKE_DEADLINE);
    /* A frame the guest has not taken (4 in, 3 taken): at once. */
    t = wire_idle(8850000, 0, 3, record, &why);
    EQ("idle_untaken_at", t, 8850000);
    EQ("idle_untaken_why", why, WIRE_WAKE_FRAME);
    /* A console character: at once.  Idle with no deadline, my msf was
     * "never": the peer must say where it is; it is behind, so I stay. */
    atomic_store(&me->input, 1);
    atomic_store(&peer->acked, 1);          /* (what the peer will answer) */
    atomic_store(&peer->acked_now, 8000000);
    t = wire_idle(8900000, 0, 4, record, &why);
    EQ("idle_input_why", why, WIRE_WAKE_INPUT);
    EQ("idle_input_at", t, 8900000);
    EQ("idle_input_req", atomic_load(&me->ack_req), 1);
    EQ("idle_input_msf", atomic_load(&me->msf), 8900000);
    wire_console_taken();
    /* Idle with a deadline beyond the peer's reach: the peer says it is at
     * 11 ms when asked, so a console wake moves me on to 11 ms - L + 1. */
    peer_at(peer, 10900000);
    atomic_store(&me->input, 2);
    atomic_store(&peer->acked, 2);
    atomic_store(&peer->acked_now, 11000000);
    t = wire_idle(9000000, 5000000, 4, record, &why);
    EQ("input_ack_why", why, WIRE_WAKE_INPUT);
    EQ("input_ack_req", atomic_load(&me->ack_req), 2);
    EQ("input_ack_at", t, 11000000 - L + 1);
    wire_console_taken();
    /* A peer that died and was not reaped, a zombie, which kill() still
     * finds (an emulator that aborted while the harness waited on the
     * other): after the futex's second I go on alone, to my deadline. */
    pid_t z = fork();
    if (z == 0)
        _exit(0);
    usleep(100000);
    atomic_store(&peer->pid, (uint32_t)z);
    peer_at(peer, 9000000);
    uint64_t from = 11000000 - L + 1;
    t = wire_idle(from, 1000000, 4, record, &why);
    EQ("zombie_peer_gone_why", why, WIRE_WAKE_DEADLINE);
    EQ("zombie_peer_gone_at", t, from + 1000000);
    /* A peer that is done: no horizon. */
    atomic_store(&peer->done, 1);
    EQ("peer_done", wire_horizon(), WIRE_NEVER);
    wire_close();
    EQ("closed_msf", atomic_load(&me->msf), WIRE_NEVER);
}

/* ------------------------------------------------------------ ping-pong */

#define STEP 97                         /* ns per simulated block */
#define ROUNDS 300
#define EXTRA 255                       /* a frame that asks no reply */
#define NOTICE 254                      /* ... that nobody waits for: it
                                           comes while its receiver runs */

static unsigned seed;
static uint64_t pending[WIRE_RING];     /* frames injected, not yet taken */
static unsigned npending;
static uint8_t pending_id[WIRE_RING];

static void jitter(void)
{
    if (seed && rand_r(&seed) % 7 == 0)
        usleep(rand_r(&seed) % 300);
}

static int sim_node;
static uint64_t sim_now = UINT64_MAX;   /* a check point's time; MAX: idle */

/* A frame injected: what the guest's interrupt would find.  Its time is
 * the trace's: where it went in is what must not depend on the host. */
static uint64_t taken;                  /* frames injected, as a kernel counts them */

static void take(const uint8_t *frame, uint32_t len)
{
    taken++;
    if (sim_now != UINT64_MAX)
        printf("inject node=%d id=%u at=%llu\n", sim_node, frame[14],
               (unsigned long long)sim_now);
    if (frame[14] == NOTICE)
        return;                         /* news only: nobody waits for it */
    pending_id[npending] = frame[14];
    pending[npending++] = len;
}

/* A simulated machine's clock: `now` is real time, `stat` the same
 * without stalls (the part the front end counts check points in). */
struct sim {
    uint64_t now, stat;
    uint64_t g_stat, g_now;             /* at the last check point */
    uint64_t grid, batch;               /* stat of the next check point, batch frame */
};

static void grid(struct sim *m)
{
    sim_now = m->now;
    uint64_t first = wire_check(m->now, take);
    sim_now = UINT64_MAX;
    m->g_stat = m->stat;
    m->g_now = m->now;
    m->grid = m->stat + wire_quantum();
    m->batch = first == WIRE_NEVER ? UINT64_MAX : m->stat + (first - m->now);
}

/* Run `work` ns of static cost: a stall every 5th block (deterministic,
 * as a cache miss is), a check point or batch frame where they fall. */
static void run(struct sim *m, uint64_t work)
{
    for (uint64_t end = m->stat + work; m->stat < end; ) {
        if (m->stat >= m->grid) {
            jitter();
            grid(m);
        } else if (m->stat >= m->batch) {
            sim_now = m->now;
            uint64_t next = wire_batch(m->now, take);
            sim_now = UINT64_MAX;
            m->batch = next == WIRE_NEVER ? UINT64_MAX : m->g_stat + (next - m->g_now);
        }
        m->stat += STEP;
        m->now += STEP + (m->stat / STEP % 5 == 0 ? 1700 : 0);
    }
}

static void send_frame(struct sim *m, int node, uint8_t id, uint32_t len)
{
    uint8_t f[1514];
    memset(f, node, sizeof(f));
    f[14] = id;
    wire_send(m->now, f, len);
    printf("tx node=%d id=%u at=%llu\n", node, id, (unsigned long long)m->now);
}

/* Idle until a frame comes (dist: a deadline that may come first). */
static uint8_t wait_frame(struct sim *m, int node, uint64_t dist)
{
    while (npending == 0) {
        enum wire_wake why;
        jitter();
        m->now = wire_idle(m->now, dist, taken, take, &why);
        grid(m);
        if (why == WIRE_WAKE_DEADLINE) {
            printf("deadline node=%d at=%llu\n", node, (unsigned long long)m->now);
            run(m, 500);
        }
    }
    uint8_t id = pending_id[0];
    memmove(pending_id, pending_id + 1, --npending);
    printf("rx node=%d id=%u at=%llu\n", node, id, (unsigned long long)m->now);
    return id;
}

static void node_main(const char *path, int node, bool share, const char *record,
                      const char *replay)
{
    sim_node = node;
    struct wire_params p = { .path = path, .node = (uint32_t)node, .link = ether(2000, 3000, 500),
                             .share_core = share, .record = record, .replay = replay };
    p.link.drop_every = 0;
    const char *err = wire_open(&p, 1, 1);
    if (err) {
        printf("FAIL open: %s\n", err);
        exit(1);
    }
    struct sim m = { 0 };
    /* Booting off the wire, node 0 longer; a frame node 0 sends while it
     * boots is dropped.  Both join at their first idle and go on from the
     * later joining time. */
    run(&m, node == 0 ? 300000 : 120000);
    if (node == 0)
        send_frame(&m, 0, EXTRA, 60);
    enum wire_wake why;
    m.now = wire_idle(m.now, 1000, taken, take, &why);
    grid(&m);
    struct wire_stats st;
    wire_get_stats(&st);
    printf("joined node=%d at=%llu woke=%llu unjoined=%llu\n", node,
           (unsigned long long)st.joined, (unsigned long long)m.now,
           (unsigned long long)st.tx_unjoined);
    for (int r = 0; r < ROUNDS; r++) {
        if (node == 0) {
            run(&m, 20000 + (uint64_t)(r * 7919 % 150000));
            send_frame(&m, 0, (uint8_t)(r % 200), 60 + (uint32_t)(r * 37 % 1400));
            /* a second frame now and then (no reply): two on the wire */
            if (r % 5 == 0)
                send_frame(&m, 0, EXTRA, 1000);
            uint8_t id;
            do
                id = wait_frame(&m, 0, r % 3 ? 0 : 400000);
            while (id != (uint8_t)(r % 200));
        } else {
            uint8_t id = wait_frame(&m, 1, r % 4 ? 0 : 900000);
            if (id == EXTRA) {
                r--;                        /* not a request: no reply */
                continue;
            }
            run(&m, 5000 + (uint64_t)(id * 104729 % 60000));
            send_frame(&m, 1, id, 60 + (uint32_t)(id * 53 % 900));
            /* then it works on, sending notices that arrive while node 0
             * works too: both running, frames in flight */
            for (int k = 0; k < (r % 3); k++) {
                run(&m, 6000 + (uint64_t)(r * 7 % 9000));
                send_frame(&m, 1, NOTICE, 60 + (uint32_t)(r * 11 % 200));
            }
        }
    }
    run(&m, 3000);
    printf("end node=%d at=%llu\n", node, (unsigned long long)m.now);
    /* Host time only, but never more than none: a sleep no ring ended is
     * a wake the protocol missed (wire.c, sleep_unless). */
    struct wire_host h;
    wire_get_host(&h);
    printf("host node=%d timeouts=%llu pins=%llu\n", node, (unsigned long long)h.timeouts,
           (unsigned long long)h.pins);
    wire_close();
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "link") == 0) {
        test_link();
    } else if (argc >= 3 && strcmp(argv[1], "rules") == 0) {
        test_rules(argv[2]);
    } else if (argc >= 2 && strcmp(argv[1], "layout") == 0) {
        printf("MAGIC=%s\nVERSION=%d\nNODES=%d\nRING=%d\nFRAME_MAX=%d\n", WIRE_MAGIC,
               WIRE_VERSION, WIRE_NODES, WIRE_RING, WIRE_FRAME_MAX);
        printf("HEADER=%zu\nNODE_SIZE=%zu\nFILE_SIZE=%zu\nBELL=%zu\nINPUT=%zu\n",
               offsetof(struct wire_shm, node), sizeof(struct wire_node),
               sizeof(struct wire_shm), offsetof(struct wire_node, bell),
               offsetof(struct wire_node, input));
        printf("SLEEPING=%zu\nTAIL=%zu\n", offsetof(struct wire_node, sleeping),
               offsetof(struct wire_node, tail));
        return 0;
    } else if (argc >= 5 && strcmp(argv[1], "node") == 0) {
        /* node FILE N SEED [share] [record=F | replay=F]: share, a node pins
         * its idle peer to its core; record, it writes down the frames it
         * takes; replay, it runs alone, its peer that recording
         * (core/replay.h) */
        bool share = false;
        const char *record = NULL, *replay = NULL;
        for (int i = 5; i < argc; i++) {
            if (strcmp(argv[i], "share") == 0)
                share = true;
            else if (strncmp(argv[i], "record=", 7) == 0)
                record = argv[i] + 7;
            else if (strncmp(argv[i], "replay=", 7) == 0)
                replay = argv[i] + 7;
        }
        seed = (unsigned)atoi(argv[4]);
        node_main(argv[2], atoi(argv[3]), share, record, replay);
        return 0;
    } else if (argc >= 7 && strcmp(argv[1], "oneway") == 0) {
        /* oneway MBPS TX RX LATENCY LEN...: each frame alone on an idle wire */
        struct link_params p = ether(atof(argv[3]), atof(argv[4]), atof(argv[5]));
        p.mbps = atof(argv[2]);
        for (int i = 6; i < argc; i++) {
            struct link l;
            enum link_fate f;
            uint32_t bit;
            link_init(&l, &p, 1, 1);
            printf("%s %llu\n", argv[i],
                   (unsigned long long)link_send(&l, 0, (uint32_t)atoi(argv[i]), &f, &bit));
        }
        return 0;
    } else if (argc >= 5 && strcmp(argv[1], "typed") == 0) {
        /* typed FILE N NOW: node N idle at NOW (ns) with a character on its
         * way (the harness counted it): when it may go on. */
        struct wire_params p = { .path = argv[2], .node = (uint32_t)atoi(argv[3]),
                                 .link = ether(0, 0, 0) };
        const char *err = wire_open(&p, 1, 1);
        if (err) {
            printf("FAIL open: %s\n", err);
            return 1;
        }
        enum wire_wake why;
        wire_join(0);                   /* both booted at 0 */
        uint64_t t = wire_idle((uint64_t)atoll(argv[4]), 0, 0, record, &why);
        printf("woke=%llu why=%d\n", (unsigned long long)t, why);
        fflush(stdout);
        wire_check(t, record);          /* running on: it answers the other there */
        wire_close();
        return 0;
    } else if (argc >= 3 && strcmp(argv[1], "file") == 0) {
        make_file(argv[2]);
        return 0;
    } else {
        fprintf(stderr, "usage: wire_host link | rules FILE | layout | file FILE | "
                "node FILE N SEED [share] [record=F | replay=F]\n");
        return 2;
    }
    printf("done %d failed\n", failed);
    return failed != 0;
}
