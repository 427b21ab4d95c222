/*
 * What the MIPS assembly knows of the kernel's structures: CP0 register
 * names, the offsets in struct trapframe (trapentry.S) and struct context
 * (swtch.S), and the save/restore macros built on them.  machine.h
 * includes this file and checks every offset against the C structs
 * (_Static_assert), so the two cannot drift apart unnoticed.
 */
#ifndef ASM_H
#define ASM_H

#ifdef __ASSEMBLER__             /* (C has its own names for these: mips.h) */
#define CP0_INDEX    $0
#define CP0_RANDOM   $1
#define CP0_ENTRYLO0 $2
#define CP0_ENTRYLO1 $3
#define CP0_BADVADDR $8
#define CP0_COUNT    $9
#define CP0_ENTRYHI  $10
#define CP0_STATUS   $12
#define CP0_CAUSE    $13
#define CP0_EPC      $14

#define SR_IE   0x01
#define SR_EXL  0x02
#define SR_UM   0x10
#endif

#define TF_SIZE     160         /* sizeof(struct trapframe), rounded up to 8 (the ABI) */
#define TF_SP       120
#define TF_HI       132
#define TF_LO       136
#define TF_EPC      140
#define TF_STATUS   144
#define TF_CAUSE    148
#define TF_BADVADDR 152

/* Every general register but zero, k0, k1 and sp, in struct trapframe
 * order: the register, its member, its offset.  ($1 is `at`, the
 * assembler's temporary: `.set noat` around its use.) */
#define FOR_EACH_REG(OP) \
    OP($1, at, 16); OP($v0, v0, 20); OP($v1, v1, 24); \
    OP($a0, a0, 28); OP($a1, a1, 32); OP($a2, a2, 36); OP($a3, a3, 40); \
    OP($t0, t0, 44); OP($t1, t1, 48); OP($t2, t2, 52); OP($t3, t3, 56); \
    OP($t4, t4, 60); OP($t5, t5, 64); OP($t6, t6, 68); OP($t7, t7, 72); \
    OP($s0, s0, 76); OP($s1, s1, 80); OP($s2, s2, 84); OP($s3, s3, 88); \
    OP($s4, s4, 92); OP($s5, s5, 96); OP($s6, s6, 100); OP($s7, s7, 104); \
    OP($t8, t8, 108); OP($t9, t9, 112); \
    OP($gp, gp, 116); OP($fp, fp, 124); OP($ra, ra, 128)

/* struct context, as swtch.S saves it: ra, sp, s0-s7, fp (s8). */
#define CTX_RA      0
#define CTX_SP      4
#define CTX_S0      8           /* s0-s7 follow, 4 bytes apart */
#define CTX_FP      40
#define CTX_SIZE    44

#define SAVE1(r, member, off)    sw r, off($sp)
#define RESTORE1(r, member, off) lw r, off($sp)
#define SAVE_REGS    FOR_EACH_REG(SAVE1)
#define RESTORE_REGS FOR_EACH_REG(RESTORE1)

#endif
