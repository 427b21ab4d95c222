# SPARC facts for the Makefile: QEMU's sun4m SPARCclassic, whose
# MicroSPARC-I has 7 register windows like the Sun-4/280.  QEMU loads
# kernel.bin, the kernel's bytes from physical 0x4000 on (-kernel), and our
# boot PROM, prom.bin, jumps there from reset (-bios): kernel.ld, prom.S.
#
# The code is SPARC V7, the Sun-4's instruction set: no multiply or divide
# instructions, so GCC calls .umul/.div & co (muldiv.S).  Debian's 32-bit
# SPARC libgcc is V8+ and QEMU refuses the EM_SPARC32PLUS file it makes:
# we link no libgcc and supply the 64-bit helpers ourselves (divdi3.c).
CROSS       := sparc64-linux-gnu-
ARCH_ENDIAN := big            # mkfs writes a big-endian file-system image
ARCH_CFLAGS := -m32 -mcpu=v7 -msoft-float -fno-asynchronous-unwind-tables
ARCH_LDFLAGS := -no-pie -static -Wl,--build-id=none -Wl,-z,noexecstack
LIBGCC      :=

# What `make deps` installs for SPARC (scripts/install-deps.sh): the cross
# compiler, and QEMU 10's qemu-system-sparc.
ARCH_DEPS   := gcc-sparc64-linux-gnu qemu-system-sparc

KERNEL_LDS  := kernel/arch/sparc/kernel.ld
ARCH_KERNEL_SRCS := kernel/arch/sparc/entry.S \
                    kernel/arch/sparc/trapentry.S kernel/arch/sparc/windows.S \
                    kernel/arch/sparc/trap.c kernel/arch/sparc/swtch.S \
                    kernel/arch/sparc/mmu.c kernel/arch/sparc/escc.c \
                    kernel/arch/sparc/intctl.c kernel/arch/sparc/timer.c \
                    kernel/arch/sparc/usercopy.S kernel/arch/sparc/muldiv.S \
                    kernel/arch/sparc/divdi3.c kernel/arch/sparc/machine.c
# The network card (Makefile, KERNEL_NET_OBJS): the LANCE on the board.
ARCH_NET_SRCS := kernel/dev/lance.c kernel/arch/sparc/nic.c

GUEST_LDS       := guests/lib/user.ld
ARCH_GUEST_SRCS := guests/lib/arch/sparc/crt0.S guests/lib/arch/sparc/syscall.S guests/lib/arch/sparc/traps.S \
                   guests/lib/arch/sparc/bench_arch.S guests/lib/arch/sparc/muldiv.S \
                   guests/lib/arch/sparc/divdi3.c guests/lib/arch/sparc/regs.S

# What QEMU loads: the kernel as raw bytes from physical 0x4000 on (QEMU's
# sun4m loads an ELF file at its load addresses less 0xf0000000, Linux's
# KERNBASE; a raw image goes where we want it), and the PROM, found beside
# it; each for the tests' kernel (build/sparc/test/, the Makefile's
# TEST_KERNEL) too.
$(BUILD)/kernel.bin $(BUILD)/test/kernel.bin: %/kernel.bin: %/kernel.elf
	$(Q)$(call step,OBJCOPY,$@)$(OBJCOPY) -O binary $< $@

$(BUILD)/prom.bin $(BUILD)/test/prom.bin: $(BUILD)/kernel/arch/sparc/prom.o
	$(Q)$(call step,OBJCOPY,$@)$(OBJCOPY) -O binary -j .text $< $@

ARCH_ALL := $(BUILD)/kernel.bin $(BUILD)/prom.bin $(BUILD)/test/kernel.bin $(BUILD)/test/prom.bin
