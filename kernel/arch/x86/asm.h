/*
 * What the x86 assembly knows of the kernel's structures: the segment
 * selectors, and the offsets in struct trapframe (trapentry.S) and struct
 * context (swtch.S).  machine.h includes this file and checks every offset
 * against the C structs (_Static_assert).
 */
#ifndef ASM_H
#define ASM_H

/* Segment selectors (seg.c builds the GDT in this order). */
#define SEG_KCODE   0x08
#define SEG_KDATA   0x10
#define SEG_UCODE   (0x18 | 3)
#define SEG_UDATA   (0x20 | 3)
#define SEG_TSS     0x28

/* struct trapframe, in the order trapentry.S and the CPU push it (from the
 * lowest address up): pushal's eight registers, gs fs es ds, the vector
 * number and the error code, then the CPU's eip cs eflags (esp ss). */
#define TF_EAX      28          /* the last of pushal's eight */
#define TF_GS       32
#define TF_DS       44
#define TF_TRAPNO   48
#define TF_ERR      52
#define TF_EIP      56
#define TF_ESP      68
#define TF_SIZE     76

/* struct context, as swtch.S saves it. */
#define CTX_EDI     0
#define CTX_ESI     4
#define CTX_EBX     8
#define CTX_EBP     12
#define CTX_ESP     16
#define CTX_EIP     20

#endif
