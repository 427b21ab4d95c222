/*
 * clock.c: modelled time in nanoseconds, and the clock the guest reads.
 *
 * Time is counted in millicycles of the modelled processor (model.h); a
 * nanosecond is a millicycle count divided by the clock rate, in integer
 * arithmetic so that runs repeat exactly.
 *
 * The guest's clock (the clock marker, bench_now_ns()) reads in whole ns.
 * Rounding the absolute time down would make a region's span depend on
 * where the run happened to be when it began (how many interrupts the
 * typing cost, say), by a nanosecond either way; so the clock counts from a
 * base that moves to each region's start: spans inside a region then depend
 * only on the region, and repeat exactly.
 */
#include "model.h"

static uint64_t clock_base_mcyc, clock_base_ns;

uint64_t hw_mcyc_to_ns(uint64_t mcyc)
{
    return (uint64_t)((unsigned __int128)mcyc * 1000 / hw.clock_khz);
}

uint64_t hw_clock_ns(uint64_t mcyc)
{
    return clock_base_ns + hw_mcyc_to_ns(mcyc - clock_base_mcyc);
}

void hw_clock_rebase(uint64_t mcyc)
{
    clock_base_ns = hw_clock_ns(mcyc);
    clock_base_mcyc = mcyc;
}
