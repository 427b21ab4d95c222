/*
 * bench_arch.S: the VAX half of guests/include/bench.h: the clock, the
 * instruction count and the timed-region marker.
 *
 * All three talk to our SIMH through XFC, the "extended function call"
 * opcode (0xfc) that DEC reserved for customer extensions, with r1 saying
 * what for (hw-models/simh/vax_model.c):
 *      r1 = 0x7e5   region marker, r0 = (id << 1) | (1 at the end)
 *      r1 = 0x7e6   clock: with a hardware model loaded, SIMH puts the
 *                   modelled time in r0:r1 (ns) and sets r2 = 1
 *      r1 = 0x7e8   the same for the model's instruction count
 * Without a model the clock and count leave r2 alone (we cleared it), and
 * we ask the kernel instead: the uptime system call reads the KA655's
 * interval timer, which our SIMH makes count exactly one per instruction
 * (kernel/arch/vax/timer.c), so that clock and that count are one reading.
 * A stock SIMH traps every XFC to the kernel, which steps over it: the
 * same fallback.  64-bit results come back in r0 (low) and r1 (high).
 */
#include "syscall.h"

    .text

/* uint64_t bench_now_ns(void) */
    .globl bench_now_ns
    .type bench_now_ns, @function
    .balign 2
bench_now_ns:
    .word   0
    movl    $0x7e6, %r1
    clrl    %r2
    xfc
    tstl    %r2
    beql    uptime_ns           /* no model: the kernel's clock */
    ret

/* uint64_t bench_insns(void) */
    .globl bench_insns
    .type bench_insns, @function
    .balign 2
bench_insns:
    .word   0
    movl    $0x7e8, %r1
    clrl    %r2
    xfc
    tstl    %r2
    beql    uptime_ns           /* no model: the clock counts instructions */
    ret

/* The tail of both: uptime(&t) into our frame, return t. */
uptime_ns:
    subl2   $8, %sp
    movl    %sp, %r0
    chmk    $SYS_uptime
    movq    (%sp), %r0
    ret

/* void bench_region_begin(int id), bench_region_end(int id) */
    .globl bench_region_begin, bench_region_end
    .type bench_region_begin, @function
    .type bench_region_end, @function
    .balign 2
bench_region_begin:
    .word   0
    ashl    $1, 4(%ap), %r0
    movl    $0x7e5, %r1
    xfc
    ret

    .balign 2
bench_region_end:
    .word   0
    ashl    $1, 4(%ap), %r0
    incl    %r0
    movl    $0x7e5, %r1
    xfc
    ret
