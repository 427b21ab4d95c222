/*
 * bench_arch.S: the x86 half of guests/include/bench.h: the clock and the
 * timed-region marker.
 *
 * x86 gives user mode no retired-instruction counter, so bench_insns
 * returns 0 ("unknown"); a hardware model counts instructions per region
 * instead.
 */
    .text

/*
 * uint64_t bench_now_ns(void), in edx:eax
 *
 * Guest time in nanoseconds, from one of two clocks, as on RISC-V
 * (guests/lib/arch/riscv/bench_arch.S explains the scheme):
 *
 * With a hardware model loaded, the model's own clock.  The clock marker
 * `nopl 0x7e6(%eax,%eax,1)` (0f 1f 84 00 e6 07 00 00, a no-op) asks the
 * model to write its time into the mailbox 16 bytes further on, before the
 * marker executes: a 64-bit time, then a word the model sets to 1.
 *
 * Without a model the mailbox keeps its zeros and we read the time-stamp
 * counter, which user mode may read and which, under QEMU's -icount
 * shift=0, counts one per guest nanosecond.
 */
    .globl bench_now_ns
    .type bench_now_ns, @function
    .balign 32                      /* the mailbox stays in the marker's page */
bench_now_ns:
    nopl  0x7e6(%eax,%eax,1)        /* +0   clock marker (8 bytes)           */
    jmp   1f                        /* +8   jump over the mailbox            */
    .balign 16
.Lclock_mailbox:                      /* +16  modelled ns, low word first      */
    .long 0, 0                      /* +24  1 when the model is there; pad   */
    .long 0, 0
1:  cmpl  $0, .Lclock_mailbox + 8     /* the model is there? */
    je    2f
    movl  .Lclock_mailbox, %eax
    movl  .Lclock_mailbox + 4, %edx
    ret
2:  rdtsc
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
