/*
 * The x86 trap path: every exception, interrupt and system call
 * (`int $0x80`) enters the kernel through a vector stub here and leaves
 * through trap_return.
 *
 * On a trap from user mode the CPU loads the kernel stack from the TSS
 * (arch_set_kstack) and pushes ss, esp, eflags, cs and eip; a trap inside
 * the kernel pushes only eflags, cs and eip.  Some exceptions push an error
 * code; the stubs push a 0 for the others so every frame has the same shape
 * (struct trapframe in machine.h).  The kernel is mapped in every address
 * space, so no page-table switch is needed.
 */
#include "asm.h"

    .text

/* One stub per vector: push a dummy error code unless the CPU pushed a
 * real one (vectors 8, 10-14, 17), push the vector number, go to trap_entry. */
.macro VECTOR n
    .balign 4
vector\n:
    .if \n == 8 || (\n >= 10 && \n <= 14) || \n == 17
    .else
    pushl $0
    .endif
    pushl $\n
    jmp trap_entry
.endm

.altmacro
.macro VECTORS from, to
    VECTOR \from
    .if \to - \from
    VECTORS %(\from + 1), \to
    .endif
.endm
    VECTORS 0, 63
    VECTORS 64, 127
    VECTORS 128, 191
    VECTORS 192, 255

trap_entry:
    pushl %ds
    pushl %es
    pushl %fs
    pushl %gs
    pushal
    movw  $SEG_KDATA, %ax        /* kernel data segments (flat, like the user's) */
    movw  %ax, %ds
    movw  %ax, %es
    pushl %esp                   /* trap(struct trapframe *) */
    call  trap
    addl  $4, %esp

    .globl trap_return
trap_return:                     /* esp = the trapframe to return with */
    popal
    popl  %gs
    popl  %fs
    popl  %es
    popl  %ds
    addl  $(TF_EIP - TF_TRAPNO), %esp   /* vector number and error code */
    iret

/* arch_return_to_user(tf): start a new process, or an exec'd one. */
    .globl arch_return_to_user
arch_return_to_user:
    movl  4(%esp), %esp
    jmp   trap_return

/* The table seg.c loads into the IDT. */
.macro VECADDR n
    .long vector\n
.endm
.macro VECADDRS from, to
    VECADDR \from
    .if \to - \from
    VECADDRS %(\from + 1), \to
    .endif
.endm
    .section .rodata
    .balign 4
    .globl trap_vectors
trap_vectors:
    VECADDRS 0, 63
    VECADDRS 64, 127
    VECADDRS 128, 191
    VECADDRS 192, 255
