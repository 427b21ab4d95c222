# gdb for the RISC-V kernel: `make gdb ARCH=riscv [PROG=getpid]`.
# rv32 (QEMU's virt board sends no target description gdb could guess from).
set architecture riscv:rv32
file build/riscv/kernel.elf
source tools/gdb/common.gdb
