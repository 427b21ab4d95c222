/*
 * regs.S: fill every register, trap, dump every register, for the
 * register-integrity test (guests/include/regs.h, guests/tests/t_regs.c).
 *
 * x86: the seven general registers besides esp, in pushal's order
 * reversed.  A system call takes its number in eax and arguments in ebx,
 * ecx, edx and returns its result in eax (syscall.S); regs_spin counts
 * down in eax and up in ecx.  eax is the base register of the loads and
 * stores, so it is loaded last and stored by way of the stack.
 * (Segment registers and eflags are not checked.)
 */

/* Where the arguments are once ENTER has pushed four registers. */
#define A_IN    20
#define A_OUT   24
#define A_NUM   28
#define A_A     32
#define A_B     36
#define A_C     40

.macro ENTER                        /* keep what the C convention says we keep */
    pushl %ebp
    pushl %ebx
    pushl %esi
    pushl %edi
.endm

.macro LOAD_ALL                     /* every register from in[] */
    movl  A_IN(%esp), %eax
    movl  4(%eax), %ebx
    movl  8(%eax), %ecx
    movl  12(%eax), %edx
    movl  16(%eax), %esi
    movl  20(%eax), %edi
    movl  24(%eax), %ebp
    movl  0(%eax), %eax
.endm

.macro STORE_ALL                    /* every register into out[] */
    pushl %eax
    movl  A_OUT + 4(%esp), %eax
    movl  %ebx, 4(%eax)
    movl  %ecx, 8(%eax)
    movl  %edx, 12(%eax)
    movl  %esi, 16(%eax)
    movl  %edi, 20(%eax)
    movl  %ebp, 24(%eax)
    popl  0(%eax)
.endm

.macro LEAVE
    popl  %edi
    popl  %esi
    popl  %ebx
    popl  %ebp
    ret
.endm

    .text
    .globl regs_syscall
    .type regs_syscall, @function
regs_syscall:                       /* (in, out, num, a, b, c) */
    ENTER
    movl  A_IN(%esp), %eax
    movl  A_NUM(%esp), %ecx
    movl  %ecx, 0(%eax)             /* eax: the number */
    movl  A_A(%esp), %ecx
    movl  %ecx, 4(%eax)             /* ebx, ecx, edx: the arguments */
    movl  A_B(%esp), %ecx
    movl  %ecx, 8(%eax)
    movl  A_C(%esp), %ecx
    movl  %ecx, 12(%eax)
    LOAD_ALL
    int   $0x80
    STORE_ALL
    movl  A_OUT(%esp), %eax
    movl  0(%eax), %eax             /* return out[eax] */
    LEAVE

    .globl regs_spin
    .type regs_spin, @function
regs_spin:                          /* (in, out) */
    ENTER
    LOAD_ALL
1:  incl  %ecx
    decl  %eax
    jnz   1b
    STORE_ALL
    LEAVE

    .globl regs_touch
    .type regs_touch, @function
regs_touch:                         /* (in, out, addr) */
    ENTER
    movl  A_IN(%esp), %eax
    movl  A_NUM(%esp), %ecx
    movl  %ecx, 4(%eax)             /* ebx: the address */
    LOAD_ALL
    movl  %ecx, (%ebx)              /* acc to the page: it may fault */
    STORE_ALL
    LEAVE

    .section .rodata
    .balign 4
    .globl regs_isa
regs_isa:                           /* struct regs_isa: n, ret, count, acc, names */
    .long 7, 0, 0, 2, names
names:
    .asciz "eax ebx ecx edx esi edi ebp"
