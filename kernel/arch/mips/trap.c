/*
 * The C half of the MIPS trap path (the assembly half is trapentry.S).
 * trap() decides what kind of trap this was and hands it to the portable
 * kernel: a system call to syscall(), a timer tick to timer_intr(), a
 * device interrupt to its driver, a user fault to proc_fault() (which kills
 * the process, not the kernel).
 *
 * TLB misses do not come here: tlb_refill handles them.  What comes here
 * about pages is a TLB entry found invalid (the page is not mapped) or
 * read-only (a store to a page whose D bit is clear): a page fault, which
 * the portable kernel decides about.
 *
 * A user fault goes to user_fault() (pagefault.c) first: one that demand
 * paging serves (kernel/port/paging.c) never reaches proc_fault().
 */
#include "kernel.h"
#include "proc.h"
#include "mips.h"
#include "fns.h"



/* The portable kernel's name for a fault.  MIPS reports a load, a store
 * or a fetch outside the TLB's pages, and a misaligned one, as an address
 * error; an instruction fetch is a load whose address is the pc. */
static const char *fault_name(const struct trapframe *tf)
{
    uint32 code = CAUSE_EXC(tf->cause);
    int fetch = tf->badvaddr == tf->epc;
    switch (code) {
    case EXC_MOD:  return "store_fault";        /* a read-only page */
    case EXC_TLBL: return fetch ? "fetch_fault" : "load_fault";
    case EXC_TLBS: return "store_fault";
    case EXC_ADEL:
        if (fetch)
            return "fetch_fault";
        return tf->badvaddr >= USERTOP ? "load_fault" : "misaligned_load";
    case EXC_ADES: return tf->badvaddr >= USERTOP ? "store_fault" : "misaligned_store";
    case EXC_IBE:  return "fetch_fault";
    case EXC_DBE:  return "bus_error";
    case EXC_BP:   return "breakpoint";
    case EXC_RI:   return "illegal_instruction";
    case EXC_CPU:  return "coprocessor_unusable";
    case EXC_OV:   return "overflow";
    case EXC_TR:   return "trap";
    default:       return "unknown_trap";
    }
}

static int is_page_fault(uint32 code)
{
    return code == EXC_MOD || code == EXC_TLBL || code == EXC_TLBS;
}

static void interrupt(struct trapframe *tf)
{
    uint32 pending = tf->cause & tf->status & (SR_IM(IRQ_TIMER) | SR_IM(IRQ_I8259));
    kstats.interrupts++;
    if (pending & SR_IM(IRQ_TIMER))
        timer_intr();
    if (pending & SR_IM(IRQ_I8259))
        pic_intr();
}

/* Where trap() calls into pagefault.c (demand paging), the code is the
 * size of what was there before, so that none of the code after it moved:
 * the benchmarks' results under a cache model depend on where the kernel's
 * code lies (kernel/port/paging.c, "Placement").  The empty asm keeps
 * copy_fault's call a call (not a jump): as long as the store it replaced. */
void trap(struct trapframe *tf)
{
    uint32 code = CAUSE_EXC(tf->cause);

    if (!(tf->status & SR_UM)) {
        /* From the kernel: only an interrupt while idle, or a fault inside
         * a user copy, is expected.  Anything else is a kernel bug. */
        if (code == EXC_INT) {
            interrupt(tf);
            /* Taken between enabling interrupts and `wait`: do not wait
             * (the wakeup it brought would be missed until the next one).
             * One that ends the `wait` comes back to idle_end itself (QEMU
             * reports the pc after `wait`): the test includes idle_end so
             * that both cases run the same instructions, and a hardware
             * model's I-cache cannot tell which of them happened (which
             * depends on when the host delivered the key). */
            if (tf->epc >= (uint32)idle_begin && tf->epc <= (uint32)idle_end)
                tf->epc = (uint32)idle_end;
        } else if (in_usercopy(tf->epc) && is_page_fault(code) && tf->badvaddr < USERTOP) {
            copy_fault(tf);                 /* pagefault.c */
            __asm__ volatile("");       /* see above */
        } else {
            panic("kernel trap: %s cause=0x%x epc=0x%x badvaddr=0x%x",
                  fault_name(tf), tf->cause, tf->epc, tf->badvaddr);
        }
        return;
    }

    kstats.traps++;
    if (code == EXC_SYS) {
        tf->epc += 4;                   /* return past the syscall */
        syscall(tf);
    } else if (code == EXC_INT) {
        interrupt(tf);
    } else {
        /* A fault in a branch delay slot has EPC at the branch; the
         * address that failed is in BadVAddr either way. */
        user_fault(fault_name(tf), tf->epc, tf->badvaddr);   /* pagefault.c */
    }
    trap_user_return();
}

/* ---- the system-call and process parts of the ISA interface ---------- */

void arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp, uint32 arg0, uint32 arg1)
{
    memset(tf, 0, sizeof *tf);
    tf->epc = pc;
    tf->sp = sp;
    tf->a0 = arg0;
    tf->a1 = arg1;
    /* eret goes to user mode with interrupts on (the interrupt mask bits
     * are the kernel's, machine.c). */
    tf->status = (mfc0(C0_STATUS) & ~SR_IE) | SR_UM | SR_EXL | SR_IE;
    /* exec: the new program starts at the same phase of Count's 6.25 ns
     * ticks in every run (timer.c, clockalign.S). */
    clock_sync();
}

void arch_fork_child(struct trapframe *child)
{
    child->v0 = 0;                      /* fork() returns 0 in the child */
}

void arch_context_init(struct context *c, uintptr kstack_top, void (*entry)(void))
{
    memset(c, 0, sizeof *c);
    c->ra = (uint32)entry;
    c->sp = kstack_top;
}

/* Where the next trap from user mode builds its frame (trapentry.S). */
uint32 user_trapframe;

void arch_set_kstack(uintptr kstack_top)
{
    user_trapframe = kstack_top - TF_SIZE;
}
