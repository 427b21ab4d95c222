/*
 * wire.c: one node of a two-machine modelled Ethernet (wire.h says what a
 * front end calls; docs/network.md, "Determinism", argues why the result
 * depends on nothing but the two guests' execution).
 *
 * The rules, with L the link's lookahead (link.c: no frame arrives sooner
 * than L after it was sent) and Q = L / WIRE_QUANTA the quantum:
 *
 *  - Each node publishes msf, the earliest time it may still send a frame
 *    (frames to it aside): running, its time at its last check point; idle,
 *    its next deadline or local event (a garbage frame due to it).  With it
 *    goes first_arrival, the earliest such a frame can arrive: msf + L on
 *    an idle wire, later while the wire still carries frames the node sent
 *    (a new one starts only when they are gone: link_first_arrival).  Each
 *    frame sent raises it, and the node publishes it again once that frame
 *    is in its peer's ring, never before.
 *  - A frame to me not yet in my ring arrives at or after my peer's
 *    first_arrival; and my peer will not run before the earliest frame I
 *    have sent it and it has not taken, which wakes it, so sends nothing
 *    before that frame's time.  So every frame due to me by time t is in
 *    my ring once
 *        t < horizon = min(peer.first_arrival, first frame in the peer's ring + L),
 *    read before my ring (the frame that raised first_arrival is then there).
 *    While a machine sends a stream of long frames, its wire's backlog lets
 *    the other run that much further ahead: at 10 Mb/s each 1,514-byte
 *    frame is 1.2 ms on the wire, eighteen lookaheads of the DS3100's.
 *  - Check points come every Q of the machine's own execution, a grid that
 *    depends on nothing but what it executes (the front end counts it in
 *    static cost: never in stalls, whose timing is the model's).  At one,
 *    at time t, a node waits until its horizon is past t + Q: it then has
 *    every frame due before t + Q, the batch.  It takes those due by t at
 *    once, and each other frame of the batch at its own time, measured
 *    from this check point; frames later than the batch wait for a later
 *    check point.  So where a frame goes in is a function of the two
 *    guests' execution alone; how long a node waited is the host's.
 *  - The frames already in my ring are earlier than any still to come (one
 *    sender, one wire, arrival times in order), so those due are handed to
 *    the guest even before waiting: a node that waits for its peer never
 *    holds back what the peer waits for.
 *  - An idle node jumps to its next event E (the next frame to it, its
 *    deadline, a garbage frame) once E < horizon; it first publishes
 *    msf = E, then takes the frame, so its peer never sees the frame gone
 *    and the old first_arrival together (the peer reads the tail before
 *    first_arrival).  A check point follows at once.
 *  - A console character wakes an idle node at once.  Its msf goes down
 *    then, from a deadline or never to its time, and its peer may already
 *    be past that time + L: so it asks the peer to acknowledge, and wakes
 *    no earlier than the peer's time at the acknowledgement - L + 1.
 *
 * Booting.  A machine boots off the wire, with no check points, and joins
 * it at its kernel's first idle (the shell waiting for its first line),
 * where both go on from the later of the two joining times: the one that
 * joined first waits for the other, and its clock then jumps on to that
 * time, as an idle machine's clock may.  So two machines do not meet every
 * quantum while they boot (on the Sun-3 model, with a quantum of some 20
 * instructions, a pair's boot took over 60 s on a busy host, where one
 * machine boots in one).  No frame can be lost by it: a machine cannot
 * send before it joins (a frame sent then is dropped and counted,
 * tx_unjoined: none of our kernels sends before its first idle), and its
 * peer, once joined, waits in wire_join() until it has joined too.  A
 * joining time is a function of the machine's own execution, so the time
 * both go on from is the two guests' alone.
 *
 * Waiting looks for a few microseconds while the peer is seen to run,
 * then blocks on a futex (a host thread that spins on steals the other
 * machine's core on a loaded host); the node that changes something its
 * sleeping peer waits for rings its bell.  A node that wakes its idle
 * peer first pins it to its own host core, so that a round trip's turns
 * are taken on one core ("Sharing a core").
 *
 * Recording and replaying (replay.h).  A node may write down each frame
 * it takes (wire_record=); a node whose peer is such a recording
 * (wire_replay=) has no peer to wait for: it is done (peer_gone) from the
 * start, so its horizon is never, and its ring is the recording's frames,
 * each due where it was, as replay.c works out.  The rules above then
 * hand the guest every frame at the same point of its execution.
 */
#define _GNU_SOURCE                     /* sched_getcpu, sched_setaffinity */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "replay.h"
#include "wire.h"

/* Check points per lookahead.  A node may run until its peer's published
 * time + L - Q, and publishes every Q: with 2, two running machines can
 * only take turns; with 4 they overlap.  (Measured on two riscv
 * ds3100-riscv boots, host shared: 9,300 sleeps each with 2, 7,000 with
 * 4 or 8; more check points cost little, a sleep and its wake much.) */
#define WIRE_QUANTA 4

_Static_assert(sizeof(struct wire_frame) == 2064, "harness/net/wire.py: FRAME_SIZE");
_Static_assert(offsetof(struct wire_node, bell) == 64, "harness/net/wire.py: BELL");
_Static_assert(offsetof(struct wire_node, input) == 72, "harness/net/wire.py: INPUT");
_Static_assert(offsetof(struct wire_node, sleeping) == 36, "harness/net/wire.py: SLEEPING");
_Static_assert(offsetof(struct wire_node, tail) == 192, "harness/net/wire.py: TAIL");
_Static_assert(offsetof(struct wire_node, ring) == 256, "harness/net/wire.py: RING");
_Static_assert(offsetof(struct wire_shm, node) == 64, "harness/net/wire.py: HEADER");

static struct {
    bool on;
    struct wire_shm *shm;
    struct wire_node *me, *peer;
    struct link link;                   /* my outgoing direction */
    uint64_t lookahead, quantum;
    uint64_t num, den;                  /* num / den units make a ns */
    uint64_t pushed;                    /* frames put in the peer's ring: its head */
    uint64_t msf;                       /* what I published last, and ... */
    uint64_t first_arrival;             /* ... with it */
    uint64_t batch_end;                 /* the last check point's time + Q */
    uint64_t input_taken;               /* console characters the guest took */
    uint32_t acked;                     /* the peer's ack_req I acknowledged */
    bool peer_gone;
    bool joined;                        /* on the wire: see "Booting" */
    /* Malformed frames for me (wire_params.garbage). */
    uint8_t *garbage;
    size_t garbage_size, garbage_pos;
    uint64_t garbage_next, garbage_every;
    struct wire_stats st;
    struct wire_host host;
    uint64_t check_host, check_gap;     /* what I publish in wire_node's of those names */
    bool slept;                         /* since my last check point */
    /* Sharing a core (below). */
    bool share;
    cpu_set_t allowed;                  /* the CPUs my process may run on */
} W;

/* ------------------------------------------------------------ sharing a core */

/*
 * Host scheduling only: nothing modelled depends on any of this.  A round
 * trip is serial: while one machine takes a frame and answers, the other
 * has nothing to do but wait, asleep on its futex.  On a virtual machine,
 * waking a thread that sleeps on another core costs several times the
 * switch itself (an inter-processor interrupt, the sleeping virtual CPU's
 * exit and return): two processes handing a futex to and fro on this
 * project's 2-core VM took 18 us of CPU a hand-over across the cores and
 * 3.3 us on one.  So a node that wakes its idle peer first pins the
 * peer's thread to its own core (on a sleeping thread that moves
 * nothing); the peer runs there once the waker waits in its turn, which
 * in a round trip it soon does, and two nodes taking turns settle on one
 * core.  Two machines that both compute then share it too, each running
 * while the other waits at a check point: CPU seconds as on two cores
 * (hand-overs as cheap as a look), twice the wall time.
 *
 * A node woken that waited more than STARVED_NS to run (its core busy
 * with something else: another emulator, a test) lets go of it (its
 * process's CPUs again), and the host's kernel may move it; its peer pins
 * it again at the next idle, to wherever the peer then runs.
 * wire_share_core=false turns all of this off (the lockstep's cost
 * without it: docs/network.md, "What lockstep costs").
 */
#define STARVED_NS 2000000u

static int my_cpu(void)
{
    int c = sched_getcpu();
    return c < 0 ? 0 : c + 1;           /* 1 + the CPU, as wire_node keeps it; 0: unknown */
}

/* Pin my sleeping peer n to my core, before I wake it. */
static void pin_here(struct wire_node *n)
{
    int cpu = my_cpu();
    uint32_t tid = atomic_load_explicit(&n->tid, memory_order_relaxed);
    if (!W.share || !cpu || !tid || atomic_load(&n->pinned) == (uint32_t)cpu)
        return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu - 1, &one);
    if (sched_setaffinity((pid_t)tid, sizeof(one), &one) == 0) {
        atomic_store(&n->pinned, (uint32_t)cpu);
        W.host.pins++;
    }
}

/* Woken: let go of my core if I waited long to run on it. */
static void unless_starved(uint64_t woke)
{
    if (!W.share || !atomic_load(&W.me->pinned) ||
        woke - atomic_load_explicit(&W.me->rung_host, memory_order_relaxed) < STARVED_NS)
        return;
    atomic_store(&W.me->pinned, 0);
    sched_setaffinity(0, sizeof(W.allowed), &W.allowed);
    W.host.unpins++;
}

/* Whether my peer is on my core: looking for it to move is then futile,
 * as it cannot run while I look. */
static bool peer_here(void)
{
    int cpu = my_cpu();
    return W.share && cpu && (atomic_load(&W.peer->pinned) == (uint32_t)cpu ||
                              atomic_load_explicit(&W.peer->cpu, memory_order_relaxed) ==
                                  (uint32_t)cpu);
}

/* ------------------------------------------------------------ futex */

static void peer_alive(void);

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Whether the second ran out. */
static bool futex_wait(_Atomic uint32_t *word, uint32_t seen)
{
    /* A second at most: then the caller looks again (a peer that died). */
    struct timespec ts = { 1, 0 };
    uint64_t t0 = host_ns();
    bool out = false;
    W.host.sleeps++;
    long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, seen, &ts, NULL, 0);
    if (r < 0 && errno == ETIMEDOUT) {
        out = true;
        peer_alive();
    }
    uint64_t t1 = host_ns();
    W.host.sleep_ns += t1 - t0;
    if (r == 0)                         /* woken (not: the bell had rung already) */
        unless_starved(t1);
    return out;
}

static void futex_wake(_Atomic uint32_t *word)
{
    W.host.wakes++;
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Wake n if it sleeps; msf_only: only if what changed is my msf (and
 * first_arrival), and first_arrival has reached what n waits for. */
static void ring_bell(struct wire_node *n, bool msf_only)
{
    /* What I changed before calling (a ring's head or tail, stored with
     * release only) must be seen by n before I look at its flag, as n
     * looks at what I change after setting it (sleep_unless): a release
     * store and a later load may pass each other, on x86 too. */
    atomic_thread_fence(memory_order_seq_cst);
    uint32_t how = atomic_load(&n->sleeping);
    if (!how)
        return;
    if (msf_only && W.first_arrival < atomic_load(&n->want))
        return;
    atomic_fetch_add(&n->bell, 1);
    /* One wake per sleep: whoever clears the flag makes the call (a
     * sleeper slow to be scheduled would otherwise get one per publish). */
    if (atomic_compare_exchange_strong(&n->sleeping, &how, 0)) {
        if (how == SLEEP_IDLE)
            pin_here(n);
        atomic_store_explicit(&n->rung_host, host_ns(), memory_order_relaxed);
        futex_wake(&n->bell);
    }
}

/* ------------------------------------------------------------ the peer */

static bool peer_done(void)
{
    if (!W.peer_gone && atomic_load_explicit(&W.peer->done, memory_order_acquire))
        W.peer_gone = true;
    return W.peer_gone;
}

/* A peer killed without a word: looked for only when a wait times out. */
/* A peer that died without saying done: its process is gone, or dead
 * and not yet reaped (a zombie, which kill() still finds: an emulator
 * that aborted while its harness waited on the other one). */
static void peer_alive(void)
{
    pid_t pid = (pid_t)atomic_load(&W.peer->pid);
    if (!pid)
        return;
    if (kill(pid, 0) < 0 && errno == ESRCH) {
        W.peer_gone = true;
        return;
    }
    char path[64], buf[256];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *state = strrchr(buf, ')');     /* "pid (comm) S ...": comm may hold spaces */
    if (state && state[1] == ' ' && (state[2] == 'Z' || state[2] == 'X'))
        W.peer_gone = true;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > WIRE_NEVER - b ? WIRE_NEVER : a + b;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* How far I may run: see the top.  The tail before first_arrival (the
 * peer publishes it before it takes a frame), and both before my ring
 * (my callers: the peer raises first_arrival only after the frame that
 * raised it is in my ring). */
static uint64_t horizon(void)
{
    if (peer_done())
        return WIRE_NEVER;
    uint64_t tail = atomic_load_explicit(&W.peer->tail, memory_order_acquire);
    uint64_t h = atomic_load_explicit(&W.peer->first_arrival, memory_order_acquire);
    if (tail != W.pushed)
        h = min64(h, add_sat(W.peer->ring[tail % WIRE_RING].t_arr, W.lookahead));
    return h;
}

/* Acknowledge the peer's request, if it made one: it may now count on my
 * being at `now` and going no further than the horizon I have just
 * worked out from its new msf. */
static void ack(uint32_t req, uint64_t now)
{
    if (req == W.acked)
        return;
    atomic_store(&W.me->acked_now, now);
    atomic_store_explicit(&W.me->acked, req, memory_order_release);
    W.acked = req;
    ring_bell(W.peer, false);
}

static uint64_t horizon_acked(uint64_t now)
{
    uint32_t req = atomic_load_explicit(&W.peer->ack_req, memory_order_acquire);
    uint64_t h = horizon();
    ack(req, now);
    return h;
}

static uint64_t first_arrival(uint64_t msf)
{
    return msf == WIRE_NEVER ? WIRE_NEVER : link_first_arrival(&W.link, msf);
}

static void publish(uint64_t msf)
{
    uint64_t fa = first_arrival(msf);
    if (msf == W.msf && fa == W.first_arrival)
        return;
    W.msf = msf;
    W.first_arrival = fa;
    atomic_store(&W.me->msf, msf);
    atomic_store(&W.me->first_arrival, fa);
    ring_bell(W.peer, true);
}

/* Looking before sleeping.  A futex sleep and its wake cost tens of
 * microseconds of CPU on a virtual machine, more than many waits last:
 * two running machines with a short lookahead (ds3100-riscv: some 550
 * instructions, a quantum a quarter of that) meet every few microseconds
 * of host time, and in a round trip one machine waits while the other
 * takes the frame and answers (some 40 us of host time).  So a node that
 * must wait first looks at `ready` for as long as its peer is seen to
 * run, up to LOOK_MAX_NS (150 us looked no cheaper on a quiet host, and
 * a full `make test` with it, two pairs and four idle VAXes on two cores,
 * took 29.5 minutes of tests against 15 before: not shown to be the
 * look's doing, but a longer spin cannot help there): the peer stores the
 * host time of each of its
 * check points and how far apart they come (check_host, check_gap), so
 * one that has not come for twice that (at least LOOK_STALL_NS) means
 * the peer is not on a CPU (a host busier than its cores) and I sleep
 * rather than take the core it needs; so does a peer asleep itself.
 * Under profile none a check point comes every 14,400 instructions, some
 * 40 us: a fixed 5 us stall gave up on nearly every look of a round trip
 * (25,894 lost against 1,705 won on one machine of `netbench -n 1000`).
 * A fixed look, taken whatever the peer did, never once saw the peer
 * move at load 8-20 (20 us tried), and a look that shrank with every
 * miss gave up too soon at load 1. */
#define LOOK_STALL_NS 5000u
#define LOOK_MAX_NS 30000u

static void relax(void)
{
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

static bool look_until(bool (*ready)(void *), void *arg)
{
    if (atomic_load(&W.peer->sleeping) || peer_done() || peer_here())
        return false;
    uint64_t t0 = host_ns();
    for (;;) {
        if (ready(arg)) {
            W.host.looks_won++;
            return true;
        }
        for (int i = 0; i < 16; i++)
            relax();
        uint64_t t = host_ns();
        uint64_t seen = atomic_load_explicit(&W.peer->check_host, memory_order_relaxed);
        uint64_t gap = atomic_load_explicit(&W.peer->check_gap, memory_order_relaxed);
        uint64_t stall = 2 * gap > LOOK_STALL_NS ? 2 * gap : LOOK_STALL_NS;
        if (t - (seen > t0 ? seen : t0) > stall || t - t0 > LOOK_MAX_NS ||
            atomic_load(&W.peer->sleeping))
            break;
    }
    W.host.looks_lost++;
    return false;
}

/* Sleep until my bell rings (or a second passes), unless `ready` holds
 * after a look (above), or once I have said I sleep: the peer checks
 * `sleeping` after it changes what `ready` reads, so one of us sees the
 * other (the fences: here and in ring_bell).  `want(arg)` is how far the
 * peer's first_arrival must get before its publishing is worth a ring
 * (NULL: any ring will do), asked after `ready`, which may lower what I
 * wait for: an idle node that finds a new frame in its ring waits for the
 * time the frame is due, not its deadline.  Asked before, it kept the
 * deadline's want, the peer published a time enough for the frame but
 * short of that want, rang nobody, and both nodes slept out the futex's
 * second (`netbench -n 100` under none: 5 times on each node; the model's
 * numbers were never touched, only the host's time). */
static void sleep_unless(bool (*ready)(void *), uint64_t (*want)(void *), void *arg,
                         uint32_t how)
{
    if (look_until(ready, arg))
        return;
    uint32_t seen = atomic_load(&W.me->bell);
    uint64_t w = want ? want(arg) : WIRE_NEVER;
    atomic_store(&W.me->want, w);
    atomic_store(&W.me->sleeping, how);
    for (;;) {
        atomic_thread_fence(memory_order_seq_cst);  /* the other half of ring_bell's */
        if (ready(arg))
            break;
        uint64_t now_w = want ? want(arg) : WIRE_NEVER;
        if (now_w == w) {
            /* A check point's or an idle's wait that no ring ended is a
             * wake missed (a join or a console answer may take long). */
            if (futex_wait(&W.me->bell, seen) && want)
                W.host.timeouts++;
            break;
        }
        w = now_w;                      /* ready() lowered it: say so, and look again */
        atomic_store(&W.me->want, w);
    }
    atomic_store(&W.me->sleeping, 0);
    W.slept = true;
}

/* ------------------------------------------------------------ frames to me */

static uint64_t ring_next(void)
{
    if (replay_playing())               /* the peer is a recording (replay.h) */
        return replay_next(W.input_taken);
    uint64_t tail = atomic_load_explicit(&W.me->tail, memory_order_relaxed);
    if (tail == atomic_load_explicit(&W.me->head, memory_order_acquire))
        return WIRE_NEVER;
    return W.me->ring[tail % WIRE_RING].t_arr;
}

static uint64_t next_due(void)
{
    return min64(ring_next(), W.garbage_next);
}

/* The first frame of my ring into the guest (replaying: of the
 * recording, and tail counts the frames taken, for the harness). */
static void take_frame(wire_inject_fn inject)
{
    uint64_t tail = atomic_load_explicit(&W.me->tail, memory_order_relaxed);
    const uint8_t *data;
    uint32_t len;
    if (replay_playing()) {
        len = replay_take(&data);
    } else {
        struct wire_frame *f = &W.me->ring[tail % WIRE_RING];
        data = f->data;
        len = f->len;
        replay_taken(f->t_arr, data, len, W.input_taken);     /* recording it, if I do */
    }
    inject(data, len);
    W.st.rx_frames++;
    W.st.rx_bytes += len;
    atomic_store_explicit(&W.me->tail, tail + 1, memory_order_release);
    if (!replay_playing())
        ring_bell(W.peer, false);
}

/* Hand the guest every frame due by `now` that I have, in time order. */
static void deliver(uint64_t now, wire_inject_fn inject)
{
    for (;;) {
        uint64_t r = ring_next(), g = W.garbage_next;
        if (r <= now && r <= g) {
            take_frame(inject);
        } else if (g <= now) {
            const uint8_t *p = W.garbage + W.garbage_pos;
            uint32_t len = (uint32_t)p[0] << 8 | p[1];
            inject(p + 2, len);
            W.st.rx_frames++;
            W.st.rx_bytes += len;
            W.st.garbage++;
            W.garbage_pos += 2 + len;
            W.garbage_next = W.garbage_pos < W.garbage_size ? W.garbage_next + W.garbage_every
                                                            : WIRE_NEVER;
        } else {
            return;
        }
    }
}

/* ------------------------------------------------------------ running */

uint64_t wire_lookahead(void)
{
    return W.lookahead;
}

uint64_t wire_quantum(void)
{
    return W.quantum;
}

uint64_t wire_horizon(void)
{
    return horizon();
}

struct at { uint64_t now; };

/* The peer asks how far I have got (a console wake: input_wake) and I
 * have not answered: my wait ends so that its loop answers (ack), as the
 * peer waits for that.  Without it in `ready`, a node that was looking
 * when the peer asked (its bell not rung: it did not sleep) went to sleep
 * unanswered, and both slept out the futex's second (an x86 pair's
 * SUITE=net, once or more a run). */
static bool ack_asked(void)
{
    return atomic_load_explicit(&W.peer->ack_req, memory_order_acquire) != W.acked;
}

static bool batch_known(void *arg)
{
    uint64_t now = ((struct at *)arg)->now;
    return now + W.quantum < horizon() || ack_asked();
}

static uint64_t batch_want(void *arg)
{
    return ((struct at *)arg)->now + W.quantum + 1;
}

/* The first frame due after `now` and by `end`, or WIRE_NEVER. */
static uint64_t next_by(uint64_t now, uint64_t end)
{
    uint64_t t = next_due();
    return t > now && t <= end ? t : WIRE_NEVER;
}

uint64_t wire_check(uint64_t now, wire_inject_fn inject)
{
    if (!W.on || !W.joined)             /* closed (the machine powers off), or booting */
        return WIRE_NEVER;
    W.host.checks++;
    uint64_t h = host_ns();             /* how often I check, for my peer's look */
    if (W.check_host && !W.slept) {
        W.check_gap = (7 * W.check_gap + (h - W.check_host)) / 8;
        atomic_store_explicit(&W.me->check_gap, W.check_gap, memory_order_relaxed);
    }
    W.check_host = h;
    W.slept = false;
    atomic_store_explicit(&W.me->check_host, h, memory_order_relaxed);
    atomic_store_explicit(&W.me->cpu, (uint32_t)my_cpu(), memory_order_relaxed);
    publish(now);
    deliver(now, inject);
    while (now + W.quantum >= horizon_acked(now)) {
        struct at a = { now };
        sleep_unless(batch_known, batch_want, &a, SLEEP_RUN);
        deliver(now, inject);
    }
    W.batch_end = now + W.quantum;
    return next_by(now, W.batch_end);
}

uint64_t wire_batch(uint64_t now, wire_inject_fn inject)
{
    if (!W.on || !W.joined)
        return WIRE_NEVER;
    deliver(now < W.batch_end ? now : W.batch_end, inject);
    return next_by(now, W.batch_end);
}

/* ------------------------------------------------------------ sending */

void wire_send(uint64_t t_send, const uint8_t *frame, uint32_t len)
{
    enum link_fate fate;
    uint32_t bit;
    if (!W.on)
        return;
    if (!W.joined) {                    /* see "Booting" */
        W.st.tx_unjoined++;
        return;
    }
    W.st.tx_frames++;
    W.st.tx_bytes += len;
    replay_sent(t_send);
    uint64_t t_arr = link_send(&W.link, t_send, len, &fate, &bit);
    if (fate == LINK_DROP || fate == LINK_OVERSIZE || fate == LINK_OVERFLOW || peer_done())
        return;
    if (len > WIRE_FRAME_MAX)              /* (link_check keeps max_frame within it) */
        len = WIRE_FRAME_MAX;
    /* Room in the peer's ring: it holds far more than can be in flight
     * (docs/network.md), so this waits only if the peer is very slow. */
    while (W.pushed - atomic_load_explicit(&W.peer->tail, memory_order_acquire) >= WIRE_RING) {
        if (peer_done())
            return;
        uint32_t seen = atomic_load(&W.me->bell);
        atomic_store(&W.me->want, WIRE_NEVER);
        atomic_store(&W.me->sleeping, SLEEP_RUN);
        if (W.pushed - atomic_load(&W.peer->tail) >= WIRE_RING)
            futex_wait(&W.me->bell, seen);
        atomic_store(&W.me->sleeping, 0);
    }
    struct wire_frame *f = &W.peer->ring[W.pushed % WIRE_RING];
    f->t_arr = t_arr;
    f->len = len;
    memcpy(f->data, frame, len);
    if (fate == LINK_CORRUPT)
        f->data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    atomic_store_explicit(&W.peer->head, ++W.pushed, memory_order_release);
    /* The frame is in the ring: the wire's new backlog may be published. */
    W.first_arrival = first_arrival(W.msf);
    atomic_store(&W.me->first_arrival, W.first_arrival);
    ring_bell(W.peer, false);
}

/* ------------------------------------------------------------ idling */

struct idle { uint64_t event; };

static bool input_waiting(void)
{
    return atomic_load(&W.me->input) > W.input_taken;
}

static bool can_wake(void *arg)
{
    struct idle *i = arg;
    uint64_t h = horizon();             /* before my ring: see horizon() */
    i->event = min64(i->event, next_due());
    return input_waiting() || i->event < h || ack_asked();
}

static uint64_t wake_want(void *arg)
{
    return add_sat(((struct idle *)arg)->event, 1);
}

static bool acked(void *arg)
{
    return atomic_load(&W.me->ack_req) == atomic_load(&W.peer->acked) ||
           atomic_load(&W.peer->ack_req) != W.acked || peer_done();
}

/* Woken by a console character at `now`: my msf goes down to `now`.  The
 * time I may go on from: see the top. */
static uint64_t input_wake_time(uint64_t now)
{
    W.st.input_wakes++;
    if (W.msf <= now)
        return now;
    publish(now);
    uint32_t req = atomic_fetch_add(&W.me->ack_req, 1) + 1;
    ring_bell(W.peer, false);
    while (atomic_load(&W.peer->acked) != req && !peer_done()) {
        horizon_acked(now);             /* the peer may be asking me the same */
        sleep_unless(acked, NULL, NULL, SLEEP_RUN);
    }
    if (!peer_done()) {
        uint64_t p = atomic_load(&W.peer->acked_now);
        if (p + 1 > now + W.lookahead)
            now = p + 1 - W.lookahead;
    }
    publish(now);
    return now;
}

static uint64_t input_wake(uint64_t now)
{
    now = input_wake_time(now);
    replay_console_wake(now);           /* an anchor, if I record or replay (replay.h) */
    return now;
}

static bool peer_joined(void *arg)
{
    return atomic_load(&W.peer->joined) != 0 || peer_done();
}

/* See "Booting" at the top. */
uint64_t wire_join(uint64_t now)
{
    if (W.joined || !W.on)
        return now;
    W.joined = true;
    /* the thread that runs the machine, for its peer to pin ("Sharing a core") */
    atomic_store(&W.me->tid, (uint32_t)gettid());
    atomic_store(&W.me->joined, now + 1);
    ring_bell(W.peer, false);
    while (!peer_joined(NULL))
        sleep_unless(peer_joined, NULL, NULL, SLEEP_RUN);
    uint64_t p = atomic_load(&W.peer->joined);
    if (!peer_done() && p - 1 > now)
        now = p - 1;
    now = replay_joined(now);           /* (replaying: the time the pair went on from) */
    W.st.joined = now;
    return now;
}

bool wire_joined(void)
{
    return W.joined;
}

uint64_t wire_idle(uint64_t now, uint64_t dist, uint64_t taken, wire_inject_fn inject,
                   enum wire_wake *why)
{
    if (!W.on) {                        /* closed: nothing more comes */
        *why = WIRE_WAKE_DEADLINE;
        return dist ? add_sat(now, dist) : now;
    }
    if (!W.joined) {
        /* The first idle: join, the clock jumping to where both go on
         * from; a deadline passed in the jump wakes the machine there. */
        uint64_t jump = wire_join(now) - now;
        W.st.idle += jump;
        if (dist)
            dist = dist > jump ? dist - jump : 1;
        now += jump;
    }
    if ((uint32_t)(W.st.rx_frames - taken) != 0) {
        /* A frame went in while the guest could not take it: its
         * interrupt is pending, and ends the wait at once. */
        *why = WIRE_WAKE_FRAME;
        publish(now);
        return now;
    }
    uint64_t deadline = dist ? add_sat(now, dist) : WIRE_NEVER;
    publish(min64(deadline, W.garbage_next) > now ? min64(deadline, W.garbage_next) : now);
    for (;;) {
        if (input_waiting()) {
            *why = WIRE_WAKE_INPUT;
            return input_wake(now);
        }
        struct idle i = { deadline };
        uint64_t h = horizon_acked(now);
        i.event = min64(i.event, next_due());
        if (i.event < h) {
            uint64_t at = i.event > now ? i.event : now;
            publish(at);                /* before taking anything: see the top */
            W.st.idle += at - now;
            *why = at == deadline && next_due() > at ? WIRE_WAKE_DEADLINE : WIRE_WAKE_FRAME;
            deliver(at, inject);
            return at;
        }
        sleep_unless(can_wake, wake_want, &i, SLEEP_IDLE);
    }
}

void wire_console_taken(void)
{
    W.input_taken++;
}

/* ------------------------------------------------------------ life */

static const char *load_garbage(const struct wire_params *p)
{
    static char msg[300];
    int fd = open(p->garbage, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) < 0) {
        snprintf(msg, sizeof(msg), "garbage: cannot read %s", p->garbage);
        if (fd >= 0)
            close(fd);
        return msg;
    }
    W.garbage = malloc(sb.st_size ? (size_t)sb.st_size : 1);
    size_t got = 0;
    while (got < (size_t)sb.st_size) {
        ssize_t n = read(fd, W.garbage + got, (size_t)sb.st_size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    W.garbage_size = got;
    /* Every frame whole and within the wire's size. */
    for (size_t at = 0; at < got; ) {
        uint32_t len = at + 2 <= got ? (uint32_t)W.garbage[at] << 8 | W.garbage[at + 1] : 0;
        if (at + 2 > got || at + 2 + len > got || len > WIRE_FRAME_MAX) {
            snprintf(msg, sizeof(msg), "garbage: %s: a frame at byte %zu is cut short "
                     "or longer than %d bytes", p->garbage, at, WIRE_FRAME_MAX);
            return msg;
        }
        at += 2 + len;
    }
    if (p->garbage_every_ns == 0)
        return "garbage_every_ns must be > 0";
    W.garbage_every = (uint64_t)((double)p->garbage_every_ns * (double)W.num / (double)W.den);
    W.garbage_next = got ? (uint64_t)((double)p->garbage_start_ns * (double)W.num /
                                      (double)W.den)
                         : WIRE_NEVER;
    return NULL;
}

const char *wire_open(const struct wire_params *p, uint64_t num, uint64_t den)
{
    static char msg[300];
    const char *err = link_check(&p->link);
    if (err)
        return err;
    if (p->node >= WIRE_NODES)
        return "wire_node must be 0 or 1";
    if (p->link.max_frame > WIRE_FRAME_MAX + p->link.fcs) {
        snprintf(msg, sizeof(msg), "link.max_frame = %u: the wire carries frames of at most "
                 "%d bytes and the FCS", p->link.max_frame, WIRE_FRAME_MAX);
        return msg;
    }
    int fd = open(p->path, O_RDWR);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) < 0 || (size_t)sb.st_size < sizeof(struct wire_shm)) {
        snprintf(msg, sizeof(msg), "wire: %s is not a wire file of %zu bytes", p->path,
                 sizeof(struct wire_shm));
        if (fd >= 0)
            close(fd);
        return msg;
    }
    void *m = mmap(NULL, sizeof(struct wire_shm), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(msg, sizeof(msg), "wire: cannot map %s", p->path);
        return msg;
    }
    struct wire_shm *shm = m;
    if (memcmp(shm->magic, WIRE_MAGIC, sizeof(WIRE_MAGIC)) != 0 ||
        shm->version != WIRE_VERSION || shm->nodes != WIRE_NODES ||
        shm->ring != WIRE_RING || shm->frame_max != WIRE_FRAME_MAX) {
        snprintf(msg, sizeof(msg), "wire: %s has another layout (magic, version %u, ring %u, "
                 "frame_max %u; this model: version %d, ring %d, frame_max %d)", p->path,
                 shm->version, shm->ring, shm->frame_max, WIRE_VERSION, WIRE_RING,
                 WIRE_FRAME_MAX);
        munmap(m, sizeof(struct wire_shm));
        return msg;
    }
    memset(&W, 0, sizeof(W));
    W.shm = shm;
    W.me = &shm->node[p->node];
    W.peer = &shm->node[1 - p->node];
    link_init(&W.link, &p->link, num, den);
    W.lookahead = link_lookahead(&W.link);
    W.quantum = W.lookahead / WIRE_QUANTA ? W.lookahead / WIRE_QUANTA : 1;
    W.st.lookahead = W.lookahead;
    W.num = num;
    W.den = den;
    W.garbage_next = WIRE_NEVER;
    if (p->garbage && (err = load_garbage(p)) != NULL)
        return err;
    if (p->record && p->replay)
        return "wire_record and wire_replay: one or the other";
    if ((p->record && (err = replay_record(p->record)) != NULL) ||
        (p->replay && (err = replay_play(p->replay)) != NULL))
        return err;
    W.peer_gone = replay_playing();     /* no peer to wait for: every frame is known */
    atomic_store(&W.me->pid, (uint32_t)getpid());
    W.share = p->share_core;
    if (sched_getaffinity(0, sizeof(W.allowed), &W.allowed) < 0)
        W.share = false;
    W.msf = atomic_load(&W.me->msf);
    W.first_arrival = first_arrival(W.msf);     /* the file's msf, 0: the lookahead */
    atomic_store(&W.me->first_arrival, W.first_arrival);
    W.on = true;
    return NULL;
}

bool wire_on(void)
{
    return W.on;
}

/* Also when the guest powers off (the QEMU front end's hook at the
 * kernel's arch_halt()): a card being shut down takes no frame, and QEMU,
 * shutting down, waits for a vCPU that would wait for the card. */
void wire_close(void)
{
    if (!W.on)
        return;
    W.msf = W.first_arrival = WIRE_NEVER;
    atomic_store(&W.me->msf, WIRE_NEVER);
    atomic_store(&W.me->first_arrival, WIRE_NEVER);
    atomic_store(&W.me->done, 1);
    atomic_fetch_add(&W.peer->bell, 1);
    futex_wake(&W.peer->bell);
    W.on = false;
    replay_close();
}

void wire_get_host(struct wire_host *h)
{
    *h = W.host;
}

void wire_get_stats(struct wire_stats *s)
{
    *s = W.st;
    memcpy(s->fate, W.link.fate, sizeof(s->fate));
}
