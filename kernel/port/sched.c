/*
 * Scheduling: a round-robin scheduler driven by a 100 Hz timer, and
 * sleep/wakeup.
 *
 * Each process that gives up the CPU (sleep, yield, exit) switches to the
 * scheduler's own context, which picks the next RUNNABLE process in table
 * order after the last one and switches to it.  When nothing can run, the
 * CPU idles with the timer set only for the earliest sleep deadline
 * ("tickless"), so an idle guest costs no instructions and no time passes
 * under -icount.
 *
 * exec restarts the timer phase (sched_timer_reset): a benchmark then meets
 * its timer interrupts at the same instructions every run, whatever moment
 * the harness's keystrokes arrived at.  That is what makes runs identical.
 */
#include "kernel.h"
#include "proc.h"

static struct context sched_context;
static int need_resched;
static int tick_armed;

static void arm_tick(void)
{
    arch_timer_set(arch_time_ns() + TICK_NS);
    tick_armed = 1;
}

void sched_timer_reset(void)
{
    need_resched = 0;
    arm_tick();
}

/* Earliest deadline of a sleeping process, or 0 if none has one. */
static uint64 earliest_deadline(void)
{
    uint64 best = 0;
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->state == SLEEPING && p->deadline && (!best || !time_reached(p->deadline, best)))
            best = p->deadline;
    return best;
}

void scheduler(void)
{
    struct proc *last = &proc[NPROC - 1];
    for (;;) {
        struct proc *p = last;
        int found = 0;
        for (int i = 0; i < NPROC; i++) {
            p = (p == &proc[NPROC - 1]) ? proc : p + 1;
            if (p->state == RUNNABLE) {
                found = 1;
                break;
            }
        }
        if (!found) {
            uint64 d = earliest_deadline();
            if (d)
                arch_timer_set(d);
            else
                arch_timer_stop();
            tick_armed = 0;
            sched_idle();                  /* an interrupt may wake someone */
            continue;
        }
        if (!tick_armed)
            arm_tick();
        last = p;
        p->state = RUNNING;
        curproc = p;
        arch_pt_activate(p->pagetable);
        arch_set_kstack(p->kstack + KSTACKSIZE);
        kstats.cswitches++;
        swtch(&sched_context, &p->context);
        curproc = 0;
    }
}

/* Give the CPU to the scheduler; the caller has set curproc->state. */
void sched(void)
{
    swtch(&curproc->context, &sched_context);
}

void yield(void)
{
    curproc->state = RUNNABLE;
    sched();
}

void sleep(void *chan)
{
    struct proc *p = curproc;
    p->chan = chan;
    p->state = SLEEPING;
    sched();
    p->chan = 0;
}

int sleep_until(void *chan, uint64 deadline_ns)
{
    struct proc *p = curproc;
    p->deadline = deadline_ns;
    p->timed_out = 0;
    sleep(chan);
    p->deadline = 0;
    return p->timed_out;
}

void wakeup(void *chan)
{
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->state == SLEEPING && p->chan == chan)
            p->state = RUNNABLE;
}

/* If p sleeps on chan, set its alarm to deadline_ns (0: none) without
 * waking it now. */
void set_alarm(struct proc *p, void *chan, uint64 deadline_ns)
{
    if (p->state == SLEEPING && p->chan == chan)
        p->deadline = deadline_ns;
}

/* The timer interrupt: wake sleepers whose deadline passed, ask the running
 * process to yield, and set the next tick. */
void clock_tick(void)
{
    uint64 now = arch_time_ns();
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->state == SLEEPING && p->deadline && time_reached(now, p->deadline)) {
            p->timed_out = 1;
            p->state = RUNNABLE;
        }
    need_resched = 1;
    arm_tick();
}

/* Last stop on every return to user mode (the ISA's trap() calls it). */
void trap_user_return(void)
{
    if (curproc->killed)
        proc_exit(WSTATUS_KILLED);
    if (need_resched) {
        need_resched = 0;
        yield();
        if (curproc->killed)
            proc_exit(WSTATUS_KILLED);
    }
}
