/*
 * A process: its address space, kernel stack, saved registers, open files,
 * current directory and where it is in its life (state).  One table of
 * NPROC of them.  A kernel process (kproc_create, e.g. the flusher) has no
 * user memory and runs one kernel function for ever.
 */
#ifndef PROC_H
#define PROC_H

#include "kernel.h"

enum procstate { UNUSED, EMBRYO, SLEEPING, RUNNABLE, RUNNING, ZOMBIE };

struct proc {
    enum procstate state;
    int pid;
    struct proc *parent;
    char name[16];

    pagetable_t pagetable;         /* user address space                      */
    uaddr brk;                     /* end of program + heap (sbrk moves it)   */
    uintptr kstack;                /* bottom of the kernel stack              */
    struct trapframe *tf;          /* user registers, at the top of kstack    */
    struct context context;        /* kernel registers while switched out     */

    void *chan;                    /* sleeping on this, if SLEEPING           */
    uint64 deadline;               /* ... or until this time (0: none)        */
    int timed_out;                 /* the deadline woke it                    */
    int killed;                    /* exit at the next return to user mode    */
    int xstatus;                   /* exit status, for wait()                 */

    struct file *ofile[NOFILE];    /* open files                              */
    struct inode *cwd;             /* current directory                       */
    void (*kfn)(void);             /* a kernel process runs this (no user part) */

    /* Added last so the fields above keep their offsets: moved, they
     * changed the 68040's code for select and the context switch, and so
     * the instruction counts the benchmarks report. */
    int pgid;                      /* process group: a job (console.c's ^C)   */
    int sid;                       /* session: the first process and everything
                                    * started from it, until one calls setsid() */
    int priv;                      /* privileged: may halt and reconfigure the
                                    * file system (priv.c); also added last */
    struct rnode *rcwd;            /* a remote current directory (rfs/client.c):
                                    * cwd is then unused; also added last */
};

extern struct proc proc[NPROC];

#endif
