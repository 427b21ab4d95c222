/*
 * The RISC-V trap path: every exception, interrupt and system call enters
 * the kernel at trap_entry and leaves through trap_return.
 *
 * stvec points here.  sscratch tells where we came from: while a process
 * runs in user mode it holds the top of that process's kernel stack; while
 * the kernel runs it holds 0.  So one swap tells us which stack to use
 * without touching any other register.
 *
 * The kernel is mapped in every address space (above USERTOP), so entering
 * it needs no page-table switch: that is the whole trap cost, the registers
 * saved here and restored below.
 */
#include "asm.h"

    .section .text
    .globl trap_entry
    .balign 4
trap_entry:
    csrrw sp, sscratch, sp          /* sp <-> sscratch                     */
    beqz  sp, from_kernel           /* sscratch was 0: we were in the kernel */

    /* From user mode: sp = top of kernel stack, sscratch = user sp. */
    addi  sp, sp, -TF_SIZE
    SAVE_REGS
    csrr  t0, sscratch
    sw    t0, TF_SP(sp)             /* the user's stack pointer            */
    csrw  sscratch, zero            /* we are in the kernel now            */
    j     save_csrs

from_kernel:
    /* A trap while in the kernel (a fault in a user copy, or an interrupt
     * while idle): put sp back and build the frame on the same stack. */
    csrrw sp, sscratch, sp          /* sp = kernel sp, sscratch = 0 again  */
    addi  sp, sp, -TF_SIZE
    SAVE_REGS
    addi  t0, sp, TF_SIZE
    sw    t0, TF_SP(sp)

save_csrs:
    csrr  t0, sepc
    sw    t0, TF_SEPC(sp)
    csrr  t0, sstatus
    sw    t0, TF_SSTATUS(sp)
    csrr  t0, scause
    sw    t0, TF_SCAUSE(sp)
    csrr  t0, stval
    sw    t0, TF_STVAL(sp)
    mv    a0, sp
    call  trap                      /* trap(struct trapframe *)  trap.c    */
    /* fall through: return the way we came */

    .globl trap_return
trap_return:                        /* sp = the trapframe to return with   */
    lw    t0, TF_SEPC(sp)
    csrw  sepc, t0
    lw    t0, TF_SSTATUS(sp)
    csrw  sstatus, t0
    andi  t0, t0, SSTATUS_SPP_BIT
    bnez  t0, 1f
    /* Back to user mode: the next trap must land on top of this kernel
     * stack, which is where this frame sits. */
    addi  t0, sp, TF_SIZE
    csrw  sscratch, t0
1:  RESTORE_REGS
    lw    sp, TF_SP(sp)             /* last: the frame is addressed by sp  */
    sret

    /* arch_return_to_user(tf): start a new process, or an exec'd one. */
    .globl arch_return_to_user
arch_return_to_user:
    mv    sp, a0
    j     trap_return
