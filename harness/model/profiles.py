"""Profiles: which machine a run stands for, hw-models/profiles/NAME.toml.

    p = profiles.load("ds3100")                     # validated, or SetupError
    p.get("memory.bandwidth_mbs"), p.mips, p.model, p.note
    profiles.load("ds3100", {"memory.bandwidth_mbs": 8.0})   # a sweep's point

"none" (none.toml, `model = false`) is plain QEMU with `-icount shift=0`,
where every guest instruction takes exactly 1 ns of guest time, so the
emulated machine is a 1000-MIPS processor with a perfect, free memory
system; its `mips` counts native instructions of the emulated ISA, which is
not the VAX-11/780-relative "MIPS" of the paper's Table 1.  Every other
profile is a hardware model that the QEMU plugin in hw-models/ (or our
SIMH, on the VAX) uses to charge modelled time for instructions, caches,
memory and disk; its `mips` is the machine's rating in the paper's Table 1
(VAX-11/780 = 1), which the calibration makes it meet, and what the report
divides by for a MIPS-relative speed.

A profile describes one machine: processor (clock, CPI, extra cycles per
instruction class, trap entry), caches, memory, disk, optionally TLBs.
What each field is, its type and range, is hw-models/core/params.def's
(read by schema.py); here are the rules between fields (a cache's size a
whole number of sets, a software-refilled TLB's fields) and the profile's
own fields outside its sections (name, machine, mips).  Every required
field must be there, so a typo or a forgotten field is caught here, with a
message that names the field, before the emulator starts; the model
checks again.  `overrides` change fields for sweeps and calibration and are
validated the same way; None takes a field out (an optional one: a
required one is then missing).
"""

from __future__ import annotations

import copy
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import ROOT, rel
from ..errors import SetupError
from ..guest import machines
from ..net import link
from . import schema

PROFILE_DIR = ROOT / "hw-models" / "profiles"
ETHERNET_HEADER = 14                    # two addresses and the type


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


@dataclass(frozen=True)
class Profile:
    """One profile, validated; `data` is its TOML with the overrides applied."""

    name: str
    path: Path
    data: dict[str, Any]

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

    @property
    def note(self) -> str:
        """One sentence for the foot of a report's tables."""
        if not self.model:
            return self.data["note"]
        rated = "as in the paper's Table 1" if self.data.get("paper") else "(an estimate)"
        return (f"profile {self.name} = hardware model of the {self.machine} "
                f"(hw-models/profiles/{self.name}.toml): modelled time, rated {self.mips:g} "
                f"MIPS {rated}.")

    def get(self, dotted: str) -> Any:
        section, _, key = dotted.rpartition(".")
        d = self.data[section] if section else self.data
        return d[key]


def names() -> list[str]:
    """Every profile name (hw-models/profiles/*.toml)."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def model_names() -> list[str]:
    """The profiles that are hardware models (every one but "none")."""
    return [n for n in names() if is_model(n)]


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


def load(name: str, overrides: dict[str, Any] | None = None,
         path: Path | None = None) -> Profile:
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
        raise SetupError(f"profile {name!r} ({rel(path)}): {problem}")
    if data.get("name") != name and path == PROFILE_DIR / f"{name}.toml":
        raise SetupError(f"profile {name!r} ({rel(path)}): name = {data.get('name')!r} "
                         f"does not match the file name")
    return Profile(name, path, data)


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
        # Its one section: the Ethernet between two machines of it, timed
        # by the model with nothing but the instruction count (harness/net/).
        for key in data:
            if key not in NO_MODEL and key not in ("model", "link"):
                return f"unknown field {key!r} (a profile with model = false has no model)"
        problem = _top_fields(data, NO_MODEL)
        if problem or "link" not in data:
            return problem
        return validate_section("link", data["link"], data["isa"])
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
    if name == "link":
        return _link_rules(sec)
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


def _link_rules(sec: dict[str, Any]) -> str | None:
    """The [link] section's rules between fields (each field is checked;
    hw-models/core/link.c's link_check and wire.c's wire_open check again):
    the framing's fields, given or params.def's defaults (IEEE 802.3's)."""
    f = link.framing(sec)
    if f["min_frame"] < f["fcs_bytes"] + ETHERNET_HEADER:
        return (f"[link] min_frame = {f['min_frame']} is shorter than an Ethernet header "
                f"and the FCS ({f['fcs_bytes'] + ETHERNET_HEADER} bytes)")
    if f["max_frame"] < f["min_frame"]:
        return f"[link] max_frame = {f['max_frame']} is shorter than min_frame ({f['min_frame']})"
    if f["max_frame"] - f["fcs_bytes"] > link.WIRE_FRAME_MAX:
        return (f"[link] max_frame = {f['max_frame']}: the wire carries frames of at most "
                f"{link.WIRE_FRAME_MAX} bytes and the FCS (hw-models/core/wire.h)")
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
