/*
 * swtch(from, to): save the current kernel thread in *from and resume the
 * one saved in *to.  Done by hand, not with SVPCTX/LDPCTX: those save and
 * load a whole process (all registers, four stack pointers, the P0/P1
 * registers) through a PCB and only run on the interrupt stack; here one
 * kernel thread hands the CPU to another, and the address space is
 * switched separately (arch_pt_activate).
 *
 * And by hand is tiny on the VAX: swtch is called with CALLS, whose entry
 * mask below makes the CPU push r6-r11 (the registers the C compiler
 * expects a call to preserve) into the call frame, along with ap, fp and
 * the return pc.  The frame pointer therefore names everything: store
 * ours, load theirs, and RET unwinds *their* frame.
 */
    .text
    .globl swtch
    .type swtch, @function
    .balign 2
swtch:
    .word   0x0fc0              /* entry mask: save r6-r11 */
    movl    4(%ap), %r0
    movl    %fp, (%r0)          /* from->fp */
    movl    8(%ap), %r0
    movl    (%r0), %fp          /* to->fp */
    ret

/* Where a new kernel thread's first swtch lands (arch_context_init built
 * the frame): pop the entry function and call it.  It never returns. */
    .globl proc_trampoline
proc_trampoline:
    movl    (%sp)+, %r0
    calls   $0, (%r0)
    halt
