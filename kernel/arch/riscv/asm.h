/*
 * What the RISC-V assembly knows of the kernel's structures: the offsets in
 * struct trapframe (trapentry.S) and struct context (swtch.S), and the
 * save/restore macros built on them.  machine.h includes this file and
 * checks every offset against the C structs (_Static_assert), so the two
 * cannot drift apart unnoticed.
 */
#ifndef ASM_H
#define ASM_H

#define TF_SIZE     144         /* sizeof(struct trapframe), rounded up to 16 (the ABI) */
#define TF_RA       0
#define TF_SP       4
#define TF_SEPC     124
#define TF_SSTATUS  128
#define TF_SCAUSE   132
#define TF_STVAL    136
#define SSTATUS_SPP_BIT 0x100

/* Every general register but sp (x2) and zero, in struct trapframe order. */
#define FOR_EACH_REG(OP) \
    OP(ra, 0);  OP(gp, 8);  OP(tp, 12); \
    OP(t0, 16); OP(t1, 20); OP(t2, 24); \
    OP(s0, 28); OP(s1, 32); \
    OP(a0, 36); OP(a1, 40); OP(a2, 44); OP(a3, 48); \
    OP(a4, 52); OP(a5, 56); OP(a6, 60); OP(a7, 64); \
    OP(s2, 68); OP(s3, 72); OP(s4, 76); OP(s5, 80); OP(s6, 84); \
    OP(s7, 88); OP(s8, 92); OP(s9, 96); OP(s10, 100); OP(s11, 104); \
    OP(t3, 108); OP(t4, 112); OP(t5, 116); OP(t6, 120)

/* struct context: ra, sp and the callee-saved s0-s11, in swtch.S's order. */
#define FOR_EACH_CTX_REG(OP) \
    OP(ra, 0);  OP(sp, 4); \
    OP(s0, 8);  OP(s1, 12); OP(s2, 16); OP(s3, 20); OP(s4, 24);  OP(s5, 28); \
    OP(s6, 32); OP(s7, 36); OP(s8, 40); OP(s9, 44); OP(s10, 48); OP(s11, 52)
#define CTX_SIZE    56

#define SAVE1(r, off)    sw r, off(sp)
#define RESTORE1(r, off) lw r, off(sp)
#define SAVE_REGS    FOR_EACH_REG(SAVE1)
#define RESTORE_REGS FOR_EACH_REG(RESTORE1)

#endif
