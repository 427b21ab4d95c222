/*
 * net.c: the QEMU front end of the modelled Ethernet (hw-models/core/wire.h,
 * docs/network.md).  Only on a wire (wire= given): a one-machine run
 * registers none of this, and its instrumentation is what it was.
 *
 * The guest's NIC is QEMU's own (virtio-net, the PCnet ...), with a
 * `-netdev dgram` (its id net_dev=) that sends to a Unix datagram socket
 * of ours (net_sock=, bound here): every frame the card sends arrives here
 * as one datagram.  Frames for the card enter through the netdev from
 * here (below).  What this file adds is when:
 *
 *  - Check points.  An inline counter (budget) counts down the static
 *    cost of the blocks run, and a conditional callback at the start of
 *    each block fires when it runs out: a quantum after the last check
 *    point, or at the time of a frame core/wire.c said is due before then
 *    (wire.h: why static cost, and why stalls only make them late).  None
 *    while the machine boots: it joins the wire at its first idle.
 *  - Injection (RX).  A frame due goes to the card from inside the
 *    callback, on the vCPU's own thread: qemu_plugin_net_receive(), which
 *    the project's patch to QEMU adds (hw-models/qemu/qemu-wire.patch,
 *    docs/network.md "Why QEMU is patched"), hands it to the netdev's
 *    card under QEMU's big lock.  So when the callback returns the frame
 *    is in guest memory and the interrupt is pending, and the guest takes
 *    it at the next block boundary; QEMU's main loop has no part in it.
 *  - Transmission (TX).  The kernel's net_tx_kicked() (net_tx_pc=), which
 *    its driver calls right after telling the card to send, takes what
 *    the card sent from our socket and hands it to the wire stamped with
 *    the model's time.  The card sent it inside the guest's register
 *    write, on the vCPU's thread (the PCnet always; virtio-net with the
 *    patch's tx=sync), so it is there, and the card is done with it.
 *  - Idling.  The kernel's net_idle(ns, frames) (net_idle_pc=), called
 *    before it waits for an interrupt with the time to its next timer
 *    deadline and the frames it has taken from its card, holds the vCPU
 *    until wire.c says what wakes the machine: a frame (injected: the wait
 *    falls through; or one injected earlier that the kernel has not taken
 *    yet, its interrupt still pending), the deadline (the model's clock
 *    moves on by it, as QEMU's icount clock does in the wait), or a
 *    console character on its way (counted at the kernel's
 *    console_intr(), net_cons_pc=).  A vCPU that waits in WFI runs no
 *    blocks, so no check point could inject a frame there.
 *  - Powering off.  At the kernel's arch_halt() (net_halt_pc=) the
 *    machine leaves the wire (wire_close(): halt_cb below says why).
 */
#define _GNU_SOURCE                     /* SCHED_BATCH */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <qemu-plugin.h>

#include "model.h"
#include "plugin.h"

/* The budget counts down from BUDGET_BASE + millicycles to the next check
 * point; the callback fires when it is at or below BUDGET_BASE (QEMU's
 * conditions compare unsigned), so running past zero never wraps. */
#define BUDGET_BASE (1ull << 62)

static struct qemu_plugin_scoreboard *net_score;
static qemu_plugin_u64 e_budget;
static uint64_t *budget;                /* vCPU 0's word */
static int sock = -1;
static uint64_t after_pc[4];            /* SPARC: hooks after the save */
static uint8_t frame[65536];

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void fatal(const char *what)
{
    hw_warn("%s", what);
    fprintf(stderr, "hwmodel: %s\n", what);
    _exit(3);
}

/* ------------------------------------------------------------ frames */

/* The patch's entry point (hw-models/qemu/qemu-wire.patch).  Weak: a
 * stock QEMU loads this plugin for one-machine runs, which never call it;
 * net_install() refuses a wire without it. */
extern long qemu_plugin_net_receive(const char *netdev, const void *buf, size_t len)
    __attribute__((weak));

/* Host time spent handing frames to and from the card (HWNETHOLD; not
 * deterministic), and frames the card had no room for: they wait in
 * QEMU's queue until the guest gives it room (virtio-net; the PCnet drops
 * a frame it has no buffer for and counts it, as the chip did). */
static uint64_t hold_rx_ns, hold_tx_ns, rx_queued;

/* wire.c's inject(): the frame into the card, its interrupt raised. */
static void inject(const uint8_t *f, uint32_t len)
{
    uint64_t t0 = host_ns();
    long r = qemu_plugin_net_receive(hw.p.net_dev, f, len);
    if (r < 0)
        fatal("net_dev: QEMU has no netdev of that id");
    if (r == 0)
        rx_queued++;
    hw_net_dma(len, true);
    hold_rx_ns += host_ns() - t0;
}

/* The frames the card has sent since the last call, at least one. */
static void collect(uint64_t now)
{
    bool any = false;
    for (;;) {
        ssize_t n = recv(sock, frame, sizeof(frame), MSG_DONTWAIT);
        if (n < 0)
            break;
        any = true;
        hw_net_dma((uint32_t)n, false);
        wire_send(now, frame, (uint32_t)n);
    }
    if (!any)
        hw_warn("net_tx_nothing: net_tx_kicked() but the card sent no frame");
}

/* ------------------------------------------------------------ check points */

/*
 * The budget counts static cost only (model.h: static_mcyc), so that the
 * check points fall where the guest's execution puts them (wire.h).  At a
 * check point the next one is a quantum of static cost on, and the batch's
 * frames at their times measured from it: time t is due when the static
 * cost has grown by t - (the check point's time).  Stalls make both come
 * late, by the same stalls every run.
 */
static uint64_t quantum_mcyc;
static uint64_t g_static, g_mcyc;       /* static cost and time at the last check point */
static uint64_t grid_at, batch_at;      /* static cost of the next check point, batch frame */

static uint64_t static_for(uint64_t t)
{
    if (t == WIRE_NEVER)
        return UINT64_MAX;
    return g_static + (t > g_mcyc ? t - g_mcyc : 0);
}

static void arm(void)
{
    uint64_t at = grid_at < batch_at ? grid_at : batch_at, s = hw.c->static_mcyc;
    uint64_t d = at > s ? at - s : 0;
    *budget = BUDGET_BASE + (d < BUDGET_BASE ? d : BUDGET_BASE);    /* never: 2^62 on */
}

/* A check point; none more until the machine has joined the wire (wire.h:
 * it boots off it, and joins at its first idle, after which grid() is
 * called at once). */
static void grid(void)
{
    uint64_t first = wire_check(hw_now(), inject);
    g_static = hw.c->static_mcyc;
    g_mcyc = hw_now();
    grid_at = wire_joined() ? g_static + quantum_mcyc : UINT64_MAX;
    batch_at = static_for(first);
    arm();
}

static void check_cb(unsigned int vcpu, void *ud)
{
    if (hw.c->static_mcyc >= grid_at) {
        grid();
    } else {
        batch_at = static_for(wire_batch(hw_now(), inject));
        arm();
    }
}

static void tx_cb(unsigned int vcpu, void *ud)
{
    uint64_t t0 = host_ns();
    collect(hw_now());
    hold_tx_ns += host_ns() - t0;
}

/* net_idle(uint64 ns, uint32 frames): ns to the next deadline (0: none),
 * frames taken from the card.  A check point follows at once. */
static void idle_cb(unsigned int vcpu, void *ud)
{
    bool in_window = ud != NULL;
    uint64_t a = fn_arg(0, in_window), b = fn_arg(1, in_window);
    uint64_t dist = isa->big_endian ? a << 32 | (b & 0xffffffffu) : b << 32 | (a & 0xffffffffu);
    enum wire_wake why;
    uint64_t wake = wire_idle(hw_now(), dist ? hw_ns_to_mcyc_ceil(dist) : 0,
                              fn_arg(2, in_window), inject, &why);
    hw_net_idle_until(wake);
    grid();
}

static void cons_cb(unsigned int vcpu, void *ud)
{
    wire_console_taken();
}

/* The kernel's arch_halt(): the machine leaves the wire.  The guest is
 * about to ask QEMU to power off, and QEMU then stops its card: a frame
 * offered after that would wait in QEMU's queue for good, and the peer
 * must not wait for a machine that no longer runs. */
static void halt_cb(unsigned int vcpu, void *ud)
{
    wire_close();
}

/* cb at the entry of the kernel function at pc (fn_entry, plugin.c: its
 * first instruction, or after the save that opens a SPARC window, where
 * ud is then non-NULL); after_pc[k] is fn_entry's word for hook k. */
static void hook(struct qemu_plugin_insn *insn, uint64_t va, const uint8_t *code, size_t len,
                 uint64_t pc, int k, qemu_plugin_vcpu_udata_cb_t cb)
{
    enum fn_entry e = fn_entry(va, code, len, pc, &after_pc[k]);
    if (e != FN_NOT)
        qemu_plugin_register_vcpu_insn_exec_cb(insn, cb, QEMU_PLUGIN_CB_R_REGS,
                                               e == FN_AFTER_SAVE ? (void *)1 : NULL);
}

void net_trans(struct qemu_plugin_tb *tb, size_t n, uint8_t code[][16], const size_t *code_len,
               const uint64_t *vaddr)
{
    qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, check_cb, QEMU_PLUGIN_CB_NO_REGS,
                                              QEMU_PLUGIN_COND_LE, e_budget, BUDGET_BASE, NULL);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        hook(insn, vaddr[i], code[i], code_len[i], hw.p.net_tx_pc, 0, tx_cb);
        hook(insn, vaddr[i], code[i], code_len[i], hw.p.net_idle_pc, 1, idle_cb);
        hook(insn, vaddr[i], code[i], code_len[i], hw.p.net_cons_pc, 2, cons_cb);
        hook(insn, vaddr[i], code[i], code_len[i], hw.p.net_halt_pc, 3, halt_cb);
    }
}

void net_segment(struct qemu_plugin_insn *first, uint64_t cost)
{
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                        e_budget, -cost);
}

/* ------------------------------------------------------------ setup */

const char *net_install(void)
{
    static char msg[300];
    const struct hw_params *p = &hw.p;
    if (!p->net_sock || !p->net_dev || !p->net_tx_pc || !p->net_idle_pc || !p->net_cons_pc ||
        !p->net_halt_pc)
        return "wire= needs net_sock, net_dev, net_tx_pc, net_idle_pc, net_cons_pc and "
               "net_halt_pc";
    if (!qemu_plugin_net_receive)
        return "wire= needs the project's QEMU (scripts/qemu-wire.sh: QEMU with "
               "hw-models/qemu/qemu-wire.patch); this one cannot take a frame into its card "
               "from the vCPU's thread";
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (strlen(p->net_sock) >= sizeof(a.sun_path))
        return "net_sock must be a socket path of at most 107 bytes";
    snprintf(a.sun_path, sizeof(a.sun_path), "%s", p->net_sock);
    unlink(p->net_sock);
    sock = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (sock < 0 || bind(sock, (struct sockaddr *)&a, sizeof(a)) < 0) {
        snprintf(msg, sizeof(msg), "net_sock: cannot bind %s: %s", p->net_sock,
                 strerror(errno));
        return msg;
    }
    /* Host scheduling only (no modelled time depends on it): the threads
     * of the two machines hand the wire to one another, each waking the
     * other and then going to sleep itself.  Under SCHED_BATCH a woken thread does not preempt the
     * one that woke it, so the waker reaches its own sleep first: one
     * switch where there were two.  Set here, in the main thread, before
     * QEMU makes its vCPU threads, which inherit it. */
    struct sched_param sp = { 0 };
    if (sched_setscheduler(0, SCHED_BATCH, &sp) < 0)
        hw_warn("net_sched_batch_failed");
    net_score = qemu_plugin_scoreboard_new(sizeof(uint64_t));
    e_budget = qemu_plugin_scoreboard_u64(net_score);
    return NULL;
}

void net_vcpu_init(void)
{
    budget = qemu_plugin_scoreboard_find(net_score, 0);
    *budget = BUDGET_BASE;              /* a check point at the first block */
    quantum_mcyc = wire_quantum();      /* (the wire counts in millicycles) */
    batch_at = UINT64_MAX;
}

void net_exit(void)
{
    char line[200];
    snprintf(line, sizeof(line), "HWNETHOLD rx_s=%.3f tx_s=%.3f rx_queued=%" PRIu64 "\n",
             hold_rx_ns / 1e9, hold_tx_ns / 1e9, rx_queued);
    hw_say("%s", line);
    if (sock >= 0)
        unlink(hw.p.net_sock);
}
