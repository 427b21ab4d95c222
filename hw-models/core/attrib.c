/*
 * attrib.c: where the time goes, instruction by instruction.
 *
 * With attrib=FILE and attrib_region=ID, the plugin keeps, for every
 * instruction executed while region ID is open, how often it ran, its static
 * cost per execution (CPI, class extra, trap penalty), the load and store
 * extras of its data accesses, and the stall cycles charged to it (cache
 * misses, write buffer, disk; instruction-cache misses go to the first
 * instruction of the block that missed).  At the region's end it writes one
 * line per instruction and starts again:
 *
 *      HWATTR region=ID vaddr=0x80003908 paddr=0x80003908 execs=100000
 *             static_mcyc=984 access_mcyc=0 stall_mcyc=0
 *
 * (on one line; paddr=- when the code is not in RAM).  The harness
 * (harness/attribute.py) tells kernel from user code by the physical address
 * (where the two share virtual addresses, as on the 68040, nothing else
 * can) and turns virtual addresses into function names with the kernel's
 * and the program's symbol tables.  Counting is
 * switched on and off by a flag that QEMU tests inline, so outside the
 * region it costs a compare per block.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>

#include "model.h"

struct key {
    const void *haddr;                  /* where the code is */
    uint64_t vaddr;                     /* and where the guest runs it */
};

static GHashTable *table;               /* struct key -> struct attrib_insn */
static FILE *out;

static guint key_hash(gconstpointer p)
{
    const struct key *k = p;
    return g_direct_hash(k->haddr) ^ (guint)(k->vaddr * 2654435761u);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
    const struct key *x = a, *y = b;
    return x->haddr == y->haddr && x->vaddr == y->vaddr;
}

bool attrib_open(const char *path)
{
    out = fopen(path, "w");
    table = g_hash_table_new(key_hash, key_equal);
    return out != NULL;
}

struct attrib_insn *attrib_insn(const void *haddr, uint64_t vaddr, uint64_t paddr,
                                uint64_t static_mcyc)
{
    struct key k = { haddr, vaddr };
    struct attrib_insn *a = g_hash_table_lookup(table, &k);
    if (a) {
        a->static_mcyc = static_mcyc;   /* the same instruction, translated again */
        return a;
    }
    struct key *kk = g_new(struct key, 1);
    *kk = k;
    a = g_new0(struct attrib_insn, 1);
    a->vaddr = vaddr;
    a->paddr = paddr;
    a->static_mcyc = static_mcyc;
    g_hash_table_insert(table, kk, a);
    return a;
}

static int by_vaddr(gconstpointer a, gconstpointer b)
{
    const struct attrib_insn *x = *(struct attrib_insn *const *)a;
    const struct attrib_insn *y = *(struct attrib_insn *const *)b;
    return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

void attrib_dump(uint32_t region)
{
    GPtrArray *used = g_ptr_array_new();
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, table);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        struct attrib_insn *a = v;
        if (a->execs || a->access_mcyc || a->stall_mcyc)
            g_ptr_array_add(used, a);
    }
    g_ptr_array_sort(used, by_vaddr);
    for (guint i = 0; i < used->len; i++) {
        struct attrib_insn *a = g_ptr_array_index(used, i);
        char paddr[24] = "-";
        if (a->paddr != UINT64_MAX)
            snprintf(paddr, sizeof(paddr), "0x%" PRIx64, a->paddr);
        fprintf(out, "HWATTR region=%u vaddr=0x%" PRIx64 " paddr=%s execs=%" PRIu64
                " static_mcyc=%" PRIu64 " access_mcyc=%" PRIu64 " stall_mcyc=%" PRIu64 "\n",
                region, a->vaddr, paddr, a->execs, a->static_mcyc, a->access_mcyc,
                a->stall_mcyc);
        a->execs = a->access_mcyc = a->stall_mcyc = 0;
    }
    fflush(out);
    g_ptr_array_free(used, true);
}

void attrib_close(void)
{
    if (out)
        fclose(out);
}
