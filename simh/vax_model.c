/*
 * vax_model.c: what the Ousterhout project adds to SIMH's MicroVAX 3900
 * simulator (`vax`).  Built into it by scripts/vax-simh.sh, which applies
 * simh/vax-model.patch (the hooks) and compiles this file with the rest.
 *
 * So far: the timed-region marker.  A guest executes XFC ("extended
 * function call", opcode 0xFC, reserved by DEC for customer extensions)
 * with r0 = (region id << 1) | (1 at the end of a region, 0 at its start).
 * Stock SIMH traps XFC to the guest's kernel, which steps over it (see
 * kernel/arch/vax/trap.c); here it is an instruction that does nothing
 * but log, so it costs the guest one instruction.
 *
 * The log: set OUSTERHOUT_VAX_LOG=<file> in SIMH's environment and every
 * marker writes one line there,
 *      marker value=<r0> insns=<instructions executed so far>
 *
 * (The patch also makes the KA655's SSC interval timers count exactly one
 * per instruction at every interval, never wall-clock time: that is the
 * guest's clock, and why runs are identical.)
 */
#include "vax_defs.h"
#include "scp.h"
#include <stdlib.h>

static FILE *model_log;
static int model_ready;

static void model_init (void)
{
const char *path = getenv ("OUSTERHOUT_VAX_LOG");

if (path && *path) {
    model_log = fopen (path, "w");
    if (model_log == NULL)
        fprintf (stderr, "vax_model: cannot write %s\n", path);
    }
model_ready = 1;
}

/* XFC: a marker.  Returns 1: handled, no trap to the guest. */
int32 model_xfc (int32 *R)
{
if (!model_ready)
    model_init ();
if (model_log) {
    fprintf (model_log, "marker value=%u insns=%.0f\n", (uint32) R[0], sim_gtime ());
    fflush (model_log);
    }
return 1;
}
