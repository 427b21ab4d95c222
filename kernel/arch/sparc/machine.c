/*
 * QEMU's sun4m SPARCclassic as a whole: bring-up order, interrupts on/off,
 * idling and power-off, and the process parts of the ISA interface
 * (kernel/port/arch.h).
 *
 * The kernel runs with traps enabled (PSR.ET: it takes window overflow and
 * underflow traps from its own calls) and interrupts masked by the
 * processor interrupt level (PSR.PIL = 15).
 */
#include "kernel.h"
#include "sparc.h"
#include "fns.h"

/* The APC's idle register (power management; QEMU's apc in slavio_misc.c):
 * a write stops the CPU until an interrupt is pending. */
#define APC_IDLE    (*(volatile uint8 *)DEV(APC_REGION))
/* The Slave I/O's auxiliary register 2: its bit 0 turns the power off
 * (QEMU shuts down and exits 0). */
#define AUX2        (*(volatile uint8 *)DEV(SLAVIO_REGION + 0x910000))
#define AUX2_PWROFF 0x01

const char *arch_name(void) { return "sparc"; }

/* The register windows the CPU has: WIM bits past the last window read as
 * 0, so writing all ones and reading back counts them.  With traps off: no
 * window may be entered meanwhile. */
static int count_windows(void)
{
    uint32 psr = read_psr(), wim, ones;
    write_psr(psr & ~PSR_ET);
    asm volatile("rd %%wim, %0\n\t"
                 "wr %%g0, -1, %%wim\n\t"
                 "nop; nop; nop\n\t"
                 "rd %%wim, %1\n\t"
                 "wr %0, %%wim\n\t"
                 "nop; nop; nop" : "=&r"(wim), "=&r"(ones) : : "memory");
    write_psr(psr);
    int n = 0;
    for (; ones; ones >>= 1)
        n += ones & 1;
    return n;
}

void arch_init(void)
{
    mmu_init();
    escc_init();
    int nwin = count_windows();
    if (nwin != NWINDOWS)
        panic("this kernel is built for %d register windows, the CPU has %d "
              "(run QEMU with -cpu TI-MicroSparc-I, or NAME,nwindows=%d)", NWINDOWS, nwin, NWINDOWS);
    for (int k = 0; k < NWINDOWS; k++)
        wim_index[1 << k] = k;
    intctl_init_nic();             /* and the network card (nic.c) */
    timer_init();
}

void arch_mem_range(uintptr *start, uintptr *stop)
{
    *start = PGROUNDUP((uintptr)end);
    *stop = PHYSTOP;
}

void arch_intr_on(void)  { write_psr(read_psr() & ~PSR_PIL); }
void arch_intr_off(void) { write_psr(read_psr() | PSR_PIL); }

/*
 * Wait for an interrupt.  The APC's idle wakes when an interrupt is
 * pending, even one the PIL masks, so it runs with interrupts masked and
 * they are let in only afterwards: unmasking them first would let an
 * interrupt that arrives just before the idle be handled (waking someone)
 * and then sleep anyway, with nothing left to wake us.
 */
void arch_idle(void)
{
    timer_idle_begin();
    APC_IDLE = 1;
    arch_intr_on();
    arch_intr_off();
    timer_idle_end();
}

/* QEMU exits as the power goes off; until then, nothing more happens
 * (interrupts stay masked). */
void arch_halt(void)
{
    AUX2 = AUX2_PWROFF;
    for (;;)
        ;
}

/* ---- processes ------------------------------------------------------- */

void arch_user_enter(struct trapframe *tf, uaddr pc, uaddr sp, uint32 arg0, uint32 arg1)
{
    /* exec: the old program's windows may still be in the register file.
     * Write them to its stack (still mapped: exec frees it after this), or
     * they would be written out later into the new program's memory. */
    flush_windows();
    memset(tf, 0, sizeof *tf);
    tf->pc = pc;
    tf->npc = pc + 4;
    tf->psr = PSR_S;                     /* rett: user mode (PS = 0), PIL 0 */
    tf->o[6] = sp - FRAME_SIZE;          /* a frame for _start: room for its window */
    tf->o[0] = arg0;                     /* crt0.S: argc in %o0, argv in %o1 */
    tf->o[1] = arg1;
}

void arch_fork_child(struct trapframe *child)
{
    child->o[0] = 0;                     /* fork() returns 0 in the child */
}

/* A new kernel thread starts at entry with a zeroed frame: swtch.S reads
 * its window from there, and entry's frame pointer is 0. */
void arch_context_init(struct context *c, uintptr kstack_top, void (*entry)(void))
{
    uintptr sp = kstack_top - FRAME_SIZE;
    memset((void *)sp, 0, FRAME_SIZE);
    c->sp = sp;
    c->pc = (uint32)entry - 8;           /* swtch returns to pc + 8 */
}

/* Where the next trap from user mode builds its frame (trapentry.S). */
void arch_set_kstack(uintptr kstack_top)
{
    cur_kstack = kstack_top;
}
