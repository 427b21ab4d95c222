/*
 * Integer multiply and divide for SPARC V7 code.
 *
 * SPARC V7, the Sun-4's instruction set, has no multiply or divide
 * instruction (V8 added umul, sdiv and friends).  GCC's -mcpu=v7 code calls
 * these routines instead, by the names of the SPARC ABI: .umul .mul
 * (a * b), .udiv .div (a / b), .urem .rem (a % b); arguments in %o0 and
 * %o1, result in %o0 (a product's high word in %o1).  Sun's C library had
 * them; so do we, written here.  The kernel and the guests' C library both
 * link this file.  (64-bit ones, in C: divdi3.c.)
 *
 * Multiplication uses the one step V7 does have: MULScc adds the
 * multiplicand into a partial product when the low bit of %y is set, and
 * shifts partial product and %y right one place together.  32 steps and a
 * final shift give the 64-bit product.  Division is restoring division,
 * one quotient bit per turn, after lining the divisor up with the dividend.
 * Division by zero is `ta 2`, the ABI's trap for it (the kernel kills a
 * process that does it).
 *
 * Leaves: they use only the outs, %g1, %y and the condition codes, which a
 * call may clobber.
 */
#include "sparc.h"

    .text
    .globl .umul, .mul, .udiv, .div, .urem, .rem

/* 32 multiply steps of %o1 into the partial product %o4, multiplier in
 * %y, then the final shift.  The steps treat the multiplicand (%o1) as
 * signed and the multiplier as unsigned: the callers correct for that. */
#define MULSTEPS                    \
    wr    %o0, %y;                  \
    andcc %g0, %g0, %o4;            \
    nop;                            \
    nop;                            \
    .rept 32;                       \
    mulscc %o4, %o1, %o4;           \
    .endr;                          \
    mulscc %o4, %g0, %o4

/* .umul: unsigned %o0 * %o1 -> low word %o0, high word %o1 */
.umul:
    MULSTEPS
    tst   %o1                       /* multiplicand >= 2^31 was taken as  */
    bge   1f                        /* negative: add the multiplier to    */
     nop                            /* the high word once more            */
    add   %o4, %o0, %o4
1:  rd    %y, %o0
    retl
     mov  %o4, %o1

/* .mul: signed %o0 * %o1 -> low word %o0, high word %o1 */
.mul:
    MULSTEPS
    tst   %o0                       /* a negative multiplier was taken as */
    bge   1f                        /* unsigned: subtract the multiplicand */
     nop                            /* from the high word                 */
    sub   %o4, %o1, %o4
1:  rd    %y, %o0
    retl
     mov  %o4, %o1

/* udivrem: %o0 = n, %o1 = d (not 0) -> %o2 = n / d, %o0 = n % d.
 * Uses %o3, %o4; the callers keep their return address in %o5. */
udivrem:
    mov   0, %o2                    /* the quotient                       */
    cmp   %o0, %o1
    blu   3f                        /* n < d: 0, remainder n              */
     mov  1, %o3                    /* the quotient bit d stands for      */
1:  tst   %o1                       /* shift d left while it stays <= n   */
    bl    2f                        /* (and its top bit is clear)         */
     sll  %o1, 1, %o4
    cmp   %o4, %o0
    bgu   2f
     nop
    mov   %o4, %o1
    ba    1b
     sll  %o3, 1, %o3
2:  cmp   %o0, %o1                  /* then one quotient bit a turn       */
    blu   4f
     nop
    sub   %o0, %o1, %o0
    or    %o2, %o3, %o2
4:  srl   %o3, 1, %o3
    tst   %o3
    bne   2b
     srl  %o1, 1, %o1
3:  retl
     nop

.udiv:
    tst   %o1
    be    div0
     mov  %o7, %o5
    call  udivrem
     nop
    jmp   %o5 + 8
     mov  %o2, %o0

.urem:
    tst   %o1
    be    div0
     mov  %o7, %o5
    call  udivrem
     nop
    jmp   %o5 + 8
     nop

/* Signed: divide the magnitudes.  The quotient is negative when the signs
 * differ, the remainder takes the dividend's sign (C's rules). */
.div:
    tst   %o1
    be    div0
     mov  %o7, %o5
    xor   %o0, %o1, %g1             /* the quotient's sign                */
    tst   %o0
    bl,a  1f
     neg  %o0
1:  tst   %o1
    bl,a  2f
     neg  %o1
2:  call  udivrem
     nop
    tst   %g1
    bl,a  3f
     neg  %o2
3:  jmp   %o5 + 8
     mov  %o2, %o0

.rem:
    tst   %o1
    be    div0
     mov  %o7, %o5
    mov   %o0, %g1                  /* the remainder's sign               */
    tst   %o0
    bl,a  1f
     neg  %o0
1:  tst   %o1
    bl,a  2f
     neg  %o1
2:  call  udivrem
     nop
    tst   %g1
    bl,a  3f
     neg  %o0
3:  jmp   %o5 + 8
     nop

/* u64 umul32x32(u32 a, u32 b): .umul for C (divdi3.c), which wants a
 * 64-bit result with its high word in %o0. */
    .globl umul32x32
umul32x32:
    mov   %o7, %o5
    call  .umul
     nop
    mov   %o0, %o2
    mov   %o1, %o0
    jmp   %o5 + 8
     mov  %o2, %o1

div0:
    ta    ST_DIV0
    retl
     mov  0, %o0
