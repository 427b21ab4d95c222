/*
 * vax_model.c: the Ousterhout project's hardware model inside SIMH's
 * MicroVAX 3900 simulator (`vax`): the same model as the QEMU plugin
 * (hw-models/plugin/hwmodel.c), driven by the same profiles
 * (hw-models/profiles/mvax2.toml, vax8800.toml), writing the same records.
 * scripts/vax-simh.sh builds it into SIMH together with the plugin's own
 * memory model (memsys.c, cache.c, model.h, copied from hw-models/plugin/)
 * and simh/vax-model.patch, which adds the hooks that call in here.
 *
 * Loading a model: the SIMH command
 *      MODEL key=value,key=value,...
 * with the plugin's keys (harness/hwmodel.py plugin_args() writes them; the
 * harness's SIMH script says `model %1`).  No MODEL, or an empty one: no
 * model, and the simulator is the plain deterministic one.
 *
 * How time is modelled, per VAX instruction: CPI cycles, plus the class
 * extra of its opcode (branch, multiply, divide; load and store extras are
 * charged per data access, since any VAX instruction may touch memory),
 * plus the memory system's time for every data read and write the
 * instruction makes (memsys_data) and for every instruction-stream longword
 * fetched (memsys_ifetch, when there is an I-cache or a unified cache).  So
 * a CALLS that pushes seven registers, or a MOVC3 that moves 8 KB a
 * longword at a time, costs what its memory traffic costs, and a register
 * MOVL costs the CPI.  Every exception, interrupt and CHMK adds the trap
 * extra and counts as a trap.  Time is in millicycles (model.h).
 *
 * The guest talks to the model with XFC (opcode 0xfc, reserved by DEC for
 * customer extensions), r1 saying what for, like the RISC-V marker's
 * immediate (hw-models/README.md):
 *      r1 = 0x7e5   region marker: r0 = id << 1 | (1 at the end)
 *      r1 = 0x7e6   clock: r0:r1 = modelled ns and r2 = 1, if a model is loaded
 *      r1 = 0x7e7   disk request: r0 = sector, r2 = bytes, r3 = 1 for a write
 *      r1 = 0x7e8   instruction count: r0:r1 = instructions and r2 = 1, if loaded
 * Any other r1: not ours, XFC traps as on a real VAX.  Without a model the
 * markers do nothing and the clock and count leave r2 alone, so the guest
 * falls back on its own clock (guests/lib/arch/vax/bench_arch.S).
 *
 * Disk requests: with disk_pc=ADDR (the harness finds the kernel's
 * disk_request() in kernel.elf), each call of that function is charged the
 * profile's disk time, as in the plugin; the XFC disk marker is for drivers
 * that bypass it.
 *
 * Records, to out=FILE: HWMODEL at start, HWREGION per timed region, HWTOTAL
 * at exit, in the plugin's format (harness/hwmodel.py reads them).
 */
#include "vax_defs.h"
#include "scp.h"
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

extern UNIT cpu_unit;                    /* MEMSIZE is cpu_unit.capac */

#define MAX_OPEN 16

int32 model_on = 0;                      /* a model is loaded (the hooks test it) */

static struct counters C;
static struct memsys *mem;
static FILE *out;

static struct {
    struct memsys_params mem;
    double cpi, extra[NCLASS], trap_cycles;
    double disk_overhead_us, disk_seek_ms, disk_rpm, disk_mbs;
    uint64_t disk_cyl_sectors;
    uint64_t disk_pc, disk_block;        /* the kernel's disk_request(), its block size */
    char out[512];
} P;

static uint64_t cpi_mcyc, extra_mcyc[NCLASS], trap_mcyc, clock_khz;
static uint32 disk_entry = 0xffffffff;   /* first instruction of disk_request() */
static void disk_request (uint64_t sector, uint64_t bytes);

/* The kernel's disk_request(int write, uint32 blockno, uint32 n)
 * (kernel/port/ramdisk.c): every request of the storage layer passes
 * through it, so its entry is where a disk request's time is charged, as
 * the QEMU plugin does.  Its arguments are on the stack, at 4(ap) on. */
extern int32 R[16];
extern int32 Read (uint32 va, int32 lnt, int32 acc);
static void disk_fn (void)
{
uint32 block, n;
int32 acc = ACC_MASK (KERN);             /* read as the kernel (RA uses it) */

model_on = 0;                            /* reading the arguments is not the guest's */
block = (uint32) Read ((uint32) R[nAP] + 8, L_LONG, RA);
n = (uint32) Read ((uint32) R[nAP] + 12, L_LONG, RA);
model_on = 1;
disk_request ((uint64_t) block * (P.disk_block / 512), (uint64_t) n * P.disk_block);
}
static uint8 op_class[0x200];            /* opcode (0x100 | second byte for FD xx) -> class */
static uint64_t last_iline = UINT64_MAX;

/* ------------------------------------------------------------ opcodes */

/* Which class each opcode's extra comes from.  Loads and stores are per
 * access (model_data), not per opcode. */
static void classify_opcodes (void)
{
static const uint16 branches[] = {
    0x04, 0x05, 0x10, 0x11, 0x16, 0x17, 0x30, 0x31, 0xfa, 0xfb,     /* RET RSB BSBB BRB JSB JMP BSBW BRW CALLG CALLS */
    0x3d, 0x4f, 0x6f, 0x9d, 0xf1,                                   /* ACBW ACBF ACBD ACBB ACBL */
    0x8f, 0xaf, 0xcf,                                               /* CASEB CASEW CASEL */
    0xf2, 0xf3, 0xf4, 0xf5, 0xe8, 0xe9, 0x02 };                     /* AOBLSS AOBLEQ SOBGEQ SOBGTR BLBS BLBC REI */
static const uint16 muls[] = { 0x84, 0x85, 0xa4, 0xa5, 0xc4, 0xc5, 0x7a,
                               0x44, 0x45, 0x64, 0x65 };            /* MULx2/3, EMUL, MULF, MULD */
static const uint16 divs[] = { 0x86, 0x87, 0xa6, 0xa7, 0xc6, 0xc7, 0x7b,
                               0x46, 0x47, 0x66, 0x67 };            /* DIVx2/3, EDIV, DIVF, DIVD */
size_t i;

memset (op_class, CL_OTHER, sizeof (op_class));
for (i = 0x12; i <= 0x1f; i++)                                      /* Bcc */
    op_class[i] = CL_BRANCH;
for (i = 0xe0; i <= 0xe7; i++)                                      /* BBx */
    op_class[i] = CL_BRANCH;
for (i = 0; i < sizeof (branches) / sizeof (branches[0]); i++)
    op_class[branches[i]] = CL_BRANCH;
for (i = 0; i < sizeof (muls) / sizeof (muls[0]); i++)
    op_class[muls[i]] = CL_MUL;
for (i = 0; i < sizeof (divs) / sizeof (divs[0]); i++)
    op_class[divs[i]] = CL_DIV;
}

/* ------------------------------------------------------------ time */

static uint64_t now_mcyc (void)
{
return C.static_mcyc + C.stall_mcyc;
}

static uint64_t mcyc_to_ns (uint64_t mcyc)
{
return (uint64_t) ((unsigned __int128) mcyc * 1000 / clock_khz);
}

/* The clock the guest reads counts from a base that moves to each region's
 * start, so spans inside a region repeat exactly (as in hwmodel.c). */
static uint64_t clock_base_mcyc, clock_base_ns;

static uint64_t clock_ns (uint64_t mcyc)
{
return clock_base_ns + mcyc_to_ns (mcyc - clock_base_mcyc);
}

static void clock_rebase (uint64_t mcyc)
{
clock_base_ns = clock_ns (mcyc);
clock_base_mcyc = mcyc;
}

static uint64_t cycles_to_mcyc (double c)
{
return (uint64_t) llround (c * MCYC);
}

static void say (const char *fmt, ...)
{
va_list ap;

if (out == NULL)
    return;
va_start (ap, fmt);
vfprintf (out, fmt, ap);
va_end (ap);
fflush (out);
}

/* ------------------------------------------------------------ the hooks */

/* Every instruction, once its opcode is known; pc is its address. */
void model_insn (int32 opc, uint32 pc)
{
C.insns++;
C.static_mcyc += cpi_mcyc + extra_mcyc[op_class[opc & 0x1ff]];
if (pc == disk_entry)
    disk_fn ();
}

/* Every data read or write (Read/Write in vax_mmu.c, and the page-table
 * entries the translation buffer fetches), by physical address. */
void model_data (uint32 pa, int32 lnt, int32 store)
{
uint64_t now;

if (pa >= (uint32) MEMSIZE)                              /* I/O space: not modelled */
    return;
if (store) {
    C.stores++;
    C.static_mcyc += extra_mcyc[CL_STORE];
    }
else {
    C.loads++;
    C.static_mcyc += extra_mcyc[CL_LOAD];
    }
now = now_mcyc ();
C.stall_mcyc += memsys_data (mem, &C, now, pa, (unsigned) lnt, store != 0) - now;
}

/* Every longword of the instruction stream read from memory. */
void model_ifetch (uint32 pa)
{
uint64_t line, now;

if (!memsys_has_icache (mem) || pa >= (uint32) MEMSIZE)
    return;
line = pa >> memsys_iline_shift (mem);
if (line == last_iline)
    return;
last_iline = line;
now = now_mcyc ();
C.stall_mcyc += memsys_ifetch (mem, &C, now, line) - now;
}

/* Every exception, interrupt and CHMK: the microcode's trap sequence. */
void model_trap (void)
{
C.traps++;
C.static_mcyc += trap_mcyc;
last_iline = UINT64_MAX;
}

/* ------------------------------------------------------------ regions */

struct open_region {
    int used;
    uint32_t id;
    struct counters at;
    uint64_t at_mcyc, at_ns;
    uint64_t clock_first, clock_last;
    uint32_t clock_reads;
    };

static struct open_region open_regions[MAX_OPEN];
static uint32_t region_seq;

#define D(f) (now->f - then->f)

static void print_counters (const char *word, const char *head, const struct counters *now,
                            const struct counters *then, uint64_t mcyc_now, uint64_t mcyc_then,
                            uint64_t ns, const char *tail)
{
uint64_t cyc = (mcyc_now - mcyc_then + MCYC / 2) / MCYC;

say ("%s%s insns=%" PRIu64 " loads=%" PRIu64 " stores=%" PRIu64
     " imiss=%" PRIu64 " dmiss=%" PRIu64 " dmiss_w=%" PRIu64 " writebacks=%" PRIu64
     " l2miss=%" PRIu64 " bytes_in=%" PRIu64 " bytes_out=%" PRIu64
     " traps=%" PRIu64 " disk=%" PRIu64 " disk_ns=%" PRIu64
     " stall_cycles=%" PRIu64 " wbuf_cycles=%" PRIu64
     " cycles=%" PRIu64 " ns=%" PRIu64 "%s\n",
     word, head, D(insns), D(loads), D(stores), D(imiss), D(dmiss), D(dmiss_w),
     D(writebacks), D(l2miss), D(bytes_in), D(bytes_out), D(traps), D(disk_reqs),
     mcyc_to_ns (D(disk_mcyc)), (D(stall_mcyc) + MCYC / 2) / MCYC,
     (D(wbuf_stall_mcyc) + MCYC / 2) / MCYC, cyc, ns, tail);
}

static void region_begin (uint32_t id)
{
struct open_region *r = NULL;
uint64_t now;
int i;

for (i = 0; i < MAX_OPEN && !r; i++)
    if (open_regions[i].used && open_regions[i].id == id)
        r = &open_regions[i];                           /* begun again: restart */
for (i = 0; i < MAX_OPEN && !r; i++)
    if (!open_regions[i].used)
        r = &open_regions[i];
if (!r) {
    say ("HWWARN what=too_many_open_regions id=%u\n", id);
    return;
    }
now = now_mcyc ();
clock_rebase (now);
memset (r, 0, sizeof (*r));
r->used = 1;
r->id = id;
r->at = C;
r->at_mcyc = now;
r->at_ns = clock_ns (now);
}

static void region_end (uint32_t id)
{
char head[64], tail[96];
uint64_t now;
int i;

for (i = 0; i < MAX_OPEN; i++) {
    struct open_region *r = &open_regions[i];
    if (!r->used || r->id != id)
        continue;
    snprintf (head, sizeof (head), " seq=%u id=%u", ++region_seq, id);
    snprintf (tail, sizeof (tail), " clock_reads=%u clock_ns=%" PRIu64, r->clock_reads,
              r->clock_reads >= 2 ? r->clock_last - r->clock_first : 0);
    now = now_mcyc ();
    print_counters ("HWREGION", head, &C, &r->at, now, r->at_mcyc, clock_ns (now) - r->at_ns,
                    tail);
    r->used = 0;
    return;
    }
say ("HWWARN what=end_without_begin id=%u\n", id);
}

static uint64_t read_clock (void)
{
uint64_t ns = clock_ns (now_mcyc ());
int i;

for (i = 0; i < MAX_OPEN; i++) {
    struct open_region *r = &open_regions[i];
    if (!r->used)
        continue;
    if (r->clock_reads++ == 0)
        r->clock_first = ns;
    r->clock_last = ns;
    }
return ns;
}

/* A disk request: the process waits for all of it (as in hwmodel.c). */
static uint64_t disk_next_sector = UINT64_MAX, disk_cyl = UINT64_MAX;

static void disk_request (uint64_t sector, uint64_t bytes)
{
double ns = P.disk_overhead_us * 1e3;
uint64_t m, cyl;

if (sector != disk_next_sector) {
    cyl = sector / P.disk_cyl_sectors;
    if (cyl != disk_cyl)
        ns += P.disk_seek_ms * 1e6;
    ns += P.disk_rpm > 0 ? 0.5 * 60e9 / P.disk_rpm : 0;
    disk_cyl = cyl;
    }
ns += P.disk_mbs > 0 ? bytes * 1e3 / P.disk_mbs : 0;
disk_next_sector = sector + (bytes + 511) / 512;
m = memsys_ns_to_mcyc (mem, ns);
C.stall_mcyc += m;
C.disk_mcyc += m;
C.disk_reqs++;
}

/* XFC: 1 if it was one of ours (no trap), 0 to trap as usual. */
int32 model_xfc (int32 *R)
{
uint64_t v;

switch ((uint32) R[1]) {
    case 0x7e5:                                         /* region marker */
        if (model_on) {
            if (R[0] & 1)
                region_end ((uint32) R[0] >> 1);
            else region_begin ((uint32) R[0] >> 1);
            }
        return 1;
    case 0x7e6:                                         /* clock */
    case 0x7e8:                                         /* instruction count */
        if (model_on) {
            v = (R[1] == 0x7e6) ? read_clock () : C.insns;
            R[0] = (int32) (uint32) v;
            R[1] = (int32) (uint32) (v >> 32);
            R[2] = 1;
            }
        return 1;
    case 0x7e7:                                         /* disk request */
        if (model_on)
            disk_request ((uint32) R[0], (uint32) R[2]);
        return 1;
    }
return 0;
}

/* ------------------------------------------------------------ MODEL command */

enum type { T_U64, T_U32, T_F64, T_BOOL, T_STR, T_SKIP };

static const struct opt {
    const char *key;
    enum type type;
    void *p;
    } opts[] = {
    { "clock_mhz", T_F64, &P.mem.clock_mhz },
    { "cpi", T_F64, &P.cpi },
    { "load", T_F64, &P.extra[CL_LOAD] },
    { "store", T_F64, &P.extra[CL_STORE] },
    { "branch", T_F64, &P.extra[CL_BRANCH] },
    { "mul", T_F64, &P.extra[CL_MUL] },
    { "div", T_F64, &P.extra[CL_DIV] },
    { "trap", T_F64, &P.trap_cycles },
    { "ic_size", T_U32, &P.mem.ic.size },
    { "ic_line", T_U32, &P.mem.ic.line },
    { "ic_assoc", T_U32, &P.mem.ic.assoc },
    { "dc_size", T_U32, &P.mem.dc.size },
    { "dc_line", T_U32, &P.mem.dc.line },
    { "dc_assoc", T_U32, &P.mem.dc.assoc },
    { "dc_wb", T_BOOL, &P.mem.dc.write_back },
    { "dc_alloc", T_BOOL, &P.mem.dc.write_allocate },
    { "unified", T_BOOL, &P.mem.unified },
    { "wbuf", T_U32, &P.mem.wbuf_entries },
    { "l2_size", T_U32, &P.mem.l2.size },
    { "l2_line", T_U32, &P.mem.l2.line },
    { "l2_assoc", T_U32, &P.mem.l2.assoc },
    { "l2_wb", T_BOOL, &P.mem.l2.write_back },
    { "l2_alloc", T_BOOL, &P.mem.l2.write_allocate },
    { "l2_ns", T_F64, &P.mem.l2_latency_ns },
    { "mem_ns", T_F64, &P.mem.mem_latency_ns },
    { "mem_mbs", T_F64, &P.mem.mem_mbs },
    { "bus", T_U32, &P.mem.bus_bytes },
    { "disk_overhead_us", T_F64, &P.disk_overhead_us },
    { "disk_seek_ms", T_F64, &P.disk_seek_ms },
    { "disk_rpm", T_F64, &P.disk_rpm },
    { "disk_mbs", T_F64, &P.disk_mbs },
    { "disk_cyl_sectors", T_U64, &P.disk_cyl_sectors },
    { "disk_pc", T_U64, &P.disk_pc },
    { "disk_block", T_U64, &P.disk_block },
    { "out", T_STR, P.out },
    { "trap_pc", T_SKIP, NULL },                        /* QEMU's way to find traps: */
    { "ram_base", T_SKIP, NULL },                       /* SIMH knows them */
    { "ram_size", T_SKIP, NULL },
    { "anchor", T_SKIP, NULL },
    };

static const char *parse_arg (const char *arg, size_t len)
{
static char msg[200];
char val[512], *end = NULL;
const char *eq = memchr (arg, '=', len);
size_t i, klen;

if (!eq) {
    snprintf (msg, sizeof (msg), "argument %.*s is not key=value", (int) len, arg);
    return msg;
    }
klen = (size_t) (eq - arg);
snprintf (val, sizeof (val), "%.*s", (int) (len - klen - 1), eq + 1);
for (i = 0; i < sizeof (opts) / sizeof (opts[0]); i++) {
    const struct opt *o = &opts[i];
    if (strlen (o->key) != klen || strncmp (o->key, arg, klen) != 0)
        continue;
    switch (o->type) {
        case T_F64: *(double *) o->p = strtod (val, &end); break;
        case T_U64: *(uint64_t *) o->p = strtoull (val, &end, 0); break;
        case T_U32: *(uint32_t *) o->p = (uint32_t) strtoul (val, &end, 0); break;
        case T_BOOL:
            if (strcmp (val, "on") == 0 || strcmp (val, "true") == 0)
                *(bool *) o->p = true;
            else if (strcmp (val, "off") == 0 || strcmp (val, "false") == 0)
                *(bool *) o->p = false;
            else break;
            return NULL;
        case T_STR: snprintf ((char *) o->p, sizeof (P.out), "%s", val); return NULL;
        case T_SKIP: return NULL;
        }
    if (end == NULL || end == val || *end != '\0') {
        snprintf (msg, sizeof (msg), "bad value for %s: %s", o->key, val);
        return msg;
        }
    return NULL;
    }
snprintf (msg, sizeof (msg), "unknown argument %.*s", (int) klen, arg);
return msg;
}

static void model_exit (void)
{
struct counters zero;

if (!model_on)
    return;
memset (&zero, 0, sizeof (zero));
print_counters ("HWTOTAL", "", &C, &zero, now_mcyc (), 0, clock_ns (now_mcyc ()), "");
if (out)
    fclose (out);
out = NULL;
}

static t_stat model_cmd (int32 flag, char *cptr)
{
const char *err, *s = cptr;
int k;

while (*s == ' ')
    s++;
if (*s == '\0')                                         /* `model` alone: none */
    return SCPE_OK;
if (model_on) {
    fprintf (stderr, "vax_model: a model is already loaded\n");
    return SCPE_ARG;
    }
memset (&P, 0, sizeof (P));
P.cpi = 1.0;
P.mem.bus_bytes = 4;
P.disk_cyl_sectors = 1;
P.disk_block = 1024;
while (*s && *s != ' ' && *s != '\r' && *s != '\n') {
    size_t len = strcspn (s, ", \r\n");
    if ((err = parse_arg (s, len)) != NULL) {
        fprintf (stderr, "vax_model: %s\n", err);
        return SCPE_ARG;
        }
    s += len;
    if (*s == ',')
        s++;
    }
if (!(P.cpi > 0) || !(P.mem.clock_mhz > 0)) {
    fprintf (stderr, "vax_model: cpi and clock_mhz must be > 0\n");
    return SCPE_ARG;
    }
if ((mem = memsys_new (&P.mem, &err)) == NULL) {
    fprintf (stderr, "vax_model: %s\n", err);
    return SCPE_ARG;
    }
if (P.out[0] && (out = fopen (P.out, "w")) == NULL) {
    fprintf (stderr, "vax_model: cannot write %s\n", P.out);
    return SCPE_ARG;
    }
classify_opcodes ();
clock_khz = (uint64_t) llround (P.mem.clock_mhz * 1000);
cpi_mcyc = cycles_to_mcyc (P.cpi);
for (k = 0; k < NCLASS; k++)
    extra_mcyc[k] = cycles_to_mcyc (P.extra[k]);
trap_mcyc = cycles_to_mcyc (P.trap_cycles);
if (P.disk_pc)                           /* past the procedure's entry mask */
    disk_entry = (uint32) P.disk_pc + 2;
say ("HWMODEL isa=vax clock_mhz=%g cpi=%g load=%g store=%g branch=%g mul=%g div=%g trap=%g "
     "trap_pcs=0 ic=%u/%u/%u dc=%u/%u/%u/%s/%s unified=%d wbuf=%u l2=%u/%u/%u "
     "mem_ns=%g mem_mbs=%g bus=%u\n",
     P.mem.clock_mhz, P.cpi, P.extra[CL_LOAD], P.extra[CL_STORE], P.extra[CL_BRANCH],
     P.extra[CL_MUL], P.extra[CL_DIV], P.trap_cycles,
     P.mem.ic.size, P.mem.ic.line, P.mem.ic.assoc, P.mem.dc.size, P.mem.dc.line,
     P.mem.dc.assoc, P.mem.dc.write_back ? "wb" : "wt",
     P.mem.dc.write_allocate ? "alloc" : "noalloc", P.mem.unified, P.mem.wbuf_entries,
     P.mem.l2.size, P.mem.l2.line, P.mem.l2.assoc, P.mem.mem_latency_ns, P.mem.mem_mbs,
     P.mem.bus_bytes);
atexit (model_exit);
model_on = 1;
return SCPE_OK;
}

static CTAB model_ctab[] = {
    { "MODEL", &model_cmd, 0,
      "model <key=value,...>     load the Ousterhout hardware model (simh/vax_model.c)\n" },
    { NULL }
    };

/* Register the MODEL command before SIMH reads its command file. */
extern CTAB *sim_vm_cmd;

static void __attribute__ ((constructor)) model_register (void)
{
sim_vm_cmd = model_ctab;
}
