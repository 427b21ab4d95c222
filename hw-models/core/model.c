/*
 * model.c: the engine's life (start, finish) and what a front end charges
 * through it besides instructions: data accesses, instruction fetches,
 * traps.  How time is modelled:
 *
 *   - each instruction costs CPI cycles plus the extra of its class
 *     (branch, multiply, divide), hw_insn_mcyc(), charged by the front end;
 *   - each data access costs the extra of a load or a store, and then what
 *     the memory system makes it wait (caches, write buffer, memory:
 *     memsys.c), charged when it happens;
 *   - with an I-cache, each line of instructions fetched costs what the
 *     memory system makes it wait (with none, fetching is part of the CPI);
 *   - entering the trap vector costs the trap penalty and counts as a trap;
 *   - a disk request costs the disk's time (disk.c).
 *
 * QEMU (with -icount) and SIMH keep their own deterministic clocks; the
 * model's clock is separate and the guest reads it through the clock marker.
 */
#include <math.h>
#include <stdlib.h>

#include "model.h"

struct hw hw;

static uint64_t cycles_to_mcyc(double c)
{
    return (uint64_t)llround(c * MCYC);
}

const char *hw_start(const char *isa_name)
{
    static char msg[200];
    const char *err;
    if (!(hw.p.cpi > 0))
        return "cpu.cpi must be > 0";
    if (hw.p.disk_pc && !hw.p.disk_block)
        return "disk_pc needs disk_block (the file system's block size)";
    hw.general = !hw.p.fast;
    hw.mem = memsys_new(&hw.p.mem, hw.p.fast, &err);
    if (!hw.mem)
        return err;
    hw.icache = memsys_icache(hw.mem);
    const char *files[] = { hw.p.out, hw.p.trace };
    FILE **to[] = { &hw.out, &hw.trace };
    for (int i = 0; i < 2; i++) {
        if (files[i] && !(*to[i] = fopen(files[i], "w"))) {
            snprintf(msg, sizeof(msg), "cannot write %s", files[i]);
            return msg;
        }
    }
    if (hw.p.attrib && !(hw.attributing = attrib_open(hw.p.attrib))) {
        snprintf(msg, sizeof(msg), "cannot write %s", hw.p.attrib);
        return msg;
    }
    if ((err = wlog_open()) != NULL)
        return err;
    hw.clock_khz = (uint64_t)llround(hw.p.mem.clock_mhz * 1000);
    hw.cpi_mcyc = cycles_to_mcyc(hw.p.cpi);
    for (int k = 0; k < NCLASS; k++)
        hw.extra_mcyc[k] = cycles_to_mcyc(hw.p.extra[k]);
    hw.trap_mcyc = cycles_to_mcyc(hw.p.trap_cycles);
    hw.windows = hw.p.wovf_pc || hw.p.wunf_pc;
    hw.mem_direct = memsys_direct(hw.mem);
    if ((err = tlb_start()) != NULL)
        return err;
    hw.tlb_counts = hw.p.tlb.page_size != 0;
    if (hw.p.wire.path) {
        if ((err = wire_open(&hw.p.wire, hw.clock_khz, 1000)) != NULL)   /* in millicycles */
            return err;
        hw.net = true;
    }
    hw_record_model(isa_name);
    return NULL;
}

void hw_finish(void)
{
    static const struct counters zero;
    if (hw.net) {
        wire_close();                   /* the peer runs on without us */
        hw_record_net();
    }
    uint64_t now = hw_now();
    hw_record_counters("HWTOTAL", "", hw.c, &zero, now, 0, hw_clock_ns(now), "");
    if (hw.out)
        fclose(hw.out);
    if (hw.trace)
        fclose(hw.trace);
    if (hw.attributing)
        attrib_close();
    wlog_close();
    hw.out = hw.trace = NULL;
    hw.attributing = false;
}

/* Every guest load and store comes here (QEMU: from mem_cb).  flatten
 * keeps the memory system inlined in it: GCC did so by itself while
 * memsys_data had this one caller, and stopped once the TLB's walk
 * (hw_walk_read) became a second one, costing every profile 5-10% of
 * host time on memory-bound benchmarks; flattened, the same as before. */
__attribute__((flatten))
uint64_t hw_data(uint64_t paddr, unsigned size, bool store, uint64_t ahead)
{
    if (hw.tracing)
        hw_trace(store ? 'W' : 'R', paddr, size, NULL);
    uint64_t now = hw_now() - ahead;
    uint64_t stall = memsys_data(hw.mem, hw.c, now, paddr, size, store) - now;
    hw.c->stall_mcyc += stall;
    return stall;
}

/* The common cases of hw_count_access() and hw_data() (model.h).  The
 * same sums in the same order: the time an access starts at includes its
 * own load or store extra, as hw_data's does once hw_count_access has
 * added it.  Two copies: memsys_data_quick_traced writes the access to
 * the trace with the path it took (model.h, "The fast paths"). */
static inline __attribute__((always_inline))
bool access_quick(uint64_t paddr, unsigned size, bool store, uint64_t ahead, const bool traced)
{
    struct counters *c = hw.c;
    uint64_t extra = hw.extra_mcyc[store ? CL_STORE : CL_LOAD];
    uint64_t now = c->static_mcyc + extra + c->stall_mcyc - ahead;
    uint64_t done = traced ? memsys_data_quick_traced(hw.mem, c, now, paddr, size, store)
                           : memsys_data_quick(hw.mem, c, now, paddr, size, store);
    if (done == MEMSYS_SLOW)
        return false;
    if (store)
        c->stores++;
    else
        c->loads++;
    c->static_mcyc += extra;
    if (done != now)                    /* (most accesses: no stall) */
        c->stall_mcyc += done - now;
    return true;
}

bool hw_access_quick(uint64_t paddr, unsigned size, bool store, uint64_t ahead)
{
    return access_quick(paddr, size, store, ahead, false);
}

bool hw_access_quick_traced(uint64_t paddr, unsigned size, bool store, uint64_t ahead)
{
    return access_quick(paddr, size, store, ahead, true);
}

/* With memory alone (model.h): the same sums as hw_count_access() and
 * hw_data(), in the same order. */
void hw_access_direct(uint64_t paddr, unsigned size, bool store, uint64_t ahead, bool traced)
{
    if (traced)
        hw_trace(store ? 'W' : 'R', paddr, size, TP_DIRECT);
    hw_count_access(store);
    uint64_t now = hw_now() - ahead;
    hw.c->stall_mcyc += memsys_data_direct(hw.mem, hw.c, now, size, store) - now;
}

/* A page-table entry a TLB walk reads (tlb.c): the same as a load's
 * hw_data, but a function of its own, so that hw_data keeps its one caller
 * on the per-access path and GCC keeps inlining it there. */
__attribute__((noinline))
uint64_t hw_walk_read(uint64_t paddr, uint64_t ahead)
{
    if (hw.tracing)
        hw_trace('R', paddr, 4, NULL);
    uint64_t now = hw_now() - ahead;
    uint64_t stall = memsys_data(hw.mem, hw.c, now, paddr, 4, false) - now;
    hw.c->stall_mcyc += stall;
    return stall;
}

uint64_t hw_ifetch(uint64_t line)
{
    if (hw.tracing)
        hw_trace('I', line << memsys_iline_shift(hw.mem), 4, NULL);
    uint64_t now = hw_now();
    uint64_t stall = memsys_ifetch(hw.mem, hw.c, now, line) - now;
    hw.c->stall_mcyc += stall;
    return stall;
}

void hw_iblock_init(struct iblock *b)
{
    memsys_iblock_init(hw.mem, b);
}

/* Out of line: the front end checks hw_ifetch_block_known first, and that
 * check, which usually ends a block's callback, then saves no registers. */
__attribute__((noinline))
uint64_t hw_ifetch_block(struct iblock *b)
{
    uint64_t now = hw_now(), done;
    if (__builtin_expect(hw.tracing | hw.general, 0)) {
        if (hw.general) {               /* fast=false: line by line, as hw_ifetch */
            uint64_t stall = 0;
            for (uint32_t i = 0; i < b->n; i++)
                stall += hw_ifetch(b->line[i]);
            b->seen = 0;
            return stall;
        }
        done = memsys_ifetch_block_traced(hw.mem, hw.c, now, b);
    } else {
        done = memsys_ifetch_block(hw.mem, hw.c, now, b);
    }
    uint64_t stall = done - now;
    hw.c->stall_mcyc += stall;
    return stall;
}

/* A block the front end skipped (hw_ifetch_block_known) while tracing:
 * its lines, each claimed the most recently used of its set.  Out of
 * line: inlined into the front end's per-block callback (LTO did), its
 * loop made that callback save six registers on every block, traced or
 * not (andrew 5% slower under ds3100-riscv). */
__attribute__((noinline, cold))
void hw_trace_known(const struct iblock *b)
{
    unsigned shift = memsys_iline_shift(hw.mem);
    for (uint32_t i = 0; i < b->n; i++)
        hw_trace('I', b->line[i] << shift, 4, TP_KNOWN);
}

bool hw_has_icache(void)
{
    return memsys_has_icache(hw.mem);
}

unsigned hw_iline_shift(void)
{
    return memsys_iline_shift(hw.mem);
}

/* ------------------------------------------------------------ net */

uint64_t hw_ns_to_mcyc_ceil(uint64_t ns)
{
    return (uint64_t)(((unsigned __int128)ns * hw.clock_khz + 999) / 1000);
}

void hw_net_idle_until(uint64_t to)
{
    uint64_t now = hw_now();
    if (to > now) {
        hw.c->stall_mcyc += to - now;
        hw.c->idle_mcyc += to - now;
    }
}

void hw_net_dma(uint32_t bytes, bool to_memory)
{
    hw.c->dma_bytes += bytes;
    if (hw.p.net_dma)
        memsys_dma(hw.mem, hw_now(), bytes, to_memory);
}

void hw_trap(void)
{
    hw.c->traps++;
    hw.c->static_mcyc += hw.trap_mcyc;
    wlog_trap();
}
