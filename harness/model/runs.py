"""Guests under a profile: the common step of every command that boots one.

    guest = start(machine, profile, log)   # unstarted; `with guest:` boots it
    run = run_model("ds3100", ["mips -n 5000"], overrides={"cpu.cpi": 1.2})
    run.results          # RESULT lines, parsed
    run.joined           # each with its timed and empty HWREGION records

start() puts the machine's command line and the model's arguments together
(the model's log goes beside the console log, NAME.hw.log beside NAME.log):
`run`, `check`, the tests and run_model() all boot through it.  run_model()
is what calibration, sweeps, attribution and Figure 1 use: one fresh
emulator per call (a profile's parameters are fixed for a run), logs in
build/<arch>/model-runs/; commands that fail (FAIL, a kernel panic, no
RESULT) raise like the suite's.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import ROOT
from ..bench import provenance, report
from ..errors import BenchmarkError
from ..guest import machines, protocol
from ..guest.console import Guest
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
    guest = start(machine, hw, outdir / f"{stem}.log", log, extra or ())
    made_by = provenance.record(machine, hw, guest.argv, overrides)
    with guest as g:
        g.boot(timeout=machine.boot_timeout)
        for c in commands:
            out = g.run(c, timeout=timeout)
            outputs[c] = out.lines
            got = []
            for rec in out.records():
                if isinstance(rec, protocol.TestLine) and rec.kind == "FAIL":
                    raise BenchmarkError(f"{c!r} printed FAIL: {rec.why}")
                if isinstance(rec, protocol.Result):
                    got.append(rec)
            if not got:
                raise BenchmarkError(f"{c!r} printed no RESULT line "
                                     f"(last output: {'; '.join(out.lines[-3:])})")
            results += got
    regions, warnings = modellog.read_log(log)
    if warnings:
        raise BenchmarkError(f"hardware model warned: {warnings[0]}")
    return ModelRun(hw, results, regions, modellog.join(results, regions), log, outputs, made_by)


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
