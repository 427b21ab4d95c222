"""Hardware-model profiles (hw-models/profiles/NAME.toml) and the model's log.

    hw = load_profile("ds3100")                     # validated, or SetupError
    argv += emulator_args(hw, machine, log_path)    # -plugin libhwmodel.so,...
    records = read_log(log_path)                    # HWREGION lines -> Region
    joined = join(results, records)                 # RESULT line -> its two regions

A profile describes one machine: processor (clock, CPI, extra cycles per
instruction class, trap entry), caches, memory, disk.  Every field is
required, so a typo or a forgotten field is caught here, with a message that
names the field, before QEMU starts; the model (hw-models/core/) checks
again.  `overrides` ({"memory.bandwidth_mbs": 8.0}) change fields for sweeps
and calibration and are validated the same way; None takes a field out
(an optional one: a required one is then missing).  The profile "none"
(`model = false`) has no model: only its name, rating and note.

What differs per ISA (the trap vector, guest RAM, which back end carries the
model) comes from the ISA's Machine record (harness/guest/machines.py); the
back ends differ only in how the model's key=value arguments reach it.

The model writes one HWREGION record per timed region (docs/protocol.md).
join() pairs each benchmark RESULT with the records of its timed and empty
regions: the guest printed ns == the record's clock_ns exactly, because the
guest read the same modelled clock; a mismatch is an error, not a guess.
"""

from __future__ import annotations

import copy
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .. import ROOT
from ..errors import HarnessError, SetupError
from ..guest.elfsyms import Symbols, load_segments
from ..guest import machines
from ..guest.machines import Machine
from ..guest.protocol import Result

PROFILE_DIR = ROOT / "hw-models" / "profiles"
PLUGIN = ROOT / "build" / "hw-models" / "libhwmodel.so"
# The model's callbacks with nothing in them (hw-models/floor/floor.c)
FLOOR_PLUGIN = ROOT / "build" / "hw-models" / "libfloor.so"

# The storage layer's per-request hook (kernel/port/ramdisk.c), which the
# model charges disk time at, and where its block size is defined.
DISK_SYMBOL = "disk_request"
FSFORMAT_H = ROOT / "kernel" / "include" / "fsformat.h"

# ------------------------------------------------------------------ schema

def _pos(v: Any) -> str | None:
    return None if _num(v) and v > 0 else "must be a number > 0"


def _nonneg(v: Any) -> str | None:
    return None if _num(v) and v >= 0 else "must be a number >= 0"


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _count(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else \
        "must be a whole number >= 0"


def _poscount(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v > 0 else \
        "must be a whole number > 0"


def _pow2(v: Any) -> str | None:
    if _poscount(v):
        return "must be a power of two"
    return None if v & (v - 1) == 0 else "is not a power of two"


def _within(lo: float, hi: float, why: str) -> Callable[[Any], str | None]:
    """A number in [lo, hi], the range `why` documents (named in the error)."""
    def check(v: Any) -> str | None:
        if _num(v) and lo <= v <= hi:
            return None
        return f"must be a number from {lo:g} to {hi:g} ({why})"
    return check


def _str(v: Any) -> str | None:
    return None if isinstance(v, str) else "must be a string"


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _policy(v: Any) -> str | None:
    return None if v in ("write-back", "write-through") else \
        'must be "write-back" or "write-through"'


TOP = {"name": _str, "machine": _str, "isa": _str, "paper": _str, "paper_os": _str,
       "mips": _pos}
# A profile without a model ("none"): what the report needs, nothing else.
NO_MODEL = {"name": _str, "machine": _str, "isa": _str, "mips": _pos, "note": _str}
SECTIONS: dict[str, dict[str, Any]] = {
    "cpu": {"clock_mhz": _pos, "cpi": _pos, "load_extra": _nonneg, "store_extra": _nonneg,
            "branch_extra": _nonneg, "mul_extra": _nonneg, "div_extra": _nonneg,
            "trap_extra": _nonneg},
    "icache": {"size": _count, "line": _pow2, "assoc": _poscount},
    "dcache": {"size": _count, "line": _pow2, "assoc": _poscount, "write_policy": _policy,
               "write_allocate": _bool, "write_buffer": _count},
    "l2": {"size": _count, "line": _pow2, "assoc": _poscount, "latency_ns": _nonneg,
           "write_policy": _policy, "write_allocate": _bool},
    "memory": {"latency_ns": _nonneg, "bandwidth_mbs": _pos, "bus_bytes": _pow2},
    "disk": {"overhead_us": _nonneg, "seek_ms": _nonneg, "rpm": _nonneg,
             "transfer_mbs": _pos, "cylinder_sectors": _poscount},
}
OPTIONAL_SECTIONS = ("l2",)
# The documented ranges of the optional fields below (calibrate.py keeps a
# fitted write_ns inside its range).
DWORD_EXTRA_RANGE = (0.0, 4.0)
WRITE_NS_RANGE = (100.0, 600.0)

# Optional fields, each absent from profiles that do not need it, and then
# not passed to the model, which keeps those profiles' results as they were.
OPTIONAL_KEYS: dict[str, dict[str, Any]] = {
    "dcache": {"unified": _bool},
    # A doubleword load or store's second word (SPARC ldd/std): the MB86900
    # took one cycle more than for ld/st; more than a few bus cycles for one
    # more word no processor took.
    "cpu": {"dword_extra": _within(*DWORD_EXTRA_RANGE,
                                   "cycles for a doubleword access's second word")},
    # Memory time per bus word written, where the memory's write cycle is
    # slower than its reads stream (the DS3100): one DRAM write cycle of
    # 1985-1992 parts (150-230 ns for 80-120 ns DRAMs) plus up to a few
    # cycles of the memory controller's read-modify-write and bus overhead.
    "memory": {"write_ns": _within(*WRITE_NS_RANGE, "a DRAM write cycle of the period "
                                   "plus controller overhead, in ns per bus word")},
}
FREE_SECTIONS = ("calibration",)     # written by the calibration, not checked

# The optional [tlb] section (hw-models/core/tlb.c).  A profile without
# one has no TLB in the model and its records read as before.  `refill`
# says who refills it: "walk", the hardware's page-table walk, charged by
# the model (on the ISAs whose decoder knows their MMU); "software", a
# kernel handler (MIPS), which is charged as the code it is, so the model
# only counts refills and needs nothing else.  Which ISA has which: the
# registry's tlb_refill.
TLB_REFILL_SYMBOL = "tlb_refill"          # MIPS: the refill vector (kernel/arch/mips)


def _refill(v: Any) -> str | None:
    return None if v in ("walk", "software") else 'must be "walk" or "software"'


def _replacement(v: Any) -> str | None:
    return None if v == "lru" else 'must be "lru" (the only replacement modelled)'


TLB_FIELDS: dict[str, Any] = {"refill": _refill, "page_size": _pow2}
TLB_WALK_FIELDS: dict[str, Any] = {
    "itlb_entries": _count, "itlb_assoc": _poscount, "dtlb_entries": _poscount,
    "dtlb_assoc": _poscount, "replacement": _replacement, "walk_cycles": _nonneg}
TLB_OPTIONAL: dict[str, Any] = {"unified": _bool, "large_entries": _poscount,
                                "large_assoc": _poscount, "large_page_size": _pow2}
CACHES = ("icache", "dcache", "l2")


@dataclass(frozen=True)
class HwProfile:
    name: str
    path: Path
    data: dict[str, Any]             # the validated TOML, with overrides applied

    @property
    def model(self) -> bool:
        return self.data.get("model", True)

    @property
    def isa(self) -> str:
        return self.data["isa"]

    @property
    def mips(self) -> float:
        return float(self.data.get("mips", 1000.0))

    @property
    def machine(self) -> str:
        return self.data["machine"]

    def get(self, dotted: str) -> Any:
        section, _, key = dotted.rpartition(".")
        d = self.data[section] if section else self.data
        return d[key]


def names() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def is_model(name: str) -> bool:
    """Whether profile `name` is a hardware model, from its file's `model`
    key alone (no validation: an unreadable file counts as a model, so that
    it is listed and its error shows when it is used)."""
    try:
        return tomllib.loads((PROFILE_DIR / f"{name}.toml").read_text()).get("model", True) \
            is not False
    except (OSError, tomllib.TOMLDecodeError):
        return True


def profile_path(name: str) -> Path:
    path = PROFILE_DIR / f"{name}.toml"
    if not path.exists():
        raise SetupError(f"unknown profile {name!r} (known: {', '.join(names())})")
    return path


def load_profile(name: str, overrides: dict[str, Any] | None = None,
                 path: Path | None = None) -> HwProfile:
    """Read and validate a profile; SetupError naming the field if it is wrong."""
    path = path or profile_path(name)
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise SetupError(f"profile {name!r} ({path}): not valid TOML: {e}") from None
    data = copy.deepcopy(data)
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.rpartition(".")
        target = data.setdefault(section, {}) if section else data
        if not isinstance(target, dict):
            raise SetupError(f"profile {name!r}: cannot override {dotted}")
        if value is None:                   # an optional field, taken out
            target.pop(key, None)
        else:
            target[key] = value
    problem = validate(data)
    if problem:
        raise SetupError(f"profile {name!r} ({_rel(path)}): {problem}")
    if data.get("name") != name and path == PROFILE_DIR / f"{name}.toml":
        raise SetupError(f"profile {name!r} ({_rel(path)}): name = {data.get('name')!r} "
                         f"does not match the file name")
    return HwProfile(name, path, data)


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _top_fields(data: dict[str, Any], fields: dict[str, Any], where: str = "") -> str | None:
    """The first of `fields` missing or wrong, as a message; `where` names
    the section ("[tlb] "), empty for the top level."""
    for key, check in fields.items():
        if key not in data:
            return f"{where}{key} is missing"
        why = check(data[key])
        if why:
            return f"{where}{key} = {data[key]!r} {why}"
    return None


def validate(data: dict[str, Any]) -> str | None:
    """The first thing wrong with a profile, as a message naming the field."""
    if data.get("model", True) is False:
        for key in data:
            if key not in NO_MODEL and key != "model":
                return f"unknown field {key!r} (a profile with model = false has no model)"
        return _top_fields(data, NO_MODEL)
    problem = _top_fields(data, TOP)
    if problem:
        return problem
    known_top = set(TOP) | set(SECTIONS) | set(FREE_SECTIONS) | {"model", "tlb"}
    for key in data:
        if key not in known_top:
            return f"unknown field {key!r}"
    for section, fields in SECTIONS.items():
        if section not in data:
            if section in OPTIONAL_SECTIONS:
                continue
            return f"section [{section}] is missing"
        sec = data[section]
        if not isinstance(sec, dict):
            return f"[{section}] must be a section"
        no_cache = section in CACHES and sec.get("size") == 0
        allowed = dict(fields, **OPTIONAL_KEYS.get(section, {}))
        for key in sec:
            if key not in allowed:
                return f"[{section}] unknown field {key!r}"
        for key, check in fields.items():
            if no_cache and key != "size":
                continue                     # size = 0: no such cache, nothing else needed
            if key not in sec:
                return f"[{section}] {key} is missing"
            why = check(sec[key])
            if why:
                return f"[{section}] {key} = {sec[key]!r} {why}"
        for key, check in OPTIONAL_KEYS.get(section, {}).items():
            if key in sec and check(sec[key]):
                return f"[{section}] {key} = {sec[key]!r} {check(sec[key])}"
        if section in CACHES and not no_cache:
            size, line, assoc = sec["size"], sec["line"], sec["assoc"]
            if size < line:
                return f"[{section}] size = {size} is smaller than one line ({line} bytes)"
            if size % (line * assoc):
                return (f"[{section}] size = {size} is not a whole number of sets "
                        f"(line {line} x assoc {assoc})")
            sets = size // (line * assoc)
            if sets & (sets - 1):
                return f"[{section}] size = {size} gives {sets} sets, not a power of two"
    if "tlb" in data:
        problem = validate_tlb(data["tlb"], data["isa"])
        if problem:
            return problem
    dc, ic, l2 = data["dcache"], data["icache"], data.get("l2")
    if dc.get("unified") and ic.get("size", 0) != 0:
        return "[dcache] unified = true, so [icache] size must be 0"
    if l2 and l2.get("size", 0):
        for sec in ("icache", "dcache"):
            c = data[sec]
            if c.get("size", 0) and c["line"] > l2["line"]:
                return f"[l2] line = {l2['line']} is smaller than the [{sec}] line ({c['line']})"
    return None


def _table(sec: dict[str, Any], entries: str, assoc: str) -> str | None:
    """A TLB of sec[entries] entries, sec[assoc] ways: whole sets, a power of two."""
    n, a = sec[entries], sec[assoc]
    if n % a:
        return f"[tlb] {entries} = {n} is not a whole number of sets ({assoc} = {a})"
    if (n // a) & (n // a - 1):
        return f"[tlb] {entries} = {n} gives {n // a} sets, not a power of two"
    return None


def validate_tlb(sec: Any, isa: str) -> str | None:
    """The first thing wrong with a [tlb] section, naming the field."""
    if not isinstance(sec, dict):
        return "[tlb] must be a section"
    allowed = {**TLB_FIELDS, **TLB_WALK_FIELDS, **TLB_OPTIONAL}
    for key in sec:
        if key not in allowed:
            return f"[tlb] unknown field {key!r}"
    walk = sec.get("refill") == "walk"
    required = {**TLB_FIELDS, **(TLB_WALK_FIELDS if walk else {})}
    problem = _top_fields(sec, required, "[tlb] ")
    if problem:
        return problem
    for key, check in TLB_OPTIONAL.items():
        if key in sec and check(sec[key]):
            return f"[tlb] {key} = {sec[key]!r} {check(sec[key])}"
    isas = [m.arch for m in machines.MACHINES.values() if m.tlb_refill == sec["refill"]]
    if isa not in isas:
        return (f"[tlb] refill = {sec['refill']!r} is not modelled on {isa} "
                f"(only on {', '.join(isas)})")
    if not walk:
        extra = [k for k in sec if k not in TLB_FIELDS]
        return f"[tlb] {extra[0]} is not used with refill = \"software\"" if extra else None
    if sec.get("unified"):
        if sec["itlb_entries"]:
            return "[tlb] unified = true, so itlb_entries must be 0"
    else:
        if sec["itlb_entries"] == 0:
            return "[tlb] itlb_entries = 0 must be a whole number > 0 (or unified = true)"
        problem = _table(sec, "itlb_entries", "itlb_assoc")
        if problem:
            return problem
    problem = _table(sec, "dtlb_entries", "dtlb_assoc")
    if problem:
        return problem
    large = [k for k in ("large_entries", "large_assoc", "large_page_size") if k in sec]
    if large and len(large) != 3:
        missing = next(k for k in ("large_entries", "large_assoc", "large_page_size")
                       if k not in sec)
        return f"[tlb] {missing} is missing (large pages need all three large_ fields)"
    if large:
        if sec["large_page_size"] <= sec["page_size"]:
            return (f"[tlb] large_page_size = {sec['large_page_size']} must be larger than "
                    f"page_size ({sec['page_size']})")
        return _table(sec, "large_entries", "large_assoc")
    return None


def tlb_args(hw: HwProfile, syms: Symbols | None) -> list[str]:
    """The model's TLB arguments ([] without a [tlb] section)."""
    t = hw.data.get("tlb")
    if not t:
        return []
    args = [f"tlb_page={t['page_size']}"]
    if t["refill"] == "software":
        addr = syms.address(TLB_REFILL_SYMBOL) if syms else None
        if addr is None:
            raise SetupError(f"profile {hw.name!r}: [tlb] refill = \"software\" needs the "
                             f"kernel's {TLB_REFILL_SYMBOL!r} symbol (build the kernel first)")
        return args + ["tlb_software=on", f"tlb_refill_pc={addr:#x}"]
    args += [f"itlb_entries={t['itlb_entries']}", f"itlb_assoc={t['itlb_assoc']}",
             f"dtlb_entries={t['dtlb_entries']}", f"dtlb_assoc={t['dtlb_assoc']}",
             f"tlb_unified={'on' if t.get('unified') else 'off'}",
             f"tlb_walk_cycles={t['walk_cycles']}"]
    if "large_entries" in t:
        args += [f"tlb_large_entries={t['large_entries']}",
                 f"tlb_large_assoc={t['large_assoc']}",
                 f"tlb_large_size={t['large_page_size']}"]
    return args


# ------------------------------------------------------------------ the model's arguments

def plugin_args(hw: HwProfile, machine: Machine, log_path: Path) -> list[str]:
    """The model's key=value arguments for this profile on this machine
    (the same keys for the QEMU plugin and our SIMH).  The kernel's
    symbols come from its ELF file, when it has been built."""
    d = hw.data
    cpu, ic, dc, mem, disk = d["cpu"], d["icache"], d["dcache"], d["memory"], d["disk"]
    l2 = d.get("l2") or {"size": 0}

    def b(v: bool) -> str:
        return "on" if v else "off"

    args = [f"out={log_path}",
            f"clock_mhz={cpu['clock_mhz']}", f"cpi={cpu['cpi']}",
            f"load={cpu['load_extra']}", f"store={cpu['store_extra']}",
            f"branch={cpu['branch_extra']}", f"mul={cpu['mul_extra']}",
            f"div={cpu['div_extra']}", f"trap={cpu['trap_extra']}"]
    if "dword_extra" in cpu:
        args.append(f"dword={cpu['dword_extra']}")
    if ic["size"]:
        args += [f"ic_size={ic['size']}", f"ic_line={ic['line']}", f"ic_assoc={ic['assoc']}"]
    if dc["size"]:
        args += [f"dc_size={dc['size']}", f"dc_line={dc['line']}", f"dc_assoc={dc['assoc']}",
                 f"dc_wb={b(dc['write_policy'] == 'write-back')}",
                 f"dc_alloc={b(dc['write_allocate'])}",
                 f"unified={b(dc.get('unified', False))}"]
    if dc["size"] or "write_buffer" in dc:
        args.append(f"wbuf={dc.get('write_buffer', 0)}")
    if l2["size"]:
        args += [f"l2_size={l2['size']}", f"l2_line={l2['line']}", f"l2_assoc={l2['assoc']}",
                 f"l2_ns={l2['latency_ns']}", f"l2_wb={b(l2['write_policy'] == 'write-back')}",
                 f"l2_alloc={b(l2['write_allocate'])}"]
    args += [f"mem_ns={mem['latency_ns']}", f"mem_mbs={mem['bandwidth_mbs']}",
             f"bus={mem['bus_bytes']}"]
    if "write_ns" in mem:
        args.append(f"mem_write_ns={mem['write_ns']}")
    args += [
             f"disk_overhead_us={disk['overhead_us']}", f"disk_seek_ms={disk['seek_ms']}",
             f"disk_rpm={disk['rpm']}", f"disk_mbs={disk['transfer_mbs']}",
             f"disk_cyl_sectors={disk['cylinder_sectors']}"]
    if machine.ram is not None:
        base, size = machine.ram
        args += [f"ram_base={base:#x}", f"ram_size={size}"]
    elf = machine.elf_path()
    if elf.exists():
        # The kernel's entry point runs before any address translation, so
        # its physical address is known: where the plugin learns the host
        # address of guest RAM (hw-models/qemu/plugin.c).  Its virtual
        # address is physical except on MIPS (kseg0: physical + 0x80000000),
        # where the ELF file's load addresses say which it is.
        entry = elf_entry(elf)
        args.append(f"anchor={entry:#x}")
        entry_pa = entry_paddr(elf, entry)
        if entry_pa != entry:
            args.append(f"anchor_pa={entry_pa:#x}")
        syms = Symbols.load(elf)
        vectors = (machine.trap_symbol,) if machine.trap_symbol is not None else ()
        for name in vectors + machine.other_vectors:
            addr = syms.address(name)
            if addr is None:
                raise SetupError(f"{elf}: no symbol {name!r} (a trap vector)")
            args.append(f"trap_pc={addr:#x}")
        for key, name in zip(("wovf_pc", "wunf_pc"), machine.window_symbols or ()):
            addr = syms.address(name)
            if addr is None:
                raise SetupError(f"{elf}: no symbol {name!r} (a window trap handler)")
            args.append(f"{key}={addr:#x}")
        disk = syms.address(DISK_SYMBOL)
        if disk is not None:
            args += [f"disk_pc={disk:#x}", f"disk_block={block_size()}"]
        args += tlb_args(hw, syms)
    elif hw.data.get("tlb", {}).get("refill") == "walk":
        args += tlb_args(hw, None)
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


def block_size() -> int:
    """The file system's block size (BSIZE in kernel/include/fsformat.h)."""
    m = re.search(r"^#define\s+BSIZE\s+(\d+)", FSFORMAT_H.read_text(), re.M)
    if not m:
        raise SetupError(f"{_rel(FSFORMAT_H)}: no #define BSIZE")
    return int(m.group(1))


@dataclass(frozen=True)
class Backend:
    """Where a machine's model lives (Machine.model names one of BACKENDS)."""

    what: str                                    # for messages
    tracing: bool                                # takes trace= and attrib=
    argv: Callable[[list[str]], list[str]]       # key=value arguments -> emulator arguments


def _plugin_argv(args: list[str]) -> list[str]:
    if not PLUGIN.exists():
        raise SetupError(f"{_rel(PLUGIN)} is missing: run `make hwmodel`")
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
        raise SetupError(f"{_rel(FLOOR_PLUGIN)} is missing: run `make hwmodel`")
    return ["-plugin", str(FLOOR_PLUGIN)]


def emulator_args(hw: HwProfile, machine: Machine, log_path: Path,
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


# ------------------------------------------------------------------ the log

COUNTERS = ("insns", "loads", "stores", "imiss", "dmiss", "dmiss_w", "writebacks", "l2miss",
            "bytes_in", "bytes_out", "traps", "disk", "disk_ns", "stall_cycles",
            "wbuf_cycles", "cycles", "ns")
# Only where the ISA has them (SPARC's register window traps), or the
# profile a [tlb] (TLB refills; x86's segment register loads).
OPTIONAL_COUNTERS = ("wovf", "wunf", "itlb_miss", "dtlb_miss", "segloads")
TLB_COUNTERS = ("itlb_miss", "dtlb_miss", "segloads")

# Chen et al.'s event counters (shared/papers/004, section 3.2: the
# Pentium's counters they printed beside every result), by their names,
# from the model's counters.  None: not modelled on this profile (no [tlb];
# segment loads: x86 only).
CHEN_EVENTS = (("cycles", "cycles"), ("instructions", "insns"), ("data_reads", "loads"),
               ("data_writes", "stores"), ("icache_misses", "imiss"),
               ("dcache_misses", "dmiss"), ("itlb_misses", "itlb_miss"),
               ("dtlb_misses", "dtlb_miss"), ("segment_loads", "segloads"))


@dataclass
class Region:
    """One HWREGION record: counters for one timed region."""

    seq: int
    id: int
    fields: dict[str, int]
    line: str = ""

    def __getitem__(self, key: str) -> int:
        return self.fields[key]

    @property
    def clock_ns(self) -> int:
        return self.fields["clock_ns"]


def parse_fields(words: list[str], line: str) -> dict[str, int]:
    out = {}
    for w in words:
        k, eq, v = w.partition("=")
        if not eq:
            raise HarnessError(f"hardware model log: bad field {w!r} in {line!r}")
        try:
            out[k] = int(v)
        except ValueError:
            out[k] = v                      # type: ignore[assignment]
    return out


def read_log(path: Path) -> tuple[list[Region], list[str]]:
    """(region records, warning lines) from a plugin log."""
    regions: list[Region] = []
    warnings: list[str] = []
    if not path.exists():
        return regions, warnings
    for line in path.read_text().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "HWREGION":
            f = parse_fields(words[1:], line)
            regions.append(Region(f.pop("seq"), f.pop("id"), f, line))
        elif words[0] == "HWWARN":
            warnings.append(line)
    return regions, warnings


@dataclass
class Joined:
    """A RESULT line with its timed and empty regions."""

    result: Result
    timed: Region
    empty: Region

    def per_op(self, key: str) -> float:
        """Counter per operation, empty loop subtracted (like ns per op)."""
        iters = self.result.iters or 1
        return (self.timed[key] - self.empty[key]) / iters

    def counters(self) -> dict[str, float]:
        out = {k: self.per_op(k) for k in COUNTERS}
        for k in OPTIONAL_COUNTERS:
            if k in self.timed.fields and k in self.empty.fields:
                out[k] = self.per_op(k)
        return out

    def events(self, isa: str) -> dict[str, float | None]:
        """Chen et al.'s event counts per operation, by their names."""
        return chen_events(self.counters(), isa)


def _counts_segment_loads(isa: str) -> bool:
    machine = machines.find(isa)
    return machine is not None and machine.segment_loads


def chen_events(per_op: dict[str, float], isa: str) -> dict[str, float | None]:
    """CHEN_EVENTS from counters per operation; None where not modelled."""
    out: dict[str, float | None] = {}
    for name, key in CHEN_EVENTS:
        if key == "segloads" and not _counts_segment_loads(isa):
            out[name] = None
        else:
            out[name] = per_op.get(key)
    return out


def join(results: list[Result], regions: list[Region]) -> list[Joined]:
    """Pair each result, in order, with the first later timed/empty pair whose
    clocks equal its ns and loop_ns."""
    out = []
    i = 0
    for r in results:
        found = None
        for k in range(i, len(regions) - 1):
            t, e = regions[k], regions[k + 1]
            if t.id % 2 == 0 and e.id == t.id + 1 and t.clock_ns == r.ns and \
                    e.clock_ns == r.loop_ns:
                found = k
                break
        if found is None:
            raise HarnessError(f"hardware model: no region records match "
                               f"{r.bench} {r.case} (ns={r.ns} loop_ns={r.loop_ns}): "
                               f"guest time and model log disagree")
        out.append(Joined(r, regions[found], regions[found + 1]))
        i = found + 2
    return out


# ------------------------------------------------------------------ MIPS rating

# "MIPS, VAX-11/780 = 1", the way Table 1 means it: a machine's rating is
# the time a VAX-11/780 takes for some work divided by the machine's time
# for it.  The work is N iterations of our integer benchmark
# (guests/bin/mips.c), the same C source on every ISA.  The 780's time for
# it: N x VAX_MIPS_INSNS_PER_ITER VAX instructions at 0.47 million VAX
# instructions per second (Emer & Clark, ISCA 1984: 10.6 cycles of 200 ns
# per instruction).  VAX_MIPS_INSNS_PER_ITER is what our VAX build of `mips`
# executes per iteration, counted under SIMH (the empty loop subtracted)
# and checked by tests/integration/test_hwmodel_plugin.py, so a change to
# mips.c or to the VAX compiler cannot silently move the scale.  With it,
# the MicroVAX II model fitted to 0.9 reads 0.9, and a RISC-V, x86 or 68k
# model is rated against the same 780 doing the same work.
VAX_780_INSNS_PER_SECOND = 0.47e6
VAX_MIPS_INSNS_PER_ITER = 534


def mips_rating(iters: int, ns: int) -> float:
    """MIPS relative to a VAX-11/780, from `mips`'s iterations and net time."""
    vax_780_seconds = iters * VAX_MIPS_INSNS_PER_ITER / VAX_780_INSNS_PER_SECOND
    return vax_780_seconds / (ns * 1e-9)


# ------------------------------------------------------------------ report

COLUMNS = (("insns", "insns"), ("loads", "loads"), ("stores", "stores"),
           ("I-miss", "imiss"), ("D-miss", "dmiss"), ("wr-back", "writebacks"),
           ("B in", "bytes_in"), ("B out", "bytes_out"), ("traps", "traps"),
           ("cycles", "cycles"), ("stall%", None))
# Columns for the OPTIONAL_COUNTERS, after "traps", where the records have them.
WINDOW_COLUMNS = (("w-ovf", "wovf"), ("w-unf", "wunf"))
TLB_COLUMNS = (("ITLB-miss", "itlb_miss"), ("DTLB-miss", "dtlb_miss"), ("seg-ld", "segloads"))


def _cell(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 1:
        return f"{v:.1f}"
    return f"{v:.3f}"


def format_counters(hw: HwProfile, joined: list[Joined]) -> str:
    """A table of counters per operation, as Chen et al. print beside each
    benchmark: one row per RESULT, empty-loop counts subtracted."""
    return format_counter_table(hw.name, hw.machine, hw.mips,
                                [(j.result, j.counters()) for j in joined])


def format_counter_table(profile: str, machine: str, table1_mips: float,
                         items: list[tuple[Result, dict[str, float]]]) -> str:
    """format_counters() from (RESULT, counters per operation) pairs, as a
    results file keeps them (`python3 -m harness report`)."""
    columns = list(COLUMNS)
    notes = []
    if items and all(k in c for _, c in items for _, k in WINDOW_COLUMNS):
        at = [k for _, k in columns].index("traps") + 1
        columns[at:at] = WINDOW_COLUMNS
        notes.append("w-ovf, w-unf = register window overflow and underflow traps")
    if items and all(k in c for _, c in items for _, k in TLB_COLUMNS):
        at = [k for _, k in columns].index("dmiss") + 1
        columns[at:at] = TLB_COLUMNS
        segments = ", ".join(m.arch for m in machines.MACHINES.values() if m.segment_loads)
        notes.append("ITLB-miss, DTLB-miss = TLB refills; seg-ld = segment register loads "
                     f"({segments})")
    header = ["benchmark", *[c for c, _ in columns]]
    rows = []
    for result, c in items:
        cells = [f"{result.bench} {result.case}"]
        for _, key in columns:
            if key is None:
                stall = c["stall_cycles"] / c["cycles"] * 100 if c["cycles"] else 0.0
                cells.append(f"{stall:.0f}")
            else:
                cells.append(_cell(c[key]))
        rows.append(cells)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"Hardware model counters per operation: profile {profile}, {machine}"]
    fmt = lambda r: "  ".join([r[0].ljust(widths[0])] +  # noqa: E731
                              [x.rjust(w) for x, w in zip(r[1:], widths[1:])])
    lines.append(fmt(header))
    lines.append("  ".join("-" * w for w in widths))
    lines += [fmt(r) for r in rows]
    lines.append("(per operation, empty loop subtracted; stall% = memory and disk stall "
                 "cycles / all cycles; B = bytes to/from memory"
                 + "".join("; " + n for n in notes) + ")")
    for r, _ in items:
        if r.bench == "mips" and r.net_ns > 0:
            lines.append(f"mips: {mips_rating(r.iters, r.net_ns):.2f} MIPS "
                         f"(VAX-11/780 = 1: the 780's time for the same work); "
                         f"Table 1 rates this machine {table1_mips:g}")
    return "\n".join(lines) + "\n"
