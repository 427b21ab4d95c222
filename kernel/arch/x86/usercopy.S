/*
 * Copies that touch user memory: arch_copyin/arch_copyout(dst, src, n) and
 * arch_copy_user_str(dst, usrc, max).
 *
 * The caller has checked that the user range lies below USERTOP, but a page
 * there may be unmapped or read-only (CR0.WP makes read-only pages binding
 * on the kernel too).  We just try; if a page fault happens with eip
 * between usercopy_begin and usercopy_end, trap() (trap.c) resumes at
 * usercopy_fault, which returns -EFAULT.  The copy uses `rep movsl` for the
 * words and `rep movsb` for the tail: on x86 that is the copy instruction.
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
    pushl %edi
    pushl %esi
    movl  12(%esp), %edi
    movl  16(%esp), %esi
    movl  20(%esp), %ecx
    movl  %ecx, %edx
    shrl  $2, %ecx
    cld
    rep movsl
    movl  %edx, %ecx
    andl  $3, %ecx
    rep movsb
    popl  %esi
    popl  %edi
    xorl  %eax, %eax
    ret

/* int arch_copy_user_str(char *dst, const char *usrc, uint32 max):
 * the string's length, or -ENAMETOOLONG if no NUL within max bytes. */
arch_copy_user_str:
    pushl %edi
    pushl %esi
    movl  12(%esp), %edi
    movl  16(%esp), %esi
    movl  20(%esp), %ecx
    xorl  %eax, %eax             /* length so far */
1:  cmpl  %ecx, %eax
    je    2f
    movb  (%esi,%eax), %dl
    movb  %dl, (%edi,%eax)
    testb %dl, %dl
    je    3f
    incl  %eax
    jmp   1b
2:  movl  $-ENAMETOOLONG, %eax
3:  popl  %esi
    popl  %edi
    ret

usercopy_fault:                  /* trap() sends a faulting copy here */
    popl  %esi                   /* both copies pushed edi then esi */
    popl  %edi
    movl  $-EFAULT, %eax
    ret

usercopy_end:
