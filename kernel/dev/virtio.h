/*
 * virtio over MMIO (the virtio 1.0 "modern" interface, version 2 of the
 * MMIO transport), as QEMU's riscv and m68k virt boards have it: the
 * register offsets, the split virtqueue's layout, and what a board
 * provides the drivers (kernel/dev/virtio_net.c) and calls in them.
 *
 * Everything of the device's is little-endian (virtio 1.0): its
 * registers as they appear on the bus, and the rings in memory.  vle16()
 * and vle32() turn a value into that order and back: a byte swap on a
 * big-endian machine (the 68040), nothing on a little-endian one.
 */
#ifndef VIRTIO_H
#define VIRTIO_H

#include "types.h"

/* Registers, as 32-bit words: regs[VIRTIO_MAGIC] ... */
#define VIRTIO_MAGIC           (0x000 / 4)    /* "virt" */
#define VIRTIO_VERSION         (0x004 / 4)    /* 2: modern; 1: legacy */
#define VIRTIO_DEVICE_ID       (0x008 / 4)    /* 1: network card; 0: empty slot */
#define VIRTIO_DEVICE_FEATURES (0x010 / 4)
#define VIRTIO_DEVICE_FEATURES_SEL (0x014 / 4)
#define VIRTIO_DRIVER_FEATURES (0x020 / 4)
#define VIRTIO_DRIVER_FEATURES_SEL (0x024 / 4)
#define VIRTIO_QUEUE_SEL       (0x030 / 4)
#define VIRTIO_QUEUE_NUM_MAX   (0x034 / 4)
#define VIRTIO_QUEUE_NUM       (0x038 / 4)
#define VIRTIO_QUEUE_READY     (0x044 / 4)
#define VIRTIO_QUEUE_NOTIFY    (0x050 / 4)
#define VIRTIO_INTERRUPT_STATUS (0x060 / 4)
#define VIRTIO_INTERRUPT_ACK   (0x064 / 4)
#define VIRTIO_STATUS          (0x070 / 4)
#define VIRTIO_QUEUE_DESC_LOW  (0x080 / 4)
#define VIRTIO_QUEUE_DESC_HIGH (0x084 / 4)
#define VIRTIO_QUEUE_AVAIL_LOW (0x090 / 4)
#define VIRTIO_QUEUE_AVAIL_HIGH (0x094 / 4)
#define VIRTIO_QUEUE_USED_LOW  (0x0a0 / 4)
#define VIRTIO_QUEUE_USED_HIGH (0x0a4 / 4)
#define VIRTIO_CONFIG          0x100          /* device-specific, in bytes */

#define VIRTIO_MAGIC_VALUE     0x74726976u
#define VIRTIO_ID_NET          1

/* Status bits, set in this order as the driver comes up. */
#define VIRTIO_S_ACKNOWLEDGE   1
#define VIRTIO_S_DRIVER        2
#define VIRTIO_S_DRIVER_OK     4
#define VIRTIO_S_FEATURES_OK   8

#define VIRTIO_F_VERSION_1_HI  (1u << 0)      /* feature 32: word 1, bit 0 */

/* A split virtqueue (virtio 1.0, 2.4): descriptors, the driver's
 * ("available") ring and the device's ("used") ring. */
struct virtq_desc {
    uint32 addr_lo, addr_hi;                  /* (a 64-bit address, in halves) */
    uint32 len;
    uint16 flags;
    uint16 next;
};
#define VIRTQ_DESC_F_WRITE     2              /* the device writes the buffer */
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1

/* Little-endian, whatever the CPU's order: the union holds the bytes. */
static inline uint16 vle16(uint16 v)
{
    union { uint16 v; uint8 b[2]; } u;
    u.b[0] = (uint8)v;
    u.b[1] = (uint8)(v >> 8);
    return u.v;
}

static inline uint32 vle32(uint32 v)
{
    union { uint32 v; uint8 b[4]; } u;
    u.b[0] = (uint8)v;
    u.b[1] = (uint8)(v >> 8);
    u.b[2] = (uint8)(v >> 16);
    u.b[3] = (uint8)(v >> 24);
    return u.v;
}

/* What a board provides: a barrier between the CPU's stores to a ring and
 * the device's reads of it (and the other way round). */
void virtio_barrier(void);

/* What a board calls: probe the slot whose registers are at regs (a
 * kernel address), 1 if it holds a network card, now attached; the
 * card's interrupt handler. */
int  virtio_net_probe(volatile uint32 *regs);
void virtio_net_intr(void);

#endif
