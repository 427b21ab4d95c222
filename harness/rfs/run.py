"""`run --remote nfs|sprite|both` (make run REMOTE=...): the paper's file
benchmarks in its Local and Remote configurations, on two machines of one
profile (harness/net/pair.py: node a the client, node b the server, "the
same kind of machine as the client").  Any ISA on the deterministic wire
runs it; Pair refuses, naming why, one that is not (checked before
anything is built: check()).

Each benchmark, under each policy or protocol, runs on a pair booted for
it alone, as every benchmark does on one machine (harness/model/runs.py,
issue 27): the client's cache and the server's disk are the image's.  On
each pair:

    1. b starts serving its file system (`rfsd`);
    2. Local: a runs the benchmark on its own disk, under the local policy
       of the protocol's operating system (nfs: `sync`, as Ultrix and
       SunOS; sprite: `delayed`);
    3. Remote: a mounts b's file system at / (`mount -t PROTO 10.0.0.1 /`)
       and is a diskless client from then on: every program it runs and
       every file it touches is b's (the paper: for Sprite and SunOS
       "absolutely all file accesses were remote"); then it runs the
       benchmark under the protocol (-p nfs or -p sprite).

The report is the paper's Tables 7, 9 and 10 with our Local and Remote rows
(the server's disk writes and the calls per operation under each remote
row) and Table 8 from our Andrew runs.

    results/ARCH-PROFILE-remote-PROTO/
        results.json, results.csv, report.txt     as for any run
        console-a.log, console-b.log, hwmodel-a.log, hwmodel-b.log
                                                  every pair's, one after another

results.json's meta has both nodes' rfsstat counters after each benchmark.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..bench import report, rundir, runrecord, suite
from ..errors import BenchmarkError, HarnessError, UsageError
from ..model import profiles, runs
from ..net.pair import NODES, ROLES, Pair

PROTOCOLS = ("nfs", "sprite")
CHOICES = PROTOCOLS + ("both",)
# The file benchmarks the paper ran remotely (Tables 7-10), in run order.
BENCHES = ("openclose", "createdelete", "andrew")
SERVER_READY = "rfsd: serving"
MOUNT_POINT = "/"                       # a diskless client


def protocols_of(choice: str) -> tuple[str, ...]:
    if choice not in CHOICES:
        raise UsageError(f"unknown remote protocol {choice!r} (known: {', '.join(CHOICES)})")
    return PROTOCOLS if choice == "both" else (choice,)


@dataclass(frozen=True)
class Step:
    """One benchmark under one policy or protocol, on a pair booted for it:
    the commands that set the client up first (mounting), each with the
    line it must print, then the benchmark."""

    bench: suite.Benchmark
    setup: tuple[tuple[str, str], ...] = ()

    @property
    def commands(self) -> list[str]:
        return [c for c, _ in self.setup] + [self.bench.command_line]


def _bench(name: str, policy: str) -> suite.Benchmark:
    """The suite's benchmark, run under one policy (its cases named after it)."""
    b = suite.BY_NAME[name]
    view = report.view_of(name)
    assert view is not None
    cases = report.view_cases(view, policy)
    command = f"{b.command_line} -p {policy}" if policy else b.command_line
    return suite.Benchmark(name, cases, b.timeout * 3, command=command, paper=b.paper)


def mount_step(proto: str, server: str) -> tuple[str, str]:
    """The command that makes the client diskless, and what it prints."""
    return (f"mount -t {proto} {server} {MOUNT_POINT}",
            f"mount: {proto} {server} on {MOUNT_POINT}")


def plan(protocols: tuple[str, ...], benches: tuple[str, ...], server: str) -> list[Step]:
    """Every benchmark run, in order: the Local ones, then each protocol's."""
    locals_ = [p for p in ("sync", "delayed")
               if p in {report.LOCAL_OF[q] for q in protocols}]
    steps = []
    for name in benches:                     # Local: the client's own disk
        for p in ([""] if name == "openclose" else locals_):
            steps.append(Step(_bench(name, p)))
    for proto in protocols:                  # Remote: all of it the server's
        for name in benches:
            steps.append(Step(_bench(name, proto), (mount_step(proto, server),)))
    return steps


def rfsstat(lines: list[str]) -> dict[str, int]:
    """`rfsstat -a`'s counters."""
    if not lines or not lines[0].startswith("rfs proto="):
        raise BenchmarkError(f"rfsstat printed {lines[:2]!r}, not its counters")
    return {k: int(v) for k, v in (line.split("=", 1) for line in lines[1:] if "=" in line)}


def serve(pair: Pair, timeout: float, server_args: str = "") -> None:
    out = pair.b.run(f"rfsd {server_args}".strip(), timeout=timeout)
    if SERVER_READY not in out.lines:
        raise BenchmarkError(f"rfsd on b printed {out.lines!r}, not {SERVER_READY!r}")


def set_up(pair: Pair, setup: tuple[tuple[str, str], ...], timeout: float) -> None:
    for command, expect in setup:
        out = pair.a.run(command, timeout=timeout)
        if expect not in out.lines:
            raise BenchmarkError(f"{command!r} on a printed {out.lines!r}, not {expect!r}")


def benches_of(benches: list[str] | None) -> tuple[str, ...]:
    """The file benchmarks asked for (all of BENCHES by default)."""
    names = tuple(b for b in BENCHES if not benches or b in benches)
    other = [b for b in benches or () if b not in BENCHES]
    if other or not names:
        raise UsageError(f"--remote runs {', '.join(BENCHES)}, not "
                             f"{', '.join(other) or 'nothing'}")
    return names


def check(arch: str, profile_name: str, choice: str, benches: list[str] | None = None) -> None:
    """What a remote run refuses before anything is built or booted: an
    unknown protocol or benchmark, a profile without a [link], an ISA not
    on the deterministic wire (Pair's own checks, which start nothing)."""
    protocols_of(choice)
    benches_of(benches)
    with tempfile.TemporaryDirectory(prefix="ousterhout-rfs-check-") as tmp:
        Pair(arch, profiles.load(profile_name), Path(tmp))


def _append(dst: Path, src: Path) -> None:
    """One pair's log onto the run's (as runs.Fresh keeps one log)."""
    if src.exists():
        with dst.open("a") as out:
            out.write(src.read_text())
        src.unlink()


def run_step(arch: str, profile: profiles.Profile, d: rundir.RunDir, step: Step,
             index: int, timeout: float | None, overrides: dict[str, Any] | None
             ) -> tuple[suite.BenchRun, dict[str, dict[str, int]], Pair]:
    """One benchmark on a pair booted for it; (its run, both nodes' rfsstat,
    the pair, closed)."""
    pair = Pair(arch, profile, d.partial, names=(f"boot-console-{{node}}.log",
                                                 f"boot-hwmodel-{{node}}.log"),
                overrides=overrides)
    for node in NODES:
        with d.path(f"console-{node}.log").open("a") as f:
            f.write(f"--- pair {index}, for `{'; '.join(step.commands)}` (a fresh pair for "
                    f"each benchmark: harness/rfs/run.py) ---\n")
    try:
        with pair:
            serve(pair, timeout or 120)
            set_up(pair, step.setup, timeout or 120)
            out = pair.a.run(step.bench.command_line, timeout=timeout or step.bench.timeout)
            stats = {n: rfsstat(pair.guests[n].run("rfsstat -a", timeout=120).lines)
                     for n in NODES}
    finally:
        for node in NODES:
            _append(d.path(f"console-{node}.log"), pair.console_log(node))
            _append(d.path(f"hwmodel-{node}.log"), pair.hw_log(node))
    results = suite.judge(step.bench, out)
    return suite.BenchRun(step.bench, results, out.lines, out.seconds), stats, pair


def pair_record(arch: str, profile: profiles.Profile, tag: str | None, done: list[Any],
                first: Pair, suite_name: str, stats: Any) -> report.RunRecord:
    """The record of a run on pairs of machines: `done`'s results, the
    first pair's boot and provenance, both nodes named, the servers'
    rfsstat counters (`stats`)."""
    record = report.RunRecord(
        arch=arch, profile=profile.name, mips=profile.mips, profile_note=profile.note,
        results=suite.all_results(done), boot=first.a.boot_record, tag=tag,
        paper_machine=profile.data.get("paper", ""),
        paper_os=profile.data.get("paper_os", ""), provenance=first.provenance())
    record.meta["suite"] = suite_name
    record.meta["nodes"] = {n: {"role": ROLES[n], "address": Pair.address(n),
                                "console": f"console-{n}.log",
                                "hwmodel": f"hwmodel-{n}.log"} for n in NODES}
    record.meta["rfsstat"] = stats
    return record


def run_remote(arch: str, profile_name: str, choice: str, out_root: Path, tag: str | None,
               benches: list[str] | None, timeout: float | None, say: Callable[[str], None],
               overrides: dict[str, Any] | None = None
               ) -> tuple[Path, report.RunRecord, str]:
    """The whole run; (its results directory, its record, the report's text)."""
    protocols, names = protocols_of(choice), benches_of(benches)
    profile = profiles.load(profile_name)
    tag = tag or f"remote-{choice}"
    with rundir.RunDir(out_root, rundir.run_name(arch, profile_name, tag)) as d:
        done, stats = [], {}
        steps = plan(protocols, names, Pair.address("b"))
        say(f"harness: {len(steps)} benchmark runs on {arch} a (client) and b (server), "
            f"profile {profile_name}, a pair booted for each")
        try:
            for i, step in enumerate(steps, 1):
                run, stats[step.bench.command_line], pair = run_step(
                    arch, profile, d, step, i, timeout, overrides)
                say(f"harness: {'; '.join(step.commands)}: {len(run.results)} result(s) "
                    f"in {run.seconds:.1f} s of host time")
                done.append(run)
                if i == 1:
                    first = pair
        except HarnessError as e:
            e.detail = "\n".join(x for x in (e.detail, f"console logs: {d.partial}/") if x)
            raise
        record = pair_record(arch, profile, tag, done, first, "remote", stats)
        record.meta["remote"] = {"protocols": list(protocols), "mount": MOUNT_POINT,
                                 "server": Pair.address("b")}
        runs.attach_counters(record, first.model, d.path("hwmodel-a.log"), say)
        text = runrecord.report_text(record)
        runrecord.write(d, record, text)
    return d.final, record, text
