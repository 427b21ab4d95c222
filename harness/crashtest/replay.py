"""Replay a write log onto the initial image: the disk at every point where
the power could have failed, checked by our fsck, repaired by fsck -y, and
compared with what the programs had been told was written.

Crash points.  Between two device writes the disk does not change, so the
crash states are the prefixes of the W records: after 0, 1, ..., n writes
(n + 1 states).  For each the *acknowledged* state is the file system as
the programs saw it when the next write began: the initial image with
every W and D record applied up to the last A record before that write
(an A means every system call that changed those blocks had returned).
Long logs are sampled: at most `max_points` prefixes, evenly spaced, the
first and the last always among them.

Reordering.  A policy that makes programs wait for every write (sync,
writethrough) fixes the order of its writes.  One that does not (delayed)
lets the writes of one batch (consecutive W records with no A or D between
them: the flusher's round, a sync) reach the disk in any order; we add the
states where every write of a batch but one has landed (a sample, again at
most `max_points`).

What is lost is counted under `scope` (/tmp: where the workloads write):
bytes of acknowledged files that the crashed disk (after fsck -y, if it
needed it) lacks or holds differently, except what a system call still in
progress was changing (a file being removed, bytes being overwritten):
fsread.lost.
"""

from __future__ import annotations

import re
import struct
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SetupError
from ..guest import fsformat
from . import fsread, names
from .wlog import Record

SUMMARY = re.compile(r"(\d+) problems \((\d+) leaks\)")
LEFT = re.compile(r"(\d+) repairs, (\d+) problems left")


@dataclass
class Check:
    problems: int
    leaks: int
    first: str                      # the first problem that is not a leak ("" if none)
    left: int                       # problems left after fsck -y (0 if none before)
    repaired: bytes | None = None   # the image after fsck -y, if it changed anything


@dataclass
class Point:
    kind: str                       # "prefix" or "reorder"
    writes: int                     # W records applied (reorder: the batch's end)
    ns: int                         # modelled time of the crash
    check: Check
    lost: int                       # acknowledged bytes lost
    lost_paths: list[tuple[str, int]] = field(default_factory=list)
    dropped: int | None = None      # reorder: the block whose write did not land
    name: str = ""                  # a watched name: names.WHOLE, MISSING, PARTIAL ("": none)

    @property
    def verdict(self) -> str:
        if self.check.problems == 0:
            return "consistent"
        if self.check.problems == self.check.leaks:
            return "leaks"
        return "inconsistent"


class Fsck:
    """tools/fsck on images, in a scratch directory."""

    def __init__(self, tool: Path) -> None:
        if not tool.exists():
            raise SetupError(f"{tool} is missing: run `make` for its ISA")
        self.tool = tool
        self.dir = Path(tempfile.mkdtemp(prefix="crashtest-"))
        self.runs = 0

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def check(self, image: bytes | bytearray) -> Check:
        path = self.dir / "crash.img"
        path.write_bytes(image)
        self.runs += 1
        r = subprocess.run([self.tool, path], capture_output=True, text=True)
        m = SUMMARY.search(r.stdout)
        if r.returncode == 2 or not m:
            first = next((l for l in r.stdout.splitlines()), "unusable")
            return Check(1, 0, first.removeprefix("fsck: "), 1)
        problems, leaks = int(m.group(1)), int(m.group(2))
        if problems == 0:
            return Check(0, 0, "", 0)
        first = next((l.removeprefix("fsck: ") for l in r.stdout.splitlines()
                      if l.startswith("fsck: ") and not l.startswith("fsck: leak: ")
                      and not SUMMARY.search(l)), "")
        y = subprocess.run([self.tool, "-y", path], capture_output=True, text=True)
        m2 = LEFT.search(y.stdout)
        left = int(m2.group(2)) if m2 else problems
        return Check(problems, leaks, first, left, path.read_bytes())


def initial_disk(image: Path) -> bytearray:
    raw = bytearray(image.read_bytes())
    nblocks = fsread.Image(raw).nblocks
    raw.extend(bytes(nblocks * fsformat.BSIZE - len(raw)))
    return raw


def _put(disk: bytearray, bsize: int, r: Record) -> None:
    disk[r.blockno * bsize:(r.blockno + 1) * bsize] = r.data


def _sample(n: int, k: int) -> list[int]:
    """At most k of 0..n-1, evenly spaced, the first and last included."""
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def scoped(raw: bytes | bytearray, scope: str) -> dict[str, bytes | None]:
    try:
        return fsread.files(raw, scope)
    except (ValueError, IndexError, UnicodeDecodeError, struct.error):
        return {}


def states(image: bytearray, bsize: int, records: list[Record], reorder: bool):
    """Every crash state: (kind, writes, ns, disk image, acknowledged image,
    intended image, dropped block).  The intended image has every change
    up to the crash, those of system calls still in progress too.  The
    images are shared buffers: copy to keep."""
    disk = bytearray(image)
    acked = bytearray(image)
    intended = bytearray(image)
    pending: list[Record] = []
    writes = 0
    batch: list[Record] = []
    batch_start = bytearray()
    for i, r in enumerate(records):
        if r.kind == "W":
            yield "prefix", writes, r.ns, disk, acked, intended, None
            if not batch:
                batch_start = bytearray(disk)
            batch.append(r)
            _put(disk, bsize, r)
            _put(intended, bsize, r)
            writes += 1
            pending.append(r)
            nxt = records[i + 1] if i + 1 < len(records) else None
            if nxt is None or nxt.kind != "W":
                if reorder and len(batch) > 1:
                    for j, skip in enumerate(batch):
                        if any(w.blockno == skip.blockno for w in batch[j + 1:]):
                            continue            # rewritten later in the batch: no new state
                        d = bytearray(batch_start)
                        for w in batch:
                            if w is not skip:
                                _put(d, bsize, w)
                        yield "reorder", writes, r.ns, d, acked, intended, skip.blockno
                batch = []
        elif r.kind == "D":
            pending.append(r)
            _put(intended, bsize, r)
        else:
            for p in pending:
                _put(acked, bsize, p)
            pending = []
    end = records[-1].ns if records else 0
    yield "prefix", writes, end, disk, acked, intended, None


def count_states(records: list[Record], reorder: bool) -> tuple[int, int]:
    """How many prefix and reorder states states() yields."""
    prefixes = sum(1 for r in records if r.kind == "W") + 1
    reorders = 0
    batch: list[Record] = []
    for i, r in enumerate(records):
        if r.kind != "W":
            continue
        batch.append(r)
        nxt = records[i + 1] if i + 1 < len(records) else None
        if nxt is None or nxt.kind != "W":
            if reorder and len(batch) > 1:
                reorders += sum(1 for j, s in enumerate(batch)
                                if not any(w.blockno == s.blockno for w in batch[j + 1:]))
            batch = []
    return prefixes, reorders


def replay(image: Path, bsize: int, records: list[Record], fsck: Fsck, *,
           reorder: bool, max_points: int = 400, scope: str = "/tmp",
           watch: names.Watch | None = None) -> tuple[list[Point], int, int]:
    """The crash points tried, and how many prefix and reorder states there
    were in all (the points are a sample of them when there are more).
    With a watch, each point also says what its name holds (names.judge),
    on the disk as a user would find it (after fsck -y, if it changed it)."""
    base = initial_disk(image)
    n_prefix, n_reorder = count_states(records, reorder)
    want_prefix = set(_sample(n_prefix, max_points))
    want_reorder = set(_sample(n_reorder, max_points))
    points: list[Point] = []
    seen = {"prefix": 0, "reorder": 0}
    cache: dict[str, tuple[bytes, dict]] = {}
    judge = names.Judge(watch) if watch else None

    def tree(name: str, image: bytearray) -> dict:
        if name not in cache or cache[name][0] != image:
            cache[name] = (bytes(image), scoped(image, scope))
        return cache[name][1]

    for kind, writes, ns, disk, acked, intended, dropped in states(base, bsize, records,
                                                                   reorder):
        k = seen[kind]
        seen[kind] += 1
        if k not in (want_prefix if kind == "prefix" else want_reorder):
            continue
        chk = fsck.check(disk)
        got = scoped(chk.repaired if chk.repaired is not None else disk, scope)
        total, per = fsread.lost(tree("acked", acked), got, tree("intended", intended))
        name = judge(got) if judge else ""
        points.append(Point(kind, writes, ns, chk, total, per, dropped, name))
    return points, n_prefix, n_reorder


def risk_over_time(image: Path, bsize: int, records: list[Record], *, max_points: int = 300,
                   scope: str = "/tmp") -> list[tuple[int, int]]:
    """(ns, bytes) at each acknowledgement (a sample): the acknowledged
    bytes that a crash right then would lose (the disk as it is, unrepaired)."""
    disk = initial_disk(image)
    acked = bytearray(disk)
    pending: list[Record] = []
    n_acks = sum(1 for r in records if r.kind == "A")
    want = set(_sample(n_acks, max_points))
    out: list[tuple[int, int]] = []
    k = 0
    for r in records:
        if r.kind in "WD":
            pending.append(r)
            if r.kind == "W":
                _put(disk, bsize, r)
            continue
        for p in pending:
            _put(acked, bsize, p)
        pending = []
        if k in want:
            out.append((r.ns, fsread.lost(scoped(acked, scope), scoped(disk, scope))[0]))
        k += 1
    return out
