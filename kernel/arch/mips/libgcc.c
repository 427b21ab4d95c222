/*
 * The 64-bit division helpers GCC calls on a 32-bit MIPS: MIPS I divides
 * 32 by 32 bits in hardware (divu), and GCC expands 64-bit multiplication
 * and shifts inline, but 64-bit division is a library call.  Debian's
 * libgcc for mipsel is built for MIPS32r2 (clz, ext, seb: not MIPS I) and
 * for position-independent code, so the kernel and the guests' C
 * library (guests/lib/arch/mips/libgcc.c includes this file) carry their
 * own: restoring binary long division, one quotient bit per turn, with a
 * shortcut when both numbers fit in 32 bits.
 *
 * Self-contained (no kernel headers) because the guests compile it too.
 */

typedef unsigned long long u64;
typedef long long s64;

u64 __udivmoddi4(u64 n, u64 d, u64 *rem);
u64 __udivdi3(u64 n, u64 d);
u64 __umoddi3(u64 n, u64 d);
s64 __divdi3(s64 n, s64 d);
s64 __moddi3(s64 n, s64 d);

u64 __udivmoddi4(u64 n, u64 d, u64 *rem)
{
    if ((n >> 32) == 0 && (d >> 32) == 0) {
        unsigned int n32 = (unsigned int)n, d32 = (unsigned int)d;
        if (rem)
            *rem = n32 % d32;           /* divu: a divide by 0 traps (break 7) */
        return n32 / d32;
    }
    if (d == 0)
        return (unsigned int)n / (unsigned int)d;   /* trap the same way */
    u64 q = 0, r = 0;
    for (int i = 63; i >= 0; i--) {
        r = r << 1 | ((n >> i) & 1);
        if (r >= d) {
            r -= d;
            q |= 1ull << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

u64 __udivdi3(u64 n, u64 d)
{
    return __udivmoddi4(n, d, 0);
}

u64 __umoddi3(u64 n, u64 d)
{
    u64 r;
    __udivmoddi4(n, d, &r);
    return r;
}

/* Signed: divide the magnitudes; the quotient is negative when the signs
 * differ, the remainder has the dividend's sign (C's truncating division). */
s64 __divdi3(s64 n, s64 d)
{
    u64 q = __udivmoddi4(n < 0 ? -(u64)n : (u64)n, d < 0 ? -(u64)d : (u64)d, 0);
    return (n < 0) != (d < 0) ? -(s64)q : (s64)q;
}

s64 __moddi3(s64 n, s64 d)
{
    u64 r;
    __udivmoddi4(n < 0 ? -(u64)n : (u64)n, d < 0 ? -(u64)d : (u64)d, &r);
    return n < 0 ? -(s64)r : (s64)r;
}
