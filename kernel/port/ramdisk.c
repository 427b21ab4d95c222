/*
 * The RAM disk: a piece of main memory used as the disk the file system
 * lives on, as in the memory driver of 1975 UNIX.
 *
 * The file-system image is made on the host by tools/mkfs and linked into
 * the kernel as bytes (fsimage.S).  At boot, ramdisk_init() takes memory for
 * the whole disk (as many blocks as the image's superblock says) from the
 * start of free RAM, before the page allocator gets the rest, copies the
 * image in and zeroes the part the image left out.  So the disk is one
 * contiguous piece on every machine, whatever its page size, and the image
 * in the kernel stays read-only.
 *
 * Every request passes through disk_request(), the one hook for device
 * time: it counts the request and returns what the latency model says it
 * would take on a real disk (zero unless the model has been set, through
 * fsctl).  The requesting process then sleeps that long in guest time, so
 * a synchronous write costs what it would with a disk, and runs stay
 * deterministic.  The hardware model (hw-models/) can instead observe
 * disk_request() itself and charge modelled time outside the guest.
 */
#include "kernel.h"
#include "proc.h"
#include "buf.h"

extern const uint8 fs_image[], fs_image_end[];     /* fsimage.S */

struct diskmodel diskmodel;            /* all zero: a RAM disk with no delay */

static uint8 *disk;                    /* nblocks * BSIZE bytes              */
static uint32 nblocks;
static uint32 next_sequential;         /* block after the last one moved     */
static int delay_chan;                 /* nothing wakes it: only the deadline */

uintptr ramdisk_init(uintptr start, uintptr end)
{
    const struct superblock *sb = (const struct superblock *)(fs_image + BSIZE);
    uint32 imgsize = fs_image_end - fs_image;
    if (imgsize < 2 * BSIZE || sb->magic != FS_MAGIC || sb->bsize != BSIZE ||
        sb->nblocks * BSIZE < imgsize)
        panic("ramdisk: the linked file-system image is not one of ours");
    nblocks = sb->nblocks;
    disk = (uint8 *)PGROUNDUP(start);
    uintptr top = (uintptr)disk + nblocks * BSIZE;
    if (top > end || top < (uintptr)disk)
        panic("ramdisk: a disk of %u blocks does not fit in memory", nblocks);
    memcpy(disk, fs_image, imgsize);
    memset(disk + imgsize, 0, nblocks * BSIZE - imgsize);
    return top;
}

uint32 ramdisk_nblocks(void)
{
    return nblocks;
}

/*
 * The hook every device request goes through: count it, and return the
 * modelled service time in ns: a fixed overhead per request; a seek and a
 * rotational delay unless the request starts where the last one ended;
 * and the transfer at kb_per_s.
 */
__attribute__((noinline)) uint64 disk_request(int write, uint32 blockno, uint32 n)
{
    if (write)
        kstats.dev_writes += n;
    else
        kstats.dev_reads += n;
    uint64 ns = diskmodel.overhead_ns;
    if (blockno != next_sequential)
        ns += diskmodel.seek_ns + diskmodel.rotation_ns;
    if (diskmodel.kb_per_s)
        ns += (uint64)n * BSIZE * 1000000000ull / ((uint64)diskmodel.kb_per_s * 1024);
    next_sequential = blockno + n;
    kstats.dev_model_us += (uint32)(ns / 1000);
    return ns;
}

/* Wait out a modelled request.  Only a process can wait; at boot nothing does. */
static void delay(uint64 ns)
{
    if (ns == 0 || !curproc)
        return;
    uint64 deadline = arch_time_ns() + ns;
    while (!sleep_until(&delay_chan, deadline))
        ;                              /* a kill does not cut a transfer short */
}

static uint8 *where(uint32 blockno)
{
    if (blockno >= nblocks)
        panic("ramdisk: block %u out of range (%u blocks)", blockno, nblocks);
    return disk + blockno * BSIZE;
}

void ramdisk_read(uint32 blockno, void *dst)
{
    uint64 ns = disk_request(0, blockno, 1);
    memcpy(dst, where(blockno), BSIZE);
    delay(ns);
}

void ramdisk_write(uint32 blockno, const void *src)
{
    uint64 ns = disk_request(1, blockno, 1);
    memcpy(where(blockno), src, BSIZE);
    delay(ns);
}

void ramdisk_peek(uint32 blockno, void *dst)
{
    memcpy(dst, where(blockno), BSIZE);
}
