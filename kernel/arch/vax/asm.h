/*
 * What the VAX assembly knows of the kernel's structures: the layout of
 * struct trapframe (trapentry.S builds it) and of struct context (swtch.S).
 * machine.h includes this file and checks every offset against the C
 * structs (_Static_assert).
 */
#ifndef ASM_H
#define ASM_H

/* struct trapframe, from the lowest address up: the user stack pointer
 * (mfpr), r0-r11, ap, fp (pushr), then the stub's vector number and two
 * parameters, then the CPU's pc and psl. */
#define TF_R0       4
#define TF_AP       52
#define TF_VEC      60
#define TF_A1       68
#define TF_PC       72
#define TF_SIZE     80

/* struct context: the frame pointer, which swtch.S keeps at (rN). */
#define CTX_FP      0

#endif
