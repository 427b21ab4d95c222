/*
 * Copies that touch user memory: arch_copyin/arch_copyout(dst, src, n) and
 * arch_copy_user_str(dst, usrc, max).
 *
 * The caller has checked that the user range lies below USERTOP, but a page
 * there may be unmapped or read-only.  Rather than walking the page table
 * first, we just try: the kernel may touch user pages directly (P0 and P1
 * are mapped while the kernel runs), and if an access fault happens with
 * the pc between usercopy_begin and usercopy_end, trap() (trap.c) resumes
 * at usercopy_fault, which returns -EFAULT from the copy function: RET
 * unwinds its call frame whatever the copy had done to r0-r5.
 *
 * The copy itself is MOVC3, the VAX's move-characters instruction: one
 * instruction per up to 65535 bytes, done in microcode.
 */
#define EFAULT 14
#define ENAMETOOLONG 36
#define CHUNK 0x8000                /* MOVC3's length is a 16-bit word */

    .text
    .globl usercopy_begin, usercopy_end, usercopy_fault
    .globl arch_copyin, arch_copyout, arch_copy_user_str

usercopy_begin:

/* int arch_copyin(void *dst, uaddr usrc, uint32 n)
 * int arch_copyout(uaddr udst, const void *src, uint32 n)
 * One address space, so one copy does both directions. */
    .type arch_copyin, @function
    .type arch_copyout, @function
    .balign 2
arch_copyin:
arch_copyout:
    .word   0x0040              /* entry mask: r6 (MOVC3 uses r0-r5) */
    movl    4(%ap), %r3         /* destination */
    movl    8(%ap), %r1         /* source */
    movl    12(%ap), %r6        /* bytes left */
1:  movl    %r6, %r0
    beql    3f
    cmpl    %r0, $CHUNK
    blequ   2f
    movl    $CHUNK, %r0
2:  subl2   %r0, %r6
    movc3   %r0, (%r1), (%r3)   /* leaves r1, r3 just past the bytes moved */
    brb     1b
3:  ret                         /* r0 = 0 */

/* int arch_copy_user_str(char *dst, uaddr usrc, uint32 max): copy a
 * NUL-terminated string; return its length, or -ENAMETOOLONG if there is
 * no NUL within max bytes. */
    .type arch_copy_user_str, @function
    .balign 2
arch_copy_user_str:
    .word   0
    movl    4(%ap), %r3         /* destination */
    movl    8(%ap), %r1         /* source */
    movl    12(%ap), %r2        /* max */
    clrl    %r0                 /* length so far */
1:  cmpl    %r0, %r2
    bgequ   2f
    movb    (%r1)+, (%r3)+      /* sets Z when the byte moved is NUL */
    beql    3f
    incl    %r0
    brb     1b
2:  mnegl   $ENAMETOOLONG, %r0
3:  ret

usercopy_fault:                 /* trap() sends a faulting copy here */
    mnegl   $EFAULT, %r0
    ret

usercopy_end:
