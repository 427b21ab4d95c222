/*
 * bench_arch.S: the x86 half of guests/include/bench.h: the clock and the
 * timed-region marker.
 *
 * The clock is the time-stamp counter (rdtsc may run in user mode).  Under
 * QEMU's -icount shift=0 it counts one per guest nanosecond.  x86 gives
 * user mode no retired-instruction counter, so bench_insns returns 0
 * ("unknown"); a hardware model counts instructions per region instead.
 */
    .text

    .globl bench_now_ns
    .type bench_now_ns, @function
bench_now_ns:
    rdtsc                       /* edx:eax, the uint64_t return registers */
    ret

    .globl bench_insns
    .type bench_insns, @function
bench_insns:
    xorl  %eax, %eax
    xorl  %edx, %edx
    ret

/*
 * The timed-region marker: `nopl 0x7e5(%eax,%eax,1)`, the long no-op
 * 0f 1f 84 00 e5 07 00 00.  It does nothing on any x86; a QEMU plugin
 * (hw-models/) recognises these exact bytes and reads eax:
 *
 *      eax = (id << 1) | 0      bench_region_begin(id)
 *      eax = (id << 1) | 1      bench_region_end(id)
 */
    .globl bench_region_begin
    .type bench_region_begin, @function
bench_region_begin:
    movl  4(%esp), %eax
    shll  $1, %eax
    nopl  0x7e5(%eax,%eax,1)
    ret

    .globl bench_region_end
    .type bench_region_end, @function
bench_region_end:
    movl  4(%esp), %eax
    shll  $1, %eax
    orl   $1, %eax
    nopl  0x7e5(%eax,%eax,1)
    ret
