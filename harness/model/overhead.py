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


def format_table(arch: str, profile: str, repeat: int, benches: list[suite.Benchmark],
                 none: Timings, model: Timings, floor: Timings | None = None) -> str:
    """The comparison: per benchmark and in all, instructions from the run
    without the model; with `floor`, two more columns: the floor plugin's
    CPU seconds and its ratio over plain icount."""
    lines = [f"Hardware model overhead on {arch}: profile {profile} vs none "
             f"(no model), best of {repeat}", "",
             f"{'benchmark':10} {'guest Minsns':>12} {'none cpu s':>10} {'none MIPS':>10} "
             f"{'model cpu s':>11} {'model MIPS':>11} {'ratio':>6}"
             + (f" {'floor cpu s':>11} {'floor ratio':>11}" if floor else "")]
    s0_all = s1_all = sf_all = 0.0
    insns_all = 0
    for b in benches:
        s0, n = none[b.name]
        s1, _ = model[b.name]
        s0_all += s0
        s1_all += s1
        insns_all += n
        line = (f"{b.name:10} {n / 1e6:12.1f} {s0:10.2f} {n / s0 / 1e6:10.1f} "
                f"{s1:11.2f} {n / s1 / 1e6:11.1f} {s1 / s0:6.2f}")
        if floor:
            sf = floor[b.name][0]
            sf_all += sf
            line += f" {sf:11.2f} {sf / s0:11.2f}"
        lines.append(line)
    line = (f"{'all':10} {insns_all / 1e6:12.1f} {s0_all:10.2f} "
            f"{insns_all / s0_all / 1e6:10.1f} {s1_all:11.2f} "
            f"{insns_all / s1_all / 1e6:11.1f} {s1_all / s0_all:6.2f}")
    if floor:
        line += f" {sf_all:11.2f} {sf_all / s0_all:11.2f}"
        lines += [line, "", "floor: the model's callbacks left empty (hw-models/floor/floor.c): "
                  "what the plugin interface costs before the model works"]
        return "\n".join(lines) + "\n"
    lines.append(line)
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
    text = format_table(arch, profile, repeat, benches, best["none"], best[profile],
                        best.get("floor"))
    path = out or ROOT / "results" / f"hwmodel-overhead-{profile}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    # what produced it, beside it (harness/bench/provenance.py)
    made_by = provenance.record(machines.get(arch), profiles.load(profile))
    if floor:
        made_by["floor_plugin"] = {"path": str(modelargs.FLOOR_PLUGIN.relative_to(ROOT)),
                                   "sha256": buildstamp.sha256_file(modelargs.FLOOR_PLUGIN)}
    path.with_suffix(".json").write_text(json.dumps(
        {"table": text, "best": best, "provenance": made_by}, indent=1) + "\n")
    return text, path
