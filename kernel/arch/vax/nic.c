/*
 * The MicroVAX 3900's network card: a DELQA on the Q-bus, at the address
 * and vector SIMH gives its XQ (the first DELQA's standard ones).  The
 * driver is delqa.c; this file is the KA655's part: it maps the
 * controller's registers, lets it reach memory through the Q-bus map, and
 * gives it an interrupt vector.  An XQ that SIMH has not attached (no
 * `attach xq ...` in the harness's script) shows no transceiver power
 * (CSR.OK): the kernel then leaves it alone and nothing changes.
 *
 * Registers.  The S0 page after RAM, DEV_VA, holds device pages (vax.h):
 * the SSC's, then here the Q-bus I/O page's part with the DELQA, the
 * CQBIC's registers and the one with its IPC register.
 *
 * DMA.  A Q-bus device sees a 22-bit address space, which the CQBIC
 * (the KA655's Q-bus interface) maps page by page (512 bytes) into memory
 * through 8192 map entries kept in memory at its map base register
 * (MBR, 32 KB aligned).  We need a window of QWIN_SIZE bytes: the map
 * entries for it are 1024, one page of ours; MBR points at the 32 KB
 * block that page lies in, and the window is the part of the Q-bus whose
 * entries that page holds.  The other entries of the block are never
 * read: no other device does DMA.  (The KA655's console firmware puts the
 * whole map in the top 32 KB of memory; this kernel boots without it.)
 *
 * The vector.  Q-bus devices interrupt through the SCB's second page
 * (offsets 0x200 up), which the kernel's one-page SCB (trapentry.S) has
 * not: this file copies it into a page of its own with a second page
 * whose entries all point at qbus_vector, and points SCBB there.
 * qbus_vector does what trapentry.S and trap() do for an interrupt.
 *
 * Placement (kernel/port/paging.c explains why it matters): this file is
 * linked with the network, after everything else; arch_init calls
 * cons_init_nic where it called cons_init, and arch_idle
 * timer_idle_begin_nic where it called timer_idle_begin: calls of the
 * same size.
 */
#include "kernel.h"
#include "vax.h"
#include "asm.h"
#include "fns.h"
#include "net/net.h"

#define QBUS_IO_PA    0x20000000u    /* the Q-bus I/O page (8 KB)          */
#define DELQA_PA      0x20001920u    /* the first DELQA's registers (774440) */
#define DELQA_VECTOR  0120           /* its Q-bus vector (0x50) ...           */
#define SCB_QBUS      0x200          /* ... whose SCB offset is 0x200 more     */
#define CQBIC_PA      0x20080000u
#define CQBIC_MBR     0x10           /* map base register                  */
#define IPC_PA        0x20001f40u    /* interprocessor communication reg   */
#define IPC_LME       0x0020         /* local memory: Q-bus masters may use it */
#define MAP_VALID     0x80000000u
#define MAP_BLOCK     0x8000u        /* the map: 8192 entries, 32 KB        */
#define QWIN_SIZE     ((PGSIZE / 4) * VAX_PGSIZE)    /* one page of entries: 512 KB */

#define DEV_DELQA     (DEV_VA + 1 * VAX_PGSIZE)      /* vax.h's device pages */
#define DEV_CQBIC     (DEV_VA + 2 * VAX_PGSIZE)
#define DEV_IPC       (DEV_VA + 3 * VAX_PGSIZE)

#define STR(x)  #x
#define XSTR(x) STR(x)

extern uint32 spt[];                 /* mmu.c */
extern uint32 scb[];                 /* trapentry.S */

static uint32 qwin_base;             /* the window's first Q-bus address */
static paddr qwin_pa;                /* ... and what it maps */

/* The device page at va (one of DEV_VA's eight) shows the hardware page
 * holding pa; the register's address. */
static volatile void *dev_map(uintptr va, paddr pa)
{
    spt[(va - KERNBASE) / VAX_PGSIZE] = PTE_V | PTE_PROT(PROT_KW) | (pa / VAX_PGSIZE);
    mtpr(va, PR_TBIS);
    return (volatile void *)(va + (pa & (VAX_PGSIZE - 1)));
}

uint32 qbus_addr(const void *va)
{
    return qwin_base + (uint32)(V2P(va) - qwin_pa);
}

/* Map the window onto physical [lo, hi): 0, or -EFAULT if it is wider. */
int qbus_map(paddr lo, paddr hi)
{
    lo &= ~(paddr)(VAX_PGSIZE - 1);
    if (hi - lo > QWIN_SIZE)
        return -EFAULT;
    uint32 *map = kalloc();
    if (!map)
        return -ENOMEM;
    paddr map_pa = V2P(map);
    for (uint32 i = 0; i < PGSIZE / 4; i++)
        map[i] = MAP_VALID | (uint32)(lo / VAX_PGSIZE + i);
    qwin_pa = lo;
    qwin_base = (uint32)(map_pa % MAP_BLOCK) / 4 * VAX_PGSIZE;
    volatile uint32 *cqbic = dev_map(DEV_CQBIC, CQBIC_PA);
    cqbic[CQBIC_MBR / 4] = (uint32)(map_pa - map_pa % MAP_BLOCK);
    volatile uint16 *ipc = dev_map(DEV_IPC, IPC_PA);
    *ipc |= IPC_LME;
    return 0;
}

/* The Q-bus vectors' entry: trapentry.S's stub and common code for one
 * vector (the frame is the same: vector, two zero parameters), calling
 * qbus_trap instead of trap. */
__asm__(
    "   .text\n"
    "   .balign 4\n"
    "qbus_vector:\n"
    "   pushl   $0\n"
    "   pushl   $0\n"
    "   pushl   $(" XSTR(SCB_QBUS) " + " XSTR(DELQA_VECTOR) ")\n"
    "   mtpr    $" XSTR(IPL_HIGH) ", $" XSTR(PR_IPL) "\n"
    "   pushr   $0x3fff\n"
    "   mfpr    $" XSTR(PR_USP) ", -(%sp)\n"
    "   pushl   %sp\n"
    "   calls   $1, qbus_trap\n"
    "   mtpr    (%sp)+, $" XSTR(PR_USP) "\n"
    "   popr    $0x3fff\n"
    "   addl2   $(" XSTR(TF_PC) " - " XSTR(TF_VEC) "), %sp\n"
    "   rei\n");
extern char qbus_vector[];

/* What trap() does for an interrupt (trap.c), for the DELQA's. */
void qbus_trap(struct trapframe *tf);
void qbus_trap(struct trapframe *tf)
{
    int user = ((tf->psl & PSL_CUR_MASK) >> PSL_CUR_SHIFT) == PSL_MODE_USER;
    if (user)
        kstats.traps++;
    kstats.interrupts++;
    delqa_intr();
    if (user)
        trap_user_return();
}

/* A two-page SCB: the kernel's, then the Q-bus vectors. */
static int scb_extend(void)
{
    uint32 *page = kalloc();
    if (!page)
        return -ENOMEM;
    for (uint32 i = 0; i < SCB_VECTORS; i++)
        page[i] = scb[i];
    for (uint32 i = SCB_VECTORS; i < 2 * SCB_VECTORS; i++)
        page[i] = (uint32)qbus_vector;
    mtpr(V2P(page), PR_SCBB);
    return 0;
}

/* The idle loop is about to move the clock to its deadline (timer.c).
 * With a network card, a frame may already be waiting, its interrupt
 * pending while the kernel ran at IPL 31 (a two-machine model puts frames
 * in at their modelled times): then the idling is over before it began,
 * and the clock must not move.  So lower the IPL for a moment first; an
 * interrupt taken there ends the idle loop at once (arch_idle). */
uint64 timer_idle_begin_nic(void)
{
    if (netif) {
        uint32 seen = kstats.interrupts;
        mtpr(0, PR_IPL);
        mtpr(IPL_HIGH, PR_IPL);
        if (kstats.interrupts != seen)
            return arch_time_ns();
    }
    return timer_idle_begin();
}

void cons_init_nic(void)
{
    cons_init();
    volatile uint16 *regs = dev_map(DEV_DELQA, DELQA_PA);
    if (!delqa_present(regs))
        return;
    if (scb_extend() < 0) {
        printf("delqa: no memory for the SCB\n");
        return;
    }
    delqa_attach(regs, DELQA_VECTOR);
}
