"""Run guest commands under a hardware model: the common step of calibration,
sweeps and attribution.

    run = run_model("ds3100", ["mips -n 5000"], overrides={"cpu.cpi": 1.2})
    run.results          # RESULT lines, parsed
    run.joined           # each with its timed and empty HWREGION records

One fresh QEMU per call (a profile's parameters are fixed for a run); the
console log and the plugin's log go to build/<arch>/model-runs/.  Commands
that fail (FAIL, a kernel panic, no RESULT) raise like the suite's.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import hwmodel
from ..guest import machines
from . import profiles
from ..guest import protocol
from ..guest.console import Guest
from ..errors import BenchmarkError
from ..guest.machines import ROOT

_counter = itertools.count()


@dataclass
class ModelRun:
    profile: hwmodel.HwProfile
    results: list[protocol.Result]
    regions: list[hwmodel.Region]
    joined: list[hwmodel.Joined]
    log: Path
    outputs: dict[str, list[str]] = field(default_factory=dict)

    def result(self, bench: str, case: str) -> protocol.Result:
        for r in self.results:
            if r.bench == bench and r.case == case:
                return r
        raise BenchmarkError(f"no RESULT for {bench} {case}")

    def joined_for(self, bench: str, case: str) -> hwmodel.Joined:
        for j in self.joined:
            if j.result.bench == bench and j.result.case == case:
                return j
        raise BenchmarkError(f"no model records for {bench} {case}")


def run_model(profile: str, commands: list[str], overrides: dict[str, Any] | None = None,
              arch: str | None = None, timeout: float = 300.0, extra: list[str] | None = None,
              tag: str = "") -> ModelRun:
    """arch: the profile's ISA by default."""
    hw = hwmodel.load_profile(profile, overrides)
    arch = arch or hw.isa
    machine = machines.get(arch)
    outdir = ROOT / "build" / arch / "model-runs"
    stem = f"{profile}-{tag or 'run'}-{os.getpid()}-{next(_counter)}"
    log = outdir / f"{stem}.hw.log"
    argv = machine.command(profiles.get("none")) + \
        hwmodel.emulator_args(hw, arch, machine.kernel_path(), log, extra)
    results: list[protocol.Result] = []
    outputs: dict[str, list[str]] = {}
    with Guest(argv, log_path=outdir / f"{stem}.log", line_ending=machine.line_ending,
               char_delay=machine.char_delay, cwd=ROOT) as g:
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
    regions, warnings = hwmodel.read_log(log)
    if warnings:
        raise BenchmarkError(f"hardware model warned: {warnings[0]}")
    return ModelRun(hw, results, regions, hwmodel.join(results, regions), log, outputs)
