# MIPS facts for the Makefile: MIPS I code (the R2000/R3000 of the paper's
# DECstation 3100 and M/2000), little-endian, on QEMU's Malta board with a
# MIPS32 24Kc processor (kernel/arch/mips/mips.h says why), booted from the ELF file by QEMU itself (-kernel).
#
# -march=r3000: the MIPS I instruction set, with the assembler filling load
# and branch delay slots (nops where it cannot) as 1989's compilers did.
# -mno-abicalls -fno-pic -G0: plain static code, no $gp-relative data.
# Debian's libgcc is MIPS32r2 and PIC: not linked; libgcc.c has the helpers.
CROSS       := mipsel-linux-gnu-
ARCH_CFLAGS := -march=r3000 -mabi=32 -EL -mno-abicalls -fno-pic -G0 -msoft-float \
               -fno-asynchronous-unwind-tables
ARCH_LDFLAGS := -static -Wl,--build-id=none -Wl,-z,noexecstack
LIBGCC      :=

# What `make deps` installs for MIPS (scripts/install-deps.sh): the cross
# compiler, and QEMU 10's qemu-system-mipsel.
ARCH_DEPS   := gcc-mipsel-linux-gnu qemu-system-mips

KERNEL_LDS  := kernel/arch/mips/kernel.ld
ARCH_KERNEL_SRCS := kernel/arch/mips/entry.S \
                    kernel/arch/mips/trapentry.S kernel/arch/mips/trap.c \
                    kernel/arch/mips/swtch.S kernel/arch/mips/mmu.c \
                    kernel/arch/mips/uart.c kernel/dev/ns16550.c \
                    kernel/arch/mips/piix4.c kernel/arch/mips/timer.c \
                    kernel/arch/mips/usercopy.S kernel/arch/mips/idle.S \
                    kernel/arch/mips/clockalign.S \
                    kernel/arch/mips/libgcc.c kernel/arch/mips/machine.c
# The network card (Makefile, KERNEL_NET_OBJS): the PCnet in PCI slot 11.
ARCH_NET_SRCS := kernel/dev/lance.c kernel/arch/mips/nic.c

GUEST_LDS       := guests/lib/user.ld
ARCH_GUEST_SRCS := guests/lib/arch/mips/crt0.S guests/lib/arch/mips/syscall.S \
                   guests/lib/arch/mips/traps.S guests/lib/arch/mips/bench_arch.S \
                   guests/lib/arch/mips/libgcc.c guests/lib/arch/mips/regs.S
