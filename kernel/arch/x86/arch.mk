# x86 facts for the Makefile: 32-bit i386 protected mode with paging, booted
# by multiboot v1 (QEMU -kernel, or GRUB from the ISO).  Debian's i686 cross
# compiler gives us a 32-bit libgcc without gcc-multilib (which conflicts
# with the m68k cross compiler).
CROSS       := i686-linux-gnu-
ARCH_CFLAGS := -m32 -march=i686 -mno-sse -mno-mmx -mno-80387 -mpreferred-stack-boundary=2 \
               -fno-omit-frame-pointer -fno-asynchronous-unwind-tables -fcf-protection=none
ARCH_LDFLAGS := -Wl,-m,elf_i386 -no-pie -static -Wl,--build-id=none -Wl,-z,noexecstack
LIBGCC      := $(shell $(CROSS)gcc -print-libgcc-file-name 2>/dev/null)

# What `make deps` installs for x86 (scripts/install-deps.sh): the cross
# compiler, NASM (entry.asm), QEMU 10's qemu-system-i386 (in
# qemu-system-x86), and for the GRUB CD (make iso) GRUB's PC modules,
# xorriso and mtools, which grub-mkrescue runs.
ARCH_DEPS   := gcc-i686-linux-gnu nasm qemu-system-x86 \
               grub-common grub-pc-bin xorriso mtools

KERNEL_LDS  := kernel/arch/x86/kernel.ld
ARCH_KERNEL_SRCS := kernel/arch/x86/entry.asm kernel/arch/x86/seg.c \
                    kernel/arch/x86/trapentry.S kernel/arch/x86/trap.c \
                    kernel/arch/x86/swtch.S kernel/arch/x86/mmu.c \
                    kernel/arch/x86/uart.c kernel/dev/ns16550.c \
                    kernel/arch/x86/pic.c kernel/arch/x86/timer.c \
                    kernel/arch/x86/usercopy.S kernel/arch/x86/machine.c
# The network card (Makefile, KERNEL_NET_OBJS): a PCnet in a PCI slot.
ARCH_NET_SRCS := kernel/dev/lance.c kernel/arch/x86/nic.c

GUEST_LDS       := guests/lib/user.ld
ARCH_GUEST_SRCS := guests/lib/arch/x86/crt0.S guests/lib/arch/x86/syscall.S guests/lib/arch/x86/traps.S \
                   guests/lib/arch/x86/bench_arch.S guests/lib/arch/x86/regs.S

# A GRUB rescue CD that boots the same kernel (`make iso`; booted by
# tests/integration/test_iso.py): the bootable image, as opposed to QEMU's
# -kernel shortcut.
ARCH_ISO    := $(BUILD)/ousterhout.iso
$(ARCH_ISO): $(BUILD)/kernel.elf kernel/arch/x86/grub.cfg
	$(Q)rm -rf $(BUILD)/isodir && mkdir -p $(BUILD)/isodir/boot/grub
	$(Q)cp $(BUILD)/kernel.elf $(BUILD)/isodir/boot/kernel.elf
	$(Q)cp kernel/arch/x86/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	$(Q)$(call step,GRUB,$@)grub-mkrescue -o $@ --install-modules="multiboot normal part_msdos iso9660 biosdisk" \
	    --locales= --fonts= --themes= $(BUILD)/isodir 2>/dev/null
