/*
 * bench_arch.S: the MIPS half of guests/include/bench.h: the clock and the
 * timed-region marker.
 *
 * User mode on MIPS can read neither the processor's Count register nor
 * an instruction counter: bench_insns returns 0 ("unknown"), and a
 * hardware model counts instructions per region instead.
 *
 * Written with `.set noreorder`: the delay slots are filled by hand.
 */
#include "syscall.h"

    .set noreorder
    .text

/*
 * uint64_t bench_now_ns(void): returned in v0 (low word) and v1 (high).
 *
 * Guest time in nanoseconds, from one of two clocks, as on RISC-V
 * (guests/lib/arch/riscv/bench_arch.S explains the scheme):
 *
 * With a hardware model loaded, the model's own clock.  The clock marker
 * `slti $zero, $zero, 0x7e6` (a write to $zero: it does nothing) asks the
 * model to write its time into the mailbox 16 bytes further on, before the
 * marker executes: a 64-bit little-endian time, then a word the model sets
 * to 1.
 *
 * Without a model the mailbox keeps its zeros, and we ask the kernel (the
 * uptime system call): CP0 Count, which follows QEMU's -icount, is a
 * register only the kernel can read.  That costs one system call at each
 * end of a timed loop, not per iteration.
 */
    .globl bench_now_ns
    .type bench_now_ns, @function
    .balign 32                      /* the mailbox stays in the marker's page */
bench_now_ns:
    slti  $zero, $zero, 0x7e6       /* +0   clock marker                     */
    b     1f                        /* +4   jump over the mailbox            */
    lui   $t1, %hi(bench_now_ns)     /* +8   (delay slot)                     */
    nop                             /* +12                                   */
    .word 0, 0                      /* +16  modelled ns, low word first      */
    .word 0, 0                      /* +24  1 when the model is there; pad   */
1:  addiu $t1, $t1, %lo(bench_now_ns)
    lw    $t0, 24($t1)                /* the model is there?                   */
    nop
    beqz  $t0, 2f
    nop
    lw    $v0, 16($t1)
    jr    $ra
    lw    $v1, 20($t1)                /* (delay slot)                          */
2:  addiu $sp, $sp, -8
    move  $a0, $sp
    li    $v0, SYS_uptime
    syscall
    lw    $v0, 0($sp)
    lw    $v1, 4($sp)
    jr    $ra
    addiu $sp, $sp, 8                 /* (delay slot)                          */

    .globl bench_insns
    .type bench_insns, @function
bench_insns:
    move  $v0, $zero
    jr    $ra
    move  $v1, $zero

/*
 * The timed-region marker: `slti $zero, $zero, 0x7e5` (0x280007e5), a
 * write to $zero and so a no-op on every MIPS.  A QEMU plugin (hw-models/)
 * recognises this exact word and reads a0 when it executes:
 *
 *      a0 = (id << 1) | 0      bench_region_begin(id)
 *      a0 = (id << 1) | 1      bench_region_end(id)
 *
 * It sits in the return's delay slot, where it runs before the return
 * completes, after the instructions that put the argument in a0.
 */
    .globl bench_region_begin
    .type bench_region_begin, @function
bench_region_begin:
    sll   $a0, $a0, 1
    jr    $ra
    slti  $zero, $zero, 0x7e5       /* (delay slot) */

    .globl bench_region_end
    .type bench_region_end, @function
bench_region_end:
    sll   $a0, $a0, 1
    ori   $a0, $a0, 1
    jr    $ra
    slti  $zero, $zero, 0x7e5       /* (delay slot) */
