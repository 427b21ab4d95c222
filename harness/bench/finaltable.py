"""The measure suite's Final Results Table, in the style of the CSE 221
project (shared/papers/002, "Final Results Table"): for each operation, the
hardware's share predicted from the profile, the measured time, and the
software overhead as their difference (docs/measure.md).

The prediction uses only the profile's fields, the ones the model charges
by (hw-models/core/memsys.c, disk.c): the clock and CPI, the extra cycles
of a branch, a load and a trap, cache sizes, lines and latencies, memory
latency, bandwidth and bus width, and the disk's overhead, rotation and
transfer rate.  Each prediction is one of three kinds:

  "="  what the model charges for this operation's hardware events, exactly
       (the memory-access curve's levels, given pages that do not collide
       in a physically indexed cache);
  ">=" a lower bound: the hardware events the operation cannot avoid (the
       traps of its system calls, a loop's two instructions), not all it
       does;
  "~"  an estimate with a stated assumption: the file rows take the
       device requests the run counted, each sequential (overhead and
       transfer) or random (also half a rotation, and a seek: always for
       the meta-data writes, and for 002's random reads as often as a file
       in a row on its cylinders changes cylinder: diskpredict.py), and
       copying at memory speed (002's file rows: stores only where no
       cache keeps the reused buffer).

Profile `none` (plain QEMU, -icount) is a 1000 MHz machine of one cycle
per instruction, with memory and disk that cost nothing.

The table goes to report.txt, to results.json (`final_table`) and to
final.csv; final_table() is pure, for the unit tests.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ..guest import machines
from ..guest.fsformat import BSIZE
from ..guest.protocol import Result
from ..tables import format_table
from .diskpredict import Disk
from .suite import memlat_case


def _machine(profile: dict[str, Any]) -> machines.Machine | None:
    """The registry's entry for the profile's ISA (None for profile none)."""
    return machines.find(profile.get("isa", ""))


@dataclass(frozen=True)
class Cache:
    """One cache's geometry (and, for an L2, its hit latency)."""

    size: int
    line: int
    assoc: int
    write_back: bool = False
    write_allocate: bool = False
    latency_ns: float = 0.0

    @property
    def sets(self) -> int:
        return self.size // (self.line * self.assoc)

    def ring_misses(self, size: int, stride: int) -> int:
        """Lines missed per lap of a ring of loads `stride` apart through
        `size` bytes of physically contiguous memory (or of pages placed by
        colour, which a cache cannot tell apart).  The ring's lines are
        every step-th line; line k goes to set k mod sets, so the sets it
        uses repeat with period P = sets / gcd(step, sets), and each gets
        q or q + 1 of its lines.  A set holding more lines than it has ways
        misses every one of them on every lap (LRU or direct-mapped, the
        ring always comes back to the line used longest ago)."""
        if stride >= self.line:
            nlines, step = size // stride, stride // self.line
        else:
            nlines, step = size // self.line, 1
        period = self.sets // math.gcd(step, self.sets)
        q, r = divmod(nlines, period)
        if q > self.assoc:
            return nlines
        if q == self.assoc:
            return r * (self.assoc + 1)
        return 0


@dataclass(frozen=True)
class Hardware:
    """The profile fields the predictions use, in nanoseconds and bytes.
    A field that is a profile's parameter has its name (params.def),
    section_field: memory.bandwidth_mbs is memory_bandwidth_mbs."""

    cycle_ns: float
    cpu_cpi: float
    cpu_branch_extra: float
    cpu_load_extra: float
    cpu_trap_extra: float
    dcache: Cache | None
    l2: Cache | None
    memory_latency_ns: float
    memory_bandwidth_mbs: float | None              # None: memory costs nothing
    memory_bus_bytes: int
    disk_sequential_ns: float                       # a BSIZE request after the last one
    disk_random_ns: float                           # ... anywhere else: seek, half a turn
    # Instructions a load of the pointer chase takes (the registry's chase_insns).
    load_use_insns: float = 1.0
    # A bus word's write cycle where it is slower than the read path's (the
    # DS3100); 0: writes move at the bandwidth, as reads.
    memory_write_ns: float = 0.0

    @staticmethod
    def from_profile(data: dict[str, Any]) -> "Hardware":
        if not data.get("model", True):             # profile none
            return Hardware(1.0, 1.0, 0, 0, 0, None, None, 0.0, None, 4, 0.0, 0.0)
        cpu, mem, disk = data["cpu"], data["memory"], data["disk"]
        dc = data["dcache"]
        dcache = None
        if dc.get("size", 0):
            dcache = Cache(dc["size"], dc["line"], dc["assoc"], dc["write_policy"] == "write-back",
                           bool(dc["write_allocate"]))
        l2 = data.get("l2")
        l2t = None
        if l2 and l2.get("size"):
            l2t = Cache(l2["size"], l2["line"], l2["assoc"], latency_ns=float(l2["latency_ns"]))
        # hw-models/core/disk.c: overhead, then a seek if the cylinder
        # changes and half a rotation unless the request continues the last.
        sequential = disk["overhead_us"] * 1e3
        if disk["transfer_mbs"]:
            sequential += BSIZE * 1e3 / disk["transfer_mbs"]
        random = sequential + disk["seek_ms"] * 1e6 + (0.5 * 60e9 / disk["rpm"]
                                                       if disk["rpm"] else 0)
        machine = _machine(data)
        return Hardware(1000.0 / cpu["clock_mhz"], cpu["cpi"], cpu["branch_extra"],
                        cpu["load_extra"], cpu["trap_extra"], dcache, l2t,
                        float(mem["latency_ns"]), float(mem["bandwidth_mbs"]),
                        int(mem["bus_bytes"]), sequential, random,
                        machine.chase_insns if machine else 1.0,
                        float(mem.get("write_ns") or 0.0))

    # -- pieces, in ns
    def insns(self, n: float, branches: float = 0, loads: float = 0, traps: float = 0) -> float:
        return (n * self.cpu_cpi + branches * self.cpu_branch_extra +
                loads * self.cpu_load_extra + traps * self.cpu_trap_extra) * self.cycle_ns

    def xfer(self, nbytes: int) -> float:
        """Memory time for nbytes: whole bus words at the bandwidth."""
        if self.memory_bandwidth_mbs is None:
            return 0.0
        words = -(-nbytes // self.memory_bus_bytes)
        return words * self.memory_bus_bytes * 1000.0 / self.memory_bandwidth_mbs

    def xfer_write(self, nbytes: int) -> float:
        """Memory time for writing nbytes: whole bus words, each a write
        cycle where the profile gives one (hw-models/core/memsys.c's
        wword_mcyc), else at the bandwidth."""
        if self.memory_bandwidth_mbs is None or not self.memory_write_ns:
            return self.xfer(nbytes)
        return -(-nbytes // self.memory_bus_bytes) * self.memory_write_ns

    def mem_read(self, nbytes: int) -> float:
        if self.memory_bandwidth_mbs is None:
            return 0.0
        return self.memory_latency_ns + self.xfer(nbytes)

    # -- the memory-access curve
    def load_ns(self, size: int, stride: int) -> float:
        """One load of a pointer ring of `size` bytes, `stride` apart, in the
        steady state, its pages placed by colour (or contiguous): the load's
        own cycles; an L2 access for every line that misses the L1 on every
        lap (Cache.ring_misses), and a memory read for every one of those
        that misses the L2 too.  Pages placed otherwise can only add
        conflicts: for them this is a lower bound."""
        t = self.insns(self.load_use_insns, loads=1)
        if self.dcache is None:                  # no cache: every load is a bus word
            return t + self.mem_read(4)
        n = size // stride
        if size <= self.dcache.size or n == 0:
            return t
        m1 = self.dcache.ring_misses(size, stride) / n
        if self.l2 is None:
            return t + m1 * self.mem_read(self.dcache.line)
        t += m1 * self.l2.latency_ns
        if size > self.l2.size:
            # Every profile's L2 is at least twice its L1, so a ring bigger
            # than the L2 misses the L1 everywhere and the L2 sees it whole.
            t += self.l2.ring_misses(size, stride) / n * self.mem_read(self.l2.line)
        return t

    # -- bandwidth: memory time for reading / writing `nbytes` sequentially
    def read_ns(self, nbytes: int) -> float:
        if self.dcache is None:
            return nbytes / 4 * self.mem_read(4)
        dline = self.dcache.line
        if self.l2 is None:
            return nbytes / dline * self.mem_read(dline)
        l2line = self.l2.line
        return nbytes / dline * self.l2.latency_ns + nbytes / l2line * self.mem_read(l2line)

    def write_ns(self, nbytes: int) -> float:
        """The memory's busy time: a lower bound on the time (the write
        buffer may hide latency, never bandwidth)."""
        if self.memory_bandwidth_mbs is None:
            return 0.0
        if self.l2 is not None:
            # Stores reach the write-allocate, write-back L2 (through the
            # write buffer, or as L1 misses and write-backs): each L2 line
            # is fetched and, dirty, later written back.
            l2line = self.l2.line
            return nbytes / l2line * (self.mem_read(l2line) + self.xfer_write(l2line))
        if self.dcache is None or not self.dcache.write_back:
            return nbytes / 4 * self.xfer_write(4)  # write-through: every word
        dline, alloc = self.dcache.line, self.dcache.write_allocate
        fetch = self.mem_read(dline) if alloc and dline > 4 else 0.0
        return nbytes / dline * (fetch + self.xfer_write(dline))


@dataclass
class FinalRow:
    """One line of the Final Results Table; times in ns per operation."""

    key: str                    # bench/case, or bench/case/level
    operation: str
    source: str                 # which paper's method
    kind: str                   # "=", ">=", "~" (module docstring)
    hardware_ns: float
    measured_ns: float | None
    basis: str                  # what the prediction counts

    @property
    def software_ns(self) -> float | None:
        return None if self.measured_ns is None else self.measured_ns - self.hardware_ns


def _ns(r: Result | None) -> float | None:
    return None if r is None else float(r.ns_per_op)


def _extra(r: Result | None, key: str) -> int:
    return r.count(key) if r is not None else 0


def final_table(run: Any, profile: dict[str, Any]) -> list[FinalRow]:
    """The rows, for the results a run of the measure suite has (a
    RunRecord: .result(bench, case)); cases not run are left out."""
    hw = Hardware.from_profile(profile)
    rows: list[FinalRow] = []

    def add(bench: str, case: str, op: str, src: str, kind: str, hw_ns: float, basis: str,
            measured: float | None = None, key: str = "") -> None:
        r = run.result(bench, case)
        if r is None:
            return
        rows.append(FinalRow(key or f"{bench}/{case}", op, src, kind, hw_ns,
                        _ns(r) if measured is None else measured, basis))

    trap = hw.insns(2, traps=1)                  # the trap and the return from it
    add("timer", "clock", "time-counter read", "002 1a", ">=", hw.insns(1),
        "one instruction")
    add("timer", "loop", "loop overhead, one iteration", "002 1a", ">=",
        hw.insns(2, branches=1), "increment and branch")
    for k in range(8):
        add("call", f"a{k}", f"procedure call, {k} arguments", "002 1b", ">=",
            hw.insns(2 + k, branches=2), f"call, return, {k} argument moves")
    add("syscall", "getpid", "system call: getpid (null call)", "002 1c; 004 4.2", ">=",
        trap, "a trap: entry and return")
    add("syscall", "dup2", "system call: dup2 (Chen's Syscall)", "004 4.2", ">=", trap,
        "a trap: entry and return")
    add("proc", "forkexit", "process creation: fork, exit, wait", "002 1d", ">=", 3 * trap,
        "three traps; the copy of the image is software here")
    # Under copy-on-write fork each write to a shared page is one more trap
    # (a page fault); the kernel counts them over the timed loop.
    for case, op, traps in (("forkexit-cow", "fork, exit, wait; copy-on-write fork", 3),
                            ("forkexec-cow", "fork, exec, exit, wait; copy-on-write fork", 4)):
        r = run.result("proc", case)
        faults = _extra(r, "cowfaults") / r.iters if r is not None and r.iters else 0.0
        add("proc", case, op, "002 1d; 004 4.3", ">=", (traps + faults) * trap,
            f"{traps} traps and {faults:.1f} write faults on shared pages")
    add("proc", "exec", "exec of a trivial program", "004 4.3", ">=", trap, "one trap")
    add("proc", "forkexec", "fork, exec, exit, wait (Chen's Exec)", "004 4.3", ">=",
        4 * trap, "four traps")
    cs = run.result("cswitch", "roundtrip")
    if cs is not None:
        rows.append(FinalRow("cswitch/roundtrip/2", "context switch (cswitch round trip / 2)",
                        "002 1e", ">=", 2 * trap, float(cs.ns_per_op) / 2,
                        "a read and a write: two traps"))

    # The memory-access curve, one row per level (002 2a): the largest size
    # that fits each cache, and 4 MB, which fits none.
    levels = []
    if hw.dcache:
        levels.append(("L1", hw.dcache.size))
    if hw.l2:
        levels.append(("L2", hw.l2.size))
    levels.append(("memory", 4 << 20))
    # (Where the kernel refills the TLB in software, on MIPS, a ring bigger
    # than the TLB's reach takes refills the prediction leaves out: that TLB
    # is not modelled.  A profile's [tlb] walks (hw-models/core/tlb.c) are
    # left out too: what a walk costs depends on whether its page-table
    # entries are cached.)
    walked = profile.get("tlb", {})
    walk_reach = walked["dtlb_entries"] * walked["page_size"] \
        if walked.get("refill") == "walk" else None
    machine = _machine(profile)
    soft_reach = machine.software_tlb_reach if machine else 0
    for stride in (128, 4):
        for name, size in levels:
            case = memlat_case(stride, size)
            tlb = 0 < soft_reach < size
            walks = walk_reach is not None and size > walk_reach
            add("memlat", case, f"memory read, {name} ({_size(size)} array, stride {stride} B)",
                "002 2a; 004 Fig. 4", ">=" if tlb or walks else "=", hw.load_ns(size, stride),
                "load cycles + misses at the profile's latencies" +
                ("; not the software TLB refills" if tlb else "") +
                ("; not the TLB walks" if walks else ""), key=f"memlat/{case}")

    mb = 4 << 20
    for case, hw_ns, basis in (
            ("read", hw.read_ns(mb), "line fills at latency + line / bandwidth"),
            ("write", hw.write_ns(mb), "the memory's busy time for the stores")):
        r = run.result("membw", case)
        if r is None:
            continue
        rates = f"{_mbs(mb, hw_ns)} MB/s at most, {_mbs(mb, float(r.ns_per_op))} MB/s measured"
        add("membw", case, f"RAM {case} bandwidth, one 4 MB pass", "002 2b", ">=", hw_ns,
            f"{basis}; no instructions: {rates}")

    # The file tests, per file: the copy of 4 KB at memory speed (128 files
    # = 512 KB, bigger than the caches), and the disk requests the run
    # counted, sequential (a cold pass reads files created one after the
    # other, whose blocks lie in a row) or random (FFS-style synchronous
    # metadata writes alternate between the inode and the directory).
    copy4k = hw.read_ns(4096) + hw.write_ns(4096)
    for case in ("warm", "cold"):
        r = run.result("bufcache", case)
        if r is None:
            continue
        reads = _extra(r, "dev_reads") / r.iters
        add("bufcache", case, f"buffer cache: read a 4 KB file, {case} (open, read, close)",
            "004 4.5", "~", 3 * trap + copy4k + reads * hw.disk_sequential_ns,
            f"3 traps, a 4 KB copy at memory speed, {reads:.2f} sequential disk reads")
    for case in ("sync", "delayed"):
        r = run.result("metadata", case)
        if r is None:
            continue
        writes = _extra(r, "dev_writes") / r.iters
        add("metadata", case, f"meta-data: create an empty file, {case}", "004 4.5", "~",
            2 * trap + writes * hw.disk_random_ns,
            f"2 traps, {writes:.2f} random disk writes")

    # 002 2c, as a minor fault: a page of the heap touched for the first
    # time under demand paging, served by allocating, zero-filling and
    # mapping a page (no disk: the project's fault reads no file).
    add("pagefault", "write", "page fault: a fresh heap page, zero-filled", "002 2c", ">=",
        trap + hw.write_ns(4096),
        "a trap; 4 KB of zeros at the memory's write speed (the kernel's work is software)")
    rows += file_system_rows(run, profile, hw)
    return rows


def block_copy_ns(hw: Hardware) -> float:
    """A block copied out of the buffer cache into the program's buffer,
    which it reuses: the block read at memory speed (a real disk's DMA
    leaves it in memory, not in a CPU cache), the stores reaching memory
    only where no cache keeps the buffer (write-through with no L2, or no
    cache at all)."""
    keeps = hw.l2 is not None or (hw.dcache is not None and hw.dcache.write_back)
    return hw.read_ns(BSIZE) + (0.0 if keeps else hw.write_ns(BSIZE))


def fileread_client_ns(hw: Hardware) -> float:
    """002 4b's reader, per block, without the disk: an lseek's and a
    read's traps, and the block's copy (the same for a remote file, whose
    block comes out of the client's cache: harness/rfs/readpredict.py)."""
    return 2 * hw.insns(2, traps=1) + block_copy_ns(hw)


def file_system_rows(run: Any, profile: dict[str, Any], hw: Hardware) -> list[FinalRow]:
    """002's file-system section (4a, 4b, 4d), per block of the file system
    (fsformat.h's BSIZE): each row an estimate ("~") from the copy of a
    block out of memory, the traps of the calls that read it, and the
    disk requests the run counted at what the disk model charges them
    (diskpredict.Disk); contention a lower bound (">=")."""
    disk = Disk.from_profile(profile)
    trap = hw.insns(2, traps=1)
    copy = block_copy_ns(hw)
    rows: list[FinalRow] = []

    # 4a: the file-cache size.  The largest size whose re-read found every
    # block in the cache, and the smallest after it that read every block
    # from the disk: the knee is between them.
    fc = [r for r in run.results if r.bench == "filecache"]
    cached = [r for r in fc if _extra(r, "dev_reads") == 0]
    fits = max(cached, key=lambda r: _extra(r, "size"), default=None)
    beyond = min((r for r in fc if _extra(r, "dev_reads") >= r.iters and
                  (fits is None or _extra(r, "size") > _extra(fits, "size"))),
                 key=lambda r: _extra(r, "size"), default=None)
    for r, where in ((fits, "in the buffer cache"), (beyond, "beyond the buffer cache")):
        if r is None:
            continue
        calls = BSIZE / (_extra(r, "chunk") or BSIZE)        # read calls per block
        reads = _extra(r, "dev_reads") / r.iters
        rows.append(FinalRow(f"filecache/{r.case}",
                        f"file re-read, per block: {_file_size(_extra(r, 'size'))} file, {where}",
                        "002 4a", "~", calls * trap + copy + reads * disk.sequential_ns, _ns(r),
                        f"{calls:.3g} trap, a {BSIZE} B copy from memory, "
                        f"{reads:.2f} sequential disk reads"))

    # 4b: read time, sequential and random, one block a call after an lseek.
    for case in ("seq", "random"):
        r = run.result("fileread", case)
        if r is None:
            continue
        reads, size = _extra(r, "dev_reads") / r.iters, _extra(r, "size")
        if case == "seq":
            per, how = disk.sequential_ns, "sequential (overhead + transfer)"
        else:
            per = disk.random_ns(size)
            how = (f"random (+ half a rotation, + a seek {1 - disk.same_cylinder(size):.0%} "
                   "of the time: the file in a row on its cylinders)")
        rows.append(FinalRow(f"fileread/{case}",
                        f"file read, per block: {_file_size(size)} file, cold, {case}",
                        "002 4b", "~", fileread_client_ns(hw) + reads * per, _ns(r),
                        f"2 traps, a {BSIZE} B copy from memory, {reads:.2f} {how} disk reads"))

    # 4d: contention.  Each reader's own time per block from the common
    # start, averaged over the readers (proc_ns / (procs x blocks)).
    for r in sorted((r for r in run.results if r.bench == "contention"),
                    key=lambda r: _extra(r, "procs")):
        n = _extra(r, "procs")
        if n < 1 or not r.iters:
            continue
        whose = "readers'" if n > 1 else "reader's"
        rows.append(FinalRow(f"contention/{r.case}",
                        f"contention: {n} reader{'s' if n > 1 else ''} at once, per block "
                        "(each reader's time)", "002 4d", ">=", disk.contention_bound_ns(n),
                        _extra(r, "proc_ns") / (n * r.iters),
                        f"one disk: a reader waits on average for {(n + 1) / 2:g} {whose} "
                        "blocks, each at least overhead + transfer"))
    return rows


def _mbs(nbytes: int, ns: float) -> str:
    """MB/s (10^6 bytes) of nbytes in ns, or "unbounded" for no time."""
    return "unbounded" if ns <= 0 else f"{nbytes * 1e3 / ns:.3g}"


def _file_size(n: int) -> str:
    """1792 KB, 2 MB: in MB only when it is a whole number of them."""
    return f"{n >> 20} MB" if n and n % (1 << 20) == 0 else f"{n >> 10} KB"


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} KB" if n >= 1024 else f"{n} B"


# ---------------------------------------------------------------- output

def _t(ns: float | None) -> str:
    """A time with its unit, three significant digits; under 0.005 ns is 0."""
    if ns is None:
        return "-"
    if abs(ns) < 0.005:
        return "0"
    unit, scale = next(((u, s) for u, s in (("s", 1e9), ("ms", 1e6), ("us", 1e3))
                        if abs(ns) >= s), ("ns", 1.0))
    v = ns / scale
    a = abs(v)
    text = f"{v:.0f}" if a >= 100 else f"{v:.1f}" if a >= 10 else f"{v:.2f}"
    return f"{text} {unit}"


NOTE = ("hardware: from the profile alone (harness/bench/finaltable.py); no mark = "
        "what the model charges for these events, >= a lower bound, ~ an estimate "
        "(disk requests counted by the run, sequential or random as stated)")


def text(rows: list[FinalRow], run: Any, note: str = NOTE) -> str:
    """The table as `run --suite measure` prints it (`note`: what its
    hardware column is, under it)."""
    header = ["Operation", "source", "hardware (predicted)", "measured", "software",
              "prediction counts"]
    body = [[r.operation, r.source, f"{'' if r.kind == '=' else r.kind + ' '}{_t(r.hardware_ns)}",
             _t(r.measured_ns), _t(r.software_ns), r.basis] for r in rows]
    lines = [f"Final Results Table: {run.arch}, profile {run.profile} "
             "(per operation; software = measured - hardware)",
             *format_table(header, body, left=2, free_last=True), note]
    return "\n".join(lines) + "\n"


def to_json(rows: list[FinalRow]) -> list[dict[str, Any]]:
    return [{**asdict(r), "software_ns": r.software_ns} for r in rows]


def from_json(items: list[dict[str, Any]]) -> list[FinalRow]:
    return [FinalRow(**{k: v for k, v in d.items() if k != "software_ns"}) for d in items]


CSV_FIELDS = ("key", "operation", "source", "kind", "hardware_ns", "measured_ns",
              "software_ns", "basis")


def csv_table(rows: list[FinalRow]) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """final.csv's (columns, rows): one row per line of the table."""
    return CSV_FIELDS, to_json(rows)
