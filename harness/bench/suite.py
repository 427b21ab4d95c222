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
from typing import Callable, Iterable

from ..errors import BenchmarkError
from ..guest import protocol
from ..guest.console import Guest, Output
from ..guest.protocol import Killed, Result, TestLine


@dataclass(frozen=True)
class Benchmark:
    name: str                   # the `bench=` field, and the paper's name
    cases: tuple[str, ...]      # the `case=` fields it must print
    timeout: float              # seconds of host time for the whole program
    command: str = ""           # what to type at the shell; default: name

    @property
    def command_line(self) -> str:
        return self.command or self.name


# The file system's write policies (guests/bin/policy.c).  createdelete and
# andrew run once under each, and name their cases "<size or phase>-<policy>".
POLICIES = ("sync", "delayed", "writethrough")

BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("getpid", ("call",), 60),
    Benchmark("cswitch", ("roundtrip",), 90),
    Benchmark("select", ("1empty", "10empty", "10full"), 90),
    Benchmark("bcopy", ("cached", "uncached"), 120),
    # the file benchmarks: Tables 6, 9, 10 and 7-8
    Benchmark("readcache", ("1mb",), 120),
    Benchmark("openclose", ("foo", "/a/b/c/foo"), 120),
    Benchmark("createdelete", tuple(f"{kb}k-{p}" for p in POLICIES for kb in (0, 10, 100)), 300),
    Benchmark("andrew", tuple(f"{ph}-{p}" for p in POLICIES for ph in ("copy", "compile")), 600),
)

BY_NAME = {b.name: b for b in BENCHMARKS}


def choose(names: Iterable[str] | None) -> list[Benchmark]:
    """The named benchmarks in suite order; all of them for None or empty."""
    wanted = list(names or [])
    if not wanted:
        return list(BENCHMARKS)
    unknown = [n for n in wanted if n not in BY_NAME]
    if unknown:
        raise BenchmarkError(f"unknown benchmark {unknown[0]!r} "
                             f"(known: {', '.join(BY_NAME)})")
    return [b for b in BENCHMARKS if b.name in wanted]


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


def run_benchmark(guest: Guest, bench: Benchmark, timeout: float | None = None) -> BenchRun:
    output = guest.run(bench.command_line, timeout=timeout or bench.timeout)
    return BenchRun(bench, judge(bench, output), output.lines, output.seconds)


def run_suite(guest: Guest, benches: Iterable[Benchmark], timeout: float | None = None,
              progress: Callable[[BenchRun], None] | None = None) -> list[BenchRun]:
    """Run each benchmark in turn on a booted guest; stop at the first failure."""
    runs = []
    for bench in benches:
        run = run_benchmark(guest, bench, timeout)
        if progress is not None:
            progress(run)
        runs.append(run)
    return runs


def all_results(runs: Iterable[BenchRun]) -> list[protocol.Result]:
    return [r for run in runs for r in run.results]
