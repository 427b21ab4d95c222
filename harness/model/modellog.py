"""The model's log: its HWREGION and HWWARN records, and each RESULT line
joined to the records of its timed and empty regions.

    regions, warnings = read_log(log_path)      # HWREGION lines -> Region
    joined = join(results, regions)             # RESULT line -> its two regions
    joined[0].counters()                        # per operation, empty loop subtracted

The model writes one HWREGION record per timed region (docs/protocol.md,
hw-models/README.md).  join() pairs each benchmark RESULT with the records
of its timed and empty regions: the guest printed ns == the record's
clock_ns exactly, because the guest read the same modelled clock; a
mismatch is an error, not a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import HarnessError
from ..guest import machines
from ..guest.protocol import Result

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
