/*
 * Processes: the table, and their life from fork to wait.
 *
 * A process is created by fork (a copy of its parent) and replaced in place
 * by exec.  exit leaves a ZOMBIE holding the exit status until the parent's
 * wait collects it and frees its memory.  The first process is made by hand
 * (user_init) and runs the shell.
 *
 * Jobs: every process belongs to a process group (pgid), inherited at fork.
 * The shell puts each command line it runs (a pipeline is one job) into a
 * group of its own and makes that group the console's foreground
 * (console.c); Ctrl-C kills the foreground group and nothing else.  A
 * session (sid) is everything started from one login: here the first
 * process and its descendants, session 1, until one of them calls setsid()
 * to start a session of its own (a test does; nothing else yet).  Groups
 * never span sessions.  Who may kill whom is decided in one place,
 * killable() and proc_kill() below: no one kills pid 1, and no one kills
 * a process of another session (docs/protection.md).
 *
 * There is one CPU and the kernel runs with interrupts off, so nothing here
 * needs a lock: code between two sleep() calls runs without interruption.
 */
#include "kernel.h"
#include "proc.h"
#include "rfs/rfs.h"
#include "file.h"
#include "fs.h"

struct proc proc[NPROC];
struct proc *curproc;                  /* the process running now, 0 if none */
static struct proc *initproc;
static int nextpid = 1;
static char kstacks[NPROC][KSTACKSIZE] __attribute__((aligned(16)));

void proc_init(void)
{
    for (int i = 0; i < NPROC; i++)
        proc[i].kstack = (uintptr)kstacks[i];
}

/* The first code a new process runs, in the kernel, on its own stack. */
static void proc_start(void)
{
    struct proc *p = curproc;
    if (p->kfn) {
        p->kfn();
        panic("kernel process %s returned", p->name);
    }
    if (p == initproc && p->brk == 0) {
        /* The very first process: become the shell. */
        char *argv[] = { "sh", 0 };
        int r = exec("sh", argv);
        if (r < 0)
            panic("cannot exec the shell: error %d", -r);
    }
    arch_return_to_user(p->tf);
}

/* Find an unused slot and give it a pid, a kernel stack and a context that
 * starts in proc_start().  0 if the table is full. */
static struct proc *proc_alloc(void)
{
    struct proc *p;
    for (p = proc; p < &proc[NPROC]; p++)
        if (p->state == UNUSED)
            break;
    if (p == &proc[NPROC])
        return 0;
    uintptr kstack = p->kstack;
    memset(p, 0, sizeof *p);
    p->kstack = kstack;
    p->pid = nextpid++;
    p->state = EMBRYO;
    p->tf = (struct trapframe *)(kstack + KSTACKSIZE - TF_SIZE);
    arch_context_init(&p->context, (uintptr)p->tf, proc_start);
    kstats.nproc++;
    return p;
}

static void proc_free(struct proc *p)
{
    if (p->pagetable)
        cow_destroy(p->pagetable, p->brk);   /* cow.c */
    p->pagetable = 0;
    p->state = UNUSED;
    kstats.nproc--;
}

void user_init(void)
{
    struct proc *p = proc_alloc();
    p->pagetable = arch_pt_create();
    if (!p->pagetable)
        panic("user_init: out of memory");
    strncpy_safe(p->name, "init", sizeof p->name);
    p->pgid = p->sid = p->pid;             /* leads its own group and session */
    p->priv = 1;                           /* the one privileged ancestor (priv.c) */
    for (int fd = 0; fd < 3; fd++)         /* stdin, stdout, stderr */
        p->ofile[fd] = file_dup(&console_file);
    p->cwd = iget(ROOTINO);
    initproc = p;
    p->state = RUNNABLE;
}

int proc_fork(void)
{
    struct proc *parent = curproc, *child = proc_alloc();
    if (!child)
        return -EAGAIN;
    child->pagetable = arch_pt_create();
    if (!child->pagetable ||
        fork_copy(parent->pagetable, child->pagetable, USER_BASE, parent->brk) < 0 ||
        fork_copy(parent->pagetable, child->pagetable, USTACK_TOP - USTACK_SIZE, USTACK_TOP) < 0) {
        /* cow_destroy frees whatever part of the copy was made. */
        child->brk = parent->brk;
        proc_free(child);
        return -ENOMEM;
    }
    child->brk = parent->brk;
    *child->tf = *parent->tf;
    arch_fork_child(child->tf);
    for (int fd = 0; fd < NOFILE; fd++)
        if (parent->ofile[fd])
            child->ofile[fd] = file_dup(parent->ofile[fd]);
    child->cwd = idup(parent->cwd);
    if (parent->rcwd)
        rfs_cwd_dup(child, parent);
    memcpy(child->name, parent->name, sizeof child->name);
    child->parent = parent;
    child->pgid = parent->pgid;             /* same job, same session */
    child->sid = parent->sid;
    child->priv = parent->priv;             /* privilege is inherited (priv.c) */
    child->state = RUNNABLE;
    kstats.forks++;
    return child->pid;
}

void proc_exit(int status)
{
    struct proc *p = curproc;
    if (p == initproc) {
        printf("kernel: init exited with status %d, halting\n", status);
        arch_halt();
    }
    for (int fd = 0; fd < NOFILE; fd++)
        if (p->ofile[fd]) {
            file_close(p->ofile[fd]);
            p->ofile[fd] = 0;
        }
    iput(p->cwd);
    p->cwd = 0;
    if (p->rcwd)
        rfs_cwd_drop(p);
    /* Children outlive their parent as children of init, which reaps them. */
    for (struct proc *c = proc; c < &proc[NPROC]; c++)
        if (c->parent == p && c->state != UNUSED) {
            c->parent = initproc;
            if (c->state == ZOMBIE)
                wakeup(initproc);
        }
    p->xstatus = status;
    p->state = ZOMBIE;
    wakeup(p->parent);
    sched();
    panic("zombie ran");
}

int proc_wait(uaddr ustatus)
{
    struct proc *p = curproc;
    for (;;) {
        int children = 0;
        for (struct proc *c = proc; c < &proc[NPROC]; c++) {
            if (c->parent != p || c->state == UNUSED)
                continue;
            children++;
            if (c->state != ZOMBIE)
                continue;
            if (ustatus && copyout(ustatus, &c->xstatus, sizeof c->xstatus) < 0)
                return -EFAULT;
            int pid = c->pid;
            proc_free(c);
            return pid;
        }
        if (!children)
            return -ECHILD;
        if (p->killed)
            return -EINTR;
        sleep(p);                          /* a child's exit wakes us */
    }
}

/* The process with this pid, alive or a zombie; 0 if none. */
static struct proc *proc_find(int pid)
{
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->pid == pid && p->state != UNUSED)
            return p;
    return 0;
}

/* May p be killed at all, by anyone?  0 or -EPERM.  The rules that hold
 * whoever asks (kill() or the console's ^C) go here. */
static int killable(struct proc *p)
{
    if (p->kfn)
        return -EPERM;                     /* kernel processes are not killed */
    if (p == initproc)
        return -EPERM;                     /* nor init: its death halts the machine */
    return 0;
}

/* Mark p killed: it exits at its next return to user mode, or now if it
 * sleeps (every sleep loop that can wait long checks `killed`). */
static void kill_proc(struct proc *p)
{
    p->killed = 1;
    if (p->state == SLEEPING)
        p->state = RUNNABLE;
}

/* kill(pid), for the current process: p must be killable and in the
 * caller's session.  Privilege does not widen this: a session is the unit
 * of "my own processes", and with no users that is all a process owns. */
int proc_kill(int pid)
{
    struct proc *p = proc_find(pid);
    if (!p || p->state == ZOMBIE)
        return -ESRCH;
    int r = killable(p);
    if (r < 0)
        return r;
    if (p->sid != curproc->sid)
        return -EPERM;
    kill_proc(p);
    return 0;
}

/* Kill every live member of group pgid: the console's ^C, from its
 * interrupt handler, so there is no "current process" asking. */
int proc_kill_group(int pgid)
{
    int n = 0;
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->pgid == pgid && p->state != UNUSED && p->state != ZOMBIE &&
            killable(p) == 0) {
            kill_proc(p);
            n++;
        }
    return n;
}

int proc_group_exists(int pgid, int sid)
{
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->pgid == pgid && p->sid == sid && p->state != UNUSED)
            return 1;
    return 0;
}

/* setpgid(pid, pgid), as in POSIX: pid 0 is the caller, pgid 0 means "a
 * new group led by pid".  The caller may move itself or a child of its own,
 * within its session, into a new group or one that exists in the session;
 * a session leader stays in its group.  A shell calls it for each job in
 * both parent and child, so that neither depends on which runs first. */
int proc_setpgid(int pid, int pgid)
{
    struct proc *me = curproc;
    struct proc *p = pid ? proc_find(pid) : me;
    if (pid < 0 || pgid < 0)
        return -EINVAL;
    if (!p || (p != me && p->parent != me))
        return -ESRCH;
    if (p->sid != me->sid || p->pid == p->sid)
        return -EPERM;
    if (pgid == 0)
        pgid = p->pid;
    if (pgid != p->pid && !proc_group_exists(pgid, me->sid))
        return -EPERM;
    p->pgid = pgid;
    return 0;
}

/* setsid(), as in POSIX: the caller leaves its session and group and leads
 * a new session holding one new group, both numbered by its pid.  A group
 * leader may not (nor anyone whose pid still names a group), so that a
 * group never has members in two sessions.  The new session has no
 * terminal: the console stays session 1's (console.c). */
int proc_setsid(void)
{
    struct proc *me = curproc;
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->pgid == me->pid && p->state != UNUSED)
            return -EPERM;
    me->pgid = me->sid = me->pid;
    return me->sid;
}

int proc_getpgid(int pid)
{
    struct proc *p = pid ? proc_find(pid) : curproc;
    if (pid < 0 || !p)
        return -ESRCH;
    return p->pgid;
}

/* Start a kernel process running fn, in the kernel, for ever.  It has an
 * address space with the kernel part only, so switching to it is like
 * switching to any other process. */
struct proc *kproc_create(const char *name, void (*fn)(void))
{
    struct proc *p = proc_alloc();
    if (!p)
        return 0;
    if (!(p->pagetable = arch_pt_create())) {
        proc_free(p);
        return 0;
    }
    strncpy_safe(p->name, name, sizeof p->name);
    p->kfn = fn;
    p->state = RUNNABLE;
    return p;
}

/* A user process did something illegal: say so, and kill it (not the
 * kernel).  It exits on its way back to user mode (trap_user_return). */
void proc_fault(const char *why, uint32 pc, uint32 addr)
{
    struct proc *p = curproc;
    printf("kernel: killed pid=%d name=%s why=%s pc=0x%x addr=0x%x\n",
           p->pid, p->name, why, pc, addr);
    p->killed = 1;
}
