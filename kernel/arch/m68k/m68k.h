/*
 * 68040 helpers for the m68k kernel files: memory-mapped device registers
 * (the goldfish devices are 32-bit, big-endian like the CPU), and the
 * status-register interrupt mask.
 */
#ifndef M68K_H
#define M68K_H

#include "types.h"

static inline uint32 mmio_read(uint32 base, uint32 off)
{
    return *(volatile uint32 *)(uintptr)(base + off);
}

static inline void mmio_write(uint32 base, uint32 off, uint32 v)
{
    *(volatile uint32 *)(uintptr)(base + off) = v;
}

#define SR_SUPER   0x2000            /* supervisor mode             */
#define SR_IPL7    0x0700            /* all interrupts masked       */

/* Exception vectors (trap.c, pagefault.c). */
#define V_ACCESS     2           /* access fault (bus error)            */
#define V_ADDRESS    3           /* address error                       */
#define V_ILLEGAL    4
#define V_ZERODIV    5
#define V_PRIVILEGE  8
#define V_LINE_A    10
#define V_LINE_F    11
#define V_SPURIOUS  24
#define V_AUTOVEC1  25           /* interrupt levels 1..7: 25..31       */
#define V_TRAP0     32           /* trap #0: system call                */

/* Extra words of the 68040's "format 7" access-fault frame, after pc and
 * the format/vector word (MC68040 User's Manual, section 8). */
struct access_frame {
    uint32 ea;
    uint16 ssw;                  /* special status word                 */
    uint16 wb3s, wb2s, wb1s;     /* pending write-backs                 */
    uint32 fa;                   /* the faulting address                */
} __attribute__((packed));
#define SSW_CONTINUE 0xf800      /* CP CU CT CM MA: continue the instruction */
#define SSW_RW       0x0100      /* the access was a read               */
#define SSW_TM       0x0007      /* transfer modifier: which space      */
#define TM_USER_CODE 0x0002
#define WBS_VALID    0x0080

static inline struct access_frame *access_frame(struct trapframe *tf)
{
    return (struct access_frame *)((uint8 *)tf + sizeof *tf);
}

#endif
