/*
 * vax_model.c: the hardware model inside SIMH's MicroVAX 3900 simulator
 * (`vax`).  The model is the engine in hw-models/core (model.h), the same
 * one the QEMU plugin drives, with the same profiles (mvax2.toml,
 * vax8800.toml) and the same records; this file is only the SIMH side: the
 * hooks that vax-model.patch adds to SIMH call in here, and pass on what
 * the VAX does.  scripts/vax-simh.sh copies this file, isa_vax.c and the
 * engine into SIMH's source tree and builds them in.
 *
 * Loading a model: the SIMH command
 *      MODEL key=value,key=value,...
 * with the engine's keys (core/params.def; harness/model/modelargs.py
 * writes them, and the harness's SIMH script says `model %1`).  No MODEL,
 * or an empty one: no model, and the simulator is the plain deterministic
 * one.
 *
 * What SIMH reports, per VAX instruction: its opcode once known
 * (model_insn: CPI and the class extra, isa_vax.c), every data read and
 * write with its physical address (model_data), every instruction-stream
 * longword read from memory (model_ifetch: I-cache, when there is one), and
 * every exception, interrupt and CHMK (model_trap: the trap extra).  So a
 * CALLS that pushes seven registers, or a MOVC3 that moves 8 KB a longword
 * at a time, costs what its memory traffic costs, and a register MOVL
 * costs the CPI.
 *
 * The guest talks to the model with XFC (opcode 0xfc, reserved by DEC for
 * customer extensions), r1 saying what for (isa.h's marker numbers):
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
 * profile's disk time, as under QEMU.
 *
 * The write log (writelog=, hw-models/core/wlog.c): with wlog_write_pc= and
 * wlog_dirty_pc= (the kernel's ramdisk_write() and bdirty()), each call's
 * block is read from guest memory and logged; model_trap() gives the
 * acknowledgements.
 *
 * Two machines on a modelled Ethernet (wire=, with the XQ attached to
 * the wire: vax_wire.c): a check point whenever the static cost reaches
 * vax_wire_at, and the kernel's net_idle() and console_intr() hooked as
 * disk_request() is.  While the VAX spins in its idle loop for a console
 * character (model_sleep, until the next exception or interrupt) nothing
 * is counted: the spin's length is the host's.
 *
 * Attribution (attrib=, attrib_region=): each instruction executed in the
 * region is known by its physical and virtual address; what happens while
 * it executes (its accesses, fetches and disk waits) is charged to it, and
 * the trap extra to the first instruction of the handler, which is where
 * the QEMU plugin charges it too (the trap vector's first instruction).
 */
#include "vax_defs.h"
#include "scp.h"
#include <stdlib.h>
#include <string.h>

#include "model.h"

extern const struct isa isa_vax;         /* the decoder: isa_vax.c */
extern UNIT cpu_unit;                    /* MEMSIZE is cpu_unit.capac */
extern int32 R[16];
extern int32 PSL;
extern int32 Read (uint32 va, int32 lnt, int32 acc);
extern int32 Test (uint32 va, int32 acc, int32 *status);

int32 model_on = 0;                      /* a model is loaded (the hooks test it) */
int32 model_asleep = 0;                  /* ... but counts nothing until a trap */

/* vax_wire.c: the modelled Ethernet's side */
extern uint64_t vax_wire_at;
extern uint32 vax_wire_idle_pc, vax_wire_cons_pc;
extern void vax_wire_point (void);
extern void vax_wire_idle (void);
extern void vax_wire_console (void);
extern const char *vax_wire_start (void);

static struct counters C;
static uint64_t op_mcyc[0x200];          /* opcode (0x100 | 2nd byte for FD xx) -> cost */
static uint64_t last_iline = UINT64_MAX;
static uint32 disk_entry = 0xffffffff;   /* first instruction of disk_request() */
static uint32 wlog_write_entry = 0xffffffff;     /* ... of ramdisk_write(), writelog= only */
static uint32 wlog_dirty_entry = 0xffffffff;     /* ... of bdirty(), writelog= only */
static struct attrib_insn *cur;          /* attributing: the instruction executing */
static uint64_t trap_pending;            /* attributing: for the handler's first one */

/* ------------------------------------------------------------ attribution */

static void attrib_step (int32 opc, uint32 pc)
{
int32 acc = ACC_MASK (PSL_GETCUR (PSL)), status;
int32 pa = Test (pc, RA, &status);       /* in the TLB: it was just fetched */
uint64_t paddr = (status == PR_OK && pa >= 0) ? (uint32) pa : UINT64_MAX;

cur = attrib_insn (paddr, pc, paddr, op_mcyc[opc & 0x1ff]);
cur->execs++;
cur->access_mcyc += trap_pending;
trap_pending = 0;
}

static void attrib_stall (uint64_t stall)
{
if (C.attrib_on && cur)
    cur->stall_mcyc += stall;
}

/* ------------------------------------------------------------ the hooks */

/* The kernel's disk_request(int write, uint32 blockno, uint32 n)
 * (kernel/port/ramdisk.c), at its first instruction: the arguments are on
 * the stack, at 4(ap) on. */
static void disk_fn (void)
{
uint32 block, n;
int32 acc = ACC_MASK (KERN);             /* read as the kernel (RA uses it) */

model_on = 0;                            /* reading the arguments is not the guest's */
block = (uint32) Read ((uint32) R[nAP] + 8, L_LONG, RA);
n = (uint32) Read ((uint32) R[nAP] + 12, L_LONG, RA);
model_on = 1;
attrib_stall (hw_disk_call (block, n));
}

/* ramdisk_write(uint32 blockno, const void *src) (to_disk) or
 * bdirty(struct buf *b, uint32 owner) at their first instruction: log the
 * block (the VAX is little-endian, as the log's block bytes are in the
 * guest's order). */
static void wlog_fn (int to_disk)
{
uint8_t blk[4096];
uint32 blockno, src, i, w, n = (uint32) hw.p.disk_block;
int32 acc = ACC_MASK (KERN);

if (n > sizeof (blk))
    return;
model_on = 0;
if (to_disk) {
    blockno = (uint32) Read ((uint32) R[nAP] + 4, L_LONG, RA);
    src = (uint32) Read ((uint32) R[nAP] + 8, L_LONG, RA);
    }
else {
    uint32 b = (uint32) Read ((uint32) R[nAP] + 4, L_LONG, RA);
    blockno = (uint32) Read (b, L_LONG, RA);
    src = (uint32) Read (b + (uint32) hw.p.wlog_buf_data, L_LONG, RA);
    }
for (i = 0; i < n; i += 4) {
    w = (uint32) Read (src + i, L_LONG, RA);
    blk[i] = (uint8_t) w;
    blk[i + 1] = (uint8_t) (w >> 8);
    blk[i + 2] = (uint8_t) (w >> 16);
    blk[i + 3] = (uint8_t) (w >> 24);
    }
model_on = 1;
wlog_block (to_disk != 0, blockno, blk);
}

/* Every instruction, once its opcode is known; pc is its address. */
void model_insn (int32 opc, uint32 pc)
{
C.insns++;
C.static_mcyc += op_mcyc[opc & 0x1ff];
if (C.static_mcyc >= vax_wire_at)        /* never without a wire */
    vax_wire_point ();
if (C.attrib_on)
    attrib_step (opc, pc);
if (pc == disk_entry)
    disk_fn ();
else if (pc == wlog_write_entry)
    wlog_fn (1);
else if (pc == wlog_dirty_entry)
    wlog_fn (0);
else if (pc == vax_wire_idle_pc)
    vax_wire_idle ();
else if (pc == vax_wire_cons_pc)
    vax_wire_console ();
}

/* Count nothing until the next exception or interrupt (vax_wire.c: the
 * idle loop's spin for a console character): every hook is off, and
 * intexc() (vax_cpu1.c, patched) calls model_wake() first. */
void model_sleep (void)
{
model_on = 0;
model_asleep = 1;
}

void model_wake (void)
{
model_asleep = 0;
model_on = 1;
}

/* Every data read or write (Read/Write in vax_mmu.c), by physical address. */
void model_data (uint32 pa, int32 lnt, int32 store)
{
uint64_t static_before = C.static_mcyc;

if (pa >= (uint32) MEMSIZE)                              /* I/O space: not modelled */
    return;
hw_count_access (store != 0);
attrib_stall (hw_data (pa, (unsigned) lnt, store != 0, 0));
if (C.attrib_on && cur)
    cur->access_mcyc += C.static_mcyc - static_before;
}

/* Every longword of the instruction stream read from memory.  SIMH reads
 * a longword at a time; a line is fetched once however many it holds. */
void model_ifetch (uint32 pa)
{
uint64_t line;

if (!hw_has_icache () || pa >= (uint32) MEMSIZE)
    return;
line = pa >> hw_iline_shift ();
if (line == last_iline)
    return;
last_iline = line;
attrib_stall (hw_ifetch (line));
}

/* Every exception, interrupt and CHMK: the microcode's trap sequence. */
void model_trap (void)
{
hw_trap ();
last_iline = UINT64_MAX;
if (C.attrib_on)
    trap_pending += hw.trap_mcyc;
}

/* XFC: 1 if it was one of ours (no trap), 0 to trap as usual. */
int32 model_xfc (int32 *R)
{
uint64_t v;

switch ((uint32) R[1]) {
    case MARK_REGION:
        if (model_on)
            hw_region_marker ((uint32) R[0]);
        return 1;
    case MARK_CLOCK:
    case MARK_INSNS:
        if (model_on) {
            v = (R[1] == MARK_CLOCK) ? hw_clock_read () : C.insns;
            R[0] = (int32) (uint32) v;
            R[1] = (int32) (uint32) (v >> 32);
            R[2] = 1;
            }
        return 1;
    case MARK_DISK:
        if (model_on)
            attrib_stall (hw_disk ((uint32) R[0], (uint32) R[2]));
        return 1;
    }
return 0;
}

/* ------------------------------------------------------------ MODEL command */

static void model_exit (void)
{
if (model_on || model_asleep)
    hw_finish ();
}

static t_stat model_cmd (int32 flag, char *cptr)
{
const char *err;
char *args;
int32 opc;

while (*cptr == ' ')
    cptr++;
if (*cptr == '\0' || *cptr == '\r' || *cptr == '\n')    /* `model` alone: none */
    return SCPE_OK;
if (model_on) {
    fprintf (stderr, "vax_model: a model is already loaded\n");
    return SCPE_ARG;
    }
args = strndup (cptr, strcspn (cptr, " \r\n"));
hw_defaults ();
err = hw_options (args);
free (args);
if (err == NULL) {
    hw.c = &C;
    err = hw_start (isa_vax.name);
    }
if (err == NULL)
    err = vax_wire_start ();
if (err != NULL) {
    fprintf (stderr, "vax_model: %s\n", err);
    return SCPE_ARG;
    }
for (opc = 0; opc < 0x200; opc++) {                     /* each opcode's cost, once */
    uint8_t insn[2] = { (uint8_t) opc, 0 };
    size_t len = 1;
    if (opc >= 0x100) {                                 /* FD xx */
        insn[0] = 0xfd;
        insn[1] = (uint8_t) opc;
        len = 2;
        }
    op_mcyc[opc] = hw_insn_mcyc (isa_vax.classify (insn, len));
    }
if (hw.p.disk_pc)                                       /* past the procedure's entry mask */
    disk_entry = (uint32) hw.p.disk_pc + 2;
if (wlog_on ()) {
    wlog_write_entry = (uint32) hw.p.wlog_write_pc + 2;
    wlog_dirty_entry = (uint32) hw.p.wlog_dirty_pc + 2;
    }
atexit (model_exit);
model_on = 1;
return SCPE_OK;
}

static CTAB model_ctab[] = {
    { "MODEL", &model_cmd, 0,
      "model <key=value,...>     load the Ousterhout hardware model (hw-models/simh/)\n" },
    { NULL }
    };

/* Register the MODEL command before SIMH reads its command file. */
extern CTAB *sim_vm_cmd;

static void __attribute__ ((constructor)) model_register (void)
{
sim_vm_cmd = model_ctab;
}
