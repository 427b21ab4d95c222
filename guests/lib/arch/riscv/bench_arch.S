/*
 * bench_arch.S: the RISC-V half of guests/include/bench.h: reading the
 * clock and the instruction counter, and the timed-region marker.
 *
 * The kernel lets user mode read the `cycle` and `instret` counters
 * (mcounteren/scounteren), so none of this enters the kernel.
 */
    .text

/*
 * uint64_t bench_now_ns(void)
 *
 * Guest time in nanoseconds, from one of two clocks:
 *
 * With a hardware model loaded (hw-models/, `make run PROFILE=ds3100`),
 * the model's own clock.  The clock marker `slti x0, x0, 0x7e6` (a no-op)
 * asks the model to write its time into the mailbox that follows it in this
 * very function, before the marker executes; we then load it.  The mailbox
 * is 16 bytes after the marker: a 64-bit time, then a word the model sets
 * to 1.  (QEMU 10.0 plugins can only write guest memory this way; with 10.1
 * the model could set a0/a1 directly, and only this function changes.)
 *
 * Without a model the marker does nothing, the mailbox keeps the 0 it was
 * linked with, and we read the `cycle` counter.  Under QEMU's -icount,
 * QEMU derives it from the virtual clock, so it counts guest nanoseconds
 * exactly (one per instruction with shift=0).  The `time` CSR would do too,
 * but it ticks at the board's 10 MHz, and its 100 ns steps make a result
 * jitter by one step with the phase at which a timed loop happens to start.
 * On rv32 the 64-bit counter is two CSRs: read high, low, high again and
 * retry if the high half moved (the low half wrapped between the reads).
 */
    .globl bench_now_ns
    .type bench_now_ns, @function
    .balign 32                      /* the mailbox stays in the marker's page */
bench_now_ns:
    slti  x0, x0, 0x7e6             /* +0   clock marker                     */
    auipc t1, 0                     /* +4   t1 = bench_now_ns + 4            */
    j     1f                        /* +8   jump over the mailbox            */
    nop                             /* +12                                   */
    .word 0, 0                      /* +16  modelled ns, low word first      */
    .word 0, 0                      /* +24  1 when the model is there; pad   */
1:  lw    t0, 20(t1)                /* the model is there?                   */
    beqz  t0, 2f
    lw    a0, 12(t1)
    lw    a1, 16(t1)
    ret
2:  rdcycleh a1
    rdcycle  a0
    rdcycleh t0
    bne a1, t0, 2b
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
