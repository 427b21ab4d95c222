/*
 * bench_arch.S: the RISC-V half of guests/include/bench.h: reading the
 * clock and the instruction counter, and the timed-region marker.
 *
 * The kernel lets user mode read the `time` and `instret` counters
 * (mcounteren/scounteren), so none of this enters the kernel.
 */
    .text

/*
 * uint64_t bench_now_ns(void)
 *
 * `time` counts at the board's timebase, 10 MHz on QEMU's virt machine, so
 * one tick is 100 ns.  On rv32 the 64-bit counter is two CSRs; read high,
 * low, high again and retry if the high half moved (the low half wrapped
 * between the reads), so the two halves belong together.
 */
    .globl bench_now_ns
    .type bench_now_ns, @function
bench_now_ns:
1:  rdtimeh a1
    rdtime  a0
    rdtimeh t0
    bne a1, t0, 1b
    /* a1:a0 *= 100 (64-bit result, ticks stay far below 2^57) */
    li t1, 100
    mulhu t2, a0, t1        /* carry out of the low word's product */
    mul a0, a0, t1
    mul a1, a1, t1
    add a1, a1, t2
    ret

/*
 * uint64_t bench_insns(void): instructions retired, read like `time`.
 */
    .globl bench_insns
    .type bench_insns, @function
bench_insns:
1:  rdinstreth a1
    rdinstret  a0
    rdinstreth t0
    bne a1, t0, 1b
    ret

/*
 * The timed-region marker: `slti x0, x0, 0x7e5`.  Writing x0 makes it a
 * no-op (a "hint" in the RISC-V spec), so it costs one instruction on any
 * machine; a QEMU plugin (hw-models/) recognises this exact encoding
 * (0x7e502013) and reads a0 when it executes:
 *
 *      a0 = (id << 1) | 0      bench_region_begin(id)
 *      a0 = (id << 1) | 1      bench_region_end(id)
 *
 * So the marker is always preceded by the instruction(s) that put the
 * encoded argument in a0, and nothing else.
 */
    .globl bench_region_begin
    .type bench_region_begin, @function
bench_region_begin:
    slli a0, a0, 1
    slti x0, x0, 0x7e5
    ret

    .globl bench_region_end
    .type bench_region_end, @function
bench_region_end:
    slli a0, a0, 1
    ori a0, a0, 1
    slti x0, x0, 0x7e5
    ret
