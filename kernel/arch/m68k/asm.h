/*
 * What the m68k assembly knows of the kernel's structures: the layout of
 * struct trapframe (trapentry.S pushes it) and the offsets in struct
 * context (swtch.S).  machine.h includes this file and checks every offset
 * against the C structs (_Static_assert).
 */
#ifndef ASM_H
#define ASM_H

/* struct trapframe, in the order trapentry.S and the CPU push it (from the
 * lowest address up): the user stack pointer, d0-d7 and a0-a6 (one MOVEM),
 * then the CPU's format-0 frame: sr, pc, format/vector word. */
#define TF_D0       4
#define TF_A0       36
#define TF_SR       64
#define TF_PC       66
#define TF_FORMAT   70
#define TF_SIZE     72

/* struct context, as swtch.S saves it: d2-d7 and a2-a6 (one MOVEM), then
 * the stack pointer and the resume address. */
#define CTX_A2      24
#define CTX_SP      44
#define CTX_PC      48

#endif
