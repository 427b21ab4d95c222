/*
 * The C half of the SPARC trap path (the assembly half is trapentry.S, the
 * window traps are windows.S).  trap() decides what kind of trap this was
 * and hands it to the portable kernel: a system call to syscall(), a timer
 * or console interrupt to its driver, a user fault to proc_fault() (which
 * kills the process, not the kernel).
 */
#include "kernel.h"
#include "proc.h"
#include "syscall.h"
#include "sparc.h"

extern char usercopy_begin[], usercopy_end[], usercopy_fault[];
void flush_windows(void);
void irqmp_intr(int level);
void bad_user_stack(struct trapframe *tf) __attribute__((noreturn));

/* The assembly knows the trapframe by these offsets (machine.h). */
_Static_assert(__builtin_offsetof(struct trapframe, pc) == TF_PC, "TF_PC");
_Static_assert(__builtin_offsetof(struct trapframe, y) == TF_Y, "TF_Y");
_Static_assert(__builtin_offsetof(struct trapframe, g) == TF_G, "TF_G");
_Static_assert(__builtin_offsetof(struct trapframe, o) == TF_O, "TF_O");
_Static_assert(__builtin_offsetof(struct trapframe, tt) == TF_TT, "TF_TT");
_Static_assert(__builtin_offsetof(struct trapframe, wfault) == TF_WFAULT, "TF_WFAULT");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "TF_SIZE");
/* windows.h checks user stack pointers against KERNBASE. */
_Static_assert(KERNBASE == USERTOP, "USERTOP");

static const char *fault_name(uint32 tt)
{
    switch (tt) {
    case TT_INSN_FAULT:    return "fetch_fault";
    case TT_DATA_FAULT:    return "access_fault";
    case TT_ILLEGAL:       return "illegal_instruction";
    case TT_PRIVILEGED:    return "privileged_instruction";
    case TT_FP_DISABLED:   return "fp_disabled";
    case TT_UNALIGNED:     return "misaligned_access";
    case TT_TAG_OVERFLOW:  return "tag_overflow";
    case TT_DIV_ZERO:
    case TT_TRAP(ST_DIV0): return "divide_error";
    case TT_WIN_OVERFLOW:
    case TT_WIN_UNDERFLOW: return "bad_stack";
    default:               return "unknown_trap";
    }
}

/* A data fault's address, from the SRMMU (read before anything else can
 * fault); an instruction fault's is the pc. */
static uint32 fault_addr(struct trapframe *tf)
{
    if (tf->tt == TT_DATA_FAULT) {
        uint32 far = mmu_read(MMU_FAR);
        (void)mmu_read(MMU_FSR);            /* reading clears it */
        return far;
    }
    return tf->pc;
}

static int is_interrupt(uint32 tt)
{
    return tt > TT_INTR(0) && tt <= TT_INTR(15);
}

void trap(struct trapframe *tf)
{
    uint32 tt = tf->tt;

    if (tf->psr & PSR_PS) {
        /* From the kernel: only a fault inside a user copy, or an interrupt
         * taken while idle, is expected.  Anything else is a kernel bug. */
        if (is_interrupt(tt)) {
            irqmp_intr(tt - TT_INTR(0));
            return;
        }
        uint32 addr = fault_addr(tf);
        if (tt == TT_DATA_FAULT && tf->pc >= (uint32)usercopy_begin &&
            tf->pc < (uint32)usercopy_end && addr < USERTOP) {
            tf->pc = (uint32)usercopy_fault;
            tf->npc = tf->pc + 4;
            return;
        }
        panic("kernel trap: %s tt=0x%x pc=0x%x addr=0x%x psr=0x%x",
              fault_name(tt), tt, tf->pc, addr, tf->psr);
    }

    kstats.traps++;
    if (tt == TT_TRAP(ST_SYSCALL)) {
        tf->pc = tf->npc;                   /* return past the ta */
        tf->npc += 4;
        /* fork copies the user stack, so the user's windows must be on it,
         * not in the register file: write them out first. */
        if (arch_syscall_num(tf) == SYS_fork)
            flush_windows();
        syscall(tf);
    } else if (is_interrupt(tt)) {
        irqmp_intr(tt - TT_INTR(0));
    } else {
        proc_fault(fault_name(tt), tf->pc, tt == TT_WIN_OVERFLOW || tt == TT_WIN_UNDERFLOW
                                           ? tf->o[6] : fault_addr(tf));
    }
    /* One of the process's windows could not be written to its stack
     * (windows.S): its registers are gone, and so is the process. */
    if (tf->wfault && !curproc->killed)
        proc_fault("bad_stack", tf->pc, tf->o[6]);
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
