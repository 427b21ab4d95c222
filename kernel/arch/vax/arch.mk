# VAX facts for the Makefile: SIMH's MicroVAX 3900 (KA655).
#
# Debian has no VAX cross compiler: scripts/vax-toolchain.sh builds one
# (binutils + C-only GCC for vax-netbsdelf) into a cache directory outside
# the repository; it runs here, while make reads this file, the first time.
VAX_TOOLCHAIN := $(shell scripts/vax-toolchain.sh --prefix)
CROSS         := $(VAX_TOOLCHAIN)/bin/vax-netbsdelf-
ifneq ($(shell scripts/vax-toolchain.sh --check && echo built),built)
  ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
    $(info VAX toolchain missing: building it (10-15 minutes, once))
    $(shell scripts/vax-toolchain.sh >&2)
    ifneq ($(.SHELLSTATUS),0)
      $(error scripts/vax-toolchain.sh failed)
    endif
  endif
endif
ARCH_TOOLCHAIN := scripts/vax-toolchain.sh

# Our SIMH: a MicroVAX 3900 whose timers count instructions exactly (runs
# are deterministic) and which knows our XFC marker (simh/), rebuilt by
# scripts/vax-simh.sh when its patch or model source changes.
SIMH_VAX := $(shell scripts/vax-simh.sh --path)
$(SIMH_VAX): scripts/vax-simh.sh simh/vax-model.patch simh/vax_model.c
	scripts/vax-simh.sh

ARCH_ALL := $(SIMH_VAX)
