/*
 * The RISC-V clock and timer.  `time` counts at 10 MHz on QEMU's virt
 * board; under `-icount shift=0` it advances exactly one nanosecond per
 * instruction, so it is deterministic.  The timer is the Sstc extension's
 * stimecmp: an interrupt when time >= stimecmp, which writing a later value
 * clears.  (start.c enabled Sstc for supervisor mode.)
 */
#include "kernel.h"
#include "riscv.h"
#include "fns.h"

#define TIMEBASE_HZ 10000000ull
#define NS_PER_TICK (1000000000ull / TIMEBASE_HZ)

uint64 arch_time_ns(void)
{
    return read_time64() * NS_PER_TICK;
}

static void set_stimecmp(uint64 t)
{
    /* Write the high half to "never" first so that no spurious interrupt
     * fires between the two writes. */
    csr_write(0x15d, 0xffffffffu);              /* stimecmph */
    csr_write(0x14d, (uint32)t);                /* stimecmp  */
    csr_write(0x15d, (uint32)(t >> 32));
}

void arch_timer_set(uint64 deadline_ns)
{
    set_stimecmp((deadline_ns + NS_PER_TICK - 1) / NS_PER_TICK);
}

void arch_timer_stop(void)
{
    set_stimecmp(~0ull);
}

void timer_intr(void)
{
    arch_timer_stop();                          /* clears the pending bit */
    clock_tick();
}
