/*
 * link.c: the arithmetic of one direction of a modelled Ethernet link
 * (link.h says what it computes).  Integers only, in the model's units:
 * the bit time is kept in picoseconds (100,000 at 10 Mb/s) and a frame's
 * time rounded up to a whole unit, so both machines' models agree to the
 * unit, and in ns (the unit test, tests/host/wire_host.c, and the
 * harness's copy, harness/net/link.py) to the nanosecond.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "link.h"

/* Each field's range is params.def's (options.c refuses a value outside
 * it); what is left is whether there is a link at all (its REQ fields have
 * no default: a run on a wire without the profile's [link] has a bit rate
 * of 0) and how the fields go together. */
const char *link_check(const struct link_params *p)
{
    static char msg[160];
    if (!(p->mbps > 0))
        snprintf(msg, sizeof(msg), "link.bandwidth_mbps = %g: a wire needs the profile's "
                 "[link] (link.bandwidth_mbps > 0)", p->mbps);
    else if (p->min_frame < p->fcs + 14 || p->max_frame < p->min_frame)
        snprintf(msg, sizeof(msg), "link.min_frame = %u, link.max_frame = %u: need "
                 "link.fcs_bytes + 14 <= min_frame <= max_frame", p->min_frame, p->max_frame);
    else
        return NULL;
    return msg;
}

void link_init(struct link *l, const struct link_params *p, uint64_t num, uint64_t den)
{
    memset(l, 0, sizeof(*l));
    l->p = *p;
    l->num = num;
    l->den = den;
    l->ps_per_bit = (uint64_t)llround(1e6 / p->mbps);
    l->nic_tx = (uint64_t)llround(p->nic_tx_ns * (double)num / (double)den);
    l->nic_rx = (uint64_t)llround(p->nic_rx_ns * (double)num / (double)den);
    l->latency = (uint64_t)llround(p->latency_ns * (double)num / (double)den);
}

static uint64_t bytes_ns(const struct link *l, uint64_t bytes)
{
    unsigned __int128 ps = (unsigned __int128)bytes * 8 * l->ps_per_bit * l->num;
    unsigned __int128 per = (unsigned __int128)1000 * l->den;
    return (uint64_t)((ps + per - 1) / per);
}

uint64_t link_wire_ns(const struct link *l, uint32_t len)
{
    uint64_t framed = (uint64_t)len + l->p.fcs;
    if (framed < l->p.min_frame)
        framed = l->p.min_frame;
    return bytes_ns(l, l->p.preamble + framed);
}

uint64_t link_lookahead(const struct link *l)
{
    return l->nic_tx + link_wire_ns(l, 0) + l->latency + l->nic_rx;
}

uint64_t link_first_arrival(const struct link *l, uint64_t t_send)
{
    uint64_t ready = t_send + l->nic_tx;
    uint64_t start = ready > l->wire_free ? ready : l->wire_free;
    return start + link_wire_ns(l, 0) + l->latency + l->nic_rx;
}

uint64_t link_send(struct link *l, uint64_t t_send, uint32_t len, enum link_fate *fate,
                   uint32_t *bit)
{
    uint64_t n = ++l->frames;
    uint64_t ready = t_send + l->nic_tx;
    *bit = 0;
    if ((uint64_t)len + l->p.fcs > l->p.max_frame) {
        *fate = LINK_OVERSIZE;
        l->fate[*fate]++;
        return ready;
    }
    /* The frame LINK_TX_QUEUE frames back on this wire: if it has not
     * started by the time this one is ready, the NIC holds LINK_TX_QUEUE
     * frames already, and this one has no room. */
    uint64_t back = l->starts[n % LINK_TX_QUEUE];
    if (n > LINK_TX_QUEUE && back > ready) {
        *fate = LINK_OVERFLOW;
        l->fate[*fate]++;
        l->frames--;                        /* numbered among those that went */
        return ready;
    }
    uint64_t start = ready > l->wire_free ? ready : l->wire_free;
    uint64_t on_wire = link_wire_ns(l, len);
    l->starts[n % LINK_TX_QUEUE] = start;
    l->wire_free = start + on_wire + bytes_ns(l, l->p.ifg);
    if (l->p.drop_every && n % l->p.drop_every == 0) {
        *fate = LINK_DROP;
    } else if (l->p.corrupt_every && n % l->p.corrupt_every == 0 && len > 0) {
        *fate = LINK_CORRUPT;
        /* A bit of the frame's own bytes, spread over it by the frame's
         * number (Knuth's multiplicative hash), never the same run of bits. */
        *bit = (uint32_t)((n * 2654435761u) % ((uint64_t)len * 8));
    } else {
        *fate = LINK_DELIVER;
    }
    l->fate[*fate]++;
    if (*fate != LINK_DROP)
        l->bytes += len;
    return start + on_wire + l->latency + l->nic_rx;
}
