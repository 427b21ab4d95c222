/*
 * Register integrity: what each ISA's guests/lib/arch/<isa>/regs.S gives
 * the portable test guests/tests/t_regs.c.
 *
 * A register set is an array of words, one per register, in the order of
 * regs_isa.names: every general register a user program can set, except
 * the stack pointer.  (The stack pointer keeps its value throughout: the
 * functions below return through it, and a trap path that lost it would
 * send them astray, which fails the test too.)
 *
 * uint32_t regs_syscall(uint32_t in[], uint32_t out[], uint32_t num,
 *                       uint32_t a, uint32_t b, uint32_t c)
 *     Writes the system call's number num and arguments a, b, c into the
 *     slots of in[] of the registers that carry them on this ISA (on the
 *     VAX the number is CHMK's operand, in no register), so that in[] is
 *     exactly what the registers hold at the trap.  Then loads every
 *     register from in[], traps into the kernel, and stores every register
 *     into out[] as soon as the trap returns.  Returns out[regs_isa.ret],
 *     the call's raw result (-errno on failure: no stub sets errno).
 *
 * void regs_spin(const uint32_t in[], uint32_t out[])
 *     Loads every register from in[], then loops: register `count` counts
 *     down to 0 while register `acc` counts up, one each per turn; then
 *     stores every register into out[].  So afterwards out[] must equal
 *     in[] except out[count] == 0 and out[acc] == in[acc] + in[count].
 *     A long loop takes timer interrupts (t_regs checks that some came).
 *
 * void regs_touch(uint32_t in[], uint32_t out[], uint32_t *addr)
 *     Writes addr into the slot of in[] of the register the ISA uses as
 *     the address (its first system-call argument register; on m68k an
 *     address register, a1), so that in[] is what the registers hold; loads
 *     every register from in[], stores register `acc` at addr (a page
 *     never touched, under demand paging: the store faults, and the
 *     kernel maps the page and runs the store again), and stores every
 *     register into out[].  So out[] must equal in[], and *addr in[acc].
 *
 * Porting to a new ISA: write regs.S with these three functions and the
 * descriptor below (riscv's is the model), add it to ARCH_GUEST_SRCS in
 * kernel/arch/<isa>/arch.mk, and t_regs runs unchanged.
 */
#ifndef REGS_H
#define REGS_H

#include <stdint.h>

#define REGS_MAX 32             /* no ISA here has more settable registers */

struct regs_isa {
    uint32_t n;                 /* registers in a set (at most REGS_MAX)    */
    uint32_t ret;               /* slot of the system-call result register  */
    uint32_t count, acc;        /* regs_spin's counter and accumulator slots */
    const char *names;          /* the registers' names, blank-separated    */
};

extern const struct regs_isa regs_isa;

uint32_t regs_syscall(uint32_t in[], uint32_t out[], uint32_t num,
                      uint32_t a, uint32_t b, uint32_t c);
void     regs_spin(const uint32_t in[], uint32_t out[]);
void     regs_touch(uint32_t in[], uint32_t out[], uint32_t *addr);

#endif
