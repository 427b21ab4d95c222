/*
 * Unsigned 32-bit division for the C compiler.  On vax-netbsdelf GCC calls
 * __udiv(a, b) and __urem(a, b) (CALLS, arguments on the stack, result in
 * r0), which NetBSD's C library supplies, not libgcc: so we do.  The
 * kernel and the guests' C library both link this file.
 *
 * The VAX divides signed numbers only.  EDIV divides a 64-bit signed
 * dividend by a 32-bit signed divisor, so a zero-extended 32-bit dividend
 * and a divisor below 2^31 work directly, except divisor 1 (the quotient
 * of a dividend >= 2^31 would overflow).  A divisor >= 2^31 goes at most
 * once into any 32-bit dividend: one comparison decides.
 */
    .text
    .globl __udiv, __urem
    .type __udiv, @function
    .type __urem, @function

/* unsigned __udiv(unsigned a, unsigned b) */
    .balign 2
__udiv:
    .word   0
    movl    4(%ap), %r0         /* a */
    movl    8(%ap), %r2         /* b; sets N if b >= 2^31 */
    blss    2f
    cmpl    %r2, $1
    beql    1f                  /* a / 1 = a */
    clrl    %r1                 /* r0:r1 = a, zero-extended */
    ediv    %r2, %r0, %r0, %r1  /* quotient to r0 (remainder to r1) */
1:  ret
2:  cmpl    %r0, %r2            /* b >= 2^31: quotient is a >= b */
    blssu   3f
    movl    $1, %r0
    ret
3:  clrl    %r0
    ret

/* unsigned __urem(unsigned a, unsigned b) */
    .balign 2
__urem:
    .word   0
    movl    4(%ap), %r0         /* a */
    movl    8(%ap), %r2         /* b */
    blss    2f
    cmpl    %r2, $1
    beql    3f                  /* a % 1 = 0 */
    clrl    %r1
    ediv    %r2, %r0, %r1, %r0  /* remainder to r0 */
    ret
2:  cmpl    %r0, %r2
    blssu   1f                  /* a < b: remainder is a */
    subl2   %r2, %r0
1:  ret
3:  clrl    %r0
    ret
