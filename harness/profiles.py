"""Timing profiles: which notional machine a run stands for.

A profile says how guest time relates to work done.  Today there is only
"none": plain QEMU with `-icount shift=0`, where every guest instruction
takes exactly 1 ns of guest time, so the emulated machine is a 1000-MIPS
processor with a perfect, free memory system.  Hardware models (hw-models/,
later) will add profiles that charge modelled time for caches and memory;
each then names its nominal MIPS rating and any extra emulator arguments.

`mips` is what the report divides by when it computes a MIPS-relative speed
for our rows; it counts native instructions of the emulated ISA, which is not
the VAX-11/780-relative "MIPS" of the paper's Table 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SetupError


@dataclass(frozen=True)
class Profile:
    name: str
    mips: float                       # native instructions per microsecond
    note: str                         # one sentence for the foot of the table
    emulator_args: tuple[str, ...] = ()


PROFILES: dict[str, Profile] = {
    "none": Profile(
        "none", 1000.0,
        "profile none = plain QEMU -icount shift=0: 1 instruction = 1 ns, "
        "i.e. a 1000-MIPS machine with no memory model (every access is free)."),
}


def get(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(sorted(PROFILES))
        raise SetupError(f"unknown profile {name!r} (known: {known})") from None
