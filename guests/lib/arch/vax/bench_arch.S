/*
 * bench_arch.S: the VAX half of guests/include/bench.h: reading the clock
 * and the timed-region marker.
 *
 * The clock is the KA655's interval timer, which only the kernel can
 * reach, so bench_now_ns asks the kernel (the uptime system call).  That
 * costs one system call at each end of a timed loop, not per iteration.
 * Our SIMH makes that timer count exactly one per instruction (see
 * kernel/arch/vax/timer.c), so the clock *is* the instruction count, and
 * bench_insns returns the same reading.  64-bit results come back in r0
 * (low) and r1 (high).
 */
#include "syscall.h"

    .text

/* uint64_t bench_now_ns(void) */
    .globl bench_now_ns, bench_insns
    .type bench_now_ns, @function
    .type bench_insns, @function
    .balign 2
bench_now_ns:
bench_insns:
    .word   0
    subl2   $8, %sp
    movl    %sp, %r0            /* uptime(uint64_t *ns) */
    chmk    $SYS_uptime
    movq    (%sp), %r0
    ret

/*
 * The timed-region marker: XFC, the "extended function call" opcode (0xfc)
 * that DEC reserved for customer extensions.  Our SIMH (simh/vax_model.c)
 * executes it as a marker that does nothing to the guest and reads r0:
 *
 *      r0 = (id << 1) | 0      bench_region_begin(id)
 *      r0 = (id << 1) | 1      bench_region_end(id)
 *
 * A stock SIMH traps XFC to the kernel, which steps over it.
 */
    .globl bench_region_begin, bench_region_end
    .type bench_region_begin, @function
    .type bench_region_end, @function
    .balign 2
bench_region_begin:
    .word   0
    ashl    $1, 4(%ap), %r0
    xfc
    ret

    .balign 2
bench_region_end:
    .word   0
    ashl    $1, 4(%ap), %r0
    incl    %r0
    xfc
    ret
