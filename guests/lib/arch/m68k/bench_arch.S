/*
 * bench_arch.S: the m68k half of guests/include/bench.h: the clock and the
 * timed-region marker.
 *
 * The 68040 gives user mode no instruction counter: bench_insns returns 0
 * ("unknown"); a hardware model counts instructions per region instead.
 */
#include "syscall.h"

    .text

/*
 * uint64_t bench_now_ns(void): returned in d0 (high) and d1 (low).
 *
 * Guest time in nanoseconds, from one of two clocks, as on RISC-V
 * (guests/lib/arch/riscv/bench_arch.S explains the scheme):
 *
 * With a hardware model loaded, the model's own clock.  The clock marker
 * `trapf.l #0x7e6` (51fb 0000 07e6, a no-op) asks the model to write its
 * time into the mailbox 16 bytes further on, before the marker executes:
 * a 64-bit big-endian time, then a word the model sets to 1.
 *
 * Without a model the mailbox keeps its zeros, and we ask the kernel (the
 * uptime system call): the virt board's clock, a goldfish RTC that follows
 * QEMU's -icount, is a device only the kernel can reach.  That costs one
 * system call at each end of a timed loop, not per iteration.
 */
    .globl bench_now_ns
    .type bench_now_ns, @function
    .balign 32                      /* the mailbox stays in the marker's page */
bench_now_ns:
    trapf.l #0x7e6                  /* +0   clock marker (6 bytes)           */
    bra.s   1f                      /* +6   jump over the mailbox            */
    .balign 16
.Lclock_mailbox:                      /* +16  modelled ns, high word first     */
    .long   0, 0                    /* +24  1 when the model is there; pad   */
    .long   0, 0
1:  tst.l   (.Lclock_mailbox + 8, %pc)    /* the model is there? */
    beq.s   2f
    move.l  (.Lclock_mailbox, %pc), %d0
    move.l  (.Lclock_mailbox + 4, %pc), %d1
    rts
2:  subq.l  #8, %sp
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
