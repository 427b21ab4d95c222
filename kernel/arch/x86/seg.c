/*
 * x86 segmentation and interrupt tables: the GDT (flat kernel and user
 * segments, and the TSS that tells the CPU which stack to use when a trap
 * comes from user mode), and the IDT (where each of the 256 vectors goes).
 *
 * Segments are flat (base 0, limit 4 GB): paging does all the protection.
 * Every IDT entry is an interrupt gate, so the CPU turns interrupts off on
 * the way in and the kernel runs with them off.  Only vector 0x80, the
 * system call, may be raised from user mode (DPL 3).
 */
#include "kernel.h"
#include "fns.h"

struct tss {                         /* only esp0/ss0 matter to us */
    uint32 link, esp0, ss0, unused[22];
    uint16 trap, iomap;
} __attribute__((packed));

struct gate {
    uint16 off_lo, sel;
    uint8  zero, type;
    uint16 off_hi;
} __attribute__((packed));

static uint64 gdt[6];
static struct gate idt[256];
static struct tss tss;

/* A flat segment descriptor: base, limit (in 4 KB units) and access byte. */
static uint64 segment(uint32 base, uint32 limit, uint8 access, uint8 flags)
{
    return (limit & 0xffffull) | ((uint64)(base & 0xffffff) << 16) |
           ((uint64)access << 40) | ((uint64)((limit >> 16) & 0xf) << 48) |
           ((uint64)(flags & 0xf) << 52) | ((uint64)(base >> 24) << 56);
}

static void lgdt(void *base, uint16 size)
{
    struct { uint16 limit; uint32 base; } __attribute__((packed)) d = { size - 1, (uint32)base };
    asm volatile("lgdt %0" :: "m"(d));
}

static void lidt(void *base, uint16 size)
{
    struct { uint16 limit; uint32 base; } __attribute__((packed)) d = { size - 1, (uint32)base };
    asm volatile("lidt %0" :: "m"(d));
}

void seg_init(void)
{
    gdt[0] = 0;
    gdt[1] = segment(0, 0xfffff, 0x9a, 0xc);   /* kernel code: present, ring 0, exec/read */
    gdt[2] = segment(0, 0xfffff, 0x92, 0xc);   /* kernel data                              */
    gdt[3] = segment(0, 0xfffff, 0xfa, 0xc);   /* user code: ring 3                        */
    gdt[4] = segment(0, 0xfffff, 0xf2, 0xc);   /* user data                                */
    gdt[5] = segment((uint32)&tss, sizeof tss - 1, 0x89, 0x0);   /* 32-bit TSS        */
    tss.ss0 = SEG_KDATA;
    tss.iomap = sizeof tss;                    /* no I/O permission bitmap */
    lgdt(gdt, sizeof gdt);
    asm volatile(
        "movw %0, %%ax\n\t"
        "movw %%ax, %%ds\n\t movw %%ax, %%es\n\t movw %%ax, %%ss\n\t"
        "movw %%ax, %%fs\n\t movw %%ax, %%gs\n\t"
        "ljmp %1, $1f\n"
        "1:\n\t"
        "movw %2, %%ax\n\t"
        "ltr %%ax"
        :: "i"(SEG_KDATA), "i"(SEG_KCODE), "i"(SEG_TSS) : "eax", "memory");
}

void idt_init(void)
{
    for (int v = 0; v < 256; v++) {
        uint32 off = trap_vectors[v];
        idt[v].off_lo = off & 0xffff;
        idt[v].off_hi = off >> 16;
        idt[v].sel = SEG_KCODE;
        idt[v].zero = 0;
        idt[v].type = (v == 0x80) ? 0xee : 0x8e;   /* interrupt gate, DPL 3 / 0 */
    }
    lidt(idt, sizeof idt);
}

/* The stack the CPU switches to when a trap arrives from user mode. */
void arch_set_kstack(uintptr kstack_top)
{
    tss.esp0 = kstack_top;
}
