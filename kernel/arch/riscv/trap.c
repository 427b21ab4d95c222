/*
 * The C half of the RISC-V trap path (the assembly half is trapentry.S).
 * trap() decides what kind of trap this was and hands it to the portable
 * kernel: a system call to syscall(), a timer tick to clock_tick(), a device
 * interrupt to its driver, a user fault to user_fault() (pagefault.c: a
 * page fault served, or proc_fault(), which kills the process, not the
 * kernel).
 */
#include "kernel.h"
#include "proc.h"
#include "riscv.h"
#include "fns.h"

static const char *fault_name(uint32 cause)
{
    switch (cause) {
    case CAUSE_ILLEGAL:          return "illegal_instruction";
    case CAUSE_BREAKPOINT:       return "breakpoint";
    case CAUSE_MISALIGNED_FETCH: return "misaligned_fetch";
    case CAUSE_MISALIGNED_LOAD:  return "misaligned_load";
    case CAUSE_MISALIGNED_STORE: return "misaligned_store";
    case CAUSE_FETCH_ACCESS:
    case CAUSE_FETCH_PAGE:       return "fetch_fault";
    case CAUSE_LOAD_ACCESS:
    case CAUSE_LOAD_PAGE:        return "load_fault";
    case CAUSE_STORE_ACCESS:
    case CAUSE_STORE_PAGE:       return "store_fault";
    default:                     return "unknown_trap";
    }
}

static void interrupt(uint32 cause)
{
    kstats.interrupts++;
    if (cause == CAUSE_S_TIMER)
        timer_intr();
    else if (cause == CAUSE_S_EXTERNAL)
        plic_intr();
    else
        panic("unexpected interrupt %u", cause);
}

/* Where trap() calls into pagefault.c (demand paging), the code is the
 * size of what was there before, so that none of the code after it moved:
 * the benchmarks' results under a cache model depend on where the kernel's
 * code lies (kernel/port/paging.c, "Placement").  The nop makes up
 * the difference. */
void trap(struct trapframe *tf)
{
    uint32 cause = tf->scause;

    if (tf->sstatus & SSTATUS_SPP) {
        /* From the kernel: only a fault inside a user copy, or an interrupt
         * taken while idle, is expected.  Anything else is a kernel bug. */
        if (cause & SCAUSE_INTR) {
            interrupt(cause & ~SCAUSE_INTR);
        } else if (in_usercopy(tf->sepc) && tf->stval < USERTOP) {
            copy_fault(tf);                 /* pagefault.c */
            __asm__ volatile("nop");        /* see above */
        } else {
            panic("kernel trap: %s scause=%u sepc=0x%x stval=0x%x",
                  fault_name(cause), cause, tf->sepc, tf->stval);
        }
        return;
    }

    kstats.traps++;
    if (cause == CAUSE_ECALL_U) {
        tf->sepc += 4;                  /* return past the ecall */
        syscall(tf);
    } else if (cause & SCAUSE_INTR) {
        interrupt(cause & ~SCAUSE_INTR);
    } else {
        user_fault(fault_name(cause), tf->sepc, tf->stval);   /* pagefault.c */
    }
    trap_user_return();
}

/* ---- the system-call and process parts of the ISA interface ---------- */

void arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp, uint32 arg0, uint32 arg1)
{
    memset(tf, 0, sizeof *tf);
    tf->sepc = pc;
    tf->sp = sp;
    tf->a0 = arg0;
    tf->a1 = arg1;
    tf->sstatus = SSTATUS_SPIE;         /* user mode, interrupts on after sret */
    /* exec: the new program starts at the same phase of `time`'s 100 ns
     * steps in every run, before exec restarts the timer (clockalign.S). */
    clock_align();
}

void arch_fork_child(struct trapframe *child)
{
    child->a0 = 0;                      /* fork() returns 0 in the child */
}

void arch_context_init(struct context *c, uintptr kstack_top, void (*entry)(void))
{
    memset(c, 0, sizeof *c);
    c->ra = (uint32)entry;
    c->sp = kstack_top;
}

/* sscratch is reloaded on every return to user mode (trapentry.S). */
void arch_set_kstack(uintptr kstack_top) { (void)kstack_top; }
