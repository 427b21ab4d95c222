/*
 * plugin.h: what the QEMU front end (plugin.c) shares with its TLB hooks
 * (tlb_hooks.c), which live apart so that a profile without a [tlb] runs
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

/* tlb_hooks.c: called only for a profile with a [tlb] (hw.tlb_counts). */
void tlb_hooks_install(qemu_plugin_u64 segloads);      /* at install */
void tlb_hooks_registers(GArray *regs);                /* at vcpu 0's init; kept */
/* Each block translated; first_insn: its first instruction's record, when
 * attributing (else NULL). */
void tlb_hooks_trans(struct qemu_plugin_tb *tb, size_t n, uint8_t code[][16],
                     const size_t *code_len, struct attrib_insn *first_insn);

#endif
