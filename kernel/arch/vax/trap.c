/*
 * The C half of the VAX trap path (the assembly half is trapentry.S).
 * The frame's vector says what happened; trap() hands it to the portable
 * kernel: a CHMK to syscall(), an interrupt to its driver, a user fault to
 * proc_fault() (which kills the process, not the kernel).
 *
 * A user fault goes to user_fault() (pagefault.c) first: one that demand
 * paging serves (kernel/port/paging.c) never reaches proc_fault().
 */
#include "kernel.h"
#include "proc.h"
#include "vax.h"
#include "fns.h"

static int from_user(struct trapframe *tf)
{
    return ((tf->psl >> PSL_CUR_SHIFT) & 3) == PSL_MODE_USER;
}

/* CALLS and CALLG read the called procedure's entry mask, the first word
 * at its address, before they jump there.  A read fault in one of them is
 * (nearly always) the VAX failing to reach the procedure's code. */
#define OP_CALLG 0xfa
#define OP_CALLS 0xfb

static int in_call(struct trapframe *tf)
{
    uint8 op;
    return copyin(&op, tf->pc, 1) == 0 && (op == OP_CALLS || op == OP_CALLG);
}

static const char *fault_name(struct trapframe *tf)
{
    switch (tf->vec) {
    case SCB_ACV:
    case SCB_TNV:
        if (tf->a0 & MMF_WRITE)
            return "store_fault";
        return (tf->a1 == tf->pc || in_call(tf)) ? "fetch_fault" : "load_fault";
    case SCB_PRIVINST: return "illegal_instruction";
    case SCB_RESOP:    return "reserved_operand";
    case SCB_RESAD:    return "reserved_addressing_mode";
    case SCB_ARITH:    return "arithmetic_trap";
    case SCB_BPT:      return "breakpoint";
    default:           return "unknown_trap";
    }
}

/* An interrupt; 1 if it was one. */
static int interrupt(uint32 vec)
{
    switch (vec) {
    case SCB_TIMER0:  timer0_intr();  break;
    case SCB_TIMER1:  timer1_intr();  break;
    case SCB_CONS_RX: cons_rx_intr(); break;
    default:          return 0;
    }
    kstats.interrupts++;
    return 1;
}

/* Where trap() calls into pagefault.c (demand paging), the code is the
 * size of what was there before, so that none of the code after it moved:
 * the benchmarks' results under a cache model depend on where the kernel's
 * code lies (kernel/port/paging.c, "Placement").  The nops make up the
 * difference. */
void trap(struct trapframe *tf)
{
    uint32 vec = tf->vec;

    if (vec == SCB_XFC) {
        /* A timed-region marker (guests/lib/arch/vax/bench_arch.S).  Our
         * SIMH executes XFC itself; a stock one traps here, and the marker
         * becomes a no-op: step over the one-byte instruction. */
        tf->pc += 1;
        if (from_user(tf))
            trap_user_return();
        return;
    }

    if (!from_user(tf)) {
        /* From the kernel: only a fault inside a user copy, or an interrupt
         * taken while idle, is expected.  Anything else is a kernel bug. */
        if (interrupt(vec))
            return;
        if ((vec == SCB_ACV || vec == SCB_TNV) && tf->a1 < USERTOP && in_usercopy(tf->pc)) {
            copy_fault(tf);             /* pagefault.c */
            __asm__ volatile(".rept 8; nop; .endr");   /* see above */
            return;
        }
        panic("kernel trap: %s vec=0x%x pc=0x%x psl=0x%x a0=0x%x a1=0x%x",
              fault_name(tf), vec, tf->pc, tf->psl, tf->a0, tf->a1);
    }

    kstats.traps++;
    if (vec == SCB_CHMK)
        syscall(tf);
    else if (!interrupt(vec))
        user_fault(fault_name(tf), tf->pc,   /* pagefault.c */
                   (vec == SCB_ACV || vec == SCB_TNV) ? tf->a1 : 0);
    trap_user_return();
}

/* ---- the system-call and process parts of the ISA interface ---------- */

void arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp, uint32 arg0, uint32 arg1)
{
    memset(tf, 0, sizeof *tf);
    tf->pc = pc;
    tf->usp = sp;
    tf->psl = PSL_USER;                 /* user mode, IPL 0 */
    tf->r[0] = arg0;                    /* crt0.S: argc in r0, argv in r1 */
    tf->r[1] = arg1;
}

void arch_fork_child(struct trapframe *child)
{
    child->r[0] = 0;                    /* fork() returns 0 in the child */
}

/* A new kernel thread starts when swtch() "returns" into it: build the VAX
 * call frame that swtch's RET unwinds (see swtch.S), returning to
 * proc_trampoline, which calls entry. */

void arch_context_init(struct context *c, uintptr kstack_top, void (*entry)(void))
{
    uint32 *f = (uint32 *)kstack_top - 6;
    f[0] = 0;                           /* condition handler: none          */
    f[1] = 0;                           /* no registers saved, CALLG frame  */
    f[2] = 0;                           /* saved ap                         */
    f[3] = 0;                           /* saved fp                         */
    f[4] = (uint32)proc_trampoline;     /* saved pc                         */
    f[5] = (uint32)entry;               /* for proc_trampoline to pop       */
    c->fp = (uint32)f;
}

/* The kernel stack pointer is wherever the process left it: the top of
 * its kernel stack while it runs in user mode. */
void arch_set_kstack(uintptr kstack_top) { (void)kstack_top; }
