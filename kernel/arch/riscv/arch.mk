# RISC-V facts for the Makefile: 32-bit rv32ima on QEMU's `virt` board.
CROSS       := riscv64-unknown-elf-
ARCH_CFLAGS := -march=rv32ima_zicsr_zifencei -mabi=ilp32 -mcmodel=medany -mno-relax
# libgcc for 64-bit division: the rv32im multilib has no compressed instructions.
LIBGCC      := $(shell $(CROSS)gcc -march=rv32im -mabi=ilp32 -print-libgcc-file-name 2>/dev/null)

# What `make deps` installs for RISC-V (scripts/install-deps.sh): the cross
# compiler, and QEMU 10's qemu-system-riscv32 (a package of its own since
# QEMU 10: qemu-system-misc, m68k's, is five times its size and depends on it).
ARCH_DEPS   := gcc-riscv64-unknown-elf qemu-system-riscv

KERNEL_LDS  := kernel/arch/riscv/kernel.ld
ARCH_KERNEL_SRCS := kernel/arch/riscv/entry.S kernel/arch/riscv/start.c \
                    kernel/arch/riscv/trapentry.S kernel/arch/riscv/trap.c \
                    kernel/arch/riscv/swtch.S kernel/arch/riscv/mmu.c \
                    kernel/arch/riscv/uart.c kernel/dev/ns16550.c \
                    kernel/arch/riscv/plic.c \
                    kernel/arch/riscv/timer.c kernel/arch/riscv/clockalign.S \
                    kernel/arch/riscv/usercopy.S \
                    kernel/arch/riscv/machine.c
# The network card (Makefile, KERNEL_NET_OBJS): a virtio-mmio slot's.
ARCH_NET_SRCS := kernel/dev/virtio_net.c kernel/arch/riscv/nic.c

GUEST_LDS       := guests/lib/user.ld
ARCH_GUEST_SRCS := guests/lib/arch/riscv/crt0.S guests/lib/arch/riscv/syscall.S guests/lib/arch/riscv/traps.S \
                   guests/lib/arch/riscv/bench_arch.S guests/lib/arch/riscv/regs.S
