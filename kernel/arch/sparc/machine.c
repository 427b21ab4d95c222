/*
 * QEMU's leon3_generic as a whole: bring-up order, interrupts on/off,
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


const char *arch_name(void) { return "sparc"; }

/* %asr17 (LEON3 configuration register): bits 4:0 are NWINDOWS - 1. */
static uint32 read_asr17(void)
{
    uint32 v;
    asm volatile(".word 0x91444000" : : : "o0");     /* rd %asr17, %o0 */
    asm volatile("mov %%o0, %0" : "=r"(v));
    return v;
}

void arch_init(void)
{
    mmu_init();
    uart_init();
    uint32 nwin = (read_asr17() & 0x1f) + 1;
    if (nwin != NWINDOWS)
        panic("this kernel is built for %d register windows, the CPU has %u "
              "(run QEMU with -cpu LEON3,nwindows=%d)", NWINDOWS, nwin, NWINDOWS);
    for (int k = 0; k < NWINDOWS; k++)
        wim_index[1 << k] = k;
    irqmp_init();
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
 * Wait for an interrupt.  The LEON3's power-down (a write to %asr19) wakes
 * when an interrupt is pending, even one the PIL masks, so it runs with
 * interrupts masked and they are let in only afterwards: unmasking them
 * first would let an interrupt that arrives just before the power-down be
 * handled (waking someone) and then sleep anyway, with nothing left to
 * wake us.
 */
void arch_idle(void)
{
    timer_idle_begin();
    asm volatile(".word 0xa7800000" ::: "memory");   /* wr %g0, %asr19: power down */
    arch_intr_on();
    arch_intr_off();
    timer_idle_end();
}

/* With traps off, `ta 0` makes QEMU's LEON3 shut down (QEMU exits 0). */
void arch_halt(void)
{
    write_psr(read_psr() & ~PSR_ET);
    asm volatile("ta 0");
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
