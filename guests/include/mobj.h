/*
 * The object and executable files of our C-subset compiler (guests/bin/cc.c)
 * and linker (guests/bin/ld.c), the compile phase of the Andrew benchmark.
 *
 * The target is "M", a stack machine of 32-bit words: an instruction is an
 * opcode in the top 8 bits and an operand in the low 24 (a signed number, a
 * frame offset, a symbol index or a label).  No machine runs M code; like
 * the paper's GNU C compiler generating code for SPUR, the compiler does
 * the same work on every ISA, so only the machine running it differs.
 *
 * An object file (.o), all numbers in the byte order of the machine that
 * wrote it:
 *
 *   struct mobj_header
 *   ncode instruction words
 *   ndata bytes of initialised data (a multiple of 4)
 *   nsyms struct mobj_sym
 *   nrelocs struct mobj_reloc
 *   strsize bytes of names, each NUL-terminated (mobj_sym.name indexes them)
 *
 * An executable (the linker's output) is a struct mobj_header with magic
 * MEXE_MAGIC, entry set and no symbols or relocations, then code and data.
 */
#ifndef MOBJ_H
#define MOBJ_H

#define MOBJ_MAGIC 0x4a424f4du          /* "MOBJ" read little-endian */
#define MEXE_MAGIC 0x4558454du          /* "MEXE" */

struct mobj_header {
    unsigned int magic;
    unsigned int ncode;                 /* instruction words          */
    unsigned int ndata;                 /* bytes of initialised data  */
    unsigned int nbss;                  /* bytes of zeroed data       */
    unsigned int nsyms, nrelocs, strsize;
    unsigned int entry;                 /* executables: main's address */
};

/* Where a symbol lives. */
#define SYM_UNDEF 0                     /* used here, defined elsewhere */
#define SYM_CODE  1                     /* value: word index in code  */
#define SYM_DATA  2                     /* value: byte offset in data */
#define SYM_BSS   3                     /* value: byte offset in bss  */

struct mobj_sym {
    unsigned int name;                  /* offset in the string table */
    unsigned int kind;                  /* SYM_*                      */
    unsigned int value;
    unsigned int global;                /* 0: static, this file only  */
};

/* A place that holds an address the linker must fill in: the operand of
 * code word `at`, or the data word at byte offset `at`.  sym is a symbol
 * index, or RELOC_DATA for "this object's data, at the offset already
 * there". */
#define RELOC_CODE 0
#define RELOC_INDATA 1
#define RELOC_DATA 0xffffffffu

struct mobj_reloc {
    unsigned int where;                 /* RELOC_CODE or RELOC_INDATA */
    unsigned int at;
    unsigned int sym;
};

/* Addresses in an executable: code words from 0, data (then bss) bytes from
 * DATA_BASE. */
#define DATA_BASE 0x100000u

/* The instructions. */
enum {
    M_HALT, M_PUSHI, M_PUSHW,           /* PUSHW: the value is the next word */
    M_LOADL, M_STOREL, M_ADDRL,         /* locals: operand = frame offset */
    M_LOADG, M_STOREG, M_ADDRG,         /* globals: operand = symbol      */
    M_ADDRD,                            /* this object's data + operand   */
    M_LOADW, M_LOADB, M_STOREW, M_STOREB,
    M_DUP, M_POP,
    M_ADD, M_SUB, M_MUL, M_DIV, M_MOD, M_AND, M_OR, M_XOR, M_SHL, M_SHR,
    M_EQ, M_NE, M_LT, M_LE, M_GT, M_GE, M_NEG, M_NOT, M_BNOT,
    M_JMP, M_JZ, M_JNZ,                 /* operand: code word index       */
    M_CALL,                             /* operand: symbol; next word: argument count */
    M_ENTER,                            /* operand: frame bytes           */
    M_RET, M_RETV,
};

#define M_OP(w)      ((w) >> 24)
#define M_ARG(w)     ((int)((w) << 8) >> 8)          /* sign-extended */
#define M_WORD(op, a) (((unsigned int)(op) << 24) | ((unsigned int)(a) & 0xffffffu))

#endif
