/*
 * Register windows: the overflow and underflow traps, and flushing.
 *
 * The SPARC keeps the last few call frames' registers on chip: NWINDOWS
 * windows of 16 registers (8 locals, 8 ins; a window's outs are the next
 * one's ins), in a ring.  `save` (at a call) moves to the next window
 * down (CWP - 1), `restore` (at a return) back up.  One window is always
 * marked invalid in the WIM register: moving into it traps.
 *
 *   window_overflow   a save met the invalid window: write the oldest
 *                     window in the file to its stack, and mark it invalid
 *                     instead, making room.
 *   window_underflow  a restore met the invalid window (its frame was
 *                     written out earlier): read it back from its stack.
 *   flush_windows     write every window to its stack (fork, exec).
 *
 * A window's registers go to the first 64 bytes of its frame, at its own
 * %sp (windows.h).  The user's windows go to the user's stack, so the user's
 * %sp is checked before the kernel writes or reads there with its rights
 * (CHECK_USER_STACK); a window that cannot be written is lost, and the
 * process is killed before it runs again (trap.c).
 *
 * While the kernel runs on behalf of a process, the register file may
 * still hold some of the process's user windows, always the oldest ones:
 * uwin counts them (trapentry.S sets it at each trap from user mode).  An
 * overflow in the kernel writes those out first, to the user's stack;
 * swtch.S writes out everything.  This is the scheme of SunOS on the
 * Sun-4: user windows leave the register file only when the kernel needs
 * the room, or at a context switch.
 *
 * Every handler here runs with traps off, in the trap window, whose locals
 * are free: %l0 = psr, %l1 = pc, %l2 = npc, %l3 = the trap type
 * (trapentry.S's trap table put them there).
 */
#include "windows.h"

    .data
    .globl uwin, cur_kstack, wim_index
uwin:       .word 0         /* user windows in the file, oldest first          */
cur_kstack: .word 0         /* top of the running process's kernel stack;      */
                            /* its trapframe is just below (arch_set_kstack)   */
wim_index:  .space 128      /* WIM value with one bit set -> the bit's number  */
                            /* (filled by machine.c)                           */
    .text

/*
 * spill_oldest: we run in window x, which the WIM marks invalid.  Write
 * window x - 1, the oldest one in the file, to its stack and mark it
 * invalid instead.  Whose window is it?  After a trap from user mode, the
 * user's (every window is); in the kernel, the user's while uwin > 0
 * (theirs are the oldest), else the kernel's.
 * In: %l0 = psr at the trap.  Uses %l4-%l6 and keeps every global (the
 * registers of x - 1 are all in use, so globals are our only scratch there,
 * and we put them back).  Returns to %l7 + 8.
 */
    .globl spill_oldest
spill_oldest:
    mov   %g1, %l4
    mov   %g2, %l5
    mov   %g3, %l6
    rd    %wim, %g1
    srl   %g1, 1, %g2
    sll   %g1, NWINDOWS - 1, %g1
    or    %g1, %g2, %g1             /* the WIM that marks x - 1              */
    andcc %l0, PSR_PS, %g0
    be    spill_user                /* from user mode: the user's window     */
     sethi %hi(uwin), %g2
    ld    [%g2 + %lo(uwin)], %g3
    subcc %g3, 1, %g3
    bneg  spill_kernel              /* no user window left: the kernel's     */
     nop
    st    %g3, [%g2 + %lo(uwin)]
spill_user:
    save                            /* into x - 1: allowed, the WIM marks x  */
    wr    %g1, %wim
    CHECK_USER_STACK(USER_WRITABLE, %g1, %g2, %g3, spill_lost)
    SPILL_WINDOW
    ba    spill_done
     restore
spill_kernel:
    save
    wr    %g1, %wim
    SPILL_WINDOW
    restore
spill_done:
    mov   %l4, %g1
    mov   %l5, %g2
    jmpl  %l7 + 8, %g0
     mov  %l6, %g3
spill_lost:
    /* The user's %sp is no place for its window: the registers are lost.
     * Say so in the process's trapframe; trap.c kills it. */
    restore
    sethi %hi(cur_kstack), %g1
    ld    [%g1 + %lo(cur_kstack)], %g1
    mov   1, %g2
    ba    spill_done
     st   %g2, [%g1 - TF_SIZE + TF_WFAULT]

/*
 * window_overflow: a `save` in window c found c - 1 invalid.  We run in
 * c - 1 (the trap window): make room below it, and run the save again.
 */
    .globl window_overflow
    .balign 8
window_overflow:
    sethi %hi(spill_oldest), %l4
    jmpl  %l4 + %lo(spill_oldest), %l7
     nop
    jmp   %l1
     rett %l2

/*
 * window_underflow: a `restore` (or rett) in window c found c + 1 invalid:
 * its registers are on its stack.  We run in c - 1.  Move the invalid mark
 * up to c + 2, go to c + 1, read it back (a user's only from a stack the
 * user may read), come back, and run the restore again.
 */
    .globl window_underflow
    .balign 8
window_underflow:
    rd    %wim, %l4
    sll   %l4, 1, %l5
    srl   %l4, NWINDOWS - 1, %l4
    or    %l4, %l5, %l4
    wr    %l4, %wim
    andcc %l0, PSR_PS, %g0
    nop
    bne   1f
     nop
    restore                         /* to c                                  */
    restore                         /* to c + 1: the user's; its registers   */
    CHECK_USER_STACK(USER_READABLE, %l0, %l1, %l2, underflow_bad)  /* free  */
    FILL_WINDOW
    save
    save
    jmp   %l1
     rett %l2
1:  restore                         /* the kernel's own window               */
    restore
    FILL_WINDOW
    save
    save
    jmp   %l1
     rett %l2
underflow_bad:
    /* The user's stack is gone: back to our window, put the mark back, and
     * enter the kernel as for any other trap; trap.c kills the process. */
    save
    save
    rd    %wim, %l4
    srl   %l4, 1, %l5
    sll   %l4, NWINDOWS - 1, %l4
    or    %l4, %l5, %l4
    wr    %l4, %wim
    nop; nop; nop
    sethi %hi(trap_entry), %l4
    jmp   %l4 + %lo(trap_entry)
     nop

/*
 * void flush_windows(void): write every window in the file to its stack,
 * the caller's too, and come back with only the caller's.  NWINDOWS - 1
 * saves go once round the ring; each one that meets the invalid window
 * takes an overflow trap, which writes out the oldest: in the end, every
 * window that held anything.  The restores come back; the last one finds
 * the caller's window written out and takes an underflow trap for it.
 */
    .globl flush_windows
flush_windows:
    .rept NWINDOWS - 1
    save
    .endr
    .rept NWINDOWS - 1
    restore
    .endr
    retl
     nop
