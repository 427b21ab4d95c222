/*
 * A "machine" for compiling the kernel's file-system code on the host
 * (tests/unit/test_fs_host.py): the definitions kernel/port/arch.h expects
 * from an ISA's machine.h, for a 64-bit host process.  Nothing here runs
 * user programs.  (The page size is portable: kernel/port/param.h.)
 */
#ifndef MACHINE_H
#define MACHINE_H

#include "types.h"

#define P2V(pa)     ((void *)(uintptr)(pa))
#define V2P(va)     ((paddr)(uintptr)(va))
#define ELF_MACHINE 0
#define ELF_DATA    1

typedef uint32 *pagetable_t;

struct trapframe { uint32 a[8]; };
#define TF_SIZE sizeof(struct trapframe)
struct context { uintptr regs[16]; };

static inline uint32 arch_syscall_num(struct trapframe *tf)          { return tf->a[7]; }
static inline void   arch_syscall_ret(struct trapframe *tf, int32 v) { tf->a[0] = (uint32)v; }
static inline void   arch_syscall_args(struct trapframe *tf, uint32 arg[5])
{
    for (int i = 0; i < 5; i++)
        arg[i] = tf->a[i];
}

#endif
