/*
 * The MIPS exception vectors: the TLB refill handler and the trap path.
 *
 * With Status.BEV clear (machine.c) the processor enters the kernel at two
 * fixed addresses in kseg0 (kernel.ld places them):
 *
 *   0x80000000  tlb_refill: a user address missed in the TLB.  MIPS has no
 *               page-table walker: this handler is the walker, 20
 *               instructions run on every miss, and the hardware model
 *               charges them like any other code.
 *   0x80000180  trap_entry: everything else (system calls, interrupts,
 *               faults, TLB entries found invalid or read-only).
 *
 * On any exception the processor sets Status.EXL (kernel mode, interrupts
 * masked), saves the pc in EPC, and touches no general register.  Two of
 * them, k0 and k1, are reserved for the kernel by the calling convention:
 * they are all the handlers have until they have saved the rest.  `eret`
 * clears EXL and jumps back to EPC.  (The R3000 of the paper's DECstation
 * had a three-deep KU/IE stack and `rfe` instead; the 24Kc that QEMU gives
 * us has only the MIPS32 scheme.  The refill handler is the same idea.)
 *
 * The kernel lives in kseg0, which the TLB never translates, so entering
 * it needs no mapping change and the handlers can never miss themselves.
 *
 * Written with `.set noreorder`: every instruction that runs is on the
 * page, including the nops that fill MIPS I's load and branch delay slots.
 */
#include "asm.h"

    .set noreorder
    .set noat

/*
 * tlb_refill: load the pair of page-table entries covering BadVAddr into a
 * random TLB slot and retry.  (`tlbwr` does that in one instruction, but
 * QEMU keeps the entry tlbwr replaces as a hidden extra one, up to 128 of
 * them, so a guest would see far fewer misses than a 16-entry TLB takes;
 * writing the slot Random names with `tlbwi` makes QEMU drop its extras,
 * and our TLB is exactly the processor's.)  The page tables (mmu.c) are two levels in
 * kseg0: cur_pgdir is the running process's directory, 512 words, one per
 * 4 MB of user space, each the kseg0 address of a page table of 1024
 * entries in the TLB's own EntryLo format.  A directory slot with no table
 * points at an all-zero one, so this path has no test: a page that is not
 * mapped is loaded as invalid, and the retried access traps to trap_entry
 * as a TLB-invalid exception, which is where faults are handled.  The
 * processor has already put the missing page's number and the current
 * ASID in EntryHi.
 */
    .section .text.refill, "ax"
    .globl tlb_refill
tlb_refill:
    mfc0  $k0, CP0_BADVADDR
    lui   $k1, %hi(cur_pgdir)
    lw    $k1, %lo(cur_pgdir)($k1)    /* k1 = the directory                  */
    srl   $k0, $k0, 20
    andi  $k0, $k0, 0x7fc             /* k0 = (va >> 22) * 4                 */
    addu  $k1, $k1, $k0
    mfc0  $k0, CP0_BADVADDR
    lw    $k1, 0($k1)                 /* k1 = the page table                 */
    srl   $k0, $k0, 10
    andi  $k0, $k0, 0xff8             /* k0 = ((va >> 13) & 511) * 8: a pair */
    addu  $k1, $k1, $k0
    lw    $k0, 0($k1)                 /* even page                           */
    lw    $k1, 4($k1)                 /* odd page                            */
    mtc0  $k0, CP0_ENTRYLO0
    mfc0  $k0, CP0_RANDOM               /* the slot tlbwr would replace         */
    mtc0  $k1, CP0_ENTRYLO1
    mtc0  $k0, CP0_INDEX
    nop                             /* Index settles before the write      */
    tlbwi
    .set push
    .set mips32
    eret
    .set pop

/*
 * trap_entry: build a struct trapframe (machine.h) on the kernel stack,
 * leave exception level, and call trap(tf) (trap.c).  From user mode the
 * frame goes at the top of the running process's kernel stack, whose
 * address the scheduler keeps in user_trapframe (arch_set_kstack); from
 * the kernel (an interrupt while idle, a fault inside a user copy) it goes
 * below the interrupted stack pointer.
 */
    .section .text.general, "ax"
    .globl trap_entry
trap_entry:
    mfc0  $k0, CP0_STATUS
    move  $k1, $sp                    /* the interrupted sp                  */
    andi  $k0, $k0, SR_UM             /* were we in user mode?               */
    beqz  $k0, 1f
    addiu $sp, $sp, -TF_SIZE          /* (delay slot) from the kernel: here  */
    lui   $sp, %hi(user_trapframe)   /* from user mode: this process's frame */
    lw    $sp, %lo(user_trapframe)($sp)
    nop
1:  sw    $k1, TF_SP($sp)
    SAVE_REGS
    mfhi  $t0
    mflo  $t1
    sw    $t0, TF_HI($sp)
    sw    $t1, TF_LO($sp)
    mfc0  $t0, CP0_EPC
    mfc0  $t1, CP0_STATUS
    mfc0  $t2, CP0_CAUSE
    mfc0  $t3, CP0_BADVADDR
    sw    $t0, TF_EPC($sp)
    sw    $t1, TF_STATUS($sp)
    sw    $t2, TF_CAUSE($sp)
    sw    $t3, TF_BADVADDR($sp)
    /* Kernel mode with EXL off, so that a TLB miss in a user copy takes
     * the refill path and EPC records it; interrupts stay off. */
    li    $t2, ~(SR_UM | SR_EXL | SR_IE)
    and   $t1, $t1, $t2
    mtc0  $t1, CP0_STATUS
    jal   trap                      /* trap(struct trapframe *)  trap.c    */
    move  $a0, $sp                    /* (delay slot)                        */
    /* fall through: return the way we came */

    .globl trap_return
trap_return:                        /* sp = the trapframe to return with   */
    lw    $t0, TF_HI($sp)
    lw    $t1, TF_LO($sp)
    lw    $t2, TF_STATUS($sp)         /* EXL set: kernel mode until eret     */
    lw    $t3, TF_EPC($sp)
    mthi  $t0
    mtlo  $t1
    mtc0  $t2, CP0_STATUS
    mtc0  $t3, CP0_EPC
    RESTORE_REGS
    lw    $sp, TF_SP($sp)             /* last: the frame is addressed by sp  */
    .set push
    .set mips32
    eret
    .set pop

/* arch_return_to_user(tf): start a new process, or an exec'd one. */
    .text
    .globl arch_return_to_user
arch_return_to_user:
    j     trap_return
    move  $sp, $a0
