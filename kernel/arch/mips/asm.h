/*
 * Assembly helpers for the MIPS trap path: CP0 register names, the
 * trapframe offsets (they must match struct trapframe in machine.h) and
 * the save/restore macros.
 */
#ifndef ASM_H
#define ASM_H

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

#define TF_SIZE     160
#define TF_SP       120
#define TF_HI       132
#define TF_LO       136
#define TF_EPC      140
#define TF_STATUS   144
#define TF_CAUSE    148
#define TF_BADVADDR 152

/* Every general register but zero, k0, k1 and sp, in struct trapframe
 * order.  ($1 is `at`, the assembler's temporary: `.set noat` around its
 * use.) */
#define FOR_EACH_REG(OP) \
    OP($1, 16); OP($v0, 20); OP($v1, 24); \
    OP($a0, 28); OP($a1, 32); OP($a2, 36); OP($a3, 40); \
    OP($t0, 44); OP($t1, 48); OP($t2, 52); OP($t3, 56); \
    OP($t4, 60); OP($t5, 64); OP($t6, 68); OP($t7, 72); \
    OP($s0, 76); OP($s1, 80); OP($s2, 84); OP($s3, 88); \
    OP($s4, 92); OP($s5, 96); OP($s6, 100); OP($s7, 104); \
    OP($t8, 108); OP($t9, 112); \
    OP($gp, 116); OP($fp, 124); OP($ra, 128)

#define SAVE1(r, off)    sw r, off($sp)
#define RESTORE1(r, off) lw r, off($sp)
#define SAVE_REGS    FOR_EACH_REG(SAVE1)
#define RESTORE_REGS FOR_EACH_REG(RESTORE1)

#endif
