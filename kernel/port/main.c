/*
 * main(): the portable kernel starts here, in supervisor (kernel) mode,
 * after the ISA's boot code.  Bring the machine up, create the first
 * process (the shell), and become the scheduler.
 */
#include "kernel.h"

void main(void)
{
    uintptr start, stop;
    arch_mem_range(&start, &stop);
    kalloc_init(start, stop);          /* the page tables need free pages */
    arch_init();                       /* MMU, console, interrupts, timer */
    proc_init();
    user_init();
    printf("BOOT arch=%s ram=%u hz=%u pages=%u\n", arch_name(),
           (uint32)(stop - start), HZ, kalloc_total_pages());
    scheduler();
}
