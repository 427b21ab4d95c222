/*
 * The VAX trap path: the system control block (SCB), one small stub per
 * vector, and the common code that saves registers, calls trap() (trap.c)
 * and returns with REI.
 *
 * On an exception or interrupt the VAX reads the handler's address from
 * the SCB (physical address in SCBB) at the vector's offset, switches to
 * the kernel stack (the low two bits of every entry are 0: "kernel stack,
 * not the interrupt stack"), pushes PSL and PC, then 0, 1 or 2 parameters
 * depending on the vector, and jumps.  From user mode the kernel stack
 * pointer is wherever the kernel left it at the last REI to user mode:
 * the top of this process's kernel stack, so the frame lands in the same
 * place every time (struct trapframe in machine.h, p->tf in proc.c).
 * The kernel is mapped in every address space (S0), so entering it needs
 * no map change.
 *
 * The stubs even out the parameters to exactly two (a0, a1) and push the
 * vector, so trap() sees one frame layout for everything.
 */
#include "vax.h"
#include "machine.h"

/* One stub per SCB slot, 16 bytes apart, so SCB entry v points at
 * stubs + 4 * v (v is the byte offset of the slot). */
    .text
    .balign 16
stubs:
    .set v, 0
    .rept SCB_VECTORS
    .balign 16
    .if (v == SCB_ACV) || (v == SCB_TNV)
    /* two parameters already pushed: reason, address */
    .elseif (v == SCB_ARITH) || (v == 0x30) || ((v >= SCB_CHMK) && (v <= 0x4c))
    pushl   $0                  /* one parameter pushed: it becomes a1 */
    .else
    pushl   $0                  /* none pushed */
    pushl   $0
    .endif
    pushl   $v
    brw     trap_entry
    .set v, v + 4
    .endr

/* The SCB: 128 longwords, page-aligned (SCBB holds its physical address). */
    .section .rodata
    .balign 512
    .globl scb
scb:
    .set v, 0
    .rept SCB_VECTORS
    .long   stubs + 4 * v
    .set v, v + 4
    .endr

    .text
    .globl trap_entry
trap_entry:                     /* every trap, after its stub (the others' trap_entry) */
    /* A system call or fault from user mode arrives at the user's IPL (0):
     * the kernel runs with interrupts off. */
    mtpr    $IPL_HIGH, $PR_IPL
    pushr   $0x3fff             /* r0-r11, ap, fp (r0 ends up lowest) */
    mfpr    $PR_USP, -(%sp)
    pushl   %sp
    calls   $1, trap            /* trap(struct trapframe *)  trap.c */
    /* fall through: return the way we came */

trap_return:                    /* sp = the trapframe to return with */
    mtpr    (%sp)+, $PR_USP
    popr    $0x3fff
    addl2   $(TF_PC - TF_VEC), %sp  /* vec, a0, a1 */
    rei                         /* pc, psl: back to user (or idle) mode */

/* void arch_return_to_user(struct trapframe *tf): start a new process, or
 * an exec'd one.  tf is at the top of the kernel stack, so after the REI
 * the kernel stack pointer is that top again. */
    .globl arch_return_to_user
    .type arch_return_to_user, @function
    .balign 2
arch_return_to_user:
    .word   0
    movl    4(%ap), %sp
    brb     trap_return
