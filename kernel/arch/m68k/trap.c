/*
 * The C half of the m68k trap path (the assembly half is trapentry.S).
 * The vector number in the frame's format/vector word says what happened;
 * trap() hands it to the portable kernel: a system call to syscall(), an
 * interrupt to pic_intr() (through nic.c), a user fault to proc_fault() (which kills the
 * process, not the kernel).
 *
 * A user fault goes to user_fault() (pagefault.c) first: one that demand
 * paging serves (kernel/port/paging.c) never reaches proc_fault().
 */
#include "kernel.h"
#include "proc.h"
#include "m68k.h"
#include "fns.h"

/* The vectors, and the 68040's access-fault frame: m68k.h. */

static const char *fault_name(int vector, struct trapframe *tf)
{
    switch (vector) {
    case V_ACCESS:
        if ((access_frame(tf)->ssw & SSW_TM) == TM_USER_CODE)
            return "fetch_fault";
        return (access_frame(tf)->ssw & SSW_RW) ? "load_fault" : "store_fault";
    case V_ADDRESS:   return "address_error";
    case V_ILLEGAL:
    case V_LINE_A:
    case V_LINE_F:    return "illegal_instruction";
    case V_ZERODIV:   return "divide_error";
    case V_PRIVILEGE: return "privilege_violation";
    default:          return "unknown_trap";
    }
}

static uint32 fault_addr(int vector, struct trapframe *tf)
{
    return vector == V_ACCESS ? access_frame(tf)->fa : 0;
}

/* An interrupt; 1 if it was one. */
static int interrupt(int vector)
{
    if (vector == V_SPURIOUS)
        return 1;
    if (vector < V_AUTOVEC1 || vector > V_AUTOVEC1 + 6)
        return 0;
    kstats.interrupts++;
    pic_intr_nic(vector - V_AUTOVEC1 + 1);    /* pic_intr, and the network card's */
    return 1;
}

/* Where trap() calls into pagefault.c (demand paging), the code is the
 * size of what was there before, so that none of the code after it moved:
 * the benchmarks' results under a cache model depend on where the kernel's
 * code lies (kernel/port/paging.c, "Placement").  The nops make up
 * the difference. */
void trap(struct trapframe *tf)
{
    int vector = (tf->format_vector & 0xfff) >> 2;

    if (tf->sr & SR_SUPER) {
        /* From the kernel: only a fault inside a user copy, or an interrupt
         * taken while idle, is expected.  Anything else is a kernel bug. */
        if (interrupt(vector))
            return;
        if (vector == V_ACCESS && in_usercopy(tf->pc) && access_frame(tf)->fa < USERTOP) {
            copy_fault(tf);             /* pagefault.c */
            __asm__ volatile(".rept 7; nop; .endr");   /* see above */
            return;
        }
        panic("kernel trap: %s vector=%d pc=0x%x addr=0x%x sr=0x%x",
              fault_name(vector, tf), vector, tf->pc, fault_addr(vector, tf), tf->sr);
    }

    kstats.traps++;
    if (vector == V_TRAP0)
        syscall(tf);
    else if (!interrupt(vector))
        user_fault(fault_name(vector, tf), tf->pc, fault_addr(vector, tf));   /* pagefault.c */
    trap_user_return();
}

void arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp, uint32 arg0, uint32 arg1)
{
    memset(tf, 0, sizeof *tf);
    tf->pc = pc;
    tf->usp = sp;
    tf->sr = 0;                      /* user mode, interrupts enabled   */
    tf->format_vector = 0;           /* a plain 4-word frame for rte    */
    tf->d[0] = arg0;                 /* crt0.S: argc in d0, argv in d1  */
    tf->d[1] = arg1;
}

void arch_fork_child(struct trapframe *child)
{
    child->d[0] = 0;                 /* fork() returns 0 in the child */
}

void arch_context_init(struct context *c, uintptr kstack_top, void (*entry)(void))
{
    memset(c, 0, sizeof *c);
    c->pc = (uint32)entry;
    c->sp = kstack_top - 4;          /* room for a "return address"     */
}

/* The supervisor stack pointer is wherever the process left it: the top
 * of its kernel stack while it runs in user mode. */
void arch_set_kstack(uintptr kstack_top) { (void)kstack_top; }
