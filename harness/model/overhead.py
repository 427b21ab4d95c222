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
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from .. import ROOT
from ..bench import provenance, suite
from ..guest import machines, protocol
from . import hwmodel, runs

# {benchmark: (emulator CPU seconds, guest instructions)}
Timings = dict[str, tuple[float, int]]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_suite(profile: str, arch: str, benches: list[suite.Benchmark]) -> Timings:
    """Boot once under `profile` and time each benchmark's program."""
    m = machines.get(arch)
    logdir = ROOT / "build" / arch / "model-runs"
    hw = hwmodel.load_profile(profile)
    out = {}
    with runs.start(m, hw, logdir / f"overhead-{profile}.log",
                    logdir / "overhead.hw.log") as g:
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
                 none: Timings, model: Timings) -> str:
    """The comparison: per benchmark and in all, instructions from the run
    without the model."""
    lines = [f"Hardware model overhead on {arch}: profile {profile} vs none "
             f"(no model), best of {repeat}", "",
             f"{'benchmark':10} {'guest Minsns':>12} {'none cpu s':>10} {'none MIPS':>10} "
             f"{'model cpu s':>11} {'model MIPS':>11} {'ratio':>6}"]
    s0_all = s1_all = 0.0
    insns_all = 0
    for b in benches:
        s0, n = none[b.name]
        s1, _ = model[b.name]
        s0_all += s0
        s1_all += s1
        insns_all += n
        lines.append(f"{b.name:10} {n / 1e6:12.1f} {s0:10.2f} {n / s0 / 1e6:10.1f} "
                     f"{s1:11.2f} {n / s1 / 1e6:11.1f} {s1 / s0:6.2f}")
    lines.append(f"{'all':10} {insns_all / 1e6:12.1f} {s0_all:10.2f} "
                 f"{insns_all / s0_all / 1e6:10.1f} {s1_all:11.2f} "
                 f"{insns_all / s1_all / 1e6:11.1f} {s1_all / s0_all:6.2f}")
    return "\n".join(lines) + "\n"


def overhead(profile: str, repeat: int = 3, bench_names: list[str] | None = None,
             out: Path | None = None,
             say: Callable[[str], None] = print) -> tuple[str, Path]:
    """Time the suite `repeat` times without and with the model; keep the
    best of each; write the table to `out` (a .txt file)."""
    arch = hwmodel.load_profile(profile).isa
    benches = suite.choose(bench_names)
    best: dict[str, Timings] = {"none": {}, profile: {}}
    for i in range(repeat):
        for p in ("none", profile):
            say(f"overhead: {arch}, profile {p}, run {i + 1} of {repeat}")
            for name, (sec, insns) in run_suite(p, arch, benches).items():
                old = best[p].get(name)
                if old is None or sec < old[0]:
                    best[p][name] = (sec, insns)
    text = format_table(arch, profile, repeat, benches, best["none"], best[profile])
    path = out or ROOT / "results" / f"hwmodel-overhead-{profile}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    # what produced it, beside it (harness/bench/provenance.py)
    made_by = provenance.record(machines.get(arch), hwmodel.load_profile(profile))
    path.with_suffix(".json").write_text(json.dumps(
        {"table": text, "best": best, "provenance": made_by}, indent=1) + "\n")
    return text, path
