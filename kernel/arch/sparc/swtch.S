/*
 * swtch(from, to): save the current kernel thread in *from and resume the
 * one saved in *to.
 *
 * On the SPARC a thread's registers are spread over the register file: the
 * caller's window, its callers' windows, and perhaps some of the process's
 * user windows.  They must all be in memory before another thread's stack
 * takes over, so swtch first flushes the register file (as SunOS did in
 * its resume()): NWINDOWS - 1 saves go once round the ring, and every save
 * that meets the invalid window takes an overflow trap that writes the
 * oldest window to its stack (windows.S), user windows to the user's
 * stack.  That is the Sun-4's context switch cost the paper talks about,
 * here counted by the hardware model as the traps and code it is.
 *
 * Then a context is just where the stack and the return address are: the
 * rest of the thread is on its stack.  The new thread's windows come back
 * one at a time, by underflow traps, as it returns from its calls.
 */
#include "windows.h"

    .globl swtch
swtch:                              /* a leaf: we run in the caller's window, c */
    st    %sp, [%o0 + CTX_SP]       /* from->sp                                 */
    st    %o7, [%o0 + CTX_PC]       /* from->pc (we return to %o7 + 8)           */
    mov   %o1, %g1                  /* `to`: in a global, the windows will move  */

    /* Flush.  After NWINDOWS - 1 saves we are in c + 1, and every window
     * that held anything, c too, is on its stack; the WIM marks c. */
    .rept NWINDOWS - 1
    save
    .endr
    /* NWINDOWS - 2 restores bring us to c - 1, just below the invalid c.
     * Any window will do for the new thread, and this one needs no
     * underflow trap to get into. */
    .rept NWINDOWS - 2
    restore
    .endr

    /* The new thread: its stack, its return address, and its window,
     * written to its stack when it switched out (zeros for a new one).
     * The WIM marks the window above: its callers come back by underflow. */
    ld    [%g1 + CTX_SP], %sp
    ld    [%g1 + CTX_PC], %o7
    FILL_WINDOW
    retl
     nop
