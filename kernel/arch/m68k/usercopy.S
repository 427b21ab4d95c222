/*
 * Copies that touch user memory.  The kernel's addresses are physical
 * (machine.h), so the only way to reach the user's address space is MOVES,
 * which uses the function code in SFC/DFC: both are set to 1, "user data",
 * once at boot (mmu.c), so every MOVES goes through the user page tables.
 *
 * The caller has checked that the user range lies below USERTOP, but a page
 * there may be unmapped or read-only.  We just try; an access fault with
 * the pc between usercopy_begin and usercopy_end makes trap() (trap.c)
 * resume at usercopy_fault, which returns -EFAULT.
 */
#define EFAULT 14
#define ENAMETOOLONG 36

    .text
    .globl usercopy_begin, usercopy_end, usercopy_fault
    .globl arch_copyin, arch_copyout, arch_copy_user_str

usercopy_begin:

/* int arch_copyin(void *dst, uaddr usrc, uint32 n) */
arch_copyin:
    move.l  4(%sp), %a0             /* kernel dst */
    move.l  8(%sp), %a1             /* user src   */
    move.l  %a0, %d0
    move.l  %a1, %d1
    or.l    %d1, %d0
    move.l  12(%sp), %d1            /* count      */
    andi.l  #3, %d0
    bne.s   2f                      /* not both word-aligned: bytes */
0:  cmpi.l  #16, %d1                /* 16 bytes a turn: MOVES moves one */
    blo.s   1f                      /* register, so unrolling is what    */
    moves.l (%a1)+, %d0             /* is left to save                   */
    move.l  %d0, (%a0)+
    moves.l (%a1)+, %d0
    move.l  %d0, (%a0)+
    moves.l (%a1)+, %d0
    move.l  %d0, (%a0)+
    moves.l (%a1)+, %d0
    move.l  %d0, (%a0)+
    sub.l   #16, %d1
    bra.s   0b
1:  cmpi.l  #4, %d1
    blo.s   2f
    moves.l (%a1)+, %d0
    move.l  %d0, (%a0)+
    subq.l  #4, %d1
    bra.s   1b
2:  tst.l   %d1
    beq.s   3f
    moves.b (%a1)+, %d0
    move.b  %d0, (%a0)+
    subq.l  #1, %d1
    bra.s   2b
3:  moveq   #0, %d0
    rts

/* int arch_copyout(uaddr udst, const void *src, uint32 n) */
arch_copyout:
    move.l  4(%sp), %a0             /* user dst   */
    move.l  8(%sp), %a1             /* kernel src */
    move.l  %a0, %d0
    move.l  %a1, %d1
    or.l    %d1, %d0
    move.l  12(%sp), %d1            /* count      */
    andi.l  #3, %d0
    bne.s   2f
0:  cmpi.l  #16, %d1                /* 16 bytes a turn, as copyin */
    blo.s   1f
    move.l  (%a1)+, %d0
    moves.l %d0, (%a0)+
    move.l  (%a1)+, %d0
    moves.l %d0, (%a0)+
    move.l  (%a1)+, %d0
    moves.l %d0, (%a0)+
    move.l  (%a1)+, %d0
    moves.l %d0, (%a0)+
    sub.l   #16, %d1
    bra.s   0b
1:  cmpi.l  #4, %d1
    blo.s   2f
    move.l  (%a1)+, %d0
    moves.l %d0, (%a0)+
    subq.l  #4, %d1
    bra.s   1b
2:  tst.l   %d1
    beq.s   3f
    move.b  (%a1)+, %d0
    moves.b %d0, (%a0)+
    subq.l  #1, %d1
    bra.s   2b
3:  moveq   #0, %d0
    rts

/* int arch_copy_user_str(char *dst, const char *usrc, uint32 max):
 * the string's length, or -ENAMETOOLONG if no NUL within max bytes. */
arch_copy_user_str:
    move.l  4(%sp), %a0
    move.l  8(%sp), %a1
    move.l  12(%sp), %d1
    add.l   %a1, %d1                /* d1 = end of the allowed user range */
1:  cmp.l   %a1, %d1
    beq.s   2f
    moves.b (%a1)+, %d0
    move.b  %d0, (%a0)+             /* sets Z when the byte was NUL */
    bne.s   1b
    move.l  %a0, %d0                /* length = bytes stored - 1 */
    sub.l   4(%sp), %d0
    subq.l  #1, %d0
    rts
2:  moveq   #-ENAMETOOLONG, %d0
    rts

usercopy_fault:                     /* trap() sends a faulting copy here */
    moveq   #-EFAULT, %d0
    rts

usercopy_end:
