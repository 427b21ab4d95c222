/*
 * The Malta's network card: an AMD PCnet-PCI in PCI slot 11, where the
 * real board has its 79C973 (`-device pcnet,addr=0b`; the registry's
 * `nic`, harness/guest/machines.py).  The driver is kernel/dev/lance.c;
 * this file finds the card, gives it an I/O address, reads its Ethernet
 * address, and routes its interrupt.  Without a card slot 11 is empty and
 * nothing changes.
 *
 * Nothing has set the card up: QEMU's boot stub only routes the PCI
 * interrupt lines (the PIIX4's PIRQA-D) to 8259 lines, as YAMON does.  So
 * the card gets PCNET_IO in PCI I/O space (which the GT-64120 north bridge
 * shows from ISA_IO_PA on, as the ISA ports), and its interrupt is the
 * line PIRQB is routed to (slot 11 is wired to PIRQB: QEMU's
 * malta_pci_slot_get_pirq), on the second 8259, level-triggered as PCI
 * interrupts are.  The card's DMA addresses are physical addresses.
 *
 * Placement (kernel/port/paging.c explains why it matters): this file is
 * linked with the network, after everything else.  The code that was
 * there reaches it through calls of the same size as before: arch_init
 * calls pic_init_nic where it called pic_init, and pic_intr calls
 * pic_other for a line that is not the UART's where it called printf.
 */
#include "kernel.h"
#include "lance.h"
#include "pci.h"
#include "fns.h"

#define GT_PA          0x1be00000u  /* the GT-64120's registers          */
#define GT_PCI_CFGADDR 0xcf8
#define GT_PCI_CFGDATA 0xcfc
#define GT(reg)        (*(volatile uint32 *)DEV(GT_PA + (reg)))

#define PCNET_SLOT     11
#define PCNET_PIRQ     1            /* PIRQB                             */
#define PCNET_IO       0x1000       /* the I/O address we give the card  */
#define PIIX4_SLOT     10           /* function 0: the ISA bridge        */
#define PIIX4_PIRQRC   0x60         /* PIRQA-D's 8259 lines, a byte each */

#define PORT8(p)       (*(volatile uint8 *)DEV(ISA_IO_PA + (p)))
#define PORT16(p)      (*(volatile uint16 *)DEV(ISA_IO_PA + (p)))
#define PIC1_CMD       0x20
#define PIC1_DATA      0x21
#define PIC2_CMD       0xa0
#define PIC2_DATA      0xa1
#define PIC_CASCADE    2            /* the second 8259 on the first's line 2 */
#define ELCR2          0x4d1        /* PIIX4: lines 8-15 level-triggered  */
#define OCW3_POLL      0x0c
#define EOI            0x20

static uint32 nic_irq;              /* 0: no card */

static uint32 pci_read(uint32 slot, uint32 reg)
{
    GT(GT_PCI_CFGADDR) = PCI_CONF_ADDR(slot, 0, reg);
    return GT(GT_PCI_CFGDATA);
}

static void pci_write(uint32 slot, uint32 reg, uint32 v)
{
    GT(GT_PCI_CFGADDR) = PCI_CONF_ADDR(slot, 0, reg);
    GT(GT_PCI_CFGDATA) = v;
}

uint32 lance_csr_read(uint32 csr)
{
    PORT16(PCNET_IO + PCNET_RAP) = (uint16)csr;
    return PORT16(PCNET_IO + PCNET_RDP);
}

void lance_csr_write(uint32 csr, uint32 v)
{
    PORT16(PCNET_IO + PCNET_RAP) = (uint16)csr;
    PORT16(PCNET_IO + PCNET_RDP) = (uint16)v;
}

/* DMA addresses are physical: the window is the 16 MB the bytes lie in,
 * its number in CSR2's high byte. */
int lance_dma_map(paddr lo, paddr hi)
{
    return lo >> 24 == (hi - 1) >> 24 ? (int)(lo >> 24) : -EFAULT;
}

uint32 lance_dma_addr(const void *va) { return (uint32)V2P(va); }

/* QEMU has no caches to write back; a real Malta would need it here. */
void lance_barrier(void) { __asm__ volatile("" ::: "memory"); }

void pic_init_nic(void)
{
    pic_init();
    if (pci_read(PCNET_SLOT, PCI_ID) != PCNET_ID)
        return;
    uint32 line = pci_read(PIIX4_SLOT, PIIX4_PIRQRC) >> (8 * PCNET_PIRQ) & 0xff;
    if (line < 8 || line > 15) {            /* 0x80 and up: not routed */
        printf("pcnet: PIRQB is not routed to the second 8259 (0x%x)\n", line);
        return;
    }
    pci_write(PCNET_SLOT, PCI_BAR0, PCNET_IO);
    pci_write(PCNET_SLOT, PCI_COMMAND, PCI_CMD_IO | PCI_CMD_MASTER);
    (void)PORT16(PCNET_IO + PCNET_RESET);   /* a read resets the chip */
    uint8 mac[6];
    for (int i = 0; i < 6; i++)
        mac[i] = PORT8(PCNET_IO + PCNET_APROM + i);
    if (!lance_attach("pcnet", mac))
        return;
    nic_irq = line;
    PORT8(ELCR2) |= (uint8)(1 << (line - 8));
    PORT8(PIC2_DATA) &= (uint8)~(1 << (line - 8));
    PORT8(PIC1_DATA) &= (uint8)~(1 << PIC_CASCADE);
}

/* A line of the first 8259 other than the UART's: the second 8259's, if
 * the card is there; ask it which line, run the driver, end it there (the
 * caller ends it on the first).  Any other: printf(unexpected, irq), as
 * piix4.c did (its call, and its string, stay where they were). */
void pic_other(const char *unexpected, int irq)
{
    if (irq != PIC_CASCADE || !nic_irq) {
        printf(unexpected, irq);
        return;
    }
    PORT8(PIC2_CMD) = OCW3_POLL;
    uint8 poll = PORT8(PIC2_CMD);
    if (!(poll & 0x80))
        return;                             /* gone already */
    if ((uint32)(poll & 7) + 8 == nic_irq)
        lance_intr();
    else
        printf(unexpected, (poll & 7) + 8);
    PORT8(PIC2_CMD) = EOI;
}
