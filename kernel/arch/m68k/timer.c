/*
 * The m68k clock and timer: the goldfish real-time clock, a 64-bit
 * nanosecond counter with an alarm.  Run QEMU with `-rtc clock=vm` and it
 * follows guest time, which under -icount is exact and deterministic.
 * Reading TIME_LOW latches TIME_HIGH; writing ALARM_LOW arms the alarm.
 */
#include "kernel.h"
#include "m68k.h"
#include "fns.h"

#define RTC_TIME_LOW        0x00
#define RTC_TIME_HIGH       0x04
#define RTC_ALARM_LOW       0x08
#define RTC_ALARM_HIGH      0x0c
#define RTC_IRQ_ENABLED     0x10
#define RTC_CLEAR_ALARM     0x14
#define RTC_CLEAR_INTERRUPT 0x1c

uint64 arch_time_ns(void)
{
    uint32 lo = mmio_read(gf_rtc.base, RTC_TIME_LOW);
    uint32 hi = mmio_read(gf_rtc.base, RTC_TIME_HIGH);
    return ((uint64)hi << 32) | lo;
}

void arch_timer_set(uint64 deadline_ns)
{
    mmio_write(gf_rtc.base, RTC_IRQ_ENABLED, 1);
    mmio_write(gf_rtc.base, RTC_ALARM_HIGH, (uint32)(deadline_ns >> 32));
    mmio_write(gf_rtc.base, RTC_ALARM_LOW, (uint32)deadline_ns);
}

void arch_timer_stop(void)
{
    mmio_write(gf_rtc.base, RTC_IRQ_ENABLED, 0);
    mmio_write(gf_rtc.base, RTC_CLEAR_ALARM, 1);
}

void timer_intr(void)
{
    mmio_write(gf_rtc.base, RTC_CLEAR_INTERRUPT, 1);
    clock_tick();
}
