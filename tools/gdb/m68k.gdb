# gdb for the m68k kernel: `make gdb ARCH=m68k [PROG=getpid]`.
# The 68040 kernel runs in an address space of its own (kernel/arch/m68k/
# machine.h): gdb reads and breaks at supervisor addresses, so a breakpoint
# in a user program's code does not stop it; break in the kernel instead.
set architecture m68k:68040
file build/m68k/kernel.elf
source tools/gdb/common.gdb
