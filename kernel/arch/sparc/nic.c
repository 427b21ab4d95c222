/*
 * The SPARCclassic's network card: the LANCE on its board (QEMU's sun4m
 * `lance`), behind the ledma DMA channel of the same chip.  The driver
 * is kernel/dev/lance.c; this file resets the chip, gives it a window of
 * memory through the IOMMU, and routes its interrupt.
 *
 * The LANCE is always there, connected to a network or not: QEMU's board
 * has it whatever the command line says.  So the kernel drives it only
 * when the boot arguments (QEMU's -append, read from its fw_cfg device)
 * contain ETHER_ARG: the harness passes that with a network (the
 * registry's `nic`).  Without it nothing changes.
 *
 * DMA.  The chip sees 24 address bits; the ledma adds the high 8 bits
 * from its register LEDMA_HIGH, and the sum is an SBus (DVMA) address,
 * which the IOMMU translates page by page through a table in memory
 * (IOMMU_BASE, 16 KB aligned for its 16 MB range).  As on the VAX's Q-bus:
 * we own one page of that table, its 1024 entries map DVMA_WINDOW bytes of
 * the range onto the physical bytes the driver uses, and no other device
 * reaches for the rest.
 *
 * Devices.  The kernel maps its device regions at DEVBASE (machine.h);
 * this file adds the IOMMU's (DEV(IOMMU_PA)) and fw_cfg's (FWCFG_VA, in
 * the 36-bit physical space), in the kernel's level-1 table, whose
 * entries every address space made later copies.
 *
 * Placement (kernel/port/paging.c explains why it matters): this file is
 * linked with the network, after everything else; arch_init calls
 * intctl_init_nic where it called intctl_init, and trap.c intctl_intr_nic
 * where it called intctl_intr: calls of the same size.
 */
#include "kernel.h"
#include "sparc.h"
#include "lance.h"
#include "fns.h"

#define LANCE_PA      0x78c00000u      /* RDP; RAP at +2 (16-bit)          */
#define LEDMA_PA      0x78400010u      /* the DMA channel: CSR, ..., high  */
#define LEDMA_CSR     0                /* word offsets                     */
#define LEDMA_HIGH    3                /* DVMA address bits 31:24          */
#define LEDMA_INT_EN  0x00000010
#define LEDMA_RESET   0x00000080
#define LEDMA_EN      0x00000200
#define LANCE_SOURCE  (1u << 16)       /* its interrupt source ...         */
#define LANCE_LEVEL   6                /* ... and level                    */

#define IOMMU_PA      0x10000000u
#define IOMMU_CTRL    0                /* word offsets                     */
#define IOMMU_BASE    1                /* table's physical address >> 4    */
#define IOMMU_FLUSH   5                /* any write: flush its TLB         */
#define IOMMU_16MB    0x00000000       /* range 0xff000000-0xffffffff      */
#define IOMMU_ENABLE  0x00000001
#define IOMMU_TABLE_ALIGN 0x4000u      /* 4096 entries of 4 bytes          */
#define DVMA_BASE     0xff000000u
#define IOPTE(pa)     ((uint32)((pa) >> 4) & 0xffffff00u)
#define IOPTE_WRITE   0x4
#define IOPTE_VALID   0x2
#define DVMA_WINDOW   ((PGSIZE / 4) * PGSIZE)   /* one page of entries: 4 MB */

#define FWCFG_PA      0xd00000510ull   /* selector (16-bit), data at +2     */
#define FWCFG_VA      0xfd000000u      /* a free 16 MB slot above DEVBASE  */
#define FWCFG_CMDLINE_SIZE 0x14        /* little-endian 32 bits            */
#define FWCFG_CMDLINE_DATA 0x15
#define ETHER_ARG     "ether"          /* in the boot arguments: drive it   */

#define INTCTL        ((volatile uint32 *)DEV(0x71e10000u))
#define INTCTL_MASK_CLEAR 2

#define MEGA16        (16u << 20)
#define LANCE_REG(o)  (*(volatile uint16 *)DEV(LANCE_PA + (o)))
#define LEDMA         ((volatile uint32 *)DEV(LEDMA_PA))
#define IOMMU         ((volatile uint32 *)DEV(IOMMU_PA))

static int attached;
static paddr window_pa;              /* what DVMA window_dvma maps */
static uint32 window_dvma;

/* A 16 MB level-1 entry of the kernel's table for the device region at
 * physical pa (36 bits), seen at va. */
static void map_region(uint32 va, uint64 pa)
{
    uint32 *ctx = P2V((paddr)mmu_read(MMU_CTXTBL) << 4);
    uint32 *l1 = P2V((paddr)(ctx[0] & ~3u) << 4);
    l1[va >> 24] = (uint32)((pa >> 12) << 8) | (ACC_NONE_RWX << SRMMU_ACC_SHIFT) | SRMMU_ET_PTE;
    tlb_flush_all();
}

/* Whether the boot arguments (fw_cfg's command line) hold ETHER_ARG. */
static int ether_wanted(void)
{
    map_region(FWCFG_VA, FWCFG_PA & ~(uint64)(MEGA16 - 1));
    volatile uint16 *sel = (volatile uint16 *)(FWCFG_VA | (uint32)(FWCFG_PA & (MEGA16 - 1)));
    volatile uint8 *data = (volatile uint8 *)sel + 2;
    char args[64];
    *sel = FWCFG_CMDLINE_SIZE;
    uint32 n = 0;
    for (int i = 0; i < 4; i++)                /* one register, a byte a read */
        n |= (uint32)*data << (8 * i);
    if (n > sizeof args)
        n = sizeof args;
    *sel = FWCFG_CMDLINE_DATA;
    for (uint32 i = 0; i < n; i++)
        args[i] = (char)*data;
    uint32 len = sizeof ETHER_ARG - 1;
    for (uint32 i = 0; i + len <= n; i++)
        if (memcmp(args + i, ETHER_ARG, len) == 0)
            return 1;
    return 0;
}

uint32 lance_csr_read(uint32 csr)
{
    LANCE_REG(2) = (uint16)csr;
    return LANCE_REG(0);
}

void lance_csr_write(uint32 csr, uint32 v)
{
    LANCE_REG(2) = (uint16)csr;
    LANCE_REG(0) = (uint16)v;
}

/* The window: the IOMMU page of ours maps DVMA_WINDOW bytes from lo. */
int lance_dma_map(paddr lo, paddr hi)
{
    lo &= ~(paddr)(PGSIZE - 1);
    if (hi - lo > DVMA_WINDOW)
        return -EFAULT;
    uint32 *table = kalloc();
    if (!table)
        return -ENOMEM;
    for (uint32 i = 0; i < PGSIZE / 4; i++)
        table[i] = IOPTE(lo + (paddr)i * PGSIZE) | IOPTE_WRITE | IOPTE_VALID;
    paddr tpa = V2P(table);
    window_pa = lo;
    window_dvma = DVMA_BASE + (uint32)(tpa % IOMMU_TABLE_ALIGN) / 4 * PGSIZE;
    IOMMU[IOMMU_BASE] = (uint32)((tpa - tpa % IOMMU_TABLE_ALIGN) >> 4);
    IOMMU[IOMMU_CTRL] = IOMMU_16MB | IOMMU_ENABLE;
    IOMMU[IOMMU_FLUSH] = 0;
    LEDMA[LEDMA_HIGH] = DVMA_BASE;            /* the chip's 24 bits + this */
    return 0;                                 /* CSR2 15:8: reserved here */
}

uint32 lance_dma_addr(const void *va)
{
    return window_dvma + (uint32)(V2P(va) - window_pa);
}

/* QEMU has no caches to keep coherent; the compiler must not reorder. */
void lance_barrier(void) { asm volatile("" ::: "memory"); }

/* The Ethernet address: the IDPROM's, in the NVRAM (offset 0x1fd8:
 * format, machine type, then the address). */
static void idprom_mac(uint8 mac[6])
{
    volatile uint8 *idprom = (volatile uint8 *)DEV(0x71200000u + 0x1fd8);
    for (int i = 0; i < 6; i++)
        mac[i] = idprom[2 + i];
}

void intctl_init_nic(void)
{
    intctl_init();
    if (!ether_wanted())
        return;
    map_region(DEV(IOMMU_PA), IOMMU_PA);
    LEDMA[LEDMA_CSR] = LEDMA_RESET;           /* resets the LANCE too */
    LEDMA[LEDMA_CSR] = 0;
    uint8 mac[6];
    idprom_mac(mac);
    if (!lance_attach("lance", mac))
        return;
    LEDMA[LEDMA_CSR] = LEDMA_INT_EN | LEDMA_EN;
    INTCTL[INTCTL_MASK_CLEAR] = LANCE_SOURCE;
    attached = 1;
}

/* Every interrupt comes here first: the LANCE's level goes to its driver. */
void intctl_intr_nic(int level)
{
    if (attached && level == LANCE_LEVEL) {
        kstats.interrupts++;
        lance_intr();
    } else {
        intctl_intr(level);
    }
}
