/*
 * The AMD LANCE (Am7990) and the PCnet chips that keep its 16-bit mode:
 * what the driver (kernel/dev/lance.c) and a board's part of it
 * (kernel/arch/<isa>/nic.c) share.  The same driver runs the PCnet-PCI of
 * QEMU's Malta (mips) and PC (x86) and the LANCE on the sun4m board
 * (sparc); the board finds the chip, resets it, says where its Ethernet
 * address is, and routes its interrupt.
 *
 * The chip has two registers on the bus: RAP (which CSR) and RDP (its
 * value); lance_csr_read/write do that dance on each board.  Everything in
 * memory (the initialization block, the descriptor rings) is 16-bit words
 * in the CPU's own order: the chip's 16-bit bus is wired so, big-endian
 * board or little.  Frame bytes are a different matter: the chip moves
 * them as bytes in ascending address order only when CSR3.BSWP says which
 * half of a word comes first; the driver sets it on a big-endian machine.
 */
#ifndef LANCE_H
#define LANCE_H

#include "types.h"

/* Control and status registers (Am7990 CSR0-3; CSR4 and CSR112 are the
 * PCnet's, which QEMU's chip is on every board). */
#define LANCE_CSR0   0
#define LANCE_CSR1   1              /* initialization block address, 15:0    */
#define LANCE_CSR2   2              /* ... 23:16 (PCnet: 31:24 in 15:8)      */
#define LANCE_CSR3   3              /* bus and interrupt-mask control        */
#define LANCE_CSR4   4              /* PCnet: test and features control      */
#define LANCE_CSR112 112            /* PCnet: missed frame count             */

/* CSR0 */
#define CSR0_INIT    0x0001
#define CSR0_STRT    0x0002
#define CSR0_STOP    0x0004
#define CSR0_TDMD    0x0008         /* transmit demand: look at the ring now */
#define CSR0_INEA    0x0040         /* interrupts enabled                   */
#define CSR0_INTR    0x0080
#define CSR0_IDON    0x0100         /* initialization done                  */
#define CSR0_TINT    0x0200
#define CSR0_RINT    0x0400
#define CSR0_MERR    0x0800         /* memory error: DMA timed out          */
#define CSR0_MISS    0x1000         /* a frame missed: no receive descriptor */
#define CSR0_CERR    0x2000
#define CSR0_BABL    0x4000
#define CSR0_ACK     (CSR0_BABL | CSR0_CERR | CSR0_MISS | CSR0_MERR | CSR0_RINT | \
                      CSR0_TINT | CSR0_IDON)   /* written back: cleared   */

/* CSR3 */
#define CSR3_BSWP    0x0004         /* frame bytes in big-endian word order */
#define CSR3_IDONM   0x0100         /* PCnet: no interrupt for IDON          */
#define CSR3_TINTM   0x0200         /* PCnet: no interrupt for TINT          */

/* CSR4 (PCnet) */
#define CSR4_DEFAULT 0x0115         /* the masks reset leaves                */
#define CSR4_DPOLL   0x1000         /* no transmit ring polling              */

/* A descriptor's second word: status in 15:8, address bits 23:16 in 7:0. */
#define DESC_OWN     0x8000         /* the chip's                            */
#define DESC_ERR     0x4000
#define DESC_STP     0x0200         /* a frame's first buffer                */
#define DESC_ENP     0x0100         /* ... and its last                      */

/* The initialization block's mode word. */
#define MODE_PROM    0x8000         /* promiscuous: every frame               */

/* The board's part (kernel/arch/<isa>/nic.c). */
uint32 lance_csr_read(uint32 csr);
void   lance_csr_write(uint32 csr, uint32 v);
/* The chip sees 24 address bits; the board supplies the rest.  Make the
 * physical bytes [lo, hi) reachable: what goes in CSR2 bits 15:8 (a
 * PCnet's address bits 31:24; 0 where the board has a register of its
 * own for them), or -EFAULT if they do not fit one window. */
int    lance_dma_map(paddr lo, paddr hi);
/* The chip's address for a kernel address in that window (its low 24
 * bits go in the descriptors). */
uint32 lance_dma_addr(const void *va);
/* A barrier between the CPU's stores to the rings and the chip's reads
 * of them (and the other way round). */
void   lance_barrier(void);

/* The driver: a reset chip whose Ethernet address is mac; 1 if now
 * attached to the stack, 0 if not (said why).  Its interrupt. */
int  lance_attach(const char *name, const uint8 mac[6]);
void lance_intr(void);

#endif
