"""The write log the hardware model records with writelog=FILE
(hw-models/core/wlog.c has the format):

    W blockno data    a block written to the disk
    D blockno data    a block changed in the buffer cache only
    A                 a program entered the kernel after some W or D: the
                      system calls that made them have returned

Each with the modelled time in ns.  `read(path)` returns the block size and
the records in order.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from ..errors import SetupError

MAGIC = b"WLOG1\0\0\0"
HEAD = struct.Struct("<8sI")
RECORD = struct.Struct("<c3xIQ")


@dataclass(frozen=True)
class Record:
    kind: str            # "W", "D" or "A"
    blockno: int
    ns: int
    data: bytes = b""


def parse(raw: bytes) -> tuple[int, list[Record]]:
    if len(raw) < HEAD.size or raw[:8] != MAGIC:
        raise SetupError("not a write log (no WLOG1 header)")
    _, bsize = HEAD.unpack_from(raw)
    out: list[Record] = []
    p = HEAD.size
    while p < len(raw):
        if p + RECORD.size > len(raw):
            raise SetupError(f"write log cut short at byte {p}")
        kind, blockno, ns = RECORD.unpack_from(raw, p)
        p += RECORD.size
        k = kind.decode()
        if k == "A":
            out.append(Record(k, 0, ns))
            continue
        if k not in "WD" or p + bsize > len(raw):
            raise SetupError(f"write log: bad record {kind!r} at byte {p - RECORD.size}")
        out.append(Record(k, blockno, ns, raw[p:p + bsize]))
        p += bsize
    return bsize, out


def read(path: Path) -> tuple[int, list[Record]]:
    return parse(path.read_bytes())


def encode(bsize: int, records: list[Record]) -> bytes:
    """The inverse of parse (the tests make logs with it)."""
    parts = [HEAD.pack(MAGIC, bsize)]
    for r in records:
        parts.append(RECORD.pack(r.kind.encode(), r.blockno, r.ns))
        if r.kind != "A":
            parts.append(r.data.ljust(bsize, b"\0"))
    return b"".join(parts)
