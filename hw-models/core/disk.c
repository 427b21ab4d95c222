/*
 * disk.c: the time of a disk request.  The process waits for all of it (a
 * synchronous read or write), so it is added to the clock as a stall:
 * a fixed overhead per request; a seek when the cylinder changes; half a
 * rotation unless the request continues where the last one ended; then
 * the transfer.
 *
 * Requests come from the kernel's disk_request() (kernel/port/ramdisk.c),
 * which every request of the storage layer passes through: the front end
 * finds its entry at disk_pc= and reads its arguments where the ISA's C
 * calling convention puts them.  (Or from the disk marker, for a driver
 * that bypasses it; none does.)
 */
#include "model.h"

static uint64_t next_sector = UINT64_MAX, cur_cyl = UINT64_MAX;

uint64_t hw_disk(uint64_t sector, uint64_t bytes)
{
    const struct hw_params *p = &hw.p;
    double ns = p->disk_overhead_us * 1e3;
    if (sector != next_sector) {
        uint64_t cyl = sector / p->disk_cyl_sectors;
        if (cyl != cur_cyl)
            ns += p->disk_seek_ms * 1e6;
        ns += p->disk_rpm > 0 ? 0.5 * 60e9 / p->disk_rpm : 0;
        cur_cyl = cyl;
    }
    ns += p->disk_mbs > 0 ? bytes * 1e3 / p->disk_mbs : 0;
    next_sector = sector + (bytes + 511) / 512;
    uint64_t m = memsys_ns_to_mcyc(hw.mem, ns);
    hw.c->stall_mcyc += m;
    hw.c->disk_mcyc += m;
    hw.c->disk_reqs++;
    return m;
}

/* disk_request(int write, uint32 blockno, uint32 n): n blocks of
 * disk_block bytes from block blockno (the write flag costs nothing extra). */
uint64_t hw_disk_call(uint64_t blockno, uint64_t nblocks)
{
    return hw_disk(blockno * (hw.p.disk_block / 512), nblocks * hw.p.disk_block);
}
