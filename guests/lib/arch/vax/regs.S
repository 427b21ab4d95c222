/*
 * regs.S: fill every register, trap, dump every register, for the
 * register-integrity test (guests/include/regs.h, guests/tests/t_regs.c).
 *
 * VAX: r0-r11, ap and fp (all but sp and pc), in pushr's order, so one
 * popr loads them all and one pushr stores them all.  A system call takes
 * its arguments in r0-r2 and returns its result in r0 (syscall.S); its
 * number is CHMK's operand, here a word on the stack, in no register.
 * regs_spin counts down in r0 and up in r1.  Only sp stays ours, so what
 * we need afterwards (out, our fp for RET) waits on the stack.
 * (The condition codes are not checked.)
 */
#define NBYTES  56                  /* 14 registers */
#define MASK    0x3fff              /* r0-r11, ap, fp */

.macro LOAD_ALL                     /* every register from in[] (in r1) */
    subl2   $NBYTES, %sp
    movc3   $NBYTES, (%r1), (%sp)
    popr    $MASK
.endm

/* Stack after pushr: the registers, then the number, out and our fp. */
.macro STORE_ALL                    /* every register into out[] */
    pushr   $MASK
    movl    NBYTES + 4(%sp), %r0
    movc3   $NBYTES, (%sp), (%r0)
    addl2   $NBYTES, %sp
.endm

.macro LEAVE                        /* r0 = out[r0]; back to the caller */
    movl    4(%sp), %r0
    movl    (%r0), %r0
    addl2   $8, %sp
    movl    (%sp)+, %fp
    ret                             /* restores r2-r11, ap, sp (entry mask) */
.endm

    .text
    .globl regs_syscall
    .type regs_syscall, @function
    .balign 2
regs_syscall:                       /* (in, out, num, a, b, c) */
    .word   0x0ffc                  /* entry mask: CALLS saves r2-r11 */
    movl    4(%ap), %r1
    movq    16(%ap), (%r1)          /* r0, r1, r2: the arguments */
    movl    24(%ap), 8(%r1)
    pushl   %fp
    pushl   8(%ap)                  /* out */
    pushl   12(%ap)                 /* the number */
    LOAD_ALL
    chmk    (%sp)
    STORE_ALL
    LEAVE

    .globl regs_spin
    .type regs_spin, @function
    .balign 2
regs_spin:                          /* (in, out) */
    .word   0x0ffc
    movl    4(%ap), %r1
    pushl   %fp
    pushl   8(%ap)                  /* out */
    pushl   $0                      /* (no number: the same stack as above) */
    LOAD_ALL
1:  incl    %r1
    sobgtr  %r0, 1b
    STORE_ALL
    LEAVE

    .globl regs_touch
    .type regs_touch, @function
    .balign 2
regs_touch:                         /* (in, out, addr) */
    .word   0x0ffc
    movl    4(%ap), %r1
    movl    12(%ap), 8(%r1)         /* r2: the address */
    pushl   %fp
    pushl   8(%ap)                  /* out */
    pushl   $0                      /* (no number: the same stack as above) */
    LOAD_ALL
    movl    %r1, (%r2)              /* acc to the page: it may fault */
    STORE_ALL
    LEAVE

    .section .rodata
    .balign 4
    .globl regs_isa
regs_isa:                           /* struct regs_isa: n, ret, count, acc, names */
    .long   14, 0, 0, 1, names
names:
    .asciz  "r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 ap fp"
