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
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .. import ROOT
from ..errors import HarnessError, SetupError
from ..guest import fsformat, machines
from ..guest.elfsyms import Symbols, load_segments
from ..guest.machines import Machine
from ..guest.protocol import Result
from . import schema

PROFILE_DIR = ROOT / "hw-models" / "profiles"
PLUGIN = ROOT / "build" / "hw-models" / "libhwmodel.so"
# The model's callbacks with nothing in them (hw-models/floor/floor.c)
FLOOR_PLUGIN = ROOT / "build" / "hw-models" / "libfloor.so"

# The storage layer's per-request hook (kernel/port/ramdisk.c), which the
# model charges disk time at (a request is fsformat.BSIZE bytes a block).
DISK_SYMBOL = "disk_request"

# ------------------------------------------------------------------ profiles

def _str(v: Any) -> str | None:
    return None if isinstance(v, str) else "must be a string"


def _rating(v: Any) -> str | None:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0
    return None if ok else "must be a number > 0"


# A profile's own fields, outside its sections: what the report says about
# the machine.  They never reach the model (its parameters are params.def's).
TOP = {"name": _str, "machine": _str, "isa": _str, "paper": _str, "paper_os": _str,
       "mips": _rating}
# A profile without a model ("none"): what the report needs, nothing else.
NO_MODEL = {"name": _str, "machine": _str, "isa": _str, "mips": _rating, "note": _str}
FREE_SECTIONS = ("calibration",)     # written by the calibration, not checked

# A TLB's refill (params.def, tlb.refill): "walk" where the ISA's decoder
# knows its MMU, "software" where its kernel refills it (MIPS); which ISA
# has which is the registry's tlb_refill.  A software-refilled TLB takes
# only SOFTWARE_TLB_FIELDS, since its handler is charged as the code it is.
SOFTWARE_TLB_FIELDS = ("refill", "page_size")
TLB_REFILL_SYMBOL = "tlb_refill"          # MIPS: the refill vector (kernel/arch/mips)


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


def _top_fields(data: dict[str, Any], fields: dict[str, Any]) -> str | None:
    """The first of `fields` missing or wrong, as a message."""
    for key, check in fields.items():
        if key not in data:
            return f"{key} is missing"
        why = check(data[key])
        if why:
            return f"{key} = {data[key]!r} {why}"
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
    s = schema.load()
    known_top = set(TOP) | set(s.sections) | set(FREE_SECTIONS) | {"model"}
    for key in data:
        if key not in known_top:
            return f"unknown field {key!r}"
    for section in s.sections.values():
        if section.name not in data:
            if section.required:
                return f"section [{section.name}] is missing"
            continue
        problem = validate_section(section.name, data[section.name], data["isa"])
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


def validate_section(name: str, sec: Any, isa: str) -> str | None:
    """The first thing wrong with section [name], naming the field: each
    field as params.def says, then the rules between them."""
    if not isinstance(sec, dict):
        return f"[{name}] must be a section"
    params = schema.load().section_params(name)
    for key in sec:
        if key not in params:
            return f"[{name}] unknown field {key!r}"
    # What is needed: every REQ field; only the size of a part that is not
    # there (size = 0); only SOFTWARE_TLB_FIELDS of a software-refilled TLB.
    needed = [k for k, p in params.items() if p.required]
    if "size" in params and sec.get("size") == 0:
        needed = ["size"]
    if name == "tlb" and sec.get("refill") == "software":
        needed = list(SOFTWARE_TLB_FIELDS)
    for key, p in params.items():
        if key not in sec:
            if key in needed:
                return f"[{name}] {key} is missing"
            continue
        why = p.problem(sec[key])
        if why:
            return f"[{name}] {key} = {sec[key]!r} {why}"
    if {"size", "line", "assoc"} <= set(params) and sec["size"] != 0:
        return _cache_geometry(name, sec)
    if name == "tlb":
        return _tlb_rules(sec, isa)
    return None


def _cache_geometry(name: str, sec: dict[str, Any]) -> str | None:
    size, line, assoc = sec["size"], sec["line"], sec["assoc"]
    if size < line:
        return f"[{name}] size = {size} is smaller than one line ({line} bytes)"
    if size % (line * assoc):
        return (f"[{name}] size = {size} is not a whole number of sets "
                f"(line {line} x assoc {assoc})")
    sets = size // (line * assoc)
    if sets & (sets - 1):
        return f"[{name}] size = {size} gives {sets} sets, not a power of two"
    return None


def _table(sec: dict[str, Any], entries: str, assoc: str) -> str | None:
    """A TLB of sec[entries] entries, sec[assoc] ways: whole sets, a power of two."""
    n, a = sec[entries], sec[assoc]
    if n % a:
        return f"[tlb] {entries} = {n} is not a whole number of sets ({assoc} = {a})"
    if (n // a) & (n // a - 1):
        return f"[tlb] {entries} = {n} gives {n // a} sets, not a power of two"
    return None


def _tlb_rules(sec: dict[str, Any], isa: str) -> str | None:
    """The [tlb] section's rules between fields (each field is checked)."""
    walk = sec["refill"] == "walk"
    isas = [m.arch for m in machines.MACHINES.values() if m.tlb_refill == sec["refill"]]
    if isa not in isas:
        return (f"[tlb] refill = {sec['refill']!r} is not modelled on {isa} "
                f"(only on {', '.join(isas)})")
    if not walk:
        extra = [k for k in sec if k not in SOFTWARE_TLB_FIELDS]
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
    large = ("large_entries", "large_assoc", "large_page_size")
    given = [k for k in large if k in sec]
    if given and len(given) != 3:
        missing = next(k for k in large if k not in sec)
        return f"[tlb] {missing} is missing (large pages need all three large_ fields)"
    if given:
        if sec["large_page_size"] <= sec["page_size"]:
            return (f"[tlb] large_page_size = {sec['large_page_size']} must be larger than "
                    f"page_size ({sec['page_size']})")
        return _table(sec, "large_entries", "large_assoc")
    return None


# ------------------------------------------------------------------ the model's arguments

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


def profile_args(hw: HwProfile) -> list[str]:
    """The profile's parameters as the model's arguments: every field it
    gives, by its own name, in params.def's order.  A field it leaves out
    is not passed, and the model keeps its default."""
    args = []
    for p in schema.load().params.values():
        sec = hw.data.get(p.section)
        if isinstance(sec, dict) and p.key in sec:
            args.append(f"{p.name}={p.text(sec[p.key])}")
    return args


def plugin_args(hw: HwProfile, machine: Machine, log_path: Path) -> list[str]:
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
