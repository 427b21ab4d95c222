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
 * The encoding is the same harmless hint as the benchmarks' region marker
 * with another immediate: `slti x0, x0, 0x7e7`, arguments in a0, a1, a2.
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
    register uint32 a0 asm("a0") = sector;
    register uint32 a1 asm("a1") = bytes;
    register uint32 a2 asm("a2") = (uint32)write;
    asm volatile("slti x0, x0, 0x7e7" : : "r"(a0), "r"(a1), "r"(a2) : "memory");
}

#endif
