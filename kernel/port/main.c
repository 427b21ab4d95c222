/*
 * main(): the portable kernel starts here, in supervisor (kernel) mode,
 * after the ISA's boot code.  Bring the machine up, create the first
 * process (the shell), and become the scheduler.
 *
 * The RAM disk and the buffer cache take their memory, each in one piece,
 * from the start of free RAM; the page allocator gets what is left.
 */
#include "kernel.h"
#include "buf.h"
#include "fs.h"

void main(void)
{
    uintptr start, stop;
    arch_mem_range(&start, &stop);
    uintptr ram = stop - start;
    start = ramdisk_init(start, stop); /* the disk, with the image copied in */
    start = bcache_init(start, stop);  /* the buffer pool                    */
    kalloc_init(start, stop);          /* the page tables need free pages */
    arch_init();                       /* MMU, console, interrupts, timer */
    proc_init();
    fs_init();                         /* the superblock                  */
    user_init();                       /* the shell, in the root directory */
    flusher_start();                   /* writes delayed blocks (writeback.c) */
    printf("BOOT arch=%s ram=%u hz=%u pages=%u\n", arch_name(), (uint32)ram, HZ,
           kalloc_total_pages());
    printf("fs: %u blocks of %u bytes, %u inodes, buffer cache %u blocks, policy sync\n",
           sb.nblocks, BSIZE, sb.ninodes - 1, bcache_size());
    scheduler();
}
