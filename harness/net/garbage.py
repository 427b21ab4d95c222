"""The link's garbage mode: malformed frames for a machine, made by
harness/guest/netflood.py's generator (each frame wrong in one way, named
by the kernel counter that must count it) and written to a file the model
delivers from, one frame every garbage_every_ns of modelled time
(hw-models/core/wire.c: each frame a 2-byte big-endian length, then its
bytes).  The file is a function of the station's address, the count and
the seed, so two runs deliver the same frames at the same times.

    Schedule(frames=10_000, every_ns=200_000, start_ns=10**9)  # Pair(garbage=...)

The schedule is the run's, not the machine's: the model's garbage,
garbage_start_ns and garbage_every_ns arguments (params.def's RUNARGs).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import SetupError
from ..guest import netflood


@dataclass(frozen=True)
class Schedule:
    """`frames` malformed frames to each machine, one every `every_ns` of
    modelled time from `start_ns` on, made from `seed`."""

    frames: int
    every_ns: int
    start_ns: int = 0
    seed: int = 23

    def problem(self) -> str | None:
        """What is wrong with it, naming the field, or None."""
        for name in ("frames", "every_ns", "start_ns", "seed"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                return f"garbage {name} = {v!r} must be a whole number >= 0"
        if self.frames and self.every_ns == 0:
            return "garbage every_ns = 0 must be > 0"
        return None

    def check(self) -> "Schedule":
        why = self.problem()
        if why:
            raise SetupError(why)
        return self


@dataclass
class Flood:
    path: Path
    kinds: Counter                  # kernel counter -> frames it must count

    @property
    def frames(self) -> int:
        return sum(self.kinds.values())


def write(path: Path, mac: str, count: int, seed: int) -> Flood:
    kinds: Counter = Counter()
    with open(path, "wb") as f:
        for kind, frame in netflood.Frames(mac, seed).frames(count):
            f.write(len(frame).to_bytes(2, "big") + frame)
            kinds[kind] += 1
    return Flood(path, kinds)
