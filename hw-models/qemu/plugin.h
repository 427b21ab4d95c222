/*
 * plugin.h: what the QEMU front end (plugin.c) shares with its TLB hooks
 * (tlb_hooks.c) and its side of the modelled Ethernet (net.c), which live
 * apart so that a profile without a [tlb], or a run of one machine, runs
 * none of their code and plugin.c stays about instrumenting in general.
 */
#ifndef HWMODEL_PLUGIN_H
#define HWMODEL_PLUGIN_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include <qemu-plugin.h>

#include "model.h"

extern const struct isa *isa;           /* the guest's ISA (isa_*.c) */
extern const uint8_t *host_base;        /* guest RAM on the host, once known */
uint64_t guest_uint(const uint8_t *p, int n);   /* n bytes in guest order */
uint64_t read_reg(struct qemu_plugin_register *r);
/* Argument i of the C function whose entry is executing; in_window: SPARC,
 * after the save that opened its window (its ins). */
uint64_t fn_arg(int i, bool in_window);
/* Where a callback at the entry of the kernel function at fn_pc goes, for
 * the instruction at va: on it (FN_ENTRY), on it as the one after a SPARC
 * save (FN_AFTER_SAVE: fn_arg's in_window), or not (FN_NOT); *after keeps
 * the function's place after its save, one word per function hooked. */
enum fn_entry { FN_NOT, FN_ENTRY, FN_AFTER_SAVE };
enum fn_entry fn_entry(uint64_t va, const uint8_t *code, size_t len, uint64_t fn_pc,
                       uint64_t *after);

/* tlb_hooks.c: called only for a profile with a [tlb] (hw.tlb_counts). */
void tlb_hooks_install(qemu_plugin_u64 segloads);      /* at install */
void tlb_hooks_registers(GArray *regs);                /* at vcpu 0's init; kept */
/* Each block translated; first_insn: its first instruction's record, when
 * attributing (else NULL). */
void tlb_hooks_trans(struct qemu_plugin_tb *tb, size_t n, uint8_t code[][16],
                     const size_t *code_len, struct attrib_insn *first_insn);

/* net.c: called only on a wire (hw.net: a wire= argument). */
const char *net_install(void);                          /* at install: an error, or NULL */
void net_vcpu_init(void);
/* Each block translated (its check point and the kernel's hooks: a pass
 * of plugin.c's tb_trans), and each of its segments with its static cost
 * (in tb_segment, after the segment's own inline adds). */
void net_trans(struct qemu_plugin_tb *tb, size_t n, uint8_t code[][16], const size_t *code_len,
               const uint64_t *vaddr);
void net_segment(struct qemu_plugin_insn *first, uint64_t cost);
void net_exit(void);

#endif
