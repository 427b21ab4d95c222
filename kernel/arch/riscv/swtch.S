/*
 * swtch(from, to): save the current kernel thread's callee-saved registers
 * in *from and resume the one saved in *to.  The caller-saved registers are
 * already on the stack (the C compiler saved them around this call), so
 * ra, sp and s0-s11 are all a context needs.
 */
#include "asm.h"

#define SAVE_CTX(r, off) sw r, off(a0)     /* into *from */
#define LOAD_CTX(r, off) lw r, off(a1)     /* out of *to */

    .globl swtch
swtch:
    FOR_EACH_CTX_REG(SAVE_CTX)
    FOR_EACH_CTX_REG(LOAD_CTX)
    ret
