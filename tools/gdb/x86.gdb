# gdb for the x86 kernel: `make gdb ARCH=x86 [PROG=getpid]`.
set architecture i386
file build/x86/kernel.elf
source tools/gdb/common.gdb
