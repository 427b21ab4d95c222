/*
 * The m68k trap path: every exception, interrupt and system call
 * (`trap #0`) enters the kernel at trap_entry (all 256 vectors point here)
 * and leaves through trap_return.
 *
 * On a trap from user mode the 68040 switches to the supervisor stack,
 * which is the top of this process's kernel stack whenever the process runs
 * in user mode, and pushes sr, pc and a format/vector word (plus more words
 * for faults).  We push the general registers and the user stack pointer
 * below that: struct trapframe in machine.h.  The kernel has an address
 * space of its own (machine.h), so nothing else changes on the way in.
 */
    .text
    .globl trap_entry, trap_return, arch_return_to_user
    .balign 4
trap_entry:
    ori.w   #0x0700, %sr            /* the kernel runs with interrupts masked */
    movem.l %d0-%d7/%a0-%a6, -(%sp)
    move.l  %usp, %a0
    move.l  %a0, -(%sp)
    move.l  %sp, -(%sp)             /* trap(struct trapframe *)  trap.c */
    jsr     trap
    addq.l  #4, %sp

trap_return:                        /* sp = the trapframe to return with */
    move.l  (%sp)+, %a0
    move.l  %a0, %usp
    movem.l (%sp)+, %d0-%d7/%a0-%a6
    rte

/* arch_return_to_user(tf): start a new process, or an exec'd one. */
arch_return_to_user:
    move.l  4(%sp), %sp
    bra     trap_return
