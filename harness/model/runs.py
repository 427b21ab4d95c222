"""Guests under a profile: the common step of every command that boots one.

    guest = start(machine, profile, log)   # unstarted; `with guest:` boots it
    fresh = Fresh(machine, profile, log)   # each run() on a machine booted for it
    run = run_model("ds3100", ["mips -n 5000"], overrides={"cpu.cpi": 1.2})
    run.results          # RESULT lines, parsed
    run.joined           # each with its timed and empty HWREGION records

start() puts the machine's command line and the model's arguments together
(the model's log goes beside the console log, NAME.hw.log beside NAME.log):
`run`, `check`, the tests and run_model() all boot through it.  run_model()
is what calibration, sweeps, attribution, Figure 1 and the grader's
measurements use (a profile's parameters are fixed for a run), logs in
build/<arch>/model-runs/; commands that fail (FAIL, a kernel panic, no
RESULT) raise like the suite's.

Every benchmark meets the same machine: each one runs on a freshly booted
guest with the file system as the image built it (Fresh), whichever command
runs it and whatever ran before.  A benchmark run after Andrew on the same
boot met a file system Andrew had filled and a buffer cache it had
churned, and open-close took up to 1.9 times as long (issue 27;
docs/benchmarks.md, "Every benchmark on a fresh machine").  A boot costs
0.5-4 s of host time; the benchmarks cost minutes.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import ROOT
from ..bench import provenance, report
from ..errors import BenchmarkError
from ..guest import machines, protocol
from ..guest.console import Guest, Output
from ..guest.machines import Machine
from . import modelargs, modellog, profiles

_counter = itertools.count()


def hw_log_for(log: Path) -> Path:
    """Where the model's log goes for console log NAME.log: NAME.hw.log."""
    return log.with_name(log.stem + ".hw.log")


def argv(machine: Machine, hw: profiles.Profile, hw_log: Path,
         extra: list[str] | tuple[str, ...] = (), interactive: bool = False) -> list[str]:
    """The emulator's command line for this machine and profile."""
    base = machine.command(interactive=interactive)       # SetupError if not built
    return base + modelargs.emulator_args(hw, machine, hw_log, extra)


def start(machine: Machine, hw: profiles.Profile, log: Path, hw_log: Path | None = None,
          extra: list[str] | tuple[str, ...] = ()) -> Guest:
    """An unstarted guest of `machine` timed by `hw` (none: no model).
    SetupError, with the command that fixes it, if the kernel (or the
    model's plugin) is older than its sources."""
    command = argv(machine, hw, hw_log or hw_log_for(log), extra)
    provenance.verify(machine, hw)
    return machine.guest(command, log)


class Fresh:
    """Runs each command on a guest booted for it alone, and stops that guest
    after it: the machine state a benchmark meets is the freshly booted
    kernel's, and the file system the image's.  It runs commands like a
    Guest does (run(command, timeout) -> Output), so the suite's runner
    takes either.  Every boot appends to the one console log, and the
    model's records of each boot are appended to the one model log (the
    RESULT lines and the records stay in order, so modellog.join() pairs
    them as for a single boot).

    A failed boot or command raises as a Guest's would (GuestPanic,
    GuestHang, ...), with that boot's console tail."""

    def __init__(self, machine: Machine, hw: profiles.Profile, log: Path,
                 hw_log: Path | None = None, extra: list[str] | tuple[str, ...] = ()) -> None:
        self.machine, self.hw, self.log, self.extra = machine, hw, log, tuple(extra)
        self.hw_log = hw_log or hw_log_for(log)
        self.boot_hw_log = self.hw_log.with_name(self.hw_log.name + ".boot")
        # The command line of every boot (the model's log aside): provenance's.
        self.argv = argv(machine, hw, self.hw_log, self.extra)
        provenance.verify(machine, hw)
        self.boots = 0
        self.boot_record: protocol.Boot | None = None
        self.boot_seconds = 0.0
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("")
        if hw.model:
            self.hw_log.write_text("")

    def run(self, command: str, timeout: float = 60.0) -> Output:
        m = self.machine
        self.boots += 1
        with self.log.open("a") as f:
            f.write(f"--- boot {self.boots}, for `{command}` (a fresh machine for each "
                    f"benchmark: harness/model/runs.py) ---\n")
        guest = m.guest(argv(m, self.hw, self.boot_hw_log, self.extra), self.log,
                        log_append=True)
        try:
            with guest:
                t = time.monotonic()
                rec = guest.boot(timeout=m.boot_timeout)
                self.boot_seconds += time.monotonic() - t
                if self.boot_record is None:
                    self.boot_record = rec
                return guest.run(command, timeout=timeout)
        finally:
            self._keep_model_log()

    def _keep_model_log(self) -> None:
        """Append this boot's model log to the run's, and remove it."""
        if self.boot_hw_log.exists():
            with self.hw_log.open("a") as out:
                out.write(self.boot_hw_log.read_text())
            self.boot_hw_log.unlink()


@dataclass
class ModelRun:
    profile: profiles.Profile
    results: list[protocol.Result]
    regions: list[modellog.Region]
    joined: list[modellog.Joined]
    log: Path
    outputs: dict[str, list[str]] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)   # harness/bench/provenance.py

    def result(self, bench: str, case: str) -> protocol.Result:
        for r in self.results:
            if r.bench == bench and r.case == case:
                return r
        raise BenchmarkError(f"no RESULT for {bench} {case}")


def run_model(profile: str, commands: list[str], overrides: dict[str, Any] | None = None,
              arch: str | None = None, timeout: float = 300.0, extra: list[str] | None = None,
              tag: str = "") -> ModelRun:
    """arch: the profile's ISA by default."""
    hw = profiles.load(profile, overrides)
    machine = machines.get(arch or hw.isa)
    outdir = ROOT / "build" / machine.arch / "model-runs"
    stem = f"{profile}-{tag or 'run'}-{os.getpid()}-{next(_counter)}"
    log = outdir / f"{stem}.hw.log"
    results: list[protocol.Result] = []
    outputs: dict[str, list[str]] = {}
    fresh = Fresh(machine, hw, outdir / f"{stem}.log", log, extra or ())
    made_by = provenance.record(machine, hw, fresh.argv, overrides)
    for c in commands:
        out = fresh.run(c, timeout=timeout)
        outputs[c] = out.lines
        results += results_of(c, out)
    regions, warnings = modellog.read_log(log)
    if warnings:
        raise BenchmarkError(f"hardware model warned: {warnings[0]}")
    return ModelRun(hw, results, regions, modellog.join(results, regions), log, outputs, made_by)


def results_of(command: str, out: Output) -> list[protocol.Result]:
    """The RESULT lines `command` printed; BenchmarkError if it printed
    FAIL or none."""
    got = []
    for rec in out.records():
        if isinstance(rec, protocol.TestLine) and rec.kind == "FAIL":
            raise BenchmarkError(f"{command!r} printed FAIL: {rec.why}")
        if isinstance(rec, protocol.Result):
            got.append(rec)
    if not got:
        raise BenchmarkError(f"{command!r} printed no RESULT line "
                             f"(last output: {'; '.join(out.lines[-3:])})")
    return got


def attach_counters(record: report.RunRecord, hw: profiles.Profile, hw_log: Path,
                    say: Callable[[str], None]) -> list[modellog.Joined]:
    """Pair each RESULT of a suite run with the model's region records, and
    keep them in the record: each case's records and counters per operation
    (record.model), the model's parameters (its JSON's "hwmodel")."""
    regions, warnings = modellog.read_log(hw_log)
    for w in warnings:
        say(f"harness: hardware model: {w}")
    joined = modellog.join(record.results, regions)
    record.meta["hwmodel"] = {"profile": record.profile, "log": hw_log.name, "params": hw.data}
    for j in joined:
        record.model[(j.result.bench, j.result.case)] = {
            "per_op": j.counters(), "timed": j.timed.fields, "empty": j.empty.fields,
            "events": j.events(hw.isa)}
    return joined
