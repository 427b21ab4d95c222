/*
 * 64-bit multiply and divide for the C compiler: what GCC calls for
 * `long long` * / % on a 32-bit SPARC.  Debian's 32-bit SPARC libgcc is
 * built for V8+ (it uses 64-bit instructions), which would make the kernel
 * an EM_SPARC32PLUS file that QEMU's 32-bit SPARC refuses to load, and V7 code
 * besides; so we write them, on top of the 32-bit routines in muldiv.S.
 * The kernel and the guests' C library both link this file.
 *
 * Division is shift-and-subtract, one quotient bit a turn, after taking
 * the short way when both operands fit in 32 bits (the common case: a
 * 64-bit time divided by a count).
 */
typedef unsigned int       u32;
typedef unsigned long long u64;
typedef long long          s64;

u64 umul32x32(u32 a, u32 b);            /* muldiv.S: .umul for C           */
u64 __muldi3(u64 a, u64 b);
u64 __udivdi3(u64 n, u64 d);
u64 __umoddi3(u64 n, u64 d);
s64 __divdi3(s64 n, s64 d);
s64 __moddi3(s64 n, s64 d);

/* a * b: the low words' full product, plus the cross products' low words
 * in the high word (the high words' product falls off the top). */
u64 __muldi3(u64 a, u64 b)
{
    u32 ahi = a >> 32, alo = (u32)a, bhi = b >> 32, blo = (u32)b;
    u64 r = umul32x32(alo, blo);
    return r + ((u64)(ahi * blo + alo * bhi) << 32);
}

static u64 udivmod(u64 n, u64 d, u64 *rem)
{
    if (d == 0) {
        asm volatile("ta 2");               /* the ABI's divide-by-zero trap */
        *rem = 0;
        return 0;
    }
    if ((n >> 32) == 0 && (d >> 32) == 0) {
        *rem = (u32)n % (u32)d;
        return (u32)n / (u32)d;
    }
    u64 q = 0, bit = 1;
    while (d <= n && !(d >> 63)) {          /* line d up with n's top bit */
        d <<= 1;
        bit <<= 1;
    }
    while (bit) {
        if (n >= d) {
            n -= d;
            q |= bit;
        }
        d >>= 1;
        bit >>= 1;
    }
    *rem = n;
    return q;
}

u64 __udivdi3(u64 n, u64 d)
{
    u64 r;
    return udivmod(n, d, &r);
}

u64 __umoddi3(u64 n, u64 d)
{
    u64 r;
    udivmod(n, d, &r);
    return r;
}

/* Signed: the magnitudes' quotient, negative when the signs differ; the
 * remainder takes the dividend's sign. */
s64 __divdi3(s64 n, s64 d)
{
    u64 r, q = udivmod(n < 0 ? -(u64)n : (u64)n, d < 0 ? -(u64)d : (u64)d, &r);
    return (n < 0) != (d < 0) ? -(s64)q : (s64)q;
}

s64 __moddi3(s64 n, s64 d)
{
    u64 r;
    udivmod(n < 0 ? -(u64)n : (u64)n, d < 0 ? -(u64)d : (u64)d, &r);
    return n < 0 ? -(s64)r : (s64)r;
}
