/*
 * options.c: the model's key=value arguments, the same for every front
 * end.  The harness writes them from a profile (harness/model/hwmodel.py,
 * plugin_args()); QEMU hands them over one by one (-plugin lib,k=v,k=v),
 * SIMH as one comma-separated list (`MODEL k=v,k=v`).
 *
 * Every key is known here, with its type; an unknown key or a value that
 * does not parse is an error that names it.  Whether the values make a
 * machine (a CPI above zero, a cache geometry that divides) is checked by
 * hw_start() and memsys_new().
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

enum type { T_U64, T_U32, T_I64, T_F64, T_BOOL, T_STR, T_PC };

static const struct opt {
    const char *key;
    enum type type;
    void *p;
} opts[] = {
    { "clock_mhz", T_F64, &hw.p.mem.clock_mhz },
    { "cpi", T_F64, &hw.p.cpi },
    { "load", T_F64, &hw.p.extra[CL_LOAD] },
    { "store", T_F64, &hw.p.extra[CL_STORE] },
    { "branch", T_F64, &hw.p.extra[CL_BRANCH] },
    { "mul", T_F64, &hw.p.extra[CL_MUL] },
    { "div", T_F64, &hw.p.extra[CL_DIV] },
    { "dword", T_F64, &hw.p.extra[CL_DWORD] },
    { "trap", T_F64, &hw.p.trap_cycles },
    { "ic_size", T_U32, &hw.p.mem.ic.size },
    { "ic_line", T_U32, &hw.p.mem.ic.line },
    { "ic_assoc", T_U32, &hw.p.mem.ic.assoc },
    { "dc_size", T_U32, &hw.p.mem.dc.size },
    { "dc_line", T_U32, &hw.p.mem.dc.line },
    { "dc_assoc", T_U32, &hw.p.mem.dc.assoc },
    { "dc_wb", T_BOOL, &hw.p.mem.dc.write_back },
    { "dc_alloc", T_BOOL, &hw.p.mem.dc.write_allocate },
    { "unified", T_BOOL, &hw.p.mem.unified },
    { "wbuf", T_U32, &hw.p.mem.wbuf_entries },
    { "l2_size", T_U32, &hw.p.mem.l2.size },
    { "l2_line", T_U32, &hw.p.mem.l2.line },
    { "l2_assoc", T_U32, &hw.p.mem.l2.assoc },
    { "l2_wb", T_BOOL, &hw.p.mem.l2.write_back },
    { "l2_alloc", T_BOOL, &hw.p.mem.l2.write_allocate },
    { "l2_ns", T_F64, &hw.p.mem.l2_latency_ns },
    { "mem_ns", T_F64, &hw.p.mem.mem_latency_ns },
    { "mem_mbs", T_F64, &hw.p.mem.mem_mbs },
    { "mem_write_ns", T_F64, &hw.p.mem.mem_write_ns },
    { "bus", T_U32, &hw.p.mem.bus_bytes },
    { "disk_overhead_us", T_F64, &hw.p.disk_overhead_us },
    { "disk_seek_ms", T_F64, &hw.p.disk_seek_ms },
    { "disk_rpm", T_F64, &hw.p.disk_rpm },
    { "disk_mbs", T_F64, &hw.p.disk_mbs },
    { "disk_cyl_sectors", T_U64, &hw.p.disk_cyl_sectors },
    { "disk_pc", T_U64, &hw.p.disk_pc },
    { "disk_block", T_U64, &hw.p.disk_block },
    { "wovf_pc", T_U64, &hw.p.wovf_pc },
    { "wunf_pc", T_U64, &hw.p.wunf_pc },
    { "out", T_STR, &hw.p.out },
    { "trace", T_STR, &hw.p.trace },
    { "trace_region", T_I64, &hw.p.trace_region },
    { "attrib", T_STR, &hw.p.attrib },
    { "attrib_region", T_I64, &hw.p.attrib_region },
    { "trap_pc", T_PC, NULL },
    { "ram_base", T_U64, &hw.p.ram_base },
    { "ram_size", T_U64, &hw.p.ram_size },
    { "anchor", T_U64, &hw.p.anchor },
    { "anchor_pa", T_U64, &hw.p.anchor_pa },
    { "writelog", T_STR, &hw.p.writelog },
    { "wlog_write_pc", T_U64, &hw.p.wlog_write_pc },
    { "wlog_dirty_pc", T_U64, &hw.p.wlog_dirty_pc },
    { "wlog_buf_data", T_U64, &hw.p.wlog_buf_data },
    { "tlb_page", T_U32, &hw.p.tlb.page_size },
    { "itlb_entries", T_U32, &hw.p.tlb.i_entries },
    { "itlb_assoc", T_U32, &hw.p.tlb.i_assoc },
    { "dtlb_entries", T_U32, &hw.p.tlb.d_entries },
    { "dtlb_assoc", T_U32, &hw.p.tlb.d_assoc },
    { "tlb_unified", T_BOOL, &hw.p.tlb.unified },
    { "tlb_large_entries", T_U32, &hw.p.tlb.large_entries },
    { "tlb_large_assoc", T_U32, &hw.p.tlb.large_assoc },
    { "tlb_large_size", T_U32, &hw.p.tlb.large_size },
    { "tlb_software", T_BOOL, &hw.p.tlb.software },
    { "tlb_refill_pc", T_U64, &hw.p.tlb.refill_pc },
    { "tlb_walk_cycles", T_F64, &hw.p.tlb.walk_cycles },
};

void hw_defaults(void)
{
    memset(&hw.p, 0, sizeof(hw.p));
    hw.p.cpi = 1.0;
    hw.p.mem.bus_bytes = 4;
    hw.p.disk_cyl_sectors = 1;
    hw.p.disk_block = 1024;
    hw.p.trace_region = -1;
    hw.p.attrib_region = -1;
    hw.p.ram_base = 0x80000000;
    hw.p.ram_size = 128 << 20;
    hw.p.anchor_pa = UINT64_MAX;        /* default: anchor's own address */
    hw.p.wlog_buf_data = 52;            /* offsetof(struct buf, data): buf.h */
}

static bool parse_bool(const char *s, bool *v)
{
    static const char *const yes[] = { "on", "true", "yes" }, *const no[] = { "off", "false", "no" };
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(s, yes[i]) == 0 || strcmp(s, no[i]) == 0) {
            *v = strcmp(s, yes[i]) == 0;
            return true;
        }
    }
    return false;
}

/* Option o = the n bytes at v. */
static const char *set(const struct opt *o, const char *v, size_t n)
{
    static char msg[200];
    char *val = strndup(v, n), *end = NULL;
    bool ok = true;
    switch (o->type) {
    case T_STR:
        *(const char **)o->p = val;     /* kept for the whole run */
        return NULL;
    case T_BOOL:
        ok = parse_bool(val, (bool *)o->p);
        break;
    case T_F64:
        *(double *)o->p = strtod(val, &end);
        break;
    case T_U64:
        *(uint64_t *)o->p = strtoull(val, &end, 0);
        break;
    case T_I64:
        *(int64_t *)o->p = strtoll(val, &end, 0);
        break;
    case T_U32:
        *(uint32_t *)o->p = (uint32_t)strtoul(val, &end, 0);
        break;
    case T_PC:
        if (hw.p.n_trap_pc == HW_MAX_TRAP_PCS) {
            free(val);
            return "too many trap_pc arguments";
        }
        hw.p.trap_pc[hw.p.n_trap_pc++] = strtoull(val, &end, 0);
        break;
    }
    if (end && (end == val || *end != '\0'))
        ok = false;
    if (!ok)
        snprintf(msg, sizeof(msg), "bad value for %s: %s", o->key, val);
    free(val);
    return ok ? NULL : msg;
}

const char *hw_option(const char *arg, size_t len)
{
    static char msg[200];
    const char *eq = memchr(arg, '=', len);
    if (!eq) {
        snprintf(msg, sizeof(msg), "argument %.*s is not key=value", (int)len, arg);
        return msg;
    }
    size_t klen = (size_t)(eq - arg);
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        const struct opt *o = &opts[i];
        if (strlen(o->key) == klen && strncmp(o->key, arg, klen) == 0)
            return set(o, eq + 1, len - klen - 1);
    }
    snprintf(msg, sizeof(msg), "unknown argument %.*s", (int)klen, arg);
    return msg;
}

const char *hw_options(const char *list)
{
    while (*list) {
        size_t len = strcspn(list, ",");
        const char *err = hw_option(list, len);
        if (err)
            return err;
        list += len;
        if (*list == ',')
            list++;
    }
    return NULL;
}
