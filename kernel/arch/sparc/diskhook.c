/*
 * Disk requests, shown to the hardware model.
 *
 * On the other ISAs the model charges a request at the entry of the
 * storage layer's disk_request() (kernel/port/ramdisk.c), reading its
 * arguments from the registers they arrive in.  QEMU 10.0 lets a plugin
 * read no SPARC register, so on SPARC the kernel says it instead, with the
 * disk marker (hwmarker.h), in front of each of the RAM disk's two entry
 * points: the linker sends bio.c's calls to ramdisk_read and ramdisk_write
 * here (arch.mk: --wrap), and we go on to the real ones.  Each moves one
 * block, exactly the request disk_request() sees.
 */
#include "kernel.h"
#include "buf.h"
#include "fsformat.h"
#include "hwmarker.h"

#define SECTORS_PER_BLOCK (BSIZE / 512)

void __real_ramdisk_read(uint32 blockno, void *dst);
void __real_ramdisk_write(uint32 blockno, const void *src);
void __wrap_ramdisk_read(uint32 blockno, void *dst);
void __wrap_ramdisk_write(uint32 blockno, const void *src);

void __wrap_ramdisk_read(uint32 blockno, void *dst)
{
    arch_disk_marker(blockno * SECTORS_PER_BLOCK, BSIZE, 0);
    __real_ramdisk_read(blockno, dst);
}

void __wrap_ramdisk_write(uint32 blockno, const void *src)
{
    arch_disk_marker(blockno * SECTORS_PER_BLOCK, BSIZE, 1);
    __real_ramdisk_write(blockno, src);
}
