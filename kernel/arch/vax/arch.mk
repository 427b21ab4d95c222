# VAX facts for the Makefile: SIMH's MicroVAX 3900 (KA655), booted from a
# raw image (kernel.bin) that a SIMH script loads at physical 0x1000.
#
# Debian has no VAX cross compiler: scripts/vax-toolchain.sh builds one
# (binutils + C-only GCC for vax-netbsdelf) into ~/.cache/ousterhout, outside
# the repository, about 10 minutes once (621 s on a fresh two-core machine).
# Its stamp file is ARCH_TOOLCHAIN, which everything compiled waits for, so
# `make ARCH=vax` builds the compiler first and `make -n` only says it would.
VAX_TOOLCHAIN  := $(shell scripts/vax-toolchain.sh --prefix)
CROSS          := $(VAX_TOOLCHAIN)/bin/vax-netbsdelf-
ARCH_TOOLCHAIN := $(shell scripts/vax-toolchain.sh --stamp)
$(ARCH_TOOLCHAIN):
	scripts/vax-toolchain.sh

# GCC defaults to PIC on this target; the kernel and the guests are static.
# --wrap=memcpy: memcpy is MOVC3, as bcopy was in the VAX's BSD kernel and
# C library (kernel/arch/vax/memcpy.S).
ARCH_CFLAGS  := -fno-pic -fno-asynchronous-unwind-tables
ARCH_LDFLAGS := -static -Wl,--build-id=none -Wl,--wrap=memcpy
# (=, not :=: asked when linking, once the compiler exists)
LIBGCC        = $(shell $(CROSS)gcc -print-libgcc-file-name)

# Nothing from Debian's binary packages (ARCH_DEPS, scripts/install-deps.sh):
# the compiler is built here, and scripts/vax-toolchain.sh installs what that
# build needs itself (it also runs on its own); so does scripts/vax-simh.sh.
ARCH_DEPS   :=

KERNEL_LDS  := kernel/arch/vax/kernel.ld
ARCH_KERNEL_SRCS := kernel/arch/vax/entry.S \
                    kernel/arch/vax/trapentry.S kernel/arch/vax/trap.c \
                    kernel/arch/vax/swtch.S kernel/arch/vax/mmu.c \
                    kernel/arch/vax/cons.c kernel/arch/vax/timer.c \
                    kernel/arch/vax/usercopy.S kernel/arch/vax/udiv.S \
                    kernel/arch/vax/memcpy.S \
                    kernel/arch/vax/machine.c
# The network card (Makefile, KERNEL_NET_OBJS): the DELQA on the Q-bus.
ARCH_NET_SRCS := kernel/arch/vax/delqa.c kernel/arch/vax/nic.c

GUEST_LDS       := guests/lib/user.ld
ARCH_GUEST_SRCS := guests/lib/arch/vax/crt0.S guests/lib/arch/vax/syscall.S guests/lib/arch/vax/traps.S \
                   guests/lib/arch/vax/bench_arch.S guests/lib/arch/vax/udiv.S \
                   guests/lib/arch/vax/memcpy.S guests/lib/arch/vax/regs.S

# What SIMH loads: the kernel as raw bytes from KERNBASE + 0x1000 on.
$(BUILD)/kernel.bin $(BUILD)/test/kernel.bin: %/kernel.bin: %/kernel.elf
	$(Q)$(call step,OBJCOPY,$@)$(OBJCOPY) -O binary $< $@

# Our SIMH: a MicroVAX 3900 whose timers count instructions exactly (runs
# are deterministic), which knows our XFC markers and carries the hardware
# model (hw-models/simh/), rebuilt by scripts/vax-simh.sh when a source changes.
SIMH_VAX := $(shell scripts/vax-simh.sh --path)
$(SIMH_VAX): scripts/vax-simh.sh $(wildcard hw-models/simh/* hw-models/core/*)
	$(Q)$(call step,SIMH,$@)scripts/vax-simh.sh

ARCH_ALL := $(BUILD)/kernel.bin $(BUILD)/test/kernel.bin $(SIMH_VAX)
