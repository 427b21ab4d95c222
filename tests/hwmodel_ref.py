"""A plain set-associative LRU cache simulator: the reference the hardware
model's C cache (hw-models/core/cache.c) is checked against.

Written from the rules, not from the C code:
  - the address's line is addr // line_size; its set is line % sets;
  - a set holds `assoc` lines; on a miss that allocates, the least recently
    used one leaves (a write-back if it was dirty);
  - reads allocate; writes allocate only if write_allocate;
  - a write to a present line marks it dirty in a write-back cache;
  - any access to a present line makes it the most recently used;
  - an access that spans two lines touches both.

replay(trace_lines, ...) runs a trace as the plugin writes it (trace=FILE):
"B id" (a region begins: empty the caches), "I addr size", "R addr size",
"W addr size", and returns the counts per region.

The model's fast paths stay on while it traces, and each names itself
after the access it took (hw-models/core/model.h, "the trace"): a claim
about the state of the cache just before the access, which replay checks
against its own before it replays the access, by these rules:
  - hit: the line is the most recently used of its set (a write: and the
    cache is write-back: a write-through store goes to the write buffer);
  - mru, known: the line is the most recently used of its set;
  - nofill: a write that misses a cache without write-allocate, the line
    in no way of its set;
  - dmfill: a fetch that misses a direct-mapped cache whose victim is clean;
  - quick, direct: no claim (which path it was, for the tests to count).
A claim that does not hold goes into the region's Counts.wrong; how many
accesses each path took into Counts.paths.

A TLB is the same kind of table, of page numbers instead of lines
(hw-models/core/tlb.c): Tlbs holds an instruction TLB, a data TLB (the
same object when unified) and optionally a data TLB for large pages.
replay_tlb(trace_lines, tlbs) runs the trace's TLB lines, "T I va shift"
(an instruction fetch from va's page), "T D va shift" (a data access;
shift: log2 of the page size the model found mapped there) and "T F 0 0"
(a flush: a new root, or a flush instruction), by these rules:
  - every lookup keys its table by va >> shift; instruction fetches always
    use the ordinary page size (a large code page is held in pieces);
  - a data access to a large page goes to the large-page TLB if there is
    one, else to the data TLB in ordinary pieces;
  - a lookup that misses fills (LRU), and counts as a miss;
  - a flush empties every TLB; so does "B" (a region begins);
  - a lookup named "quick" or "last" (a fast path) claims that the page
    is the most recently used of its table's set (TlbCounts.wrong if not).
The caches' replay() skips the "T" lines (the walk's page-table reads are
ordinary "R" lines, which it does count).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Cache:
    size: int
    line: int
    assoc: int
    write_back: bool
    write_allocate: bool
    sets: list[list[int]] = field(init=False)       # line numbers, LRU first
    dirty: set[int] = field(init=False)

    def __post_init__(self) -> None:
        self.nsets = self.size // (self.line * self.assoc)
        self.flush()

    def flush(self) -> None:
        self.sets = [[] for _ in range(self.nsets)]
        self.dirty = set()

    def holds(self, lineno: int) -> bool:
        return lineno in self.sets[lineno % self.nsets]

    def mru(self, lineno: int) -> bool:
        """Whether lineno is the most recently used line of its set."""
        s = self.sets[lineno % self.nsets]
        return bool(s) and s[-1] == lineno

    def victim_dirty(self, lineno: int) -> bool:
        """Whether a fill of lineno would push out a dirty line."""
        s = self.sets[lineno % self.nsets]
        return len(s) == self.assoc and s[0] in self.dirty

    def access(self, lineno: int, write: bool) -> tuple[bool, bool]:
        """(hit, wrote_back) for one access to line `lineno`."""
        s = self.sets[lineno % self.nsets]
        if lineno in s:
            s.remove(lineno)
            s.append(lineno)
            if write and self.write_back:
                self.dirty.add(lineno)
            return True, False
        if write and not self.write_allocate:
            return False, False
        wrote_back = False
        if len(s) == self.assoc:
            victim = s.pop(0)
            if victim in self.dirty:
                self.dirty.discard(victim)
                wrote_back = True
        s.append(lineno)
        if write and self.write_back:
            self.dirty.add(lineno)
        return False, wrote_back


@dataclass
class Counts:
    imiss: int = 0
    dmiss: int = 0
    dmiss_w: int = 0
    writebacks: int = 0
    paths: Counter = field(default_factory=Counter)    # (kind, path) -> accesses
    wrong: list[str] = field(default_factory=list)     # claims that did not hold


def claim_fails(path: str, cache: Cache, lineno: int, write: bool) -> str | None:
    """Why a fast path's claim about its access does not hold, or None."""
    if path == "hit":
        ok = cache.mru(lineno) and (not write or cache.write_back)
    elif path in ("mru", "known"):
        ok = cache.mru(lineno)
    elif path == "nofill":
        ok = write and not cache.write_allocate and not cache.holds(lineno)
    elif path == "dmfill":
        ok = cache.assoc == 1 and not cache.holds(lineno) and not cache.victim_dirty(lineno)
    elif path in ("quick", "direct"):
        ok = True
    else:
        return f"unknown path {path!r}"
    return None if ok else f"{path} does not hold"


def replay(lines, icache: Cache | None, dcache: Cache | None) -> list[Counts]:
    """Counts for each region of a trace.  icache may be dcache (unified)."""
    out: list[Counts] = []
    c = Counts()
    for text in lines:
        word = text.split()
        if not word:
            continue
        kind = word[0]
        if kind == "T":                 # a TLB lookup: replay_tlb's business
            continue
        if kind == "B":
            for cache in (icache, dcache):
                if cache is not None:
                    cache.flush()
            c = Counts()
            out.append(c)
            continue
        addr, size = int(word[1], 16), int(word[2])
        path = word[3] if len(word) > 3 else None
        if path is not None:
            c.paths[kind, path] += 1
        cache = icache if kind == "I" else dcache
        if cache is None:
            if path not in (None, "quick", "direct"):
                c.wrong.append(f"{text.strip()}: {path} claims a cache there is not")
            continue
        write = kind == "W"
        first, last = addr // cache.line, (addr + size - 1) // cache.line
        if path is not None:
            why = "spans two lines" if first != last else claim_fails(path, cache, first, write)
            if why:
                c.wrong.append(f"{text.strip()}: {why}")
        for lineno in range(first, last + 1):
            hit, wrote_back = cache.access(lineno, write)
            c.writebacks += wrote_back
            if hit:
                continue
            if kind == "I":
                c.imiss += 1
            else:
                c.dmiss += 1
                c.dmiss_w += write
    return out


@dataclass
class Tlbs:
    page_shift: int
    itlb: Cache
    dtlb: Cache                         # the same object as itlb when unified
    large: Cache | None = None
    large_shift: int = 0

    @staticmethod
    def table(entries: int, assoc: int) -> Cache:
        """A TLB: a read-allocating table of `entries` page numbers."""
        return Cache(entries, 1, assoc, False, True)

    def flush(self) -> None:
        for t in (self.itlb, self.dtlb, self.large):
            if t is not None:
                t.flush()


@dataclass
class TlbCounts:
    itlb_miss: int = 0
    dtlb_miss: int = 0
    lookups: int = 0
    paths: Counter = field(default_factory=Counter)    # (kind, path) -> lookups
    wrong: list[str] = field(default_factory=list)     # claims that did not hold


def replay_tlb(lines, tlbs: Tlbs) -> list[TlbCounts]:
    """TLB misses for each region of a trace."""
    out: list[TlbCounts] = []
    c = TlbCounts()
    for text in lines:
        word = text.split()
        if not word or word[0] not in ("B", "T"):
            continue
        if word[0] == "B":
            tlbs.flush()
            c = TlbCounts()
            out.append(c)
            continue
        kind, va, shift = word[1], int(word[2], 16), int(word[3])
        path = word[4] if len(word) > 4 else None
        if kind == "F":
            tlbs.flush()
            continue
        c.lookups += 1
        if kind == "I":
            table, shift = tlbs.itlb, tlbs.page_shift
        elif tlbs.large is not None and shift == tlbs.large_shift:
            table = tlbs.large
        else:
            table, shift = tlbs.dtlb, tlbs.page_shift
        if path is not None:
            c.paths[kind, path] += 1
            if path not in ("quick", "last"):
                c.wrong.append(f"{text.strip()}: unknown path {path!r}")
            elif not table.mru(va >> shift):
                c.wrong.append(f"{text.strip()}: {path} does not hold")
        hit, _ = table.access(va >> shift, False)
        if kind == "I":
            c.itlb_miss += not hit
        else:
            c.dtlb_miss += not hit
    return out
