/*
 * Copies that touch user memory: arch_copyin/arch_copyout(dst, src, n) and
 * arch_copy_user_str(dst, usrc, max).
 *
 * The caller has checked that the user range lies below USERTOP, but a page
 * there may be unmapped or read-only.  Rather than walking the page table
 * first, we just try: user addresses go through the TLB (the refill
 * handler loads their entries as for the process itself), and if the
 * access still faults with the pc between usercopy_begin and usercopy_end,
 * trap() (trap.c) resumes at usercopy_fault, which returns -EFAULT.  The
 * common case costs nothing extra.
 *
 * Written in the assembler's reorder mode: it fills the delay slots and
 * load delays itself, as for compiled code.
 */
#define EFAULT 14
#define ENAMETOOLONG 36

    .text
    .globl usercopy_begin, usercopy_end, usercopy_fault
    .globl arch_copyin, arch_copyout, arch_copy_user_str

usercopy_begin:

/* int arch_copyin(void *dst, uaddr usrc, uint32 n)
 * int arch_copyout(uaddr udst, const void *src, uint32 n)
 * One address space, so one copy does both directions. */
arch_copyin:
arch_copyout:
    or    $t0, $a0, $a1
    andi  $t0, $t0, 3
    bnez  $t0, 3f                    /* not both word-aligned: bytes        */
1:  sltiu $t1, $a2, 16
    bnez  $t1, 2f
    lw    $t2, 0($a1)
    lw    $t3, 4($a1)
    lw    $t4, 8($a1)
    lw    $t5, 12($a1)
    sw    $t2, 0($a0)
    sw    $t3, 4($a0)
    sw    $t4, 8($a0)
    sw    $t5, 12($a0)
    addiu $a0, $a0, 16
    addiu $a1, $a1, 16
    addiu $a2, $a2, -16
    b     1b
2:  sltiu $t1, $a2, 4
    bnez  $t1, 3f
    lw    $t2, 0($a1)
    addiu $a1, $a1, 4
    sw    $t2, 0($a0)
    addiu $a0, $a0, 4
    addiu $a2, $a2, -4
    b     2b
3:  beqz  $a2, 4f
    lbu   $t2, 0($a1)
    addiu $a1, $a1, 1
    sb    $t2, 0($a0)
    addiu $a0, $a0, 1
    addiu $a2, $a2, -1
    b     3b
4:  move  $v0, $zero
    jr    $ra

/* int arch_copy_user_str(char *dst, const char *usrc, uint32 max):
 * copy a NUL-terminated string; return its length, or -ENAMETOOLONG if no
 * NUL within max bytes. */
arch_copy_user_str:
    move  $v0, $zero                  /* length so far */
1:  beq   $v0, $a2, 2f
    addu  $t1, $a1, $v0
    lbu   $t2, 0($t1)
    addu  $t1, $a0, $v0
    sb    $t2, 0($t1)
    beqz  $t2, 3f
    addiu $v0, $v0, 1
    b     1b
2:  li    $v0, -ENAMETOOLONG
3:  jr    $ra

usercopy_fault:                     /* trap() sends a faulting copy here   */
    li    $v0, -EFAULT
    jr    $ra

usercopy_end:
