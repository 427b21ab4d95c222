/*
 * qemu_isa.h: how a decoder file (isa_<name>.c) tells the QEMU plugin which
 * of QEMU's targets it decodes, so that no list elsewhere names the ISAs.
 *
 * QEMU_TARGET("riscv32", isa_riscv) in the file puts the pair (QEMU's name
 * for the target, as its qemu-system-<target> binary has it; the file's
 * descriptor) in the section qemu_targets.  The linker gathers the pairs
 * of every file linked into one array, between the symbols it defines for
 * the section's start and end (a "linker set", as FreeBSD's linker_set.h
 * and Linux's initcalls), and plugin.c looks QEMU's name for the guest
 * (qemu_info_t's target_name) up in it.  A decoder for several targets
 * (one ISA in both byte orders, say) has one line for each.
 */
#ifndef HWMODEL_QEMU_ISA_H
#define HWMODEL_QEMU_ISA_H

#include "isa.h"

struct qemu_target {
    const char *name;                   /* e.g. "riscv32" */
    const struct isa *isa;
};

#define QEMU_TARGET_JOIN2(a, b) a##b
#define QEMU_TARGET_JOIN(a, b) QEMU_TARGET_JOIN2(a, b)
#define QEMU_TARGET(target, descriptor)                                      \
    static const struct qemu_target QEMU_TARGET_JOIN(qemu_target_, __LINE__) \
        __attribute__((used, section("qemu_targets"))) = { target, &descriptor }

/* Every pair linked in: from __start_qemu_targets up to __stop_qemu_targets. */
extern const struct qemu_target __start_qemu_targets[], __stop_qemu_targets[];

#endif
