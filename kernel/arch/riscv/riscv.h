/*
 * RISC-V control and status registers, as small inline functions, for the
 * RISC-V kernel files only.  Bit names follow the privileged spec.
 */
#ifndef RISCV_H
#define RISCV_H

#include "types.h"

#define csr_read(name) ({ uint32 v_; asm volatile("csrr %0, " #name : "=r"(v_)); v_; })
#define csr_write(name, v) asm volatile("csrw " #name ", %0" :: "r"((uint32)(v)))
#define csr_set(name, v)   asm volatile("csrs " #name ", %0" :: "r"((uint32)(v)))
#define csr_clear(name, v) asm volatile("csrc " #name ", %0" :: "r"((uint32)(v)))

/* sstatus / mstatus */
#define SSTATUS_SIE   (1u << 1)     /* supervisor interrupts enabled         */
#define SSTATUS_SPIE  (1u << 5)     /* ... before the trap                   */
#define SSTATUS_SPP   (1u << 8)     /* trap came from supervisor mode        */
#define SSTATUS_SUM   (1u << 18)    /* supervisor may touch user pages       */
#define MSTATUS_MPP_S (1u << 11)

/* sie / sip */
#define SIE_SSIE  (1u << 1)
#define SIE_STIE  (1u << 5)
#define SIE_SEIE  (1u << 9)

/* scause */
#define SCAUSE_INTR        0x80000000u
#define CAUSE_S_TIMER      5
#define CAUSE_S_EXTERNAL   9
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS 1
#define CAUSE_ILLEGAL      2
#define CAUSE_BREAKPOINT   3
#define CAUSE_MISALIGNED_LOAD  4
#define CAUSE_LOAD_ACCESS  5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS 7
#define CAUSE_ECALL_U      8
#define CAUSE_FETCH_PAGE   12
#define CAUSE_LOAD_PAGE    13
#define CAUSE_STORE_PAGE   15

/* Sv32 page-table entries */
#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_U (1u << 4)
#define PTE_G (1u << 5)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)
#define SATP_SV32 (1u << 31)

static inline void sfence_vma(void) { asm volatile("sfence.vma zero, zero" ::: "memory"); }

static inline uint64 read_time64(void)
{
    uint32 hi, lo, hi2;
    do {
        hi = csr_read(timeh);
        lo = csr_read(time);
        hi2 = csr_read(timeh);
    } while (hi != hi2);
    return ((uint64)hi << 32) | lo;
}

#endif
