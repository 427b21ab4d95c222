# gdb for the MIPS kernel: `make gdb ARCH=mips [PROG=getpid]`.
# QEMU's MIPS gdbstub sends no target description: name the ISA and the
# byte order (MIPS32 release 2 is the 24Kc QEMU runs our MIPS I code on).
set architecture mips:isa32r2
set endian little
file build/mips/kernel.elf
source tools/gdb/common.gdb
