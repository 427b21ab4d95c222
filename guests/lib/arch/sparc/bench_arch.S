/*
 * bench_arch.S: the SPARC half of guests/include/bench.h: the clock and
 * the timed-region marker.
 *
 * SPARC gives user mode no instruction counter: bench_insns returns 0
 * ("unknown"); a hardware model counts instructions per region instead.
 */
#include "syscall.h"

    .text

/*
 * uint64_t bench_now_ns(void): returned in %o0 (high) and %o1 (low).
 *
 * Guest time in nanoseconds, from one of two clocks, as on RISC-V
 * (guests/lib/arch/riscv/bench_arch.S explains the scheme):
 *
 * With a hardware model loaded, the model's own clock.  The clock marker
 * `or %g0, 0x7e6, %g0` (it writes %g0: a no-op) asks the model to write
 * its time into the mailbox 16 bytes further on, before the marker
 * executes: a 64-bit big-endian time, then a word the model sets to 1.
 *
 * Without a model the mailbox keeps its zeros, and we ask the kernel (the
 * uptime system call): the sun4m's clock, a counter-timer that follows
 * QEMU's -icount in 500 ns steps, is a device only the kernel can reach
 * (kernel/arch/sparc/timer.c).  That costs one system
 * call at each end of a timed loop, not per iteration.  It writes the time
 * into our argument slots at [%sp + 72], ours to use as a leaf.
 */
    .globl bench_now_ns
    .type bench_now_ns, #function
    .balign 32                      /* the mailbox stays in the marker's page */
bench_now_ns:
    or    %g0, 0x7e6, %g0           /* +0   clock marker                     */
    ba    1f                        /* +4   jump over the mailbox            */
     nop                            /* +8                                    */
    nop                             /* +12                                   */
.Lclock_mailbox:
    .word 0, 0                      /* +16  modelled ns, high word first     */
    .word 0, 0                      /* +24  1 when the model is there; pad   */
1:  sethi %hi(.Lclock_mailbox), %o2
    or    %o2, %lo(.Lclock_mailbox), %o2
    ld    [%o2 + 8], %o3            /* the model is there?                   */
    tst   %o3
    be    2f
     nop
    ld    [%o2], %o0
    retl
     ld   [%o2 + 4], %o1
2:  add   %sp, 72, %o0
    mov   SYS_uptime, %g1
    ta    0
    retl
     ldd  [%sp + 72], %o0           /* %o0 = high word, %o1 = low word       */

    .globl bench_insns
    .type bench_insns, #function
bench_insns:
    mov   0, %o0
    retl
     mov  0, %o1

/*
 * The timed-region marker: `or %g0, 0x7e5, %g0`.  Writing %g0, which stays
 * 0, makes it a no-op; a QEMU plugin (hw-models/) recognises this exact
 * encoding (0x801027e5) and reads %o0 when it executes:
 *
 *      %o0 = (id << 1) | 0      bench_region_begin(id)
 *      %o0 = (id << 1) | 1      bench_region_end(id)
 *
 * (These are leaves: no save, so the argument is still in %o0.)
 */
    .globl bench_region_begin
    .type bench_region_begin, #function
bench_region_begin:
    sll   %o0, 1, %o0
    or    %g0, 0x7e5, %g0
    retl
     nop

    .globl bench_region_end
    .type bench_region_end, #function
bench_region_end:
    sll   %o0, 1, %o0
    or    %o0, 1, %o0
    or    %g0, 0x7e5, %g0
    retl
     nop
