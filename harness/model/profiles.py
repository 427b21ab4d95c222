"""Timing profiles: which notional machine a run stands for.

A profile says how guest time relates to work done.  "none" is plain QEMU
with `-icount shift=0`, where every guest instruction takes exactly 1 ns of
guest time, so the emulated machine is a 1000-MIPS processor with a perfect,
free memory system.  Every other profile is a hardware model: a file
hw-models/profiles/NAME.toml (harness/hwmodel.py reads and checks it) that
the QEMU plugin in hw-models/ uses to charge modelled time for instructions,
caches, memory and disk; its `mips` is the machine's rating in the paper's
Table 1 (VAX-11/780 = 1), which the calibration makes it meet.

`mips` is what the report divides by when it computes a MIPS-relative speed
for our rows.  For "none" it counts native instructions of the emulated ISA,
which is not the VAX-11/780-relative "MIPS" of the paper's Table 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import hwmodel
from ..errors import SetupError


@dataclass(frozen=True)
class Profile:
    name: str
    mips: float                       # native instructions per microsecond
    note: str                         # one sentence for the foot of the table
    emulator_args: tuple[str, ...] = ()
    hw: hwmodel.HwProfile | None = None   # the hardware model, if any


PROFILES: dict[str, Profile] = {
    "none": Profile(
        "none", 1000.0,
        "profile none = plain QEMU -icount shift=0: 1 instruction = 1 ns, "
        "i.e. a 1000-MIPS machine with no memory model (every access is free)."),
}


def names() -> list[str]:
    """Every profile name: the built-in ones and hw-models/profiles/*.toml."""
    return sorted(set(PROFILES) | set(hwmodel.names()))


def get(name: str) -> Profile:
    """The profile called `name`; SetupError if unknown or if its file is wrong."""
    if name in PROFILES:
        return PROFILES[name]
    if name not in hwmodel.names():
        raise SetupError(f"unknown profile {name!r} (known: {', '.join(names())})")
    hw = hwmodel.load_profile(name)
    rated = "as in the paper's Table 1" if hw.data.get("paper") else "(an estimate)"
    note = (f"profile {name} = hardware model of the {hw.machine} "
            f"(hw-models/profiles/{name}.toml): modelled time, rated {hw.mips:g} MIPS "
            f"{rated}.")
    return Profile(name, hw.mips, note, hw=hw)
