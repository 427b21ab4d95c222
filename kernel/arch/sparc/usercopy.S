/*
 * Copies that touch user memory: arch_copyin/arch_copyout(dst, src, n) and
 * arch_copy_user_str(dst, usrc, max).
 *
 * The caller has checked that the user range lies below USERTOP, but a
 * page there may be unmapped or read-only.  Rather than walking the page
 * table first, we just try: the kernel is mapped in every address space
 * and user pages allow the supervisor what they allow the user (their SRMMU
 * access codes), so plain loads and stores reach them.  If a data access
 * fault happens with the pc between usercopy_begin and usercopy_end, trap()
 * (trap.c) resumes at usercopy_fault, which returns -EFAULT.
 *
 * These are leaves (no save): they run in the caller's window, with the
 * outs and %g1-%g4 as scratch, as the C calling convention allows.
 */
#define EFAULT 14
#define ENAMETOOLONG 36

    .text
    .globl usercopy_begin, usercopy_end, usercopy_fault
    .globl arch_copyin, arch_copyout, arch_copy_user_str

usercopy_begin:

/* int arch_copyin(void *dst, uaddr usrc, uint32 n)
 * int arch_copyout(uaddr udst, const void *src, uint32 n)
 * One address space, so one copy does both directions: 32 bytes a turn
 * in doublewords (ldd/std) when both are 8-byte aligned, the rest (or all,
 * when only 4-byte aligned) in words, else in bytes. */
arch_copyin:
arch_copyout:
    or    %o0, %o1, %o3
    andcc %o3, 7, %g0
    bne   3f
     cmp  %o2, 32
    blu   3f
     nop
1:  ldd   [%o1 + 0], %o4
    ldd   [%o1 + 8], %g2
    std   %o4, [%o0 + 0]
    std   %g2, [%o0 + 8]
    ldd   [%o1 + 16], %o4
    ldd   [%o1 + 24], %g2
    std   %o4, [%o0 + 16]
    std   %g2, [%o0 + 24]
    sub   %o2, 32, %o2
    add   %o1, 32, %o1
    cmp   %o2, 32
    bgeu  1b
     add  %o0, 32, %o0
3:  andcc %o3, 3, %g0
    bne   5f
     cmp  %o2, 4
4:  blu   5f
     nop
    ld    [%o1], %o4
    st    %o4, [%o0]
    sub   %o2, 4, %o2
    add   %o1, 4, %o1
    add   %o0, 4, %o0
    ba    4b
     cmp  %o2, 4
5:  tst   %o2
6:  be    7f
     nop
    ldub  [%o1], %o4
    stb   %o4, [%o0]
    add   %o1, 1, %o1
    add   %o0, 1, %o0
    ba    6b
     subcc %o2, 1, %o2
7:  retl
     mov  0, %o0

/* int arch_copy_user_str(char *dst, uaddr usrc, uint32 max): copy a
 * NUL-terminated string; return its length, or -ENAMETOOLONG if there is
 * no NUL within max bytes. */
arch_copy_user_str:
    mov   0, %o3                    /* length so far */
1:  cmp   %o3, %o2
    be    2f
     nop
    ldub  [%o1 + %o3], %o4
    stb   %o4, [%o0 + %o3]
    tst   %o4
    bne   1b
     add  %o3, 1, %o3
    retl
     sub  %o3, 1, %o0
2:  retl
     mov  -ENAMETOOLONG, %o0

usercopy_fault:                     /* trap() sends a faulting copy here */
    retl
     mov  -EFAULT, %o0

usercopy_end:
