/*
 * QEMU's m68k virt board describes the machine in "bootinfo" records
 * placed right after the kernel image (at _end): RAM size, and where each
 * goldfish device is and which interrupt it raises.  We read them before
 * anything else, because the pages they sit on are about to become free
 * memory.  Record: 16-bit tag, 16-bit size (with this header), data.
 */
#include "kernel.h"
#include "fns.h"

#define BI_LAST             0x0000
#define BI_MEMCHUNK         0x0005     /* address, size             */
#define BI_VIRT_GF_PIC_BASE 0x8001     /* base, first CPU level     */
#define BI_VIRT_GF_RTC_BASE 0x8002     /* base, interrupt number    */
#define BI_VIRT_GF_TTY_BASE 0x8003
#define BI_VIRT_CTRL_BASE   0x8005

struct gf_device gf_pic, gf_rtc, gf_tty, virt_ctrl;
uint32 ram_size;

/* Parse the records; return the first byte after them. */
static uintptr bootinfo_parse(void)
{
    uint8 *p = (uint8 *)(((uintptr)_end + 1) & ~1u);
    for (;;) {
        uint16 tag = *(uint16 *)p, size = *(uint16 *)(p + 2);
        uint32 *data = (uint32 *)(p + 4);
        if (tag == BI_LAST)
            return (uintptr)(p + 4);
        switch (tag) {
        case BI_MEMCHUNK:         ram_size = data[0] + data[1];                  break;
        case BI_VIRT_GF_PIC_BASE: gf_pic = (struct gf_device){ data[0], data[1] };  break;
        case BI_VIRT_GF_RTC_BASE: gf_rtc = (struct gf_device){ data[0], data[1] };  break;
        case BI_VIRT_GF_TTY_BASE: gf_tty = (struct gf_device){ data[0], data[1] };  break;
        case BI_VIRT_CTRL_BASE:   virt_ctrl = (struct gf_device){ data[0], data[1] }; break;
        }
        p += size;
    }
}

void arch_mem_range(uintptr *start, uintptr *stop)
{
    *start = PGROUNDUP(bootinfo_parse());
    *stop = ram_size;
}
