"""The link's garbage mode: malformed frames for a machine, made by
harness/guest/netflood.py's generator (each frame wrong in one way, named
by the kernel counter that must count it) and written to a file the model
delivers from, one frame every garbage_every_ns of modelled time
(hw-models/core/wire.c: each frame a 2-byte big-endian length, then its
bytes).  The file is a function of the station's address, the count and
the seed, so two runs deliver the same frames at the same times.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..guest import netflood


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
