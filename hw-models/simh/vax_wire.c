/*
 * vax_wire.c: the SIMH front end of the modelled Ethernet (hw-models/core/
 * wire.h; docs/network.md, "Two machines in step").  It does for our SIMH
 * what hw-models/qemu/net.c does for QEMU, and more simply: SIMH runs the
 * CPU and every device on one thread, so a frame handed to the DELQA is in
 * guest memory with its interrupt requested when the call returns; there
 * is nothing to wait for and no barrier.
 *
 * Only on a wire (the model's wire= argument, with the XQ attached to the
 * `wire` transport, vax_ether.c): otherwise none of this runs, and
 * vax_model.c's per-instruction hook costs one comparison more.
 *
 *  - Check points.  model_insn() compares the static cost so far with
 *    vax_wire_at: a quantum after the last check point, or the time of a
 *    frame core/wire.c said is due before then, measured in static cost
 *    from the check point (wire.h: why static cost; stalls only make them
 *    late, by the same stalls every run).
 *  - Injection (RX).  wire.c's inject() hands the frame to the XQ
 *    (vax_ether_inject): it goes into the guest's receive list and raises
 *    the interrupt at once, or waits in the card's queue while the guest's
 *    list is stopped.  The interrupt is taken before the next instruction
 *    if the IPL allows.
 *  - Transmission (TX).  The XQ sends a frame from inside the guest's
 *    write of the transmit list's address (SIMH's xq_process_xbdl calls
 *    eth_write); vax_ether.c passes it here, and it goes on the wire
 *    stamped with the model's time at that instruction.  The kernel's
 *    net_tx_kicked() is not needed.
 *  - Idling.  At the kernel's net_idle(ns, frames) (net_idle_pc=), wire.c
 *    decides what ends the idling: a frame (injected; its interrupt ends
 *    the idle loop at once), the deadline (the model's clock moves on by
 *    the distance, and the kernel's idle loop moves the SSC clock to the
 *    same deadline: kernel/arch/vax/timer.c), or a console character on its
 *    way.  In the last case the VAX spins in its idle loop (it has no wait
 *    instruction) until SIMH's keyboard poll finds the character, which is
 *    a matter of host time: so the model stops counting until the next
 *    interrupt (vax_model.c's model_sleep), and the spin costs nothing in
 *    modelled time, as a QEMU guest's WFI does.
 *  - Console.  The kernel's console_intr() (net_cons_pc=) counts each
 *    character the guest takes (wire_console_taken).
 */
#include "vax_defs.h"
#include "scp.h"
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

extern int32 R[16];
extern int32 PSL;
extern int32 Read (uint32 va, int32 lnt, int32 acc);
extern int32 model_on;
extern void model_sleep (void);                 /* vax_model.c */
extern int vax_ether_on_wire (void);            /* vax_ether.c */
extern void vax_ether_inject (const uint8_t *frame, uint32_t len);

/* model_insn() calls vax_wire_point() once the static cost reaches this:
 * never, without a wire. */
uint64_t vax_wire_at = UINT64_MAX;
/* The kernel's net_idle() and console_intr(), their first instruction;
 * none without a wire. */
uint32 vax_wire_idle_pc = 0xffffffff;
uint32 vax_wire_cons_pc = 0xffffffff;

static uint64_t quantum;                        /* wire_quantum(), in millicycles */
static uint64_t g_static, g_mcyc;               /* static cost and time at the last check point */
static uint64_t grid_at, batch_at;              /* static cost of the next check point, batch frame */

static void inject (const uint8_t *frame, uint32_t len)
{
vax_ether_inject (frame, len);
hw_net_dma (len, true);
}

static uint64_t static_for (uint64_t t)
{
if (t == WIRE_NEVER)
    return UINT64_MAX;
return g_static + (t > g_mcyc ? t - g_mcyc : 0);
}

static void arm (void)
{
vax_wire_at = grid_at < batch_at ? grid_at : batch_at;
}

static void grid (void)
{
uint64_t first = wire_check (hw_now (), inject);

g_static = hw.c->static_mcyc;
g_mcyc = hw_now ();
grid_at = wire_joined () ? g_static + quantum : UINT64_MAX;   /* none while booting (wire.h) */
batch_at = static_for (first);
arm ();
}

/* A check point, or a frame of the batch due. */
void vax_wire_point (void)
{
if (hw.c->static_mcyc >= grid_at)
    grid ();
else {
    batch_at = static_for (wire_batch (hw_now (), inject));
    arm ();
    }
}

/* net_idle(uint64 ns, uint32 frames) at its first instruction: the
 * arguments are at 4(ap) (ns, low longword first) and 12(ap).  A check
 * point follows at once. */
void vax_wire_idle (void)
{
int32 acc = ACC_MASK (KERN);                    /* read as the kernel (RA uses it) */
uint32 lo, hi, frames;
uint64_t dist, wake;
enum wire_wake why;

model_on = 0;                                   /* reading the arguments is not the guest's */
lo = (uint32) Read ((uint32) R[nAP] + 4, L_LONG, RA);
hi = (uint32) Read ((uint32) R[nAP] + 8, L_LONG, RA);
frames = (uint32) Read ((uint32) R[nAP] + 12, L_LONG, RA);
model_on = 1;
dist = (uint64_t) hi << 32 | lo;
wake = wire_idle (hw_now (), dist ? hw_ns_to_mcyc_ceil (dist) : 0, frames, inject, &why);
hw_net_idle_until (wake);
grid ();
if (why == WIRE_WAKE_INPUT)                     /* the spin until the key: not counted */
    model_sleep ();
}

void vax_wire_console (void)
{
wire_console_taken ();
}

/* The XQ sends a frame (vax_ether.c's eth_write): 0, or -1 if there is no
 * wire to put it on. */
int vax_wire_send (const uint8_t *frame, uint32_t len)
{
if (!hw.net)
    return -1;
hw_net_dma (len, false);
wire_send (hw_now (), frame, len);
return 0;
}

/* After hw_start(): on a wire, arm the first check point.  An error
 * message, or NULL. */
const char *vax_wire_start (void)
{
if (!hw.net)
    return NULL;
if (!hw.p.net_idle_pc || !hw.p.net_cons_pc)
    return "wire= needs net_idle_pc and net_cons_pc (the kernel's net_idle() and "
           "console_intr())";
if (!vax_ether_on_wire ())
    return "wire= needs the XQ on the wire: `attach xq wire` before the MODEL command";
vax_wire_idle_pc = (uint32) hw.p.net_idle_pc + 2;   /* past the procedure's entry mask */
vax_wire_cons_pc = (uint32) hw.p.net_cons_pc + 2;
quantum = wire_quantum ();
batch_at = UINT64_MAX;
grid_at = hw.c->static_mcyc;                    /* a check point at the first instruction */
arm ();
return NULL;
}
