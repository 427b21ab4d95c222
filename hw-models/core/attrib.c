/*
 * attrib.c: where the time goes, instruction by instruction.
 *
 * With attrib=FILE and attrib_region=ID, the front end keeps, for every
 * instruction executed while region ID is open, how often it ran, its static
 * cost per execution (CPI, class extra, trap penalty), the load and store
 * extras of its data accesses, and the stall cycles charged to it (cache
 * misses, write buffer, disk; the front end says which instruction gets
 * an instruction-fetch stall).  At the region's end this writes one line
 * per instruction and starts again:
 *
 *      HWATTR region=ID vaddr=0x80003908 paddr=0x80003908 execs=100000
 *             static_mcyc=984 access_mcyc=0 stall_mcyc=0
 *
 * (on one line; paddr=- when the code is not in RAM).  The harness
 * (harness/model/attribute.py) tells kernel from user code by the physical address
 * (where the two share virtual addresses, as on the 68040, nothing else
 * can) and turns virtual addresses into function names with the kernel's
 * and the program's symbol tables.
 *
 * An instruction is known by where its code is (`where`: QEMU's host
 * pointer, SIMH's physical address) and the virtual address it runs at,
 * kept in an open-addressing hash table that doubles when half full.
 * Records never move (front ends keep pointers to them).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "model.h"

struct slot {
    uint64_t where, vaddr;
    struct attrib_insn *a;              /* NULL: empty */
};

static struct slot *table;
static size_t size, used;               /* size: a power of two */
static FILE *out;

static size_t slot_of(const struct slot *t, size_t n, uint64_t where, uint64_t vaddr)
{
    uint64_t h = (where ^ (vaddr * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    size_t i = (size_t)(h >> 32) & (n - 1);
    while (t[i].a && (t[i].where != where || t[i].vaddr != vaddr))
        i = (i + 1) & (n - 1);
    return i;
}

static void grow(void)
{
    size_t n = size ? 2 * size : 4096;
    struct slot *t = calloc(n, sizeof(*t));
    for (size_t i = 0; i < size; i++)
        if (table[i].a)
            t[slot_of(t, n, table[i].where, table[i].vaddr)] = table[i];
    free(table);
    table = t;
    size = n;
}

bool attrib_open(const char *path)
{
    out = fopen(path, "w");
    grow();
    return out != NULL;
}

struct attrib_insn *attrib_insn(uint64_t where, uint64_t vaddr, uint64_t paddr,
                                uint64_t static_mcyc)
{
    struct slot *s = &table[slot_of(table, size, where, vaddr)];
    if (s->a) {
        s->a->static_mcyc = static_mcyc;    /* the same instruction, translated again */
        return s->a;
    }
    if (2 * (used + 1) > size) {
        grow();
        s = &table[slot_of(table, size, where, vaddr)];
    }
    struct attrib_insn *a = calloc(1, sizeof(*a));
    a->vaddr = vaddr;
    a->paddr = paddr;
    a->static_mcyc = static_mcyc;
    *s = (struct slot){ where, vaddr, a };
    used++;
    return a;
}

static int by_address(const void *p, const void *q)
{
    const struct attrib_insn *x = *(struct attrib_insn *const *)p;
    const struct attrib_insn *y = *(struct attrib_insn *const *)q;
    if (x->vaddr != y->vaddr)
        return x->vaddr < y->vaddr ? -1 : 1;
    return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

void attrib_dump(uint32_t region)
{
    struct attrib_insn **list = malloc((used ? used : 1) * sizeof(*list));
    size_t n = 0;
    for (size_t i = 0; i < size; i++) {
        struct attrib_insn *a = table[i].a;
        if (a && (a->execs || a->access_mcyc || a->stall_mcyc))
            list[n++] = a;
    }
    qsort(list, n, sizeof(*list), by_address);
    for (size_t i = 0; i < n; i++) {
        struct attrib_insn *a = list[i];
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
    free(list);
}

void attrib_close(void)
{
    if (out)
        fclose(out);
    out = NULL;
}
