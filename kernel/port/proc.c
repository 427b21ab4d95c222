/*
 * Processes: the table, and their life from fork to wait.
 *
 * A process is created by fork (a copy of its parent) and replaced in place
 * by exec.  exit leaves a ZOMBIE holding the exit status until the parent's
 * wait collects it and frees its memory.  The first process is made by hand
 * (user_init) and runs the shell.
 *
 * There is one CPU and the kernel runs with interrupts off, so nothing here
 * needs a lock: code between two sleep() calls runs without interruption.
 */
#include "kernel.h"
#include "proc.h"
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
        uvm_destroy(p->pagetable, p->brk);
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
        uvm_copy(parent->pagetable, child->pagetable, USER_BASE, parent->brk) < 0 ||
        uvm_copy(parent->pagetable, child->pagetable, USTACK_TOP - USTACK_SIZE, USTACK_TOP) < 0) {
        /* uvm_destroy frees whatever part of the copy was made. */
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
    memcpy(child->name, parent->name, sizeof child->name);
    child->parent = parent;
    child->state = RUNNABLE;
    kstats.forks++;
    return child->pid;
}

void sched(void);

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

int proc_kill(int pid)
{
    for (struct proc *p = proc; p < &proc[NPROC]; p++)
        if (p->pid == pid && p->state != UNUSED && p->state != ZOMBIE) {
            if (p->kfn)
                return -EPERM;             /* kernel processes are not killed */
            p->killed = 1;
            if (p->state == SLEEPING)
                p->state = RUNNABLE;       /* its sleep loop sees `killed` */
            return 0;
        }
    return -ESRCH;
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
