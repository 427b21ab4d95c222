/*
 * Machine-mode setup, run once at boot on the boot stack (entry.S).
 *
 * Our kernel runs in supervisor mode, like a UNIX kernel on any paged
 * machine; machine mode only has to hand the machine over:
 *   - every exception and interrupt goes straight to supervisor mode
 *     (medeleg/mideleg), so machine mode never runs again;
 *   - supervisor mode may program its own timer (the Sstc extension's
 *     stimecmp, enabled by menvcfg.STCE) and read the time and instret
 *     counters, and so may user mode (mcounteren; scounteren is set later);
 *   - physical memory protection allows everything (one PMP entry).
 * Then mret "returns" into main() in supervisor mode with paging off.
 */
#include "kernel.h"
#include "riscv.h"
#include "fns.h"

void start(void)
{
    uint32 mstatus = csr_read(mstatus);
    mstatus &= ~(3u << 11);
    mstatus |= MSTATUS_MPP_S;           /* mret goes to supervisor mode */
    csr_write(mstatus, mstatus);
    csr_write(mepc, (uint32)main);

    csr_write(satp, 0);                 /* paging off until mmu_init()  */
    csr_write(medeleg, 0xffff);         /* all exceptions to S-mode     */
    csr_write(mideleg, 0xffff);         /* all interrupts to S-mode     */

    csr_write(pmpaddr0, 0xffffffffu);   /* PMP: one region, all of it,  */
    csr_write(pmpcfg0, 0x1f);           /* NAPOT, read/write/execute    */

    csr_write(0x31a, 1u << 31);         /* menvcfgh.STCE: S-mode timer  */
    csr_write(mcounteren, 0x7);         /* cycle, time, instret readable*/

    asm volatile("mret");
}
