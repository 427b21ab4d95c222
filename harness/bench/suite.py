"""The benchmark suite: which programs to run, and how to judge their output.

Each benchmark is one guest program (guests/bin/<name>.c) that prints one
RESULT line per case (docs/protocol.md).  run_benchmark() types its name at
the guest shell and accepts the output only if every expected case has a
RESULT line with time above the loop overhead, and nothing went wrong: a FAIL
line, a `kernel: killed` line, or a malformed protocol line all fail loudly
with a BenchmarkError (or ProtocolError) naming the benchmark.

Time-outs are wall-clock seconds on the host, generous for a slow CI machine:
the guest's own time does not advance while QEMU is not running.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Protocol

from ..errors import BenchmarkError
from ..guest import protocol
from ..guest.console import Output
from ..guest.protocol import Killed, Result, TestLine


@dataclass(frozen=True)
class Benchmark:
    name: str                   # the `bench=` field, and the paper's name
    cases: tuple[str, ...]      # the `case=` fields it must print
    timeout: float              # seconds of host time for the whole program
    command: str = ""           # what to type at the shell; default: name
    # The shorter run the model commands use (sweep, attribute, calibrate):
    # they boot once per point, under a model that runs 3-20x slower.  Its
    # cases, if it prints fewer (createdelete and andrew: one policy).
    short: str = ""
    short_cases: tuple[str, ...] = ()
    # In the default suite: the paper's eight benchmarks.  `mips`, the
    # integer benchmark that rates a model against Table 1, runs when named.
    in_suite: bool = True
    paper: str = ""             # where the paper defines it; "" for none

    @property
    def command_line(self) -> str:
        return self.command or self.name

    @property
    def short_command(self) -> str:
        return self.short or self.command_line

    @property
    def short_case_names(self) -> tuple[str, ...]:
        """The cases the short run prints, in order (region 2, 4, ... under a model)."""
        return self.short_cases or self.cases


# The file system's write policies (guests/bin/policy.c).  createdelete and
# andrew run once under each, and name their cases "<size or phase>-<policy>".
POLICIES = ("sync", "delayed", "writethrough")

# The one list of benchmarks: every command that takes --bench takes these
# (docs/harness.md); `run` and `overhead` run the suite's by default.
BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("getpid", ("call",), 60, short="getpid -n 20000", paper="Table 2"),
    Benchmark("cswitch", ("roundtrip",), 90, short="cswitch -n 2000", paper="Table 3"),
    Benchmark("select", ("1empty", "10empty", "10full"), 90, short="select -n 2000",
              paper="Table 4"),
    Benchmark("bcopy", ("cached", "uncached"), 120, short="bcopy -c 8K -u 1M -n 4",
              paper="Table 5"),
    # the file benchmarks: Tables 6, 9, 10 and 7-8
    Benchmark("readcache", ("1mb",), 120, short="readcache -n 2", paper="Table 6"),
    Benchmark("openclose", ("foo", "/a/b/c/foo"), 120, short="openclose -n 1000",
              paper="Table 9"),
    Benchmark("createdelete", tuple(f"{kb}k-{p}" for p in POLICIES for kb in (0, 10, 100)), 300,
              short="createdelete -p sync -n 20",
              short_cases=("0k-sync", "10k-sync", "100k-sync"), paper="Table 10"),
    Benchmark("andrew", tuple(f"{ph}-{p}" for p in POLICIES for ph in ("copy", "compile")), 600,
              short="andrew -p sync", short_cases=("copy-sync", "compile-sync"),
              paper="Tables 7-8"),
    Benchmark("mips", ("integer",), 120, short="mips -n 5000", in_suite=False,
              paper="Table 1"),
)

# The second suite, `measure` (docs/measure.md): the standard OS
# measurements of a CSE 221 course project (shared/papers/002) and of Chen
# et al. 1995 (004), one program with a subcommand each
# (guests/bin/measure.c), plus the paper suite's cswitch for the context
# switch.  Their names are the RESULT lines' bench= fields.  memlat places
# its array's pages by colour, so that its curve is the machine's caches'
# (make figure4 sets the page policies side by side).
MEMLAT_SIZES = tuple(512 << i for i in range(14))          # 512 B .. 4 MB
MEMLAT_STRIDES = (128, 4)                                   # Chen's 128 B; one word


def memlat_case(stride: int, size: int) -> str:
    """The case name measure.c prints for one array size and stride: the
    size in the largest unit it is a whole number of (s128-4m, s4-320k)."""
    if size % (1 << 20) == 0:
        return f"s{stride}-{size >> 20}m"
    if size % 1024 == 0:
        return f"s{stride}-{size >> 10}k"
    return f"s{stride}-{size}"


MEASURE_BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("timer", ("clock", "loop"), 60, command="measure timer", in_suite=False,
              paper="002 1a"),
    Benchmark("call", tuple(f"a{k}" for k in range(8)), 60, command="measure call",
              in_suite=False, paper="002 1b"),
    Benchmark("syscall", ("getpid", "dup2"), 60, command="measure syscall", in_suite=False,
              paper="002 1c; 004 4.2"),
    # forkexit-cow and forkexec-cow: under copy-on-write fork
    # (kernel/port/cow.c), which it turns on for them and off again.
    Benchmark("proc", ("forkexit", "forkexec", "forkexit-cow", "forkexec-cow", "exec"), 120,
              command="measure proc",
              in_suite=False, paper="002 1d; 004 4.3"),
    Benchmark("memlat", tuple(memlat_case(st, sz) for st in MEMLAT_STRIDES
                              for sz in MEMLAT_SIZES), 300,
              command="measure memlat -p coloured", short="measure memlat -p coloured -n 65536",
              in_suite=False,
              paper="002 2a; 004 4.4, Figure 4"),
    Benchmark("membw", ("read", "write"), 120, command="measure membw",
              short="measure membw -n 1", in_suite=False, paper="002 2b"),
    Benchmark("bufcache", ("warm", "cold"), 120, command="measure bufcache", in_suite=False,
              paper="004 4.5, Figure 5"),
    Benchmark("metadata", ("sync", "delayed"), 120, command="measure metadata",
              in_suite=False, paper="004 4.5, Figure 7"),
    # Under demand paging (kernel/port/paging.c), which it turns on for
    # itself and off again.
    Benchmark("pagefault", ("write",), 120, command="measure pagefault", in_suite=False,
              paper="002 2c"),
)

# 002's file-cache size (measure filecache -f): a file's first SIZE bytes
# re-read, for sizes from 64 KB to 2 MB in quarter steps between the powers
# of two; the kernel's buffer cache holds 2 MB (kernel/port/param.h).
FILECACHE_SIZES = tuple((64 << 10 << i) // 4 * q for i in range(5) for q in (4, 5, 6, 7)) + (2 << 20,)


def filecache_case(size: int) -> str:
    """The case name measure.c prints for one size: 64k, 1280k, 2m."""
    return f"{size >> 20}m" if size % (1 << 20) == 0 else f"{size >> 10}k"


# 002's file-system section (4a, 4b, 4d; not 4c, the network), appended to
# the measure suite: each file is read one block (1 KB) at a time, and its
# RESULT lines count blocks.
FILE_BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("filecache", tuple(filecache_case(s) for s in FILECACHE_SIZES), 300,
              command="measure filecache -f", in_suite=False, paper="002 4a"),
    Benchmark("fileread", ("seq", "random"), 300, command="measure fileread", in_suite=False,
              paper="002 4b"),
    Benchmark("contention", ("p1", "p2", "p3", "p4"), 300, command="measure contention",
              in_suite=False, paper="002 4d"),
)

# The third suite, `net` (docs/network.md): 002's Network section on two
# machines, netbench on node a against netd on node b (harness/net/run.py;
# the command is followed by the server's address).
NET_BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("net", ("udp-rtt", "tcp-rtt", "icmp-rtt", "tcp-bulk", "tcp-connect"), 1800,
              command="netbench", in_suite=False, paper="002 3"),
)

# Which benchmarks each suite runs, in order (`run --suite`).
SUITES: dict[str, tuple[str, ...]] = {
    "paper": tuple(b.name for b in BENCHMARKS if b.in_suite),
    "measure": ("timer", "call", "syscall", "proc", "cswitch", "memlat", "membw",
                "bufcache", "metadata", "pagefault", "filecache", "fileread", "contention"),
    "net": ("net",),
}

BY_NAME = {b.name: b for b in (*BENCHMARKS, *MEASURE_BENCHMARKS, *FILE_BENCHMARKS,
                               *NET_BENCHMARKS)}


def needs_pair(name: str) -> bool:
    """Whether benchmark `name` runs on two machines (a client against netd):
    the harness boots a pair for it (harness/net/)."""
    return any(b.name == name for b in NET_BENCHMARKS)
SUITE = SUITES["paper"]


def choose(names: Iterable[str] | None, suite: str = "paper") -> list[Benchmark]:
    """The named benchmarks in list order; the suite's for None or empty."""
    if suite not in SUITES:
        raise BenchmarkError(f"unknown suite {suite!r} (known: {', '.join(SUITES)})")
    wanted = list(names or [])
    if not wanted:
        return [BY_NAME[n] for n in SUITES[suite]]
    unknown = [n for n in wanted if n not in BY_NAME]
    if unknown:
        raise BenchmarkError(f"unknown benchmark {unknown[0]!r} "
                             f"(known: {', '.join(BY_NAME)})")
    order = list(SUITES[suite]) + [n for n in BY_NAME if n not in SUITES[suite]]
    return [BY_NAME[n] for n in order if n in wanted]


@dataclass
class BenchRun:
    bench: Benchmark
    results: list[Result]
    lines: list[str]
    seconds: float


def judge(bench: Benchmark, output: Output) -> list[Result]:
    """Check one benchmark's output; return its results in printed order."""
    what = f"benchmark {bench.name}"
    results: list[Result] = []
    for rec in output.records():        # raises ProtocolError on a malformed line
        if isinstance(rec, TestLine) and rec.kind == "FAIL":
            raise BenchmarkError(f"{what} printed FAIL name={rec.name} why={rec.why}")
        if isinstance(rec, Killed):
            raise BenchmarkError(f"{what}: the kernel killed pid {rec.pid} ({rec.name}): "
                                 f"{rec.why}")
        if isinstance(rec, Result):
            results.append(rec)
    if not results:
        tail = "; ".join(output.lines[-3:]) or "nothing"
        raise BenchmarkError(f"{what} printed no RESULT line (last output: {tail})")
    for r in results:
        if r.bench != bench.name:
            raise BenchmarkError(f"{what} printed a RESULT for bench={r.bench}: {r.line!r}")
        if r.ns <= r.loop_ns:
            raise BenchmarkError(f"{what} case {r.case}: ns={r.ns} is not above "
                                 f"loop_ns={r.loop_ns}, nothing was measured")
    seen = [r.case for r in results]
    missing = [c for c in bench.cases if c not in seen]
    if missing:
        raise BenchmarkError(f"{what} printed no RESULT for case {missing[0]!r} "
                             f"(got {', '.join(seen)})")
    dupes = sorted({c for c in seen if seen.count(c) > 1})
    if dupes:
        raise BenchmarkError(f"{what} printed case {dupes[0]!r} twice")
    return results


class Runner(Protocol):
    """What runs a command: a booted Guest, or runs.Fresh (a machine booted
    for each command, as every command that reports numbers uses)."""

    def run(self, command: str, timeout: float = 60.0) -> Output: ...


def run_benchmark(guest: Runner, bench: Benchmark, timeout: float | None = None) -> BenchRun:
    output = guest.run(bench.command_line, timeout=timeout or bench.timeout)
    return BenchRun(bench, judge(bench, output), output.lines, output.seconds)


def run_suite(guest: Runner, benches: Iterable[Benchmark], timeout: float | None = None,
              progress: Callable[[BenchRun], None] | None = None) -> list[BenchRun]:
    """Run each benchmark in turn (on a fresh machine each, given runs.Fresh);
    stop at the first failure."""
    runs = []
    for bench in benches:
        run = run_benchmark(guest, bench, timeout)
        if progress is not None:
            progress(run)
        runs.append(run)
    return runs


def all_results(runs: Iterable[BenchRun]) -> list[protocol.Result]:
    return [r for run in runs for r in run.results]
