/*
 * The PC's network card: an AMD PCnet-PCI in any PCI slot (`-device
 * pcnet`; the registry's `nic`, harness/guest/machines.py).  The driver is
 * kernel/dev/lance.c; this file finds the card, reads its Ethernet
 * address, and routes its interrupt.  Without a card no slot holds one and
 * nothing changes.
 *
 * The BIOS (SeaBIOS, which runs before QEMU's multiboot loader) has given
 * the card its I/O ports (BAR0) and its 8259 line (the interrupt line
 * register) already, as a PC BIOS does; this file turns on its bus
 * mastering, makes the line level-triggered (PCI interrupts are), and lets
 * it through the 8259s.  The card's DMA addresses are physical addresses.
 *
 * Placement (kernel/port/paging.c explains why it matters): this file is
 * linked with the network, after everything else.  The code that was
 * there reaches it through calls of the same size as before: arch_init
 * calls pic_init_nic where it called pic_init, and trap.c's interrupt()
 * pic_eoi_nic where it called pic_eoi.
 */
#include "kernel.h"
#include "lance.h"
#include "pci.h"
#include "x86.h"
#include "fns.h"

#define PCI_CONF_ADDRESS 0xcf8
#define PCI_CONF_DATA    0xcfc
#define PCI_SLOTS        32
#define PIC1_DATA        0x21
#define PIC2_DATA        0xa1
#define PIC_CASCADE      2
#define ELCR1            0x4d0      /* PIIX3: lines 0-7 level-triggered  */
#define ELCR2            0x4d1      /* ... 8-15                          */
/* The I/O APIC's 4 MB (0xfec00000), mapped at the same virtual address,
 * for the kernel only.  The two-machine model read its select register as
 * a barrier on Debian's QEMU; the wire's patched QEMU needs none
 * (docs/network.md, "Why QEMU is patched").  Kept so that the kernel's
 * code, and every x86 number it gives, stays as it was. */
#define IOAPIC_PA        0xfec00000u
#define PDE_4MB_DEVICE   0x193      /* present, writable, 4 MB, uncached, global */

static uint16 nic_io;               /* the card's I/O ports */
static int nic_irq = -1;            /* -1: no card */

static uint32 pci_read(uint32 slot, uint32 reg)
{
    outl(PCI_CONF_ADDRESS, PCI_CONF_ADDR(slot, 0, reg));
    return inl(PCI_CONF_DATA);
}

static void pci_write(uint32 slot, uint32 reg, uint32 v)
{
    outl(PCI_CONF_ADDRESS, PCI_CONF_ADDR(slot, 0, reg));
    outl(PCI_CONF_DATA, v);
}

uint32 lance_csr_read(uint32 csr)
{
    outw(nic_io + PCNET_RAP, (uint16)csr);
    return inw(nic_io + PCNET_RDP);
}

void lance_csr_write(uint32 csr, uint32 v)
{
    outw(nic_io + PCNET_RAP, (uint16)csr);
    outw(nic_io + PCNET_RDP, (uint16)v);
}

/* DMA addresses are physical: the window is the 16 MB the bytes lie in,
 * its number in CSR2's high byte. */
int lance_dma_map(paddr lo, paddr hi)
{
    return lo >> 24 == (hi - 1) >> 24 ? (int)(lo >> 24) : -EFAULT;
}

uint32 lance_dma_addr(const void *va) { return (uint32)V2P(va); }

/* The PC's caches are coherent with its bus masters: only the compiler
 * must not move stores across. */
void lance_barrier(void) { asm volatile("" ::: "memory"); }

void pic_init_nic(void)
{
    pic_init();
    uint32 slot = 0;
    while (slot < PCI_SLOTS && pci_read(slot, PCI_ID) != PCNET_ID)
        slot++;
    if (slot == PCI_SLOTS)
        return;
    uint32 io = pci_read(slot, PCI_BAR0), line = pci_read(slot, PCI_INTERRUPT) & 0xff;
    if (!(io & 1) || (io & PCI_BAR_IO_MASK) == 0 || line == 0 || line > 15 || line == 2) {
        printf("pcnet: the BIOS left it without ports or a line (bar0=0x%x line=%u)\n",
               io, line);
        return;
    }
    nic_io = (uint16)(io & PCI_BAR_IO_MASK);
    pci_write(slot, PCI_COMMAND, (pci_read(slot, PCI_COMMAND) & 0xffff) |
                                 PCI_CMD_IO | PCI_CMD_MASTER);
    (void)inw(nic_io + PCNET_RESET);        /* a read resets the chip */
    uint8 mac[6];
    for (int i = 0; i < 6; i++)
        mac[i] = inb(nic_io + PCNET_APROM + i);
    if (!lance_attach("pcnet", mac))
        return;
    nic_irq = (int)line;
    /* Into the kernel's page directory, live now (mmu_init), which every
     * address space made later copies. */
    uint32 cr3;
    asm volatile("movl %%cr3, %0" : "=r"(cr3));
    ((uint32 *)P2V(cr3 & ~0xfffu))[IOAPIC_PA >> 22] = IOAPIC_PA | PDE_4MB_DEVICE;
    if (line < 8) {
        outb(ELCR1, inb(ELCR1) | (uint8)(1 << line));
        outb(PIC1_DATA, inb(PIC1_DATA) & (uint8)~(1 << line));
    } else {
        outb(ELCR2, inb(ELCR2) | (uint8)(1 << (line - 8)));
        outb(PIC2_DATA, inb(PIC2_DATA) & (uint8)~(1 << (line - 8)));
    }
}

/* Every device interrupt ends here: the card's runs its driver first. */
void pic_eoi_nic(int irq)
{
    if (irq == nic_irq)
        lance_intr();
    pic_eoi(irq);
}
