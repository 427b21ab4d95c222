# Top-level build.  One kernel source tree, one set of guest programs, built
# for one ISA at a time; `make help` lists the targets.
#
#   make run   ARCH=riscv [PROFILE=none] [BENCH=getpid]   boot, run the benchmarks, print the tables
#   make shell ARCH=riscv                  boot to the interactive guest shell
#   make test                              host unit tests + boot-and-check integration tests
#   make                                   just build (build/$(ARCH)/)
#
# The per-ISA facts (cross compiler, flags, which files) are in
# kernel/arch/$(ARCH)/arch.mk; everything else is listed here.  Reading this
# file builds nothing: what must be installed or built first (the VAX's
# compiler, QEMU's plugin header) is a prerequisite like any other file, so
# `make -n` only prints.  The build prints one line per step; V=1 prints the
# commands.

# A failed recipe must not leave a half-written target behind.
.DELETE_ON_ERROR:

.DEFAULT_GOAL := all            # arch.mk may define rules of its own
MAKEFLAGS += --no-print-directory

# The ISA when none is named: the registry's DEFAULT_ARCH (harness/guest/machines.py).
DEFAULT_ARCH := $(shell sed -n 's/^DEFAULT_ARCH = "\(.*\)".*/\1/p' harness/guest/machines.py)
ARCH    ?= $(DEFAULT_ARCH)
PROFILE ?= none
BENCH   ?=
BUILD   := build/$(ARCH)
PYTHON  ?= python3
HOSTCC  ?= gcc

# ---------------------------------------------------------------- choices
# The ISAs are the kernel/arch/*/arch.mk files, the profiles the
# hw-models/profiles/*.toml files (and `none`).  A bad ARCH or PROFILE stops
# make here, with the choices, before anything is built.
ARCHES   := $(sort $(patsubst kernel/arch/%/arch.mk,%,$(wildcard kernel/arch/*/arch.mk)))
PROFILES := $(sort none $(basename $(notdir $(wildcard hw-models/profiles/*.toml))))
ifneq ($(words $(ARCH)) $(filter $(ARCH),$(ARCHES)),1 $(ARCH))
  $(error ARCH=$(ARCH): no such ISA; choose one of: $(ARCHES))
endif
ifneq ($(words $(PROFILE)) $(filter $(PROFILE),$(PROFILES)),1 $(PROFILE))
  $(error PROFILE=$(PROFILE): no such profile; choose one of: $(PROFILES))
endif
# A profile's top-level string field: $(call profile_field,PROFILE,FIELD).
profile_field = $(shell sed -n 's/^$(2) *= *"\(.*\)".*/\1/p' hw-models/profiles/$(1).toml 2>/dev/null)
# The ISA a profile's machine runs (its `isa`), empty for none (isa = "any").
profile_isa = $(filter-out any,$(call profile_field,$(1),isa))
# The ISAs of the models of the paper's machines (the profiles whose `paper`
# names one): what calibrate and figure1 build.
PAPER_ARCHES = $(sort $(foreach p,$(PROFILES),$(if $(call profile_field,$(p),paper),$(call profile_isa,$(p)))))

# ---------------------------------------------------------------- output
# One short line per step; V=1 shows the full command lines.
ifeq ($(V),1)
  Q :=
  step :=
else
  Q := @
  step = printf '  %-7s %s\n' '$(1)' '$(2)';
endif

include kernel/arch/$(ARCH)/arch.mk

CC      := $(CROSS)gcc
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
OBJDUMP := $(CROSS)objdump

# ARCH_TOOLCHAIN (arch.mk): the file that says the ISA's own cross compiler
# is built, if it needs one; everything compiled waits for it.
TOOLCHAIN := $(ARCH_TOOLCHAIN)

COMMON_CFLAGS := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
                 -Wmissing-prototypes -Wstrict-prototypes \
                 -ffreestanding -fno-builtin -nostdlib -fno-pic -fno-stack-protector \
                 -fno-common -std=gnu11 $(ARCH_CFLAGS)
# Each object's header dependencies, as the compiler saw them (the .d files,
# included at the end).
DEPFLAGS := -MMD -MP
# And the flags it was compiled with: $(CFLAGS_USED) changes when they do
# (in this file or in arch.mk), and every object is rebuilt.
CFLAGS_USED := $(BUILD)/cflags

# ---------------------------------------------------------------- kernel
# Portable code: the same on every ISA.
KERNEL_PORT := main console printf string kalloc vm proc priv sched syscall \
               sysproc file pipe select exec \
               ramdisk bio writeback fs inode dir sysfile fsck
# Per-ISA code: ARCH_KERNEL_SRCS from arch.mk (C and assembly files).
# Demand paging (paging.c, and the ISA's pagefault.c) and copy-on-write fork
# (cow.c) are linked last, after libgcc even, so that adding them moved none
# of the kernel's code or data, and rename(2) (rename.c) after them: the
# paper suite's results under a cache model depend on where they lie
# (paging.c, "Placement").

KERNEL_CFLAGS := $(COMMON_CFLAGS) -Ikernel/include -Ikernel/port -Ikernel/dev -Ikernel/arch/$(ARCH)

KERNEL_OBJS := $(patsubst %,$(BUILD)/kernel/port/%.o,$(KERNEL_PORT)) \
               $(patsubst %,$(BUILD)/%.o,$(basename $(ARCH_KERNEL_SRCS))) \
               $(BUILD)/kernel/port/fsimage.o
KERNEL_LATE_OBJS := $(BUILD)/kernel/port/paging.o $(BUILD)/kernel/port/cow.o \
                    $(BUILD)/kernel/arch/$(ARCH)/pagefault.o $(BUILD)/kernel/port/rename.o
# cow.c for size, not speed: it must fit in the room the late code has
# before the next page on every ISA (kernel/port/cow.c, "Placement").
$(BUILD)/kernel/port/cow.o: KERNEL_CFLAGS += -Os

# The network (kernel/port/net/, docs/network.md): the stack, portable, on
# every ISA, and the NIC's driver and the board's part of it where the
# board has one (ARCH_NET_SRCS, arch.mk).  Linked after everything else,
# and each ISA's kernel.ld puts its code after .bss, so that the kernel's
# code and data before it stay where they were: the paper suite's results
# under a cache model depend on where they lie (as for paging.c above).
KERNEL_NET := nbuf netif ether arp ip icmp udp tcp tcp_out socket netproc
# The remote file systems (kernel/port/rfs/, docs/remote-files.md), on the
# network and placed with it.
KERNEL_RFS := rpc server client cache
KERNEL_NET_OBJS := $(patsubst %,$(BUILD)/kernel/port/net/%.o,$(KERNEL_NET)) \
                   $(patsubst %,$(BUILD)/kernel/port/rfs/%.o,$(KERNEL_RFS)) \
                   $(patsubst %,$(BUILD)/%.o,$(basename $(ARCH_NET_SRCS)))

$(BUILD)/kernel/%.o: kernel/%.c $(CFLAGS_USED) | $(TOOLCHAIN)
	@mkdir -p $(dir $@)
	$(Q)$(call step,CC,$@)$(CC) $(KERNEL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/%.o: %.S $(CFLAGS_USED) | $(TOOLCHAIN)
	@mkdir -p $(dir $@)
	$(Q)$(call step,AS,$@)$(CC) $(KERNEL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/%.o: %.asm
	@mkdir -p $(dir $@)
	$(Q)$(call step,NASM,$@)nasm -f elf32 -o $@ $<

# $(call link_kernel,OBJS): link a kernel ($@) from OBJS, then the late and
# the network's objects (the test kernel below too).
link_kernel = $(Q)$(call step,LD,$@)$(CC) $(KERNEL_CFLAGS) $(ARCH_LDFLAGS) -T $(KERNEL_LDS) -o $@ $(1) $(LIBGCC) $(KERNEL_LATE_OBJS) $(KERNEL_NET_OBJS) $(LIBGCC)

$(BUILD)/kernel.elf: $(KERNEL_OBJS) $(KERNEL_LATE_OBJS) $(KERNEL_NET_OBJS) $(KERNEL_LDS)
	$(call link_kernel,$(KERNEL_OBJS))
	$(Q)$(OBJDUMP) -d $@ > $(BUILD)/kernel.asm

# ---------------------------------------------------------------- guests
# The C library every guest program links with.
GUEST_LIB  := printf string malloc stdlib bench test fsutil net
GUEST_BINS := sh getpid cswitch select bcopy echo cat mips \
              ls mkdir rm mv fsck policy \
              readcache openclose createdelete andrew cc ld mrun measure \
              netd netbench netstat fuzz mount rfsd rfsstat fileset
GUEST_TESTS := t_efault t_fault t_forklimit t_pipe t_select t_proc t_fs t_cc t_jobs t_regs t_deep t_copy t_protect t_cow t_net t_entry t_rename
# and one ISA's own: guests/tests/<isa>/*.c (SPARC's register windows).
GUEST_TESTS += $(patsubst guests/tests/%.c,%,$(sort $(wildcard guests/tests/$(ARCH)/*.c)))

GUEST_CFLAGS := $(COMMON_CFLAGS) -Iguests/include -Ikernel/include

# The network's system-call stubs are an object of their own, and so are
# the calls added after them (kernel/include/syscall.h says why), last.
GUEST_LIB_OBJS := $(patsubst %,$(BUILD)/guests/lib/%.o,$(GUEST_LIB)) \
                  $(patsubst %,$(BUILD)/%.o,$(basename $(ARCH_GUEST_SRCS))) \
                  $(BUILD)/guests/lib/arch/$(ARCH)/netcalls.o \
                  $(BUILD)/guests/lib/arch/$(ARCH)/latecalls.o

$(BUILD)/guests/%.o: guests/%.c $(CFLAGS_USED) | $(TOOLCHAIN)
	@mkdir -p $(dir $@)
	$(Q)$(call step,CC,$@)$(CC) $(GUEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

# (A guest .S may include its kernel twin: kernel/arch/<isa>/*.S.)
$(BUILD)/guests/lib/arch/$(ARCH)/%.o: guests/lib/arch/$(ARCH)/%.S $(CFLAGS_USED) | $(TOOLCHAIN)
	@mkdir -p $(dir $@)
	$(Q)$(call step,AS,$@)$(CC) $(GUEST_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/guests/libc.a: $(GUEST_LIB_OBJS)
	$(Q)$(call step,AR,$@)rm -f $@ && $(CROSS)ar rcs $@ $^

GUEST_ELFS := $(patsubst %,$(BUILD)/guests/bin/%,$(GUEST_BINS)) \
              $(patsubst %,$(BUILD)/guests/tests/%,$(GUEST_TESTS))
.SECONDARY: $(GUEST_ELFS:=.o)           # keep them: their .d files name them

$(BUILD)/guests/%: $(BUILD)/guests/%.o $(BUILD)/guests/libc.a $(GUEST_LDS)
	$(Q)$(call step,LD,$@)$(CC) $(GUEST_CFLAGS) $(ARCH_LDFLAGS) -T $(GUEST_LDS) -o $@ $< $(BUILD)/guests/libc.a $(LIBGCC)

# ---------------------------------------------------------------- file system
# Host tools (tools/): mkfs makes the file-system image from a directory tree,
# fsck checks an image with the same checker the kernel has (kernel/port/fsck.c).
HOST_CFLAGS := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -std=gnu11 \
               -Ikernel/include -Ikernel/port

$(BUILD)/tools/mkfs: tools/mkfs/mkfs.c kernel/include/fsformat.h
	@mkdir -p $(dir $@)
	$(Q)$(call step,HOSTCC,$@)$(HOSTCC) $(HOST_CFLAGS) -o $@ tools/mkfs/mkfs.c

$(BUILD)/tools/fsck: tools/fsck/fsck.c kernel/port/fsck.c kernel/port/fsck.h kernel/include/fsformat.h
	@mkdir -p $(dir $@)
	$(Q)$(call step,HOSTCC,$@)$(HOSTCC) $(HOST_CFLAGS) -o $@ tools/fsck/fsck.c kernel/port/fsck.c

# The image: every guest program in /bin, the Andrew benchmark's sources in
# /src, an empty /tmp; a disk of FS_BLOCKS 1 KB blocks, in the ISA's byte
# order.  It is checked on the host, then linked into the kernel as bytes
# (kernel/port/fsimage.S) and becomes the RAM disk at boot.
FS_BLOCKS  ?= 4096
FS_INODES  ?= 1024
MKFS_FLAGS := -n $(FS_BLOCKS) -i $(FS_INODES) $(if $(filter big,$(ARCH_ENDIAN)),-B)

# $(call make_fs,ROOTDIR,ELFS): the recipe of an image ($@) of those programs.
define make_fs
	$(Q)$(call step,MKFS,$@)scripts/mkfsroot.sh $(1) $(CROSS)strip \
	    "$(PYTHON) tools/andrew/gensrc.py" $(2)
	$(Q)$(BUILD)/tools/mkfs $(MKFS_FLAGS) $@ $(1) $(if $(Q),>/dev/null)
	$(Q)$(call step,FSCK,$@)$(BUILD)/tools/fsck $@ $(if $(Q),>/dev/null)
endef
FS_DEPS := $(BUILD)/tools/mkfs $(BUILD)/tools/fsck scripts/mkfsroot.sh $(wildcard tools/andrew/*)

$(BUILD)/fs.img: $(GUEST_ELFS) $(FS_DEPS)
	$(call make_fs,$(BUILD)/fsroot,$(GUEST_ELFS))

$(BUILD)/kernel/port/fsimage.o: kernel/port/fsimage.S $(BUILD)/fs.img $(CFLAGS_USED) | $(TOOLCHAIN)
	@mkdir -p $(dir $@)
	$(Q)$(call step,AS,$@)$(CC) $(KERNEL_CFLAGS) $(DEPFLAGS) -DFS_IMAGE='"$(BUILD)/fs.img"' -c $< -o $@

# ---------------------------------------------------------------- the test image
# A second kernel, build/$(ARCH)/test/kernel.elf: the same objects linked
# with an image that also holds the programs in guests/testimage/, which
# only tests run (memwalk: the hardware model's reference workload) and
# what must not move the benchmarks' files (rfileread: 002's remote file
# read, harness/rfs/fileread.py).  Not in the image the benchmarks run
# from: there every file moves the file benchmarks' blocks, and the
# image's size the kernel's data after it.
# The harness boots it as machines.test_image(m).
TEST_BINS   := $(patsubst guests/testimage/%.c,%,$(wildcard guests/testimage/*.c))
TEST_ELFS   := $(patsubst %,$(BUILD)/guests/testimage/%,$(TEST_BINS))
TEST_KERNEL := $(BUILD)/test/kernel.elf
TEST_KERNEL_OBJS := $(patsubst $(BUILD)/kernel/port/fsimage.o,$(BUILD)/test/fsimage.o,$(KERNEL_OBJS))
.SECONDARY: $(TEST_ELFS:=.o)

$(BUILD)/test/fs.img: $(GUEST_ELFS) $(TEST_ELFS) $(FS_DEPS)
	@mkdir -p $(dir $@)
	$(call make_fs,$(BUILD)/test/fsroot,$(GUEST_ELFS) $(TEST_ELFS))

$(BUILD)/test/fsimage.o: kernel/port/fsimage.S $(BUILD)/test/fs.img $(CFLAGS_USED) | $(TOOLCHAIN)
	$(Q)$(call step,AS,$@)$(CC) $(KERNEL_CFLAGS) -DFS_IMAGE='"$(BUILD)/test/fs.img"' -c $< -o $@

$(TEST_KERNEL): $(TEST_KERNEL_OBJS) $(KERNEL_LATE_OBJS) $(KERNEL_NET_OBJS) $(KERNEL_LDS)
	$(call link_kernel,$(TEST_KERNEL_OBJS))

# ---------------------------------------------------------------- hardware model
# The timing model's engine (hw-models/core/) as a QEMU plugin
# (hw-models/qemu/), a host library built against QEMU's plugin header.  The
# header is QEMU's code: scripts/fetch-qemu-plugin-h.sh fetches it into
# build/ (never committed).  The VAX's SIMH builds the same engine in
# (kernel/arch/vax/arch.mk).
HWMODEL_DIR   := build/hw-models
HWMODEL_SO    := $(HWMODEL_DIR)/libhwmodel.so
FLOOR_SO      := $(HWMODEL_DIR)/libfloor.so
HWMODEL_SRCS  := $(wildcard hw-models/core/*.c hw-models/qemu/*.c)
QEMU_PLUGIN_H := $(HWMODEL_DIR)/include/qemu-plugin.h

$(QEMU_PLUGIN_H): scripts/fetch-qemu-plugin-h.sh
	$(Q)$(call step,FETCH,$@)scripts/fetch-qemu-plugin-h.sh $@

$(HWMODEL_SO): $(HWMODEL_SRCS) $(wildcard hw-models/core/*.h hw-models/core/*.def) $(QEMU_PLUGIN_H)
	@mkdir -p $(dir $@)
	$(Q)$(call step,HOSTCC,$@)$(HOSTCC) -O2 -flto -fvisibility=hidden -g -Wall -Wextra -Werror \
	    -Wno-unused-parameter -Wmissing-prototypes -std=gnu11 -fPIC -shared \
	    -Ihw-models/core -I$(HWMODEL_DIR)/include $$(pkg-config --cflags glib-2.0) \
	    -o $@ $(HWMODEL_SRCS) -lm

# The same callbacks with nothing in them: the plugin interface's own cost
# (hw-models/floor/floor.c; `python3 -m harness overhead --floor`).
$(FLOOR_SO): hw-models/floor/floor.c $(QEMU_PLUGIN_H)
	@mkdir -p $(dir $@)
	$(Q)$(call step,HOSTCC,$@)$(HOSTCC) -O2 -Wall -Wextra -Werror -Wno-unused-parameter \
	    -std=gnu11 -fPIC -shared -I$(HWMODEL_DIR)/include $$(pkg-config --cflags glib-2.0) \
	    -o $@ $<

# ---------------------------------------------------------------- commands
# Each command's `##` comment is its line in `make help`.
.PHONY: all help hwmodel toolchain iso test-images deps check-args sweep-profile attribute-profile run shell compare test qemu-wire unit-test crashtest mutants fuzz table8 rfscrash \
        calibrate figure1 figure4 sweep docs clean distclean FORCE grade gdb attribute

# ARCH_ALL: anything else an ISA's arch.mk needs built (a raw image, an emulator).
# Each build ends by stamping what it was made from (the hashes of its
# sources and images), which the harness checks before it boots anything:
# harness/guest/buildstamp.py.
all: $(BUILD)/kernel.elf $(TEST_KERNEL) $(ARCH_ALL)  ## build the kernel, the programs and the file system for ARCH (build/ARCH/)
	@$(PYTHON) -m harness.guest.buildstamp write $(ARCH)

help:  ## this list
	@echo "make TARGET [ARCH=isa] [PROFILE=name] [BENCH=name,...] [V=1]"
	@echo "  ARCH:    $(ARCHES) (default $(DEFAULT_ARCH))"
	@echo "  PROFILE: $(PROFILES) (default none)"
	@echo "  V=1:     show the full command lines"
	@echo "targets:"
	@sed -n 's/^\([a-z0-9-]*\):.*## \(.*\)/\1\t\2/p' $(MAKEFILE_LIST) | \
	    awk -F'\t' '{ printf "  %-10s %s\n", $$1, $$2 }'

hwmodel: $(HWMODEL_SO) $(FLOOR_SO)  ## build the QEMU hardware-model plugin (build/hw-models/libhwmodel.so)
	@$(PYTHON) -m harness.guest.buildstamp write hwmodel

# A cross toolchain of our own, for ISAs Debian has none for (arch.mk's ARCH_TOOLCHAIN).
toolchain: $(TOOLCHAIN)  ## build ARCH's own cross compiler, if it needs one (the VAX: about 10 minutes, once)
	@$(if $(TOOLCHAIN),true,echo "ARCH=$(ARCH): the cross compiler comes from Debian (make deps)")

# A bootable CD image of the kernel, for an ISA whose arch.mk makes one
# (ARCH_ISO: x86's GRUB rescue CD).
iso: $(ARCH_ISO)  ## a CD image that boots ARCH's kernel, if it has one (x86: build/x86/ousterhout.iso, GRUB)
	@test -n "$(ARCH_ISO)" || { echo "make iso: ARCH=$(ARCH) has no CD image (its arch.mk sets no ARCH_ISO)" >&2; exit 1; }

# What `make test` boots besides the kernel: the CD image, where there is one.
test-images: $(ARCH_ISO)
	@:

# What the commands need installed: the common packages, and those of each
# ISA they build (its arch.mk's ARCH_DEPS; scripts/install-deps.sh asks make
# for them).  ARCH's alone, unless a command builds several: test, calibrate,
# figure1 and grade set DEPS_ARCHES, which make passes on to `deps` (an
# empty one, a bad profile's ISA, falls back to ARCH: the command says why).
DEPS_ARCHES = $(ARCH)
deps:  ## install what is missing: ARCH's cross compiler and emulator (QEMU 10), the Python packages
	@scripts/install-deps.sh $(or $(strip $(DEPS_ARCHES)),$(ARCH))

# What a command will ask the harness, checked before anything is built or
# booted (and before `deps`): the profile's machine must be ARCH, and the
# harness checks the rest, each value by name, the files they name too
# (a profile's values, a lab's predictions), with `--check-only`, which
# exits without building anything (in under 2 s: tests/unit/test_makefile.py).
# Each command sets HARNESS_ARGS, the arguments its recipe passes the
# harness, so what is checked is what runs.
comma := ,
BENCH_ARGS = $(patsubst %,--bench %,$(subst $(comma), ,$(BENCH)))
PROFILE_ISA = $(call profile_isa,$(PROFILE))
RUN_ARGS = run --arch $(ARCH) --profile $(PROFILE) $(BENCH_ARGS) $(SUITE_ARGS) $(REMOTE_ARGS) $(if $(TAG),--tag $(TAG))
HARNESS_ARGS = $(RUN_ARGS)
# run and shell boot ARCH under PROFILE; the other commands find the ISA
# from their own profile (attribute, figure4, sweep) or boot several.
PROFILE_ON_ARCH = yes
attribute calibrate crashtest figure1 figure4 grade rfscrash sweep table8: PROFILE_ON_ARCH =
check-args:
	@test -z "$(PROFILE_ON_ARCH)" -o -z "$(PROFILE_ISA)" -o "$(PROFILE_ISA)" = "$(ARCH)" || \
	    { echo "make: PROFILE=$(PROFILE) models a $(PROFILE_ISA) machine: use ARCH=$(PROFILE_ISA)" >&2; exit 2; }
	@$(PYTHON) -m harness --check-only $(HARNESS_ARGS)

# TAG=name keeps this run apart: results/ARCH-PROFILE-TAG/ (docs/harness.md).
# SUITE=measure runs the standard OS measurements instead (docs/measure.md):
# results/ARCH-PROFILE-measure/, with the Final Results Table; SUITE=net the
# network's, on two machines (docs/network.md): results/ARCH-PROFILE-net/.
SUITE_ARGS = $(if $(SUITE),--suite $(SUITE))
# REMOTE=nfs|sprite|both: the file benchmarks Local and Remote, node a a
# diskless client of node b (docs/remote-files.md): results/ARCH-PROFILE-remote-PROTO/;
# with SUITE=measure, 002's remote file read beside the local one (docs/measure.md):
# results/ARCH-PROFILE-measure-remote-PROTO/.
REMOTE_ARGS = $(if $(REMOTE),--remote $(REMOTE))
run: check-args deps  ## boot ARCH under PROFILE, run the benchmarks (all, or BENCH=a,b; SUITE=measure; REMOTE=nfs|sprite|both; TAG=name), print the tables
	$(Q)$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness $(RUN_ARGS)

# Two runs side by side, per benchmark and case: A and B are tags or run
# directories (make compare A=before B=after).
compare:  ## two runs side by side per benchmark and case (A=tag-or-dir B=tag-or-dir)
	@test -n "$(A)" -a -n "$(B)" || { echo "make compare: give A=tag-or-run-dir B=tag-or-run-dir" >&2; exit 2; }
	$(PYTHON) -m harness compare $(A) $(B)

shell: HARNESS_ARGS = shell --arch $(ARCH) --profile $(PROFILE) $(if $(NODES),--nodes $(NODES))
shell: check-args deps  ## boot ARCH to the guest's shell on this terminal (type halt to leave; NODES=2: two machines on a wire)
	$(Q)$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness $(HARNESS_ARGS)

# The integration tests run on every ISA in TEST_ARCHES (a matrix, as in
# kvm-unit-tests), two pytest workers at a time: one per core: every ISA
# with a kernel/arch/*/arch.mk, which the harness's registry
# (harness/guest/machines.py) has one entry for (a unit test checks).  The
# first ARCH=vax build makes the VAX's cross compiler (scripts/vax-toolchain.sh:
# about 10 minutes on two cores, 621 s on a fresh machine, then cached in
# ~/.cache/ousterhout).
TEST_ARCHES ?= $(ARCHES)

# Two machines on the deterministic wire run QEMU with the project's patch
# (hw-models/qemu/qemu-wire.patch; docs/network.md "Why QEMU is patched"):
# built once into ~/.cache/ousterhout/qemu/ (about 4 minutes on two cores),
# before the tests so that their workers never build it side by side.  The
# harness builds it itself when a two-machine command needs it first.
qemu-wire:  ## build the wire's patched QEMU (two-machine runs), unless built
	$(Q)scripts/qemu-wire.sh

unit-test:  ## the host-side unit tests only (no emulator, no build)
	$(PYTHON) -m pytest -q tests/unit

test: DEPS_ARCHES = $(TEST_ARCHES)
test: deps  ## build every ISA, then the unit tests and the boot-and-check integration tests
	$(Q)$(MAKE) hwmodel qemu-wire
	$(Q)for a in $(TEST_ARCHES); do $(MAKE) all test-images ARCH=$$a || exit 1; done
	$(PYTHON) -m pytest -q -n 2 --dist loadgroup tests

# Mutants that must die (tests/mutants.toml): each a small fault put into a
# scratch copy of the tree, built, and run against the tests that must
# catch it; docs/testing.md has the last report.  Needs riscv and mips
# built (make test does) and the plugin.
mutants: hwmodel  ## each fault of tests/mutants.toml in a scratch copy: the tests must catch it (a few minutes)
	$(PYTHON) tests/mutants.py

# Hardware models (hw-models/README.md).  `make calibrate` fits the paper's
# machines' CPI and memory bandwidth to Tables 1 and 5 (the DECstation and
# the M/2000 on mips, the Sun-4 on sparc, the Sun-3 on m68k, the VAXes on
# vax) and writes them into their profiles; `make sweep` varies one profile field and plots the benchmarks
# against it (results/sweep-*.csv and .png), or two (SWEEP_PARAM2, SWEEP_VALUES2):
# a grid, a heat map per benchmark.  SWEEP_BENCH=remote sweeps Table 8's remote penalty instead:
# Andrew local and remote under nfs and sprite at each point (harness/rfs/sweep.py).
SWEEP_PROFILE ?= ds3100
SWEEP_PARAM   ?= memory.bandwidth_mbs
SWEEP_VALUES  ?= 1,2,4,8,16,32,64
SWEEP_PARAM2  ?=
SWEEP_VALUES2 ?=
SWEEP_BENCH   ?= bcopy readcache getpid mips
# Their boots are independent and run side by side (harness/model/executor.py):
# J=n at a time on this machine (default: make's own -jN if given, else one
# per core; J=1 one after another), or on the workers of a Dask cluster,
# SCHEDULER=tcp://HOST:8786 (docs/harness.md).  (make puts -jN in MAKEFLAGS
# only for recipes, so this is expanded there.)
MAKE_J    = $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))
RUNS_J    = $(or $(J),$(MAKE_J))
RUNS_ARGS = $(if $(RUNS_J),-j $(RUNS_J)) $(if $(SCHEDULER),--scheduler $(SCHEDULER))

calibrate figure1: DEPS_ARCHES = $(PAPER_ARCHES)
calibrate: HARNESS_ARGS = calibrate $(RUNS_ARGS)
calibrate: check-args deps  ## fit the paper's machines' CPI and memory bandwidth to Tables 1 and 5 (J=n side by side, SCHEDULER=)
	$(Q)$(MAKE) hwmodel
	$(Q)for a in $(PAPER_ARCHES); do $(MAKE) all ARCH=$$a || exit 1; done
	$(PYTHON) -m harness $(HARNESS_ARGS)

# Crash consistency under each write policy (docs/crashtest.md): the model
# logs every disk write of createdelete, Andrew, a metadata workload and a
# rename workload on ARCH (its registry entry's model_profile); every crash
# point (up to CRASH_POINTS per log) is replayed onto the image and checked
# with tools/fsck, and fsck -y (results/crashtest/).
CRASH_POINTS ?= 400
crashtest: HARNESS_ARGS = crashtest --arch $(ARCH) --max-points $(CRASH_POINTS)
crashtest: check-args deps  ## crash points of four workloads under each write policy: fsck, fsck -y, data lost (results/crashtest/)
	$(Q)$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness $(HARNESS_ARGS)

# The system-call fuzzer (guests/bin/fuzz.c, docs/protection.md): CALLS
# calls from SEED on ARCH, then the kernel's invariants checked; through
# the harness, which judges its PASS/FAIL lines and sees a panic or a hang.
SEED  ?= 1
CALLS ?= 20000
fuzz: HARNESS_ARGS = check --arch $(ARCH) --program "fuzz -s $(SEED) -n $(CALLS)" \
	    --timeout $(shell expr $(CALLS) / 200 + 120)
fuzz: check-args deps  ## fuzz ARCH's system calls: CALLS=n calls from SEED=s, then check fsck, leaks, zombies
	$(Q)$(MAKE) all ARCH=$(ARCH)
	$(PYTHON) -m harness $(HARNESS_ARGS)

# The paper's Table 8 from the remote runs (make run ... REMOTE=both) of
# the machines that have one (docs/remote-files.md).
table8: HARNESS_ARGS = table8
table8: check-args  ## Table 8 (MIPS-relative speed, remote penalty) from results/*-remote-both/ runs
	$(PYTHON) -m harness $(HARNESS_ARGS)

# A server crash under each remote file system (docs/remote-files.md), on
# two ARCH machines under its registry entry's model.
rfscrash: HARNESS_ARGS = rfscrash --arch $(ARCH) $(if $(ASYNC),--async)
rfscrash: check-args deps  ## a server crash under nfs and under sprite on ARCH: retries, recovery, data lost (results/rfscrash/; ASYNC=1: rfsd -async, lab 7)
	$(Q)$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness $(HARNESS_ARGS)

# The paper's Figure 1 (operating-system speed against MIPS), ours beside
# it: the six machines' models, each on its ISA (results/figure1.*).
figure1: HARNESS_ARGS = figure1 $(RUNS_ARGS)
figure1: check-args deps  ## the paper's Figure 1 from the six machines' models (results/figure1.*; J=n, SCHEDULER=)
	$(Q)$(MAKE) hwmodel
	$(Q)for a in $(PAPER_ARCHES); do $(MAKE) all ARCH=$$a || exit 1; done
	$(PYTHON) -m harness $(HARNESS_ARGS)

# Chen et al.'s Figure 4 (memory access time against array size, one curve
# per page-allocation policy) on pc-p5, or on PROFILE= (results/figure4*).
FIGURE4_PROFILE = $(if $(filter-out none,$(PROFILE)),$(PROFILE),pc-p5)
figure4: DEPS_ARCHES = $(call profile_isa,$(FIGURE4_PROFILE))
figure4: HARNESS_ARGS = figure4 --profile $(FIGURE4_PROFILE)
figure4: check-args deps  ## Chen et al.'s Figure 4 on pc-p5 (or PROFILE=): results/figure4.png, .csv
	$(Q)$(MAKE) all hwmodel ARCH=$(call profile_isa,$(FIGURE4_PROFILE))
	$(PYTHON) -m harness $(HARNESS_ARGS)

sweep: DEPS_ARCHES = $(call profile_isa,$(SWEEP_PROFILE))
sweep: HARNESS_ARGS = sweep --arch $(call profile_isa,$(SWEEP_PROFILE)) --profile $(SWEEP_PROFILE) \
	    --param $(SWEEP_PARAM) --values $(SWEEP_VALUES) $(patsubst %,--bench %,$(SWEEP_BENCH)) \
	    $(if $(SWEEP_PARAM2),--param2 $(SWEEP_PARAM2) --values2 $(SWEEP_VALUES2)) $(RUNS_ARGS)
sweep: sweep-profile check-args deps  ## vary SWEEP_PARAM of SWEEP_PROFILE over SWEEP_VALUES (and SWEEP_PARAM2 over SWEEP_VALUES2), plot (results/sweep-*; J=n, SCHEDULER=)
	$(Q)$(MAKE) all hwmodel ARCH=$(call profile_isa,$(SWEEP_PROFILE))
	$(PYTHON) -m harness $(HARNESS_ARGS)

sweep-profile:
	@test -n "$(call profile_isa,$(SWEEP_PROFILE))" || \
	    { echo "make sweep: SWEEP_PROFILE=$(SWEEP_PROFILE): no such model; choose one of: $(filter-out none,$(PROFILES))" >&2; exit 2; }

# The tables of results in README.md, docs/ and hw-models/README.md, made
# again from the results files (harness/docs/): each `<!-- docs: NAME -->`
# block is rewritten, with the commit and date its numbers come from.  What
# is missing is made first by its own command (make run ..., make figure1,
# make sweep ...); FROM_RESULTS=1 runs nothing and rewrites from results/
# as it is (a missing file is an error that names it and its command).
docs:  ## rewrite the docs' tables of results from results/, running what is missing (FROM_RESULTS=1: run nothing)
	$(PYTHON) -m harness docs $(if $(FROM_RESULTS),--from-results)

# ---------------------------------------------------------------- course
# The labs (docs/labs/README.md): grade them, debug the kernel, see where
# a benchmark's modelled cycles go.  `grade` builds what it needs itself
# (harness/course/grade.py); BASELINE=1, on an unmodified tree, writes the
# unmodified kernel's numbers; POLICY= is lab 4's write policy.
grade: DEPS_ARCHES = $(ARCHES)
grade: HARNESS_ARGS = grade $(if $(LAB),--lab $(LAB)) $(if $(BASELINE),--write-baseline) \
	    $(if $(POLICY),--policy $(POLICY)) $(RUNS_ARGS)
grade: check-args deps  ## grade a lab (LAB=n; all seven if none): build, check, measure, score (BASELINE=1, POLICY=name; J=n, SCHEDULER=)
	$(PYTHON) -m harness $(HARNESS_ARGS)

gdb: deps  ## ARCH's kernel stopped under gdb (the VAX: SIMH's debugger), PROG=name's symbols too: docs/debugging.md
	$(Q)$(MAKE) all ARCH=$(ARCH)
	$(PYTHON) -m harness gdb --arch $(ARCH) $(if $(PROG),--program $(PROG))

# attribute runs on PROFILE's ISA: make calls itself again with that ARCH.
ATTRIBUTE_ARCH = $(or $(call profile_isa,$(PROFILE)),$(ARCH))
attribute: DEPS_ARCHES = $(ATTRIBUTE_ARCH)
attribute: HARNESS_ARGS = attribute --profile $(PROFILE) --arch $(ATTRIBUTE_ARCH) \
	    --bench $(or $(BENCH),getpid) $(if $(CASE),--case $(CASE)) \
	    $(foreach f,$(FUNCTION),--function $(f))
attribute: attribute-profile check-args deps  ## where BENCH's cycles go under PROFILE, by function (CASE=name; FUNCTION="f g": by instruction)
ifneq ($(ARCH),$(ATTRIBUTE_ARCH))
	@test "$(origin ARCH)" != "command line" || { echo "make attribute: PROFILE=$(PROFILE) runs on $(ATTRIBUTE_ARCH), not ARCH=$(ARCH)" >&2; exit 2; }
	@$(MAKE) attribute ARCH=$(ATTRIBUTE_ARCH)
else
	$(Q)$(MAKE) all hwmodel ARCH=$(ARCH)
	$(PYTHON) -m harness $(HARNESS_ARGS) --objdump $(OBJDUMP)
endif

attribute-profile:
	@test "$(PROFILE)" != none || { echo "make attribute: give PROFILE=, a hardware model (e.g. ds3100)" >&2; exit 2; }

clean:  ## remove build/ (results/ stays; the caches in ~/.cache/ousterhout too)
	rm -rf build

distclean: clean  ## remove results/ as well
	rm -rf results

FORCE:

# ---------------------------------------------------------------- dependencies
# The flags every object was compiled with, rewritten when they change.
CFLAGS_NOW := $(KERNEL_CFLAGS) / $(GUEST_CFLAGS) / $(DEPFLAGS)
ifneq ($(file <$(CFLAGS_USED)),$(CFLAGS_NOW))
$(CFLAGS_USED): FORCE
endif
$(CFLAGS_USED):
	@mkdir -p $(dir $@)
	@echo '$(CFLAGS_NOW)' > $@

# The headers each object included (gcc -MMD), once it has been built;
# for the tests' image's programs too (rfileread includes measure.c).
DEPS := $(KERNEL_OBJS:.o=.d) $(KERNEL_LATE_OBJS:.o=.d) $(KERNEL_NET_OBJS:.o=.d) \
        $(GUEST_LIB_OBJS:.o=.d) $(GUEST_ELFS:=.d) $(TEST_ELFS:=.d)
$(DEPS): ;
-include $(DEPS)
