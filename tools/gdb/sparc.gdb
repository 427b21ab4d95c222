# gdb for the SPARC kernel: `make gdb ARCH=sparc [PROG=getpid]`.
# SPARC V8 (QEMU's sun4m SPARCclassic; it stops at reset, in our PROM:
# `continue` or `break main` first); register windows: `bt` walks the
# frames the window traps spilled to the stack.
set architecture sparc
file build/sparc/kernel.elf
source tools/gdb/common.gdb
