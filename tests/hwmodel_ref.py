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
