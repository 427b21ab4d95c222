/*
 * wlog.c: the disk's write log, for crash testing (docs/crashtest.md).
 *
 * With writelog=FILE the model records, in order, what a crash could
 * catch half done:
 *
 *   W  a block reaching the disk: the kernel's ramdisk_write(blockno, src)
 *      is entered (wlog_write_pc=), and src holds the block as it will be
 *      on the disk;
 *   D  a block changed in the buffer cache only: bdirty(b, owner) is
 *      entered (wlog_dirty_pc=), b->data holds the changed block;
 *   A  the kernel was entered from a program (a trap) after some W or D:
 *      every system call that made them has returned, so what they wrote
 *      was acknowledged to the program.
 *
 * W records alone rebuild the disk at every moment; W and D together,
 * up to an A, the file system as the programs were told it is.  The host
 * tool (harness/crashtest/) compares the two.
 *
 * The front end finds the hooks' arguments (it knows the ISA's calling
 * convention), reads the block from guest memory and calls wlog_block();
 * at the trap vector it calls wlog_trap().  Nothing here runs, and no
 * callback is even registered, unless writelog= is given: with the log
 * off the model, and so every timing, is exactly as before.
 *
 * The file is binary, little-endian, one record after another:
 *   "WLOG1\0\0\0"  u32 block size
 *   'W' or 'D', 3 zero bytes, u32 blockno, u64 ns, block size bytes (as in
 *   guest memory, so in the guest's byte order)
 *   'A', 3 zero bytes, u32 0, u64 ns
 * where ns is the modelled time.
 */
#include <string.h>

#include "model.h"

static FILE *wlog;
static bool unacked;                    /* a W or D since the last A */

static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

const char *wlog_open(void)
{
    static char msg[200];
    if (!hw.p.writelog)
        return NULL;
    if (!hw.p.wlog_write_pc || !hw.p.wlog_dirty_pc)
        return "writelog= needs wlog_write_pc= and wlog_dirty_pc= (the kernel's "
               "ramdisk_write and bdirty)";
    if (!(wlog = fopen(hw.p.writelog, "wb"))) {
        snprintf(msg, sizeof(msg), "cannot write %s", hw.p.writelog);
        return msg;
    }
    uint8_t head[12] = "WLOG1";
    put32(head + 8, (uint32_t)hw.p.disk_block);
    fwrite(head, 1, sizeof head, wlog);
    return NULL;
}

bool wlog_on(void)
{
    return wlog != NULL;
}

static void record(char kind, uint32_t blockno)
{
    uint8_t r[16] = { (uint8_t)kind };
    put32(r + 4, blockno);
    put64(r + 8, hw_mcyc_to_ns(hw_now()));
    fwrite(r, 1, sizeof r, wlog);
}

void wlog_block(bool to_disk, uint32_t blockno, const uint8_t *data)
{
    if (!wlog)
        return;
    record(to_disk ? 'W' : 'D', blockno);
    fwrite(data, 1, hw.p.disk_block, wlog);
    unacked = true;
}

void wlog_trap(void)
{
    if (!wlog || !unacked)
        return;
    record('A', 0);
    unacked = false;
}

void wlog_close(void)
{
    if (wlog)
        fclose(wlog);
    wlog = NULL;
}
