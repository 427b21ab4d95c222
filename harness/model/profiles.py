"""Timing profiles: which notional machine a run stands for.

Every profile is a file, hw-models/profiles/NAME.toml, read and checked by
hwmodel.py.  "none" (none.toml, `model = false`) is plain QEMU with
`-icount shift=0`, where every guest instruction takes exactly 1 ns of guest
time, so the emulated machine is a 1000-MIPS processor with a perfect, free
memory system.  Every other profile is a hardware model that the QEMU
plugin in hw-models/ (or our SIMH, on the VAX) uses to charge modelled time
for instructions, caches, memory and disk; its `mips` is the machine's
rating in the paper's Table 1 (VAX-11/780 = 1), which the calibration
makes it meet.

`mips` is what the report divides by when it computes a MIPS-relative speed
for our rows.  For "none" it counts native instructions of the emulated ISA,
which is not the VAX-11/780-relative "MIPS" of the paper's Table 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import hwmodel


@dataclass(frozen=True)
class Profile:
    name: str
    mips: float                       # native instructions per microsecond
    note: str                         # one sentence for the foot of the table
    hw: hwmodel.HwProfile             # the profile's file, validated

    @property
    def model(self) -> bool:
        """Whether a hardware model times the run (False for "none")."""
        return self.hw.model


def names() -> list[str]:
    """Every profile name (hw-models/profiles/*.toml)."""
    return hwmodel.names()


def model_names() -> list[str]:
    """The profiles that are hardware models (every one but "none")."""
    return [n for n in names() if hwmodel.is_model(n)]


def get(name: str) -> Profile:
    """The profile called `name`; SetupError if unknown or if its file is wrong."""
    hw = hwmodel.load_profile(name)
    if not hw.model:
        return Profile(name, hw.mips, hw.data["note"], hw)
    rated = "as in the paper's Table 1" if hw.data.get("paper") else "(an estimate)"
    note = (f"profile {name} = hardware model of the {hw.machine} "
            f"(hw-models/profiles/{name}.toml): modelled time, rated {hw.mips:g} MIPS "
            f"{rated}.")
    return Profile(name, hw.mips, note, hw)
