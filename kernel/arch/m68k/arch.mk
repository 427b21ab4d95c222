# m68k facts for the Makefile: a 68040 on QEMU's `virt` board, booted from
# the ELF file by QEMU itself (-kernel), devices found through bootinfo.
CROSS       := m68k-linux-gnu-
ARCH_ENDIAN := big            # mkfs writes a big-endian file-system image
ARCH_CFLAGS := -mcpu=68040 -msoft-float -fno-omit-frame-pointer -fno-asynchronous-unwind-tables
# --wrap=memcpy: memcpy moves 48 bytes per MOVEM pair (kernel/arch/m68k/memcpy.S).
ARCH_LDFLAGS := -no-pie -static -Wl,--build-id=none -Wl,-z,noexecstack -Wl,--wrap=memcpy
LIBGCC      := $(shell $(CROSS)gcc -mcpu=68040 -print-libgcc-file-name 2>/dev/null)

# What `make deps` installs for m68k (scripts/install-deps.sh): the cross
# compiler, and QEMU 10's qemu-system-m68k (in qemu-system-misc).
ARCH_DEPS   := gcc-m68k-linux-gnu qemu-system-misc

KERNEL_LDS  := kernel/arch/m68k/kernel.ld
ARCH_KERNEL_SRCS := kernel/arch/m68k/entry.S kernel/arch/m68k/bootinfo.c \
                    kernel/arch/m68k/trapentry.S kernel/arch/m68k/trap.c \
                    kernel/arch/m68k/swtch.S kernel/arch/m68k/mmu.c \
                    kernel/arch/m68k/tty.c kernel/arch/m68k/pic.c \
                    kernel/arch/m68k/timer.c kernel/arch/m68k/usercopy.S \
                    kernel/arch/m68k/memcpy.S kernel/arch/m68k/machine.c
# The network card (Makefile, KERNEL_NET_OBJS): a virtio-mmio slot's.
ARCH_NET_SRCS := kernel/dev/virtio_net.c kernel/arch/m68k/nic.c

GUEST_LDS       := guests/lib/user.ld
ARCH_GUEST_SRCS := guests/lib/arch/m68k/crt0.S guests/lib/arch/m68k/syscall.S guests/lib/arch/m68k/traps.S \
                   guests/lib/arch/m68k/bench_arch.S guests/lib/arch/m68k/memcpy.S guests/lib/arch/m68k/regs.S
