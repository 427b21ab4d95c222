# Top-level build.  One kernel source tree, one set of guest programs, built
# for one ISA at a time:
#
#   make run   ARCH=riscv [PROFILE=none]   boot, run the benchmark suite, print the table
#   make shell ARCH=riscv                  boot to the interactive guest shell
#   make test                              host unit tests + boot-and-check integration tests
#   make                                   just build (build/$(ARCH)/)
#
# The per-ISA facts (cross compiler, flags, which files) are in
# kernel/arch/$(ARCH)/arch.mk; everything else is listed here.

# A failed recipe must not leave a half-written target behind.
.DELETE_ON_ERROR:

.DEFAULT_GOAL := all            # arch.mk may define rules of its own

ARCH    ?= riscv
PROFILE ?= none
BUILD   := build/$(ARCH)
PYTHON  ?= python3

include kernel/arch/$(ARCH)/arch.mk

CC      := $(CROSS)gcc
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
OBJDUMP := $(CROSS)objdump

COMMON_CFLAGS := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
                 -Wmissing-prototypes -Wstrict-prototypes \
                 -ffreestanding -fno-builtin -nostdlib -fno-pic -fno-stack-protector \
                 -fno-common -std=gnu11 $(ARCH_CFLAGS)

# ---------------------------------------------------------------- kernel
# Portable code: the same on every ISA.
KERNEL_PORT := main console printf string kalloc vm proc sched syscall \
               sysproc file pipe select exec \
               ramdisk bio writeback fs inode dir sysfile fsck
# Per-ISA code: ARCH_KERNEL_SRCS from arch.mk (C and assembly files).

KERNEL_CFLAGS := $(COMMON_CFLAGS) -Ikernel/include -Ikernel/port -Ikernel/dev -Ikernel/arch/$(ARCH)

KERNEL_OBJS := $(patsubst %,$(BUILD)/kernel/port/%.o,$(KERNEL_PORT)) \
               $(patsubst %,$(BUILD)/%.o,$(basename $(ARCH_KERNEL_SRCS))) \
               $(BUILD)/kernel/port/fsimage.o

$(BUILD)/kernel/%.o: kernel/%.c $(wildcard kernel/include/*.h kernel/port/*.h kernel/dev/*.h kernel/arch/$(ARCH)/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.S $(wildcard kernel/include/*.h kernel/port/*.h kernel/arch/$(ARCH)/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.asm
	@mkdir -p $(dir $@)
	nasm -f elf32 -o $@ $<

$(BUILD)/kernel.elf: $(KERNEL_OBJS) $(KERNEL_LDS)
	$(CC) $(KERNEL_CFLAGS) $(ARCH_LDFLAGS) -T $(KERNEL_LDS) -o $@ $(KERNEL_OBJS) $(LIBGCC)
	$(OBJDUMP) -d $@ > $(BUILD)/kernel.asm

# ---------------------------------------------------------------- guests
# The C library every guest program links with.
GUEST_LIB  := printf string malloc stdlib bench test fsutil
GUEST_BINS := sh getpid cswitch select bcopy echo cat mips \
              ls mkdir rm fsck policy \
              readcache openclose createdelete andrew cc ld mrun
GUEST_TESTS := t_efault t_fault t_forklimit t_pipe t_select t_proc t_fs t_cc t_jobs t_regs t_deep
GUEST_TESTS += $(ARCH_GUEST_TESTS)   # one ISA's own: guests/tests/<isa>/ (its arch.mk)

GUEST_CFLAGS := $(COMMON_CFLAGS) -Iguests/include -Ikernel/include

GUEST_LIB_OBJS := $(patsubst %,$(BUILD)/guests/lib/%.o,$(GUEST_LIB)) \
                  $(patsubst %,$(BUILD)/%.o,$(basename $(ARCH_GUEST_SRCS)))

$(BUILD)/guests/%.o: guests/%.c $(wildcard guests/include/*.h kernel/include/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -c $< -o $@

# (A guest .S may include its kernel twin: kernel/arch/<isa>/*.S.)
$(BUILD)/guests/lib/arch/$(ARCH)/%.o: guests/lib/arch/$(ARCH)/%.S \
        $(wildcard guests/include/*.h kernel/include/*.h kernel/arch/$(ARCH)/*.S)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -c $< -o $@

$(BUILD)/guests/libc.a: $(GUEST_LIB_OBJS)
	rm -f $@ && $(CROSS)ar rcs $@ $^

GUEST_ELFS := $(patsubst %,$(BUILD)/guests/bin/%,$(GUEST_BINS)) \
              $(patsubst %,$(BUILD)/guests/tests/%,$(GUEST_TESTS))

$(BUILD)/guests/%: $(BUILD)/guests/%.o $(BUILD)/guests/libc.a $(GUEST_LDS)
	$(CC) $(GUEST_CFLAGS) $(ARCH_LDFLAGS) -T $(GUEST_LDS) -o $@ $< $(BUILD)/guests/libc.a $(LIBGCC)

# ---------------------------------------------------------------- file system
# Host tools (tools/): mkfs makes the file-system image from a directory tree,
# fsck checks an image with the same checker the kernel has (kernel/port/fsck.c).
HOSTCC      ?= gcc
HOST_CFLAGS := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -std=gnu11 \
               -Ikernel/include -Ikernel/port

$(BUILD)/tools/mkfs: tools/mkfs/mkfs.c kernel/include/fsformat.h
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ tools/mkfs/mkfs.c

$(BUILD)/tools/fsck: tools/fsck/fsck.c kernel/port/fsck.c kernel/port/fsck.h kernel/include/fsformat.h
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) -o $@ tools/fsck/fsck.c kernel/port/fsck.c

# The image: every guest program in /bin, the Andrew benchmark's sources in
# /src, an empty /tmp; a disk of FS_BLOCKS 1 KB blocks, in the ISA's byte
# order.  It is checked on the host, then linked into the kernel as bytes
# (kernel/port/fsimage.S) and becomes the RAM disk at boot.
FS_BLOCKS  ?= 4096
FS_INODES  ?= 1024
MKFS_FLAGS := -n $(FS_BLOCKS) -i $(FS_INODES) $(if $(filter big,$(ARCH_ENDIAN)),-B)

$(BUILD)/fs.img: $(GUEST_ELFS) $(BUILD)/tools/mkfs $(BUILD)/tools/fsck \
                 scripts/mkfsroot.sh $(wildcard tools/andrew/*)
	scripts/mkfsroot.sh $(BUILD)/fsroot $(CROSS)strip "$(PYTHON) tools/andrew/gensrc.py" \
	    $(GUEST_ELFS)
	$(BUILD)/tools/mkfs $(MKFS_FLAGS) $@ $(BUILD)/fsroot
	$(BUILD)/tools/fsck $@

$(BUILD)/kernel/port/fsimage.o: kernel/port/fsimage.S $(BUILD)/fs.img
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -DFS_IMAGE='"$(BUILD)/fs.img"' -c $< -o $@

# ---------------------------------------------------------------- hardware model
# The timing model is a QEMU plugin (hw-models/qemu/ and core/), a host program built
# with the host compiler against QEMU's plugin header.  The header is QEMU's
# code: scripts/fetch-qemu-plugin-h.sh fetches it into build/ (never committed).
HOST_CC       ?= gcc
HWMODEL_DIR   := build/hw-models
HWMODEL_SO    := $(HWMODEL_DIR)/libhwmodel.so
HWMODEL_SRCS  := $(wildcard hw-models/core/*.c hw-models/qemu/*.c)
QEMU_PLUGIN_H := $(HWMODEL_DIR)/include/qemu-plugin.h

$(QEMU_PLUGIN_H): scripts/fetch-qemu-plugin-h.sh
	scripts/fetch-qemu-plugin-h.sh $@

$(HWMODEL_SO): $(HWMODEL_SRCS) $(wildcard hw-models/core/*.h) $(QEMU_PLUGIN_H)
	@mkdir -p $(dir $@)
	$(HOST_CC) -O2 -flto -fvisibility=hidden -g -Wall -Wextra -Werror -Wno-unused-parameter -std=gnu11 -fPIC -shared \
	    -Ihw-models/core -I$(HWMODEL_DIR)/include $$(pkg-config --cflags glib-2.0) \
	    -o $@ $(HWMODEL_SRCS) -lm

# ---------------------------------------------------------------- commands
.PHONY: all toolchain deps run shell test unit-test clean iso hwmodel calibrate sweep figure1 compare
# ARCH_ALL: anything else an ISA's arch.mk needs built (a raw image, an emulator).
# Each build ends by stamping what it was made from (the hashes of its
# sources and images), which the harness checks before it boots anything:
# harness/guest/buildstamp.py.
all: $(BUILD)/kernel.elf $(ARCH_ALL)
	@$(PYTHON) -m harness.guest.buildstamp write $(ARCH)

hwmodel: $(HWMODEL_SO)
	@$(PYTHON) -m harness.guest.buildstamp write hwmodel

# A cross toolchain of our own, for ISAs Debian has none for (arch.mk's ARCH_TOOLCHAIN).
toolchain:
	$(if $(ARCH_TOOLCHAIN),$(ARCH_TOOLCHAIN),@echo "ARCH=$(ARCH): the cross compiler comes from Debian (make deps)")

# A GRUB rescue image that boots the same kernel from a CD (x86 only):
# the bootable image, as opposed to QEMU's -kernel shortcut.
iso: $(BUILD)/ousterhout.iso
$(BUILD)/ousterhout.iso: $(BUILD)/kernel.elf boot/x86/grub.cfg
	@test "$(ARCH)" = x86 || { echo "make iso: only ARCH=x86 boots with GRUB" >&2; exit 1; }
	rm -rf $(BUILD)/isodir && mkdir -p $(BUILD)/isodir/boot/grub
	cp $(BUILD)/kernel.elf $(BUILD)/isodir/boot/kernel.elf
	cp boot/x86/grub.cfg $(BUILD)/isodir/boot/grub/grub.cfg
	grub-mkrescue -o $@ --install-modules="multiboot normal part_msdos iso9660 biosdisk" \
	    --locales= --fonts= --themes= $(BUILD)/isodir 2>/dev/null

deps:
	@scripts/install-deps.sh

# TAG=name keeps this run apart: results/ARCH-PROFILE-TAG/ (docs/harness.md).
run: deps
	$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness run --arch $(ARCH) --profile $(PROFILE) $(if $(TAG),--tag $(TAG))

# Two runs side by side, per benchmark and case: A and B are tags or run
# directories (make compare A=before B=after).
compare:
	@test -n "$(A)" -a -n "$(B)" || { echo "make compare: give A=tag-or-run-dir B=tag-or-run-dir" >&2; exit 2; }
	$(PYTHON) -m harness compare $(A) $(B)

shell: deps
	$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness shell --arch $(ARCH) --profile $(PROFILE)

# The integration tests run on every ISA in TEST_ARCHES (a matrix, as in
# kvm-unit-tests), two pytest workers at a time: one per core.  The ISAs are
# the folders kernel/arch/*/ with an arch.mk; the harness's registry
# (harness/guest/machines.py) has one entry for each, which a unit test checks.
# vax builds its own cross compiler the first time (scripts/vax-toolchain.sh:
# about 17 minutes on two idle cores, then cached in ~/.cache/ousterhout).
TEST_ARCHES := $(patsubst kernel/arch/%/arch.mk,%,$(wildcard kernel/arch/*/arch.mk))
# Hardware models (hw-models/README.md).  `make calibrate` fits the paper's
# machines' CPI and memory bandwidth to Tables 1 and 5 (the DECstation and
# the M/2000 on mips, the Sun-4 on sparc, the Sun-3 on m68k, the VAXes on
# vax) and writes them into their
# profiles; `make sweep` varies one profile field and plots the benchmarks
# against it (results/sweep-*.csv and .png).
SWEEP_PROFILE ?= ds3100
SWEEP_PARAM   ?= memory.bandwidth_mbs
SWEEP_VALUES  ?= 1,2,4,8,16,32,64
SWEEP_BENCH   ?= bcopy readcache getpid mips
# The ISA the swept machine runs on: its profile's `isa`.
SWEEP_ARCH    := $(shell sed -n 's/^isa *= *"\(.*\)".*/\1/p' hw-models/profiles/$(SWEEP_PROFILE).toml 2>/dev/null)

calibrate: deps
	$(MAKE) all hwmodel ARCH=riscv
	$(MAKE) all ARCH=m68k
	$(MAKE) all ARCH=mips
	$(MAKE) all ARCH=sparc
	$(MAKE) all ARCH=vax
	$(PYTHON) -m harness calibrate

# The paper's Figure 1 (operating-system speed against MIPS), ours beside
# it: the six machines' models, on riscv, m68k, mips, sparc and vax (results/figure1.*).
figure1: deps
	$(MAKE) all hwmodel ARCH=riscv
	$(MAKE) all ARCH=m68k
	$(MAKE) all ARCH=mips
	$(MAKE) all ARCH=sparc
	$(MAKE) all ARCH=vax
	$(PYTHON) -m harness figure1

sweep: deps
	@test -n "$(SWEEP_ARCH)" || { echo "make sweep: no profile hw-models/profiles/$(SWEEP_PROFILE).toml" >&2; exit 2; }
	$(MAKE) all hwmodel ARCH=$(SWEEP_ARCH)
	$(PYTHON) -m harness sweep --arch $(SWEEP_ARCH) --profile $(SWEEP_PROFILE) \
	    --param $(SWEEP_PARAM) --values $(SWEEP_VALUES) $(patsubst %,--bench %,$(SWEEP_BENCH))

test: deps
	$(MAKE) all hwmodel ARCH=riscv
	for a in $(filter-out riscv,$(TEST_ARCHES)); do $(MAKE) all ARCH=$$a || exit 1; done
	$(MAKE) iso ARCH=x86
	$(PYTHON) -m pytest -q -n 2 --dist loadgroup tests

clean:
	rm -rf build results
