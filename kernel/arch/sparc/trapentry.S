/*
 * The SPARC trap path: every exception, interrupt and system call enters
 * the kernel through the trap table, and leaves through trap_return.
 *
 * What the hardware does on a trap: it turns traps off (PSR.ET = 0),
 * enters supervisor mode, moves to the next register window down (CWP - 1,
 * the "trap window", without checking the WIM) and puts the trapped pc and
 * npc in that window's %l1 and %l2.  The trap window's ins are the
 * interrupted code's outs; its locals are free.  That is all: nothing is
 * saved in memory yet.
 *
 * What we add (trap_entry):
 *   - If the trap window is the invalid one, the window below it still
 *     holds someone's registers (the interrupted code's oldest caller):
 *     write it to its stack first (windows.S), so that we may call C.
 *   - From user mode: count the user's windows still in the register file
 *     (uwin, for windows.S), and take the top of this process's kernel
 *     stack.  From the kernel: stay on its stack.
 *   - Save the processor state, the globals and the interrupted code's
 *     outs in a struct trapframe (machine.h), turn traps back on with all
 *     interrupts masked (the kernel runs with PIL 15), call trap() (trap.c).
 * The interrupted code's locals and ins stay in their window; if the
 * kernel goes deep enough to need that window, the overflow handler writes
 * them to the interrupted code's own stack (windows.S).
 *
 * On the way out (trap_return), the window we return into must be in the
 * register file: after a context switch it never is (swtch.S writes every
 * window out), so we read it back from its stack, checking first, for a
 * user, that the stack is the user's to read.  Then rett.
 *
 * The kernel is mapped in every address space, so entering it needs no
 * page-table switch.
 */
#include "windows.h"

/* One trap table entry: 4 instructions that go to the handler, with the
 * %psr in %l0 and the trap type in %l3 (the hardware put pc, npc in %l1, %l2). */
#define TRAP_ENTRY(handler, tt) \
    rd    %psr, %l0;            \
    sethi %hi(handler), %l4;    \
    jmp   %l4 + %lo(handler);   \
     mov  tt, %l3

    .section .text.traptable, "ax"
    .balign 4096
    .globl trap_table
trap_table:
    .set tt, 0
    .rept 256
    .if tt == TT_WIN_OVERFLOW
    TRAP_ENTRY(window_overflow, tt)
    .elseif tt == TT_WIN_UNDERFLOW
    TRAP_ENTRY(window_underflow, tt)
    .else
    TRAP_ENTRY(trap_entry, tt)
    .endif
    .set tt, tt + 1
    .endr

    .text
/*
 * trap_entry: %l0 = psr at the trap, %l1 = pc, %l2 = npc, %l3 = tt.
 * Traps are off; CWP is the trap window t.
 */
    .globl trap_entry
    .balign 8
trap_entry:
    rd    %wim, %l4
    srl   %l4, %l0, %l4             /* bit t of the WIM (srl takes %l0's low   */
    andcc %l4, 1, %g0               /* five bits: the CWP field)               */
    be    1f
     nop
    sethi %hi(spill_oldest), %l4    /* t is invalid: free the window below it  */
    jmpl  %l4 + %lo(spill_oldest), %l7
     nop
1:  andcc %l0, PSR_PS, %g0
    bne   from_kernel
     nop

    /* From user mode.  uwin = the user's windows still in the file: those
     * from t + 1 up to, not including, the invalid window. */
    rd    %wim, %l4
    sethi %hi(wim_index), %l5
    or    %l5, %lo(wim_index), %l5
    ldub  [%l5 + %l4], %l5          /* i: the invalid window's number          */
    and   %l0, PSR_CWP, %l6
    sub   %l5, %l6, %l5
    subcc %l5, 1, %l5               /* i - t - 1, modulo NWINDOWS              */
    bneg,a 2f
     add  %l5, NWINDOWS, %l5
2:  sethi %hi(uwin), %l6
    st    %l5, [%l6 + %lo(uwin)]
    /* The trapframe: at the top of this process's kernel stack. */
    sethi %hi(cur_kstack), %l6
    ld    [%l6 + %lo(cur_kstack)], %l6
    ba    save_state
     sub  %l6, TF_SIZE, %l6

from_kernel:
    /* From the kernel (an interrupt while idle, a fault in a user copy):
     * the trapframe goes below the interrupted code's stack, our %fp. */
    sub   %fp, TF_SIZE, %l6
    andn  %l6, 7, %l6

save_state:                         /* %l6 = the trapframe                     */
    st    %l0, [%l6 + TF_PSR]
    st    %l1, [%l6 + TF_PC]
    st    %l2, [%l6 + TF_NPC]
    rd    %y, %l4
    st    %l4, [%l6 + TF_Y]
    st    %l3, [%l6 + TF_TT]
    std   %g0, [%l6 + TF_G + 0]     /* %g0 is 0: one store for %g0 and %g1     */
    std   %g2, [%l6 + TF_G + 8]
    std   %g4, [%l6 + TF_G + 16]
    std   %g6, [%l6 + TF_G + 24]
    std   %i0, [%l6 + TF_O + 0]     /* the interrupted code's outs             */
    std   %i2, [%l6 + TF_O + 8]
    std   %i4, [%l6 + TF_O + 16]
    std   %i6, [%l6 + TF_O + 24]
    /* A C call frame below the trapframe; traps on, interrupts masked. */
    sub   %l6, FRAME_SIZE, %sp
    or    %l0, PSR_PIL, %l4
    wr    %l4, PSR_ET, %psr         /* (wr writes the xor: ET was 0)           */
    mov   %l6, %o0
    nop
    nop
    call  trap                      /* trap(struct trapframe *)  trap.c        */
     nop
    /* fall through: return the way we came */

/*
 * trap_return: in the trap window, %sp = the frame below the trapframe.
 */
    .globl trap_return
trap_return:
    add   %sp, FRAME_SIZE, %l6      /* the trapframe                           */
    rd    %psr, %l0
    andn  %l0, PSR_ET, %l0          /* traps off until rett                    */
    wr    %l0, %psr
    nop; nop; nop
    /* The psr to return with: the saved one, but in this window (after a
     * context switch a process may come back in another window).  %l3. */
    ld    [%l6 + TF_PSR], %l3
    andn  %l3, PSR_CWP | PSR_ET, %l3
    and   %l0, PSR_CWP, %l4
    or    %l3, %l4, %l3
    ld    [%l6 + TF_PC], %l1
    ld    [%l6 + TF_NPC], %l2
    ld    [%l6 + TF_Y], %l4
    wr    %l4, %y
    ldd   [%l6 + TF_O + 0], %i0     /* the outs we return to (a system call's  */
    ldd   [%l6 + TF_O + 8], %i2     /* result is in %o0)                       */
    ldd   [%l6 + TF_O + 16], %i4
    ldd   [%l6 + TF_O + 24], %i6

    /* Is the window we return into, t + 1, in the register file?  It is
     * unless the WIM marks it: test bit t of the WIM rotated right by one. */
    rd    %wim, %l4
    srl   %l4, 1, %l5
    sll   %l4, NWINDOWS - 1, %l4
    or    %l4, %l5, %l4
    srl   %l4, %l0, %l4
    andcc %l4, 1, %g0
    be    restore_globals
     nop
    /* It is not: it goes back in from its stack (at its %sp, our %fp), and
     * the invalid mark moves one window further up, to t + 2. */
    rd    %wim, %l4
    sll   %l4, 1, %l5
    srl   %l4, NWINDOWS - 1, %l4
    or    %l4, %l5, %l4
    wr    %l4, %wim
    andcc %l3, PSR_PS, %g0          /* returning to the kernel?                */
    nop
    bne   fill_kernel
     nop
    restore                         /* into the user's window: its registers   */
    CHECK_USER_STACK(USER_READABLE, %l0, %l1, %l2, fill_bad)   /* are free    */
    FILL_WINDOW
    save
    ba    restore_globals
     nop
fill_kernel:
    restore
    FILL_WINDOW
    save

restore_globals:
    ldd   [%l6 + TF_G + 0], %g0     /* (loading %g0 does nothing)              */
    ldd   [%l6 + TF_G + 8], %g2
    ldd   [%l6 + TF_G + 16], %g4
    ldd   [%l6 + TF_G + 24], %g6
    wr    %l3, %psr                 /* the condition codes, PS, PIL; ET = 0    */
    nop; nop; nop
    jmp   %l1
     rett %l2                       /* window t + 1, ET = 1, S = PS            */

fill_bad:
    /* The user's stack pointer is no place to read a window from: back to
     * our window, put the mark back, and let trap.c kill the process. */
    save
    rd    %wim, %l4
    srl   %l4, 1, %l5
    sll   %l4, NWINDOWS - 1, %l4
    or    %l4, %l5, %l4
    wr    %l4, %wim
    rd    %psr, %l0
    wr    %l0, PSR_ET, %psr
    mov   %l6, %o0
    nop
    nop
    call  bad_user_stack            /* trap.c: does not return                 */
     nop

/*
 * arch_return_to_user(tf): start a new process, or an exec'd one, from
 * wherever in its kernel stack it is.  This window becomes the trap window:
 * the window above it is marked invalid (nothing older matters now: the
 * process has no user windows in the file, and none of the kernel's is
 * ever returned to), so trap_return reads the user's window from its stack.
 */
    .globl arch_return_to_user
arch_return_to_user:
    rd    %psr, %l0
    andn  %l0, PSR_ET, %l0
    wr    %l0, %psr
    nop; nop; nop
    and   %l0, PSR_CWP, %l1
    add   %l1, 1, %l1
    cmp   %l1, NWINDOWS
    be,a  1f
     mov  0, %l1
1:  mov   1, %l2
    sll   %l2, %l1, %l2
    wr    %l2, %wim
    sethi %hi(uwin), %l2
    st    %g0, [%l2 + %lo(uwin)]
    ba    trap_return
     sub  %o0, FRAME_SIZE, %sp
