/*
 * floor.c: what QEMU's plugin interface costs before the model does any
 * work (libfloor.so).  `python3 -m harness overhead --floor` runs it.
 *
 * The model (hw-models/qemu/plugin.c) instruments every translated block
 * the same way: two inline additions in front of the block (instructions
 * and static cycles), one callback per block for the I-cache, and one
 * callback on every load and store.  This plugin registers exactly that and
 * leaves the callbacks empty.  The time it adds to plain QEMU is the least
 * any exact model built this way can cost, whatever its caches do: the
 * rest of the model's overhead is the model's own work, which can be made
 * cheaper; this part can only be removed by checking the cache inside
 * QEMU's translated code, which the plugin interface does not allow
 * (its inline operations add or store constants; they cannot compute an
 * address's cache set).
 *
 * It takes no arguments and writes nothing: the guest runs exactly as it
 * does without a plugin (the same instructions, the same -icount clock).
 */
#include <glib.h>
#include <stdint.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static struct qemu_plugin_scoreboard *score;
static qemu_plugin_u64 e_insns, e_cycles;

struct floor_counts {                   /* the model's first two counters */
    uint64_t insns;
    uint64_t cycles;
};

/* The I-cache callback's place: once per block. */
static void block_cb(unsigned int vcpu, void *ud)
{
}

/* mem_cb's place: on every load and store. */
static void access_cb(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                        e_insns, n);
    qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(first, QEMU_PLUGIN_INLINE_ADD_U64,
                                                        e_cycles, n);
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_cb, QEMU_PLUGIN_CB_NO_REGS, NULL);
    /* QEMU emits the call only where an instruction loads or stores */
    for (size_t i = 0; i < n; i++)
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), access_cb,
                                         QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    score = qemu_plugin_scoreboard_new(sizeof(struct floor_counts));
    e_insns = qemu_plugin_scoreboard_u64_in_struct(score, struct floor_counts, insns);
    e_cycles = qemu_plugin_scoreboard_u64_in_struct(score, struct floor_counts, cycles);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    return 0;
}
