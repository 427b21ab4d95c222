/*
 * Copies that touch user memory: arch_copyin/arch_copyout(dst, src, n) and
 * arch_copy_user_str(dst, usrc, max).
 *
 * The caller has checked that the user range lies below USERTOP, but a page
 * there may be unmapped or read-only.  Rather than walking the page table
 * first, we just try: sstatus.SUM lets the kernel touch user pages for the
 * length of the copy, and if a page fault happens with the pc between
 * usercopy_begin and usercopy_end, trap() (trap.c) resumes at
 * usercopy_fault, which returns -EFAULT.  The common case costs nothing extra.
 */
#define EFAULT 14
#define ENAMETOOLONG 36
#define SUM (1 << 18)

    .section .text
    .globl usercopy_begin, usercopy_end, usercopy_fault
    .globl arch_copyin, arch_copyout, arch_copy_user_str

usercopy_begin:

/* int arch_copyin(void *dst, uaddr usrc, uint32 n)
 * int arch_copyout(uaddr udst, const void *src, uint32 n)
 * One address space, so one copy does both directions. */
arch_copyin:
arch_copyout:
    li    t6, SUM
    csrs  sstatus, t6
    or    t0, a0, a1
    andi  t0, t0, 3
    bnez  t0, 3f                    /* not both word-aligned: bytes       */
1:  li    t1, 16
    bltu  a2, t1, 2f
    lw    t2, 0(a1);  lw t3, 4(a1);  lw t4, 8(a1);  lw t5, 12(a1)
    sw    t2, 0(a0);  sw t3, 4(a0);  sw t4, 8(a0);  sw t5, 12(a0)
    addi  a0, a0, 16; addi a1, a1, 16; addi a2, a2, -16
    j     1b
2:  li    t1, 4
    bltu  a2, t1, 3f
    lw    t2, 0(a1)
    sw    t2, 0(a0)
    addi  a0, a0, 4;  addi a1, a1, 4;  addi a2, a2, -4
    j     2b
3:  beqz  a2, 4f
    lbu   t2, 0(a1)
    sb    t2, 0(a0)
    addi  a0, a0, 1;  addi a1, a1, 1;  addi a2, a2, -1
    j     3b
4:  csrc  sstatus, t6
    li    a0, 0
    ret

/* int arch_copy_user_str(char *dst, const char *usrc, uint32 max):
 * copy a NUL-terminated string; return its length, or -ENAMETOOLONG if no
 * NUL within max bytes. */
arch_copy_user_str:
    li    t6, SUM
    csrs  sstatus, t6
    mv    t0, zero                  /* length so far */
1:  beq   t0, a2, 2f
    add   t1, a1, t0
    lbu   t2, 0(t1)
    add   t1, a0, t0
    sb    t2, 0(t1)
    beqz  t2, 3f
    addi  t0, t0, 1
    j     1b
2:  csrc  sstatus, t6
    li    a0, -ENAMETOOLONG
    ret
3:  csrc  sstatus, t6
    mv    a0, t0
    ret

usercopy_fault:                     /* trap() sends a faulting copy here  */
    li    t6, SUM
    csrc  sstatus, t6
    li    a0, -EFAULT
    ret

usercopy_end:
