"""The model's arguments: a profile and a run as key=value words, and how
each back end takes them.

    argv += emulator_args(profile, machine, log_path)   # -plugin libhwmodel.so,... (QEMU)
    plugin_args(profile, machine, log_path)             # the key=value words alone
    arg("trace", path)                                  # one more, checked by name

Every key is a line of hw-models/core/params.def (schema.py): the
profile's parameters by their own names (memory.bandwidth_mbs=25.873), then
the run's (out=, the trap vectors, the disk hook and the anchor, found in
the kernel's ELF file).  The QEMU plugin and our SIMH run the same engine
and take the same words; the back ends differ only in how the words reach
it.  What differs per ISA (the trap vector, guest RAM, which back end
carries the model) comes from the ISA's Machine record
(harness/guest/machines.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .. import ROOT, rel
from ..errors import SetupError
from ..guest import fsformat
from ..guest.elfsyms import Symbols, load_segments
from ..guest.machines import Machine
from . import schema
from .profiles import Profile

PLUGIN = ROOT / "build" / "hw-models" / "libhwmodel.so"
# The model's callbacks with nothing in them (hw-models/floor/floor.c)
FLOOR_PLUGIN = ROOT / "build" / "hw-models" / "libfloor.so"

# The storage layer's per-request hook (kernel/port/ramdisk.c), which the
# model charges disk time at (a request is fsformat.BSIZE bytes a block).
DISK_SYMBOL = "disk_request"
TLB_REFILL_SYMBOL = "tlb_refill"          # MIPS: the refill vector (kernel/arch/mips)


def arg(name: str, value: Any) -> str:
    """One key=value argument of the model: a profile parameter by its
    name (memory.bandwidth_mbs) or one of the run's (out, trap_pc, ...),
    as params.def defines them; SetupError for a name it does not."""
    s = schema.load()
    if name in s.params:
        p = s.params[name]
        why = p.problem(value)
        if why:
            raise SetupError(f"model argument {name} = {value!r} {why}")
        return f"{name}={p.text(value)}"
    if name in s.runargs:
        return f"{name}={s.runargs[name].text(value)}"
    raise SetupError(f"no model argument {name!r} (hw-models/core/params.def)")


def profile_args(hw: Profile) -> list[str]:
    """The profile's parameters as the model's arguments: every field it
    gives, by its own name, in params.def's order.  A field it leaves out
    is not passed, and the model keeps its default."""
    args = []
    for p in schema.load().params.values():
        sec = hw.data.get(p.section)
        if isinstance(sec, dict) and p.key in sec:
            args.append(f"{p.name}={p.text(sec[p.key])}")
    return args


def plugin_args(hw: Profile, machine: Machine, log_path: Path) -> list[str]:
    """The model's key=value arguments for this profile on this machine
    (the same keys for the QEMU plugin and our SIMH): the profile's
    parameters, then what the run adds.  The kernel's symbols come from its
    ELF file, when it has been built."""
    args = [arg("out", log_path), *profile_args(hw)]
    if machine.ram is not None:
        base, size = machine.ram
        args += [arg("ram_base", base), arg("ram_size", size)]
    elf = machine.elf_path()
    if elf.exists():
        # The kernel's entry point runs before any address translation, so
        # its physical address is known: where the plugin learns the host
        # address of guest RAM (hw-models/qemu/plugin.c).  Its virtual
        # address is physical except on MIPS (kseg0: physical + 0x80000000),
        # where the ELF file's load addresses say which it is.
        entry = elf_entry(elf)
        args.append(arg("anchor", entry))
        entry_pa = entry_paddr(elf, entry)
        if entry_pa != entry:
            args.append(arg("anchor_pa", entry_pa))
        syms = Symbols.load(elf)
        vectors = (machine.trap_symbol,) if machine.trap_symbol is not None else ()
        for name in vectors + machine.other_vectors:
            addr = syms.address(name)
            if addr is None:
                raise SetupError(f"{elf}: no symbol {name!r} (a trap vector)")
            args.append(arg("trap_pc", addr))
        for key, name in zip(("wovf_pc", "wunf_pc"), machine.window_symbols or ()):
            addr = syms.address(name)
            if addr is None:
                raise SetupError(f"{elf}: no symbol {name!r} (a window trap handler)")
            args.append(arg(key, addr))
        disk = syms.address(DISK_SYMBOL)
        if disk is not None:
            args += [arg("disk_pc", disk), arg("disk_block", fsformat.BSIZE)]
        if hw.data.get("tlb", {}).get("refill") == "software":
            addr = syms.address(TLB_REFILL_SYMBOL)
            if addr is None:
                raise SetupError(f"profile {hw.name!r}: [tlb] refill = \"software\" needs the "
                                 f"kernel's {TLB_REFILL_SYMBOL!r} symbol")
            args.append(arg("tlb_refill_pc", addr))
    for a in args:
        if "," in a:
            raise SetupError(f"plugin argument {a!r} contains a comma")
    return args


def elf_entry(path: Path) -> int:
    """The entry point of a 32-bit ELF file."""
    head = path.read_bytes()[:28]
    if head[:4] != b"\x7fELF" or head[4] != 1:
        raise SetupError(f"{path}: not a 32-bit ELF file")
    return int.from_bytes(head[24:28], "little" if head[5] == 1 else "big")


def entry_paddr(path: Path, entry: int) -> int:
    """The physical address of `entry`: its place in the loadable segment that
    holds it (p_paddr + entry - p_vaddr)."""
    for vaddr, paddr, memsz in load_segments(path):
        if vaddr <= entry < vaddr + memsz:
            return paddr + entry - vaddr
    raise SetupError(f"{path}: the entry point {entry:#x} is in no loadable segment")


@dataclass(frozen=True)
class Backend:
    """Where a machine's model lives (Machine.model names one of BACKENDS)."""

    what: str                                    # for messages
    tracing: bool                                # takes trace= and attrib=
    argv: Callable[[list[str]], list[str]]       # key=value arguments -> emulator arguments


def _plugin_argv(args: list[str]) -> list[str]:
    if not PLUGIN.exists():
        raise SetupError(f"{rel(PLUGIN)} is missing: run `make hwmodel`")
    return ["-plugin", ",".join([str(PLUGIN), *args])]


BACKENDS = {
    "qemu-plugin": Backend("the QEMU plugin", True, _plugin_argv),
    # Our SIMH passes its one argument on to its MODEL command (the
    # script's `model %1`: harness/guest/machines.py); it runs the same
    # engine as the plugin (hw-models/simh/), trace= and attrib= included.
    "simh": Backend("our SIMH", True, lambda args: [",".join(args)]),
}


def backend(machine: Machine) -> Backend | None:
    return BACKENDS[machine.model] if machine.model is not None else None


def floor_args(machine: Machine) -> list[str]:
    """The emulator arguments that load the floor plugin: the model's
    instrumentation with empty callbacks (QEMU machines only)."""
    if machine.model != "qemu-plugin":
        raise SetupError(f"{machine.arch}: the floor is the QEMU plugin interface's cost; "
                         f"this machine's model is not a QEMU plugin")
    if not FLOOR_PLUGIN.exists():
        raise SetupError(f"{rel(FLOOR_PLUGIN)} is missing: run `make hwmodel`")
    return ["-plugin", str(FLOOR_PLUGIN)]


def emulator_args(hw: Profile, machine: Machine, log_path: Path,
                  extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """What to add to the machine's command line for this profile's model:
    -plugin ... for QEMU, the MODEL argument for SIMH; [] for a profile
    without a model.  `extra`: more key=value arguments (trace=, attrib=)."""
    if not hw.model:
        return []
    if hw.isa != machine.arch:
        raise SetupError(f"profile {hw.name!r} models a {hw.isa} machine, not {machine.arch}")
    end = backend(machine)
    if end is None:
        raise SetupError(f"the hardware model has no {machine.arch} instruction classes yet "
                         f"(profile {hw.name!r})")
    if extra and not end.tracing:
        raise SetupError(f"the {machine.arch} model does not take {', '.join(extra)} "
                         f"(no trace or attribution in {end.what} yet)")
    args = plugin_args(hw, machine, log_path) + list(extra)
    argv = end.argv(args)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    return argv
