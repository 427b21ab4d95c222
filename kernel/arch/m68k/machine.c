/*
 * QEMU's m68k virt board as a whole: bring-up order, interrupts on/off,
 * idling and power-off.  The ISA interface these implement is
 * kernel/port/arch.h; arch_mem_range is in bootinfo.c.
 */
#include "kernel.h"
#include "m68k.h"
#include "fns.h"

static uint32 vectors[256] __attribute__((aligned(4)));

const char *arch_name(void) { return "m68k"; }

void arch_init(void)
{
    for (int v = 0; v < 256; v++)
        vectors[v] = (uint32)trap_entry;     /* trap.c sorts them out */
    asm volatile("movec %0, %%vbr" :: "r"(vectors));
    mmu_init();
    arch_timer_stop();
    tty_init();
    pic_init_nic();                          /* and the network card (nic.c) */
}

void arch_intr_on(void)  { asm volatile("move.w #0x2000, %%sr" ::: "memory"); }
void arch_intr_off(void) { asm volatile("move.w #0x2700, %%sr" ::: "memory"); }

void arch_idle(void)
{
    /* stop: load SR (interrupts on) and wait; the handler's rte brings us
     * back here, and we mask interrupts again. */
    asm volatile("stop #0x2000\n\tmove.w #0x2700, %%sr" ::: "memory");
}

void arch_halt(void)
{
    mmio_write(virt_ctrl.base, 0x04, 2);     /* virt controller: CMD = halt */
    for (;;)
        asm volatile("stop #0x2700");
}
