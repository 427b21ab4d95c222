/*
 * Our boot PROM for QEMU's sun4m: three instructions that QEMU runs from
 * reset in place of OpenBIOS (the harness passes prom.bin, these bytes,
 * as -bios; arch.mk makes it).
 *
 * QEMU has already loaded the kernel image at LOADADDR (-kernel).  Out of
 * reset the MMU is off and in boot mode: every instruction fetch goes to
 * the PROM, wherever the pc points.  Clearing the MMU control register
 * leaves boot mode (and the MMU off), so from the next fetch on the pc
 * means RAM; the store sits in the jump's delay slot, the last
 * instruction fetched from here.  The kernel (entry.S) does the
 * rest, as it would after OpenBIOS.
 *
 * Why not OpenBIOS: it spends 650 million instructions (0.65 s of guest
 * time under -icount, over a second of host time, more under the hardware
 * model) probing and clearing memory before it jumps to the same address,
 * and prints its banner on our console.  The kernel still boots under it:
 * run QEMU without -bios.
 */
#include "machine.h"
#include "sparc.h"

    .text
reset:
    set   LOADADDR, %g1
    jmp   %g1
     sta  %g0, [%g0] ASI_MMU_REGS       /* MMU control: off, boot mode off */
