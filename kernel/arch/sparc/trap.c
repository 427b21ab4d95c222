/*
 * The C half of the SPARC trap path (the assembly half is trapentry.S, the
 * window traps are windows.S).  trap() decides what kind of trap this was
 * and hands it to the portable kernel: a system call to syscall(), a timer
 * or console interrupt to its driver, a user fault to proc_fault() (which
 * kills the process, not the kernel).
 *
 * A user fault goes to user_fault() (pagefault.c) first: one that demand
 * paging serves (kernel/port/paging.c) never reaches proc_fault().
 */
#include "kernel.h"
#include "proc.h"
#include "syscall.h"
#include "sparc.h"
#include "fns.h"

/* windows.h checks user stack pointers against KERNBASE. */
_Static_assert(KERNBASE == USERTOP, "USERTOP");

/* What a trap was, and for a fault, where: a data fault's address comes
 * from the SRMMU's fault registers (read, and so cleared, once), whose
 * access type field also tells a store from a load; an instruction
 * fault's address is the pc. */
struct fault {
    const char *why;
    uint32 addr;
};

#define FSR_AT_STORE 0x80              /* access type 4-7: a store */

static struct fault fault_info(struct trapframe *tf)
{
    struct fault f = { "unknown_trap", tf->pc };
    switch (tf->tt) {
    case TT_DATA_FAULT:
        f.addr = mmu_read(MMU_FAR);
        f.why = (mmu_read(MMU_FSR) & FSR_AT_STORE) ? "store_fault" : "load_fault";
        break;
    case TT_INSN_FAULT:    f.why = "fetch_fault"; break;
    case TT_ILLEGAL:       f.why = "illegal_instruction"; break;
    case TT_PRIVILEGED:    f.why = "privileged_instruction"; break;
    case TT_FP_DISABLED:   f.why = "fp_disabled"; break;
    case TT_UNALIGNED:     f.why = "misaligned_access"; break;
    case TT_TAG_OVERFLOW:  f.why = "tag_overflow"; break;
    case TT_DIV_ZERO:
    case TT_TRAP(ST_DIV0): f.why = "divide_error"; break;
    case TT_WIN_OVERFLOW:                  /* windows.S: the user's %sp was bad */
    case TT_WIN_UNDERFLOW: f.why = "bad_stack"; f.addr = tf->o[6]; break;
    }
    return f;
}

/* A window of this process could not be written to its stack: kill it. */
static void lost_window(struct trapframe *tf)
{
    if (!curproc->killed)
        proc_fault("bad_stack", tf->pc, tf->o[6]);
    trap_user_return();                 /* exits: the process was killed */
}

static int is_interrupt(uint32 tt)
{
    return tt > TT_INTR(0) && tt <= TT_INTR(15);
}

/* Where trap() calls into pagefault.c (demand paging), the code is the
 * size of what was there before, so that none of the code after it moved:
 * the benchmarks' results under a cache model depend on where the kernel's
 * code lies (kernel/port/paging.c, "Placement").  The nops make up
 * the difference. */
void trap(struct trapframe *tf)
{
    uint32 tt = tf->tt;

    if (tf->psr & PSR_PS) {
        /* From the kernel: only a fault inside a user copy, or an interrupt
         * taken while idle, is expected.  Anything else is a kernel bug. */
        if (is_interrupt(tt)) {
            intctl_intr_nic(tt - TT_INTR(0));
            return;
        }
        struct fault f = fault_info(tf);
        if (tt == TT_DATA_FAULT && in_usercopy(tf->pc) && f.addr < USERTOP) {
            copy_fault(tf);             /* pagefault.c */
            __asm__ volatile(".rept 2; nop; .endr");   /* see above */
            return;
        }
        panic("kernel trap: %s tt=0x%x pc=0x%x addr=0x%x psr=0x%x",
              f.why, tt, tf->pc, f.addr, tf->psr);
    }

    kstats.traps++;
    /* One of the process's windows could not be written to its stack
     * (windows.S: its %sp was bad) since it last entered the kernel: its
     * registers are gone, and so is the process, before it does anything
     * more (the same check follows the trap's work, which may lose one too). */
    if (tf->wfault)
        lost_window(tf);
    if (tt == TT_TRAP(ST_SYSCALL)) {
        tf->pc = tf->npc;                   /* return past the ta */
        tf->npc += 4;
        /* fork copies the user stack, so the user's windows must be on it,
         * not in the register file: write them out first. */
        if (arch_syscall_num(tf) == SYS_fork)
            flush_windows();
        syscall(tf);
    } else if (is_interrupt(tt)) {
        intctl_intr_nic(tt - TT_INTR(0));
    } else {
        struct fault f = fault_info(tf);
        user_fault(f.why, tf->pc, f.addr);  /* pagefault.c */
    }
    if (tf->wfault)
        lost_window(tf);
    trap_user_return();
}

/* trapentry.S could not read the window we return into from the user's
 * stack: the process cannot go on. */
void bad_user_stack(struct trapframe *tf)
{
    proc_fault("bad_stack", tf->pc, tf->o[6]);
    trap_user_return();
    panic("bad_user_stack: the process lives on");
}
