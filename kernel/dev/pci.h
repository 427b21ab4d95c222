/*
 * PCI configuration space: the few registers the boards' network glue
 * uses (kernel/arch/mips/nic.c on the Malta, kernel/arch/x86/nic.c on the
 * PC), and the PCnet-PCI's identity and I/O registers.  How a board
 * reaches configuration space is its own: the Malta through its GT-64120
 * north bridge's registers, the PC through ports 0xcf8 and 0xcfc; both
 * take the same 32-bit address (configuration mechanism #1).
 */
#ifndef PCI_H
#define PCI_H

/* Mechanism #1's address of a register: bus 0, device `slot`, function fn. */
#define PCI_CONF_ADDR(slot, fn, reg) \
    (0x80000000u | (uint32)(slot) << 11 | (uint32)(fn) << 8 | ((reg) & 0xfc))

/* Registers (byte offsets; read and written as 32-bit words). */
#define PCI_ID          0x00        /* device << 16 | vendor              */
#define PCI_COMMAND     0x04        /* 15:0; status in 31:16              */
#define PCI_BAR0        0x10
#define PCI_INTERRUPT   0x3c        /* line in 7:0, pin in 15:8           */
#define PCI_ABSENT      0xffffffffu /* what an empty slot reads            */

#define PCI_CMD_IO      0x0001      /* answer in I/O space                */
#define PCI_CMD_MASTER  0x0004      /* may start DMA                      */
#define PCI_BAR_IO_MASK 0xfffffffcu

/* AMD's PCnet-PCI (Am79C970A; QEMU's `pcnet`), in its 16-bit I/O mode. */
#define PCNET_ID        0x20001022u
#define PCNET_APROM     0x00        /* the Ethernet address, 6 bytes      */
#define PCNET_RDP       0x10
#define PCNET_RAP       0x12
#define PCNET_RESET     0x14        /* a read resets the chip             */

#endif
