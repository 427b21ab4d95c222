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
  - a flush empties every TLB; so does "B" (a region begins).
The caches' replay() skips the "T" lines (the walk's page-table reads are
ordinary "R" lines, which it does count).
"""

from __future__ import annotations

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
        cache = icache if kind == "I" else dcache
        if cache is None:
            continue
        write = kind == "W"
        for lineno in range(addr // cache.line, (addr + size - 1) // cache.line + 1):
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
        if kind == "F":
            tlbs.flush()
            continue
        c.lookups += 1
        if kind == "I":
            hit, _ = tlbs.itlb.access(va >> tlbs.page_shift, False)
            c.itlb_miss += not hit
            continue
        if tlbs.large is not None and shift == tlbs.large_shift:
            table = tlbs.large
        else:
            table, shift = tlbs.dtlb, tlbs.page_shift
        hit, _ = table.access(va >> shift, False)
        c.dtlb_miss += not hit
    return out
