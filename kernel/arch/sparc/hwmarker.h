/*
 * The hardware model's disk marker (hw-models/README.md, "Markers").
 *
 * A disk driver calls arch_disk_marker() once per request it starts: the
 * model (a QEMU plugin) then charges the modelled disk's time for it (per
 * request overhead, seek, rotation, transfer) as time the caller waits.
 * Without the model the marker is a no-op instruction.
 *
 *      sector  first 512-byte sector of the request
 *      bytes   length of the transfer
 *      write   1 for a write, 0 for a read
 *
 * The encoding is the same harmless write to %g0 as the benchmarks'
 * region marker with another immediate, `or %g0, 0x7e7, %g0`, arguments in
 * %o0, %o1, %o2.
 *
 * Not called today: the storage layer's requests all pass through
 * disk_request() (kernel/port/ramdisk.c), and the model charges them at
 * that function's entry, found by its symbol, with no marker.  This marker
 * is for a driver that does not go through disk_request().
 */
#ifndef HWMARKER_H
#define HWMARKER_H

#include "types.h"

static inline void arch_disk_marker(uint32 sector, uint32 bytes, int write)
{
    register uint32 o0 asm("o0") = sector;
    register uint32 o1 asm("o1") = bytes;
    register uint32 o2 asm("o2") = (uint32)write;
    asm volatile("or %%g0, 0x7e7, %%g0" : : "r"(o0), "r"(o1), "r"(o2) : "memory");
}

#endif
