/*
 * The C half of the x86 trap path (the assembly half is trapentry.S).
 * trap() decides what kind of trap this was and hands it to the portable
 * kernel: a system call to syscall(), a timer tick to clock_tick(), the
 * UART to its driver, a user fault to proc_fault() (which kills the
 * process, not the kernel).
 *
 * A user fault goes to user_fault() (pagefault.c) first: one that demand
 * paging serves (kernel/port/paging.c) never reaches proc_fault().
 */
#include "kernel.h"
#include "proc.h"
#include "x86.h"
#include "ns16550.h"
#include "fns.h"

#define T_IRQ0    32             /* pic.c maps IRQ n to vector 32 + n */
#define T_SYSCALL 0x80
#define IRQ_TIMER 0
#define IRQ_COM1  4

static const char *fault_name(uint32 trapno, uint32 err, uint32 eip, uint32 addr)
{
    switch (trapno) {
    case 0:  return "divide_error";
    case 3:  return "breakpoint";
    case 6:  return "illegal_instruction";
    case 13: return "protection_fault";
    case T_PGFLT:
        /* Without NX, the error code does not flag instruction fetches:
         * a fault at the address being executed is one. */
        if ((err & 0x10) || addr == eip) return "fetch_fault";
        return (err & 2) ? "store_fault" : "load_fault";
    default: return "unknown_trap";
    }
}

/* A device interrupt; 1 if it was one. */
static int interrupt(uint32 trapno)
{
    if (trapno < T_IRQ0 || trapno >= T_IRQ0 + 16)
        return 0;
    int irq = trapno - T_IRQ0;
    kstats.interrupts++;
    if (irq == IRQ_TIMER)
        timer_intr();
    else if (irq == IRQ_COM1)
        uart_intr();
    pic_eoi_nic(irq);            /* nic.c: the network card's, then pic_eoi */
    return 1;
}

/* Where trap() calls into pagefault.c (demand paging), the code is the
 * size of what was there before, so that none of the code after it moved:
 * the benchmarks' results under a cache model depend on where the kernel's
 * code lies (kernel/port/paging.c, "Placement").  copy_fault's call is
 * as long as the store it replaced. */
void trap(struct trapframe *tf)
{
    if ((tf->cs & 3) == 0) {
        /* From the kernel: only a fault inside a user copy, or an interrupt
         * taken while idle, is expected.  Anything else is a kernel bug. */
        if (interrupt(tf->trapno))
            return;
        uint32 addr = rcr2();
        if (tf->trapno == T_PGFLT && in_usercopy(tf->eip) && addr < USERTOP) {
            copy_fault(tf);             /* pagefault.c */
            return;
        }
        panic("kernel trap: %s trap=%u err=0x%x eip=0x%x cr2=0x%x",
              fault_name(tf->trapno, tf->err, tf->eip, addr), tf->trapno, tf->err, tf->eip, addr);
    }

    kstats.traps++;
    if (tf->trapno == T_SYSCALL)
        syscall(tf);
    else if (!interrupt(tf->trapno)) {
        uint32 addr = tf->trapno == T_PGFLT ? rcr2() : 0;
        user_fault(fault_name(tf->trapno, tf->err, tf->eip, addr), tf->eip, addr);   /* pagefault.c */
    }
    trap_user_return();
}

void arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp, uint32 arg0, uint32 arg1)
{
    memset(tf, 0, sizeof *tf);
    tf->eip = pc;
    tf->esp = sp;
    tf->cs = SEG_UCODE;
    tf->ss = tf->ds = tf->es = tf->fs = tf->gs = SEG_UDATA;
    tf->eflags = EFLAGS_IF;
    tf->eax = arg0;                  /* crt0.S: argc in eax, argv in ecx */
    tf->ecx = arg1;
}

void arch_fork_child(struct trapframe *child)
{
    child->eax = 0;                  /* fork() returns 0 in the child */
}

void arch_context_init(struct context *c, uintptr kstack_top, void (*entry)(void))
{
    memset(c, 0, sizeof *c);
    c->eip = (uint32)entry;
    c->esp = kstack_top - 4;         /* room for the "return address" slot */
}
