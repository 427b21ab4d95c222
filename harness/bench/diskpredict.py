"""What a disk request costs under a profile, as the hardware model charges
it (hw-models/core/disk.c), for the Final Results Table's file-system rows
(harness/bench/finaltable.py, docs/measure.md).

The model charges every request a fixed overhead and the transfer; a
request that does not start where the last one ended also waits half a
rotation, and a seek if its first sector is on another cylinder.  So a
sequential read of one block costs overhead + transfer, and a random one
adds half a rotation, and the seek only when the cylinder changes.  How
often it changes depends on where the file lies, which the guest cannot
see; random_ns() assumes the file's blocks lie in a row (a file written in
one go on a fresh disk) at a place on the cylinders taken at random, and
averages over those places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..guest.fsformat import BSIZE      # the file system's block: one request
SECTOR = 512            # the model counts positions in sectors


@dataclass(frozen=True)
class Disk:
    """The profile's [disk] section, in ns and sectors."""

    overhead_ns: float
    transfer_ns: float          # one BSIZE block at the transfer rate
    half_rotation_ns: float
    seek_ns: float
    cylinder_sectors: int

    @staticmethod
    def from_profile(data: dict[str, Any]) -> "Disk":
        if not data.get("model", True):             # profile none: a disk that costs nothing
            return Disk(0.0, 0.0, 0.0, 0.0, 1)
        d = data["disk"]
        mbs, rpm = float(d["transfer_mbs"]), float(d["rpm"])
        return Disk(float(d["overhead_us"]) * 1e3, BSIZE * 1e3 / mbs if mbs else 0.0,
                    0.5 * 60e9 / rpm if rpm else 0.0, float(d["seek_ms"]) * 1e6,
                    max(1, int(d["cylinder_sectors"])))

    @property
    def sequential_ns(self) -> float:
        """A block read right after the one before it."""
        return self.overhead_ns + self.transfer_ns

    def same_cylinder(self, nbytes: int) -> float:
        """The chance that two different blocks of a file of nbytes, picked
        at random (two reads of a shuffled order in a row), start on the same
        cylinder: for each of the file's places relative to the cylinder
        boundaries (a sector offset), the share of block pairs on a common
        cylinder, averaged over the places."""
        blocks = max(1, nbytes // BSIZE)
        if blocks == 1:
            return 1.0
        per_block, cyl = BSIZE // SECTOR, self.cylinder_sectors

        def first_block_at(sector: int, offset: int) -> int:
            """The first block starting at or after `sector`, clamped to the file."""
            return min(blocks, max(0, -(-(sector - offset) // per_block)))

        total = 0.0
        for offset in range(cyl):
            last = (offset + (blocks - 1) * per_block) // cyl
            for c in range(last + 1):
                n = first_block_at((c + 1) * cyl, offset) - first_block_at(c * cyl, offset)
                total += n * (n - 1)
        return total / (blocks * (blocks - 1)) / cyl

    def random_ns(self, nbytes: int) -> float:
        """A block read at a random place in a file of nbytes: the sequential
        cost, half a rotation, and a seek unless the cylinder is the same."""
        return (self.sequential_ns + self.half_rotation_ns +
                (1.0 - self.same_cylinder(nbytes)) * self.seek_ns)

    def contention_bound_ns(self, readers: int) -> float:
        """A lower bound on 002's contention measure, each reader's time per
        block from a common start, when `readers` read cold files at once:
        the disk serves one request at a time, each at least sequential_ns,
        so the k-th reader to finish has waited for k readers' blocks, and
        on average a reader for (readers + 1) / 2 of them."""
        return (readers + 1) / 2 * self.sequential_ns
