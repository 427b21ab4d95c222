/*
 * wait_for_interrupt(): wait for an interrupt and let it be taken, with
 * interrupts off before and after (machine.c's arch_idle calls it).
 *
 * `wait` only wakes for an interrupt that could be taken, so interrupts
 * must be on while it waits.  That opens a window: an interrupt that
 * arrives after they are turned on and before `wait` would be handled (and
 * wake someone) and then `wait` would sleep anyway, with nothing left to
 * wake it.  trap() closes the window: an interrupt taken with the pc in
 * [idle_begin, idle_end) returns to idle_end, past the wait.
 */
#include "asm.h"

    .set noreorder
    .text
    .globl wait_for_interrupt, idle_begin, idle_end
wait_for_interrupt:
    mfc0  $t0, CP0_STATUS
    nop
    ori   $t0, $t0, SR_IE
idle_begin:
    mtc0  $t0, CP0_STATUS
    .set push
    .set mips32
    wait
    .set pop
idle_end:
    xori  $t0, $t0, SR_IE
    mtc0  $t0, CP0_STATUS
    jr    $ra
    nop
