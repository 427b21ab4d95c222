/*
 * The ISA interface: everything the portable kernel needs from the machine
 * underneath.  Each kernel/arch/<isa>/ implements exactly these functions,
 * plus the types and constants in its own machine.h (struct trapframe,
 * struct context, P2V/V2P).  If portable code ever needs something
 * ISA-specific, it goes here as a function, not as an #ifdef.
 */
#ifndef ARCH_H
#define ARCH_H

#include "types.h"
#include "machine.h"

struct proc;

/* Boot: bring up the MMU, console, interrupt controller and timer. */
void   arch_init(void);
void   arch_mem_range(uintptr *start, uintptr *end);   /* free RAM, kernel VAs */
const char *arch_name(void);
void   arch_halt(void) __attribute__((noreturn));     /* power off          */

/* Console: polled output, input arrives by interrupt -> console_intr().
 * The receive interrupt starts off; console.c turns it on only while
 * input is wanted (see there why), and characters typed meanwhile wait in
 * the device. */
void   arch_console_putc(int c);
void   arch_console_rx(int on);  /* the receive interrupt on (1) or off (0) */

/* Interrupts on/off for the current CPU (the kernel runs with them off). */
void   arch_intr_on(void);
void   arch_intr_off(void);
void   arch_idle(void);          /* wait for an interrupt (interrupts on)   */

/* Time.  arch_time_ns() is the guest clock (under -icount: exact).  The timer
 * fires once at the deadline given; arch_timer_stop() disarms it. */
uint64 arch_time_ns(void);
void   arch_timer_set(uint64 deadline_ns);
void   arch_timer_stop(void);

/* MMU.  A pagetable_t is one address space: the kernel mapping shared by all,
 * plus user pages at addresses below USERTOP.  perm is a mix of PERM_*. */
#define PERM_R  1
#define PERM_W  2
#define PERM_X  4
pagetable_t arch_pt_create(void);                 /* 0 if out of memory     */
int    arch_pt_map(pagetable_t pt, uaddr va, paddr pa, int perm); /* 0/-ENOMEM */
paddr  arch_pt_lookup(pagetable_t pt, uaddr va, int *perm); /* 0 if unmapped */
paddr  arch_pt_unmap(pagetable_t pt, uaddr va);   /* returns the page freed */
void   arch_pt_destroy(pagetable_t pt);           /* page-table pages only  */
void   arch_pt_activate(pagetable_t pt);
/* Each ISA's mmu.c writes these out, walk included, although five of them
 * (all but the VAX, whose tables are windows in S0) keep a tree of tables
 * and differ only in depth and entry formats.  One portable walker (a
 * header of walk, map, lookup, unmap and destroy that each mmu.c includes
 * after defining its entries: 666 lines become about 590) was tried at
 * a78d06e.  It compiles to different code on every ISA, m68k most, and
 * that moves the kernel's layout and instruction counts, and so the paper
 * suite's results: on each of ten configurations 3 to 22 of 25 cases, by
 * up to 0.16% (sparc, profile none, select 1empty) and 0.11% (m68k/sun3,
 * andrew compile).  Shared by RISC-V and x86 alone it kept their layout
 * and results (only an assert's file name and a register choice differed),
 * but two ways of doing one job read worse than one.  So it waits for a
 * change that is allowed to move the results. */

/* Page faults (demand paging, paging.c).  Each ISA's pagefault.c decodes a
 * fault on a user address (the address; read, write or fetch) and calls
 * vm_fault(); a fault served returns to the faulting instruction, which
 * runs again.  Its trap() calls user_fault() where it used to call
 * proc_fault(), and its own copy_fault() (fns.h) where it used to send a
 * faulting user copy to usercopy_fault.  machine.h says whether user stack
 * pages may be left to fault in (USER_STACK_FAULTS). */
void   user_fault(const char *why, uint32 pc, uint32 addr);  /* served, or proc_fault() */

/* Copy between kernel and the CURRENT address space's user part.  The
 * caller has checked the range lies below USERTOP; a fault on the way
 * returns -EFAULT instead of crashing the kernel.  (Two names because on
 * some machines, the 68040, user and kernel are different address spaces.) */
int    arch_copyin(void *dst, uaddr usrc, uint32 n);
int    arch_copyout(uaddr udst, const void *src, uint32 n);
int    arch_copy_user_str(char *dst, uaddr usrc, uint32 max);   /* length */

/* How a copy survives a fault: each ISA's usercopy.S puts its copy routines
 * between usercopy_begin and usercopy_end, and has them return -EFAULT from
 * usercopy_fault.  Its trap() sends a kernel-mode fault on a user address
 * (below USERTOP) whose pc is in_usercopy() there, and panics on any other. */
extern char usercopy_begin[], usercopy_end[], usercopy_fault[];

#define in_usercopy(pc) ((pc) >= (uint32)usercopy_begin && (pc) < (uint32)usercopy_end)

/* Processes. */
void   arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp,
                       uint32 arg0, uint32 arg1);  /* set tf for exec       */
void   arch_fork_child(struct trapframe *child);   /* fork returns 0 there  */
void   arch_context_init(struct context *c, uintptr kstack_top,
                         void (*entry)(void));
void   swtch(struct context *from, struct context *to);
void   arch_return_to_user(struct trapframe *tf) __attribute__((noreturn));
void   arch_set_kstack(uintptr kstack_top);        /* where traps land      */

/* System calls: where the number, arguments and result live.  These three
 * are on every system call's path, so machine.h defines them inline:
 *   uint32 arch_syscall_num(struct trapframe *tf);
 *   void   arch_syscall_args(struct trapframe *tf, uint32 arg[5]);
 *   void   arch_syscall_ret(struct trapframe *tf, int32 value);
 */

#endif
