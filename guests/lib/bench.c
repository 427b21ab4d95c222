/*
 * bench_report: how a benchmark hands its numbers to the harness.
 *
 * First the protocol's RESULT line (docs/protocol.md): raw totals, exactly
 * as measured, never divided or rounded, fields in the documented order.
 * Then one line for people with the per-operation figure worked out, in
 * integer arithmetic (the guests use no floating point), e.g.
 *
 *   getpid call: 1.234 us each, loop overhead 0.100 us subtracted; 151.0 insns each
 *   bcopy cached: 8192-byte blocks, 12.34 MB/s (1 MB = 10^6 bytes) ...
 *
 * The clock and the region markers are per ISA: guests/lib/arch/<isa>/.
 */
#include "user.h"
#include "bench.h"

/* num/den rounded to `decimals` places, as text ("-0.125"); den > 0. */
static char *fixed(char *buf, size_t size, int64_t num, uint64_t den, int decimals)
{
    uint64_t scale = 1;
    for (int i = 0; i < decimals; i++)
        scale *= 10;
    int neg = num < 0;
    uint64_t mag = neg ? -(uint64_t)num : (uint64_t)num;
    uint64_t q = (mag * scale + den / 2) / den;
    if (decimals > 0)
        snprintf(buf, size, "%s%llu.%0*llu", neg ? "-" : "", q / scale, decimals, q % scale);
    else
        snprintf(buf, size, "%s%llu", neg ? "-" : "", q);
    return buf;
}

void bench_report(const struct bench_result *r)
{
    /* The machine-readable line.  bytes= only for bandwidth benchmarks. */
    char bytes[24] = "";
    if (r->bytes)
        snprintf(bytes, sizeof(bytes), " bytes=%u", (unsigned)r->bytes);
    printf("RESULT bench=%s case=%s iters=%u%s ns=%llu loop_ns=%llu insns=%llu loop_insns=%llu"
           "%s%s\n", r->bench, r->casename, (unsigned)r->iters, bytes,
           r->ns, r->loop_ns, r->insns, r->loop_insns, r->extra ? " " : "",
           r->extra ? r->extra : "");

    /* The human line. */
    if (r->iters == 0)
        return;
    int64_t dns = (int64_t)(r->ns - r->loop_ns);
    int64_t dinsns = (int64_t)(r->insns - r->loop_insns);
    char a[32], b[32], c[32];

    if (r->bytes == 0) {
        /* microseconds with 3 decimals = nanosecond resolution */
        if (r->insns == 0)              /* this ISA counts no instructions */
            snprintf(c, sizeof(c), "?");
        else
            fixed(c, sizeof(c), dinsns, r->iters, 1);
        printf("%s %s: %s us each, loop overhead %s us subtracted; %s insns each\n",
               r->bench, r->casename,
               fixed(a, sizeof(a), dns, (uint64_t)r->iters * 1000, 3),
               fixed(b, sizeof(b), (int64_t)r->loop_ns, (uint64_t)r->iters * 1000, 3), c);
        return;
    }

    /* bytes per ns = 1000 MB/s (MB = 10^6 bytes) */
    uint64_t moved = (uint64_t)r->bytes * r->iters;
    if (dns <= 0)
        snprintf(a, sizeof(a), "(no time measured)");
    else
        fixed(a, sizeof(a), (int64_t)(moved * 1000), (uint64_t)dns, 2);
    if (dinsns <= 0 || r->insns == 0)
        snprintf(c, sizeof(c), "?");
    else
        fixed(c, sizeof(c), (int64_t)moved, (uint64_t)dinsns, 2);
    printf("%s %s: %u-byte blocks, %s MB/s (1 MB = 10^6 bytes), loop overhead %s us "
           "subtracted; %s bytes per instruction\n",
           r->bench, r->casename, (unsigned)r->bytes, a,
           fixed(b, sizeof(b), (int64_t)r->loop_ns, 1000, 3), c);
}
