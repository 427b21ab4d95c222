/*
 * bench_arch.S: the m68k half of guests/include/bench.h: the clock and the
 * timed-region marker.
 *
 * The virt board's clock (a goldfish RTC) is a device only the kernel can
 * reach, so bench_now_ns asks the kernel (the uptime system call).  That
 * costs one system call at each end of a timed loop, not per iteration.
 * The 68040 gives user mode no instruction counter: bench_insns returns 0
 * ("unknown"); a hardware model counts instructions per region instead.
 */
#include "syscall.h"

    .text

/* uint64_t bench_now_ns(void): returned in d0 (high) and d1 (low). */
    .globl bench_now_ns
    .type bench_now_ns, @function
bench_now_ns:
    subq.l  #8, %sp
    move.l  %sp, %d1
    moveq   #SYS_uptime, %d0
    trap    #0
    move.l  (%sp)+, %d0
    move.l  (%sp)+, %d1
    rts

    .globl bench_insns
    .type bench_insns, @function
bench_insns:
    moveq   #0, %d0
    moveq   #0, %d1
    rts

/*
 * The timed-region marker: `trapf.l #0x7e5`, "trap never" with a 32-bit
 * operand (51fb 0000 07e5).  It does nothing, not even to the condition
 * codes; a QEMU plugin (hw-models/) recognises these exact bytes and
 * reads d0:
 *
 *      d0 = (id << 1) | 0      bench_region_begin(id)
 *      d0 = (id << 1) | 1      bench_region_end(id)
 */
    .globl bench_region_begin
    .type bench_region_begin, @function
bench_region_begin:
    move.l  4(%sp), %d0
    add.l   %d0, %d0
    trapf.l #0x7e5
    rts

    .globl bench_region_end
    .type bench_region_end, @function
bench_region_end:
    move.l  4(%sp), %d0
    add.l   %d0, %d0
    addq.l  #1, %d0
    trapf.l #0x7e5
    rts
