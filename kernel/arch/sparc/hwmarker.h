/*
 * The hardware model's disk marker (hw-models/README.md, "Markers").
 *
 * arch_disk_marker(sector, bytes, write) tells the model (a QEMU plugin)
 * that a disk request starts: it charges the modelled disk's time (per
 * request overhead, seek, rotation, transfer) as time the caller waits.
 * Without the model it costs four ordinary instructions.
 *
 *      sector  first 512-byte sector of the request
 *      bytes   length of the transfer
 *      write   1 for a write, 0 for a read
 *
 * The marker is `or %g0, 0x7e7, %g0` (it writes %g0: a no-op).  QEMU 10.0
 * shows a plugin no SPARC registers, so its arguments travel in memory:
 * each is stored into its argument slot of the current frame ([%sp + 68],
 * [%sp + 72], [%sp + 76]: the SPARC ABI reserves these in every frame for
 * the arguments of the functions it calls) right before the marker, and
 * the model reads the values the stores carry.
 */
#ifndef HWMARKER_H
#define HWMARKER_H

#include "types.h"

static inline void arch_disk_marker(uint32 sector, uint32 bytes, int write)
{
    asm volatile("st %0, [%%sp + 68]\n\t"
                 "st %1, [%%sp + 72]\n\t"
                 "st %2, [%%sp + 76]\n\t"
                 "or %%g0, 0x7e7, %%g0"
                 : : "r"(sector), "r"(bytes), "r"(write) : "memory");
}

#endif
