/*
 * The network's kernel process, "net": it runs TCP's timers and delivers
 * what the loopback holds.  Like the write-back flusher (writeback.c), it
 * sleeps until its earliest deadline, in guest time, or for ever when no
 * timer runs, so an idle machine has no timer set; anything that queues
 * loopback traffic or sets an earlier timer wakes it or moves its alarm.
 * It starts with the first socket: a kernel that never opens one has no
 * such process (its process table, its pids, are as before).
 */
#include "net.h"
#include "sock.h"
#include "proc.h"

static struct proc *netproc;
static int netproc_chan;

static void netproc_main(void)
{
    for (;;) {
        uint64 next = tcp_timers(arch_time_ns());
        if (loop_deliver())
            continue;                  /* which may have set timers, or sent more */
        sleep_until(&netproc_chan, next);
    }
}

int netproc_start(void)
{
    if (netproc)
        return 0;
    netproc = kproc_create("net", netproc_main);
    return netproc ? 0 : -EAGAIN;
}

/* 0 if there is no process yet to do it (no socket was ever opened). */
int netproc_kick(void)
{
    if (!netproc)
        return 0;
    wakeup(&netproc_chan);
    return 1;
}

/* A timer set for `when`: wake the process then, if it would sleep longer. */
void netproc_alarm(uint64 when)
{
    struct proc *p = netproc;
    if (p && p->state == SLEEPING && p->chan == &netproc_chan &&
        (!p->deadline || time_reached(p->deadline, when)))
        set_alarm(p, &netproc_chan, when);
}
