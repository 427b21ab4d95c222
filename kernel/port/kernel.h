/*
 * Declarations shared by the portable kernel (kernel/port).  One header so a
 * reader finds every portable function in one place; each group names the
 * file that implements it.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include "types.h"
#include "param.h"
#include "arch.h"
#include "errno.h"
#include "abi.h"
#include "syscall.h"

struct proc;
struct file;
struct trapframe;

/* printf.c */
void  printf(const char *fmt, ...);
int   snprintf(char *buf, int size, const char *fmt, ...);
void  panic(const char *fmt, ...) __attribute__((noreturn));
#define assert(x) do { if (!(x)) panic("assert %s at %s:%d", #x, __FILE__, __LINE__); } while (0)

/* string.c */
void *memset(void *dst, int c, uint32 n);
void *memcpy(void *dst, const void *src, uint32 n);
void *memmove(void *dst, const void *src, uint32 n);
int   memcmp(const void *a, const void *b, uint32 n);
int   strcmp(const char *a, const char *b);
int   strncmp(const char *a, const char *b, uint32 n);
uint32 strlen(const char *s);
char *strncpy_safe(char *dst, const char *src, uint32 size);  /* always NUL-ends */

/* console.c */
void  console_putc(int c);
void  console_intr(int c);            /* a character arrived from the device */
extern struct file console_file;

/* kalloc.c: physical pages, handed out as kernel virtual addresses. */
void  kalloc_init(uintptr start, uintptr end);
void *kalloc(void);                   /* one zeroed page, or 0 */
void  kfree(void *page);
void *kalloc_user(uaddr va);          /* a zeroed page for user address va, by the page policy */
int   kalloc_policy(int policy);      /* PAGES_*: set it; returns the old one, or -EINVAL */
uint32 kalloc_free_pages(void);
uint32 kalloc_total_pages(void);

/* vm.c: user address spaces on top of the arch_pt_* functions. */
int   uvm_grow(pagetable_t pt, uaddr from, uaddr to, int perm); /* 0/-ENOMEM */
void  uvm_shrink(pagetable_t pt, uaddr from, uaddr to);
int   uvm_copy(pagetable_t from, pagetable_t to, uaddr start, uaddr end);
void  uvm_destroy(pagetable_t pt, uaddr brk);
int   uvm_write(pagetable_t pt, uaddr va, const void *src, uint32 n); /* not current */
int   copyin(void *dst, uaddr usrc, uint32 n);      /* 0 or -EFAULT */
int   copyout(uaddr udst, const void *src, uint32 n);
int   copyinstr(char *dst, uaddr usrc, uint32 max); /* length, -EFAULT, -ENAMETOOLONG */

/* paging.c: demand paging.  Each ISA's trap code (its pagefault.c) calls
 * vm_fault() for a page fault on a user address, from user mode or from a
 * user copy. */
#define FAULT_READ   0
#define FAULT_WRITE  1
#define FAULT_FETCH  2
extern int paging_mode;               /* PAGING_EAGER or PAGING_DEMAND (abi.h) */
int   vm_fault(uaddr va, int access); /* 0: page mapped, retry; <0: not the process's */
int   heap_grow(pagetable_t pt, uaddr from, uaddr to, int perm);  /* sbrk: uvm_grow or nothing */
int   stack_grow(pagetable_t pt, uaddr from, uaddr to, int perm); /* exec: all or the top page */
int   page_policy(int p);             /* FSCTL_PAGEPOLICY: PAGES_*, PAGING_*, FORK_* (abi.h) */

/* cow.c: copy-on-write fork.  fork, exit, exec and sbrk call these where
 * they called uvm_copy, uvm_destroy and uvm_shrink; vm_fault calls
 * cow_fault for a write to a page that is mapped. */
int   fork_copy(pagetable_t from, pagetable_t to, uaddr start, uaddr end);
void  cow_destroy(pagetable_t pt, uaddr brk);
void  cow_shrink(pagetable_t pt, uaddr from, uaddr to);
int   cow_fault(pagetable_t pt, uaddr va);   /* 0: the page is writable now */
int   fork_policy(int p);             /* FSCTL_PAGEPOLICY's FORK_* values */

/* proc.c and sched.c */
extern struct proc *curproc;
void  proc_init(void);
void  user_init(void);
int   proc_fork(void);
void  proc_exit(int status) __attribute__((noreturn));
int   proc_wait(uaddr ustatus);
int   proc_kill(int pid);
int   proc_kill_group(int pgid);      /* the console's ^C: how many were killed */
int   proc_setpgid(int pid, int pgid);
int   proc_getpgid(int pid);
int   proc_setsid(void);
int   priv_check(void);               /* priv.c: 0 if curproc is privileged, else -EPERM */
int   proc_group_exists(int pgid, int sid);  /* a live or zombie member in session sid */
struct proc *kproc_create(const char *name, void (*fn)(void));  /* 0 if no slot */
void  proc_fault(const char *why, uint32 pc, uint32 addr);
void  scheduler(void) __attribute__((noreturn));
void  sched_idle(void);               /* wait for an interrupt (net/netif.c) */
void  sched(void);                    /* switch to the scheduler (curproc not running) */
void  yield(void);
void  sleep(void *chan);
int   sleep_until(void *chan, uint64 deadline_ns);   /* 1 if the deadline passed */
void  wakeup(void *chan);
void  set_alarm(struct proc *p, void *chan, uint64 deadline_ns);  /* a sleeper's alarm */
void  clock_tick(void);               /* timer interrupt */

/* Has time `now` reached `deadline`?  A subtraction rather than a
 * comparison, so that it takes the same instructions whatever the two
 * times are: on a 32-bit machine a 64-bit `<=` branches on the high words,
 * and absolute guest time differs from run to run (it depends on when the
 * harness typed), so a comparison on the timer path would make a
 * benchmark's instruction count differ by one now and then. */
static inline int time_reached(uint64 now, uint64 deadline)
{
    return (int64)(now - deadline) >= 0;
}
void  trap_user_return(void);         /* last step before returning to user */
void  sched_timer_reset(void);

/* syscall.c */
void  syscall(struct trapframe *tf);
extern struct kstat kstats;

/* The system calls' handlers, sys_NAME for each NAME in FOR_EACH_SYSCALL
 * (syscall.h), in sysproc.c, file.c, select.c, sysfile.c, console.c and
 * priv.c.  Each gets the call's arguments as syscall() fetched them and
 * returns >= 0 or -errno. */
#define SYSCALL_HANDLER(name) int32 sys_##name(const uint32 *arg);
FOR_EACH_SYSCALL(SYSCALL_HANDLER)
#undef SYSCALL_HANDLER

/* exec.c */
int   exec(const char *path, char **argv);

#endif
