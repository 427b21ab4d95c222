"""What the hardware model costs: guest MIPS with the full model vs without.

    python3 -m harness overhead --profile ds3100 [--repeat 3] [--bench NAME]...

Boots the kernel of the profile's ISA without the model (profile none:
-icount only, or plain SIMH for the VAX) and with it, runs the benchmark
suite's programs with their default arguments in each, and compares the CPU
seconds the emulator spends on each program (user + system time from /proc,
which a busy shared host disturbs less than wall time).  The guest executes
the same instructions either way, so guest MIPS = instructions / CPU
seconds, with the instructions taken from the RESULT lines (timed and empty
loops).  The best of --repeat runs counts.  A benchmark of the model, not a
test: measure on an idle machine; the hw-models README quotes its output,
which also goes to results/hwmodel-overhead-PROFILE.txt (and, with what produced it,
to .json beside it).

With --floor (QEMU machines) a third boot loads hw-models/floor/floor.c
instead of the model: the model's inline additions and callbacks, left
empty.  Its ratio over plain icount is what the plugin interface costs
before the model does anything, the least an exact model built on it can
cost; the model's ratio minus the floor's is the model's own work.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from .. import ROOT
from ..bench import provenance, suite
from ..guest import buildstamp, machines, protocol
from ..tables import format_table
from . import modelargs, profiles, runs

# {benchmark: (emulator CPU seconds, guest instructions)}
Timings = dict[str, tuple[float, int]]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_suite(profile: str, arch: str, benches: list[suite.Benchmark],
              floor: bool = False) -> Timings:
    """Boot once under `profile` and time each benchmark's program.
    floor: boot without a model (profile none) but with the floor plugin."""
    m = machines.get(arch)
    logdir = ROOT / "build" / arch / "model-runs"
    hw = profiles.load(profile)
    name = "floor" if floor else profile
    log = logdir / f"overhead-{name}.log"
    if floor:
        provenance.verify(m, hw)
        guest = m.guest(m.command(extra=modelargs.floor_args(m)), log)
    else:
        guest = runs.start(m, hw, log, logdir / "overhead.hw.log")
    out = {}
    with guest as g:
        g.boot(timeout=m.boot_timeout)
        for b in benches:
            before = cpu_seconds(g.pid)
            o = g.run(b.command_line, timeout=600)
            # (where user mode cannot count, -icount shift=0 time is the
            # count; only the run without the model's is used)
            insns = sum(r.insns + r.loop_insns if r.counts_insns else r.ns + r.loop_ns
                        for r in o.records() if isinstance(r, protocol.Result))
            out[b.name] = (cpu_seconds(g.pid) - before, insns)
    return out


def text(arch: str, profile: str, repeat: int, benches: list[suite.Benchmark],
         none: Timings, model: Timings, floor: Timings | None = None) -> str:
    """The comparison: per benchmark and in all, instructions from the run
    without the model; with `floor`, two more columns: the floor plugin's
    CPU seconds and its ratio over plain icount."""
    header = ["benchmark", "guest Minsns", "none cpu s", "none MIPS", "model cpu s",
              "model MIPS", "ratio"] + (["floor cpu s", "floor ratio"] if floor else [])
    names = [b.name for b in benches]

    def row(name: str, n: int, s0: float, s1: float, sf: float | None) -> list[str]:
        cells = [name, f"{n / 1e6:.1f}", f"{s0:.2f}", f"{n / s0 / 1e6:.1f}", f"{s1:.2f}",
                 f"{n / s1 / 1e6:.1f}", f"{s1 / s0:.2f}"]
        return cells + ([f"{sf:.2f}", f"{sf / s0:.2f}"] if sf is not None else [])

    rows = [row(b, none[b][1], none[b][0], model[b][0], floor[b][0] if floor else None)
            for b in names]
    rows.append(row("all", sum(none[b][1] for b in names), sum(none[b][0] for b in names),
                    sum(model[b][0] for b in names),
                    sum(floor[b][0] for b in names) if floor else None))
    lines = [f"Hardware model overhead on {arch}: profile {profile} vs none "
             f"(no model), best of {repeat}", "",
             *format_table(header, rows, rules_after=(len(names),))]
    if floor:
        lines += ["", "floor: the model's callbacks left empty (hw-models/floor/floor.c): "
                  "what the plugin interface costs before the model works"]
    return "\n".join(lines) + "\n"


def overhead(profile: str, repeat: int = 3, bench_names: list[str] | None = None,
             out: Path | None = None, floor: bool = False,
             say: Callable[[str], None] = print) -> tuple[str, Path]:
    """Time the suite `repeat` times without and with the model (and, with
    `floor`, under the floor plugin); keep the best of each; write the
    table to `out` (a .txt file).  The configurations take turns in each
    round, so that a change in the host's load falls on all of them."""
    arch = profiles.load(profile).isa
    if floor:
        modelargs.floor_args(machines.get(arch))          # SetupError now, not after a run
    benches = suite.choose(bench_names)
    configs = ["none"] + (["floor"] if floor else []) + [profile]
    best: dict[str, Timings] = {c: {} for c in configs}
    for i in range(repeat):
        for c in configs:
            say(f"overhead: {arch}, {'the floor plugin' if c == 'floor' else 'profile ' + c}, "
                f"run {i + 1} of {repeat}")
            timings = (run_suite("none", arch, benches, floor=True) if c == "floor"
                       else run_suite(c, arch, benches))
            for name, (sec, insns) in timings.items():
                old = best[c].get(name)
                if old is None or sec < old[0]:
                    best[c][name] = (sec, insns)
    table = text(arch, profile, repeat, benches, best["none"], best[profile],
                 best.get("floor"))
    path = out or ROOT / "results" / f"hwmodel-overhead-{profile}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(table)
    # what produced it, beside it (harness/bench/provenance.py)
    made_by = provenance.record(machines.get(arch), profiles.load(profile))
    if floor:
        made_by["floor_plugin"] = {"path": str(modelargs.FLOOR_PLUGIN.relative_to(ROOT)),
                                   "sha256": buildstamp.sha256_file(modelargs.FLOOR_PLUGIN)}
    path.with_suffix(".json").write_text(json.dumps(
        {"table": table, "best": best, "provenance": made_by}, indent=1) + "\n")
    return table, path
