#!/usr/bin/env python3
"""What the hardware model costs: guest MIPS with the full model vs plain -icount.

    python3 -m harness.model.overhead [--profile ds3100] [--repeat 3]

Boots the kernel of the profile's ISA without the model (profile none:
-icount only, or plain SIMH for the VAX) and with it, runs the benchmark suite's programs with their default arguments
in each, and compares the CPU seconds QEMU spends on each program (user +
system time from /proc, which a busy shared host disturbs less than wall
time).  The guest executes the same instructions either way, so guest
MIPS = instructions / CPU seconds, with the instructions taken from the
RESULT lines (timed and empty loops).  The best of --repeat runs counts.  A benchmark of the
model, not a test: the README quotes its output, which also goes to
results/hwmodel-overhead.txt.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from harness.bench import suite  # noqa: E402
from harness.guest import machines, protocol  # noqa: E402
from harness.model import hwmodel, profiles  # noqa: E402
from harness.guest.console import Guest  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_suite(profile: str, arch: str) -> dict[str, tuple[float, int]]:
    """{benchmark: (emulator CPU seconds, guest instructions)}"""
    m = machines.get(arch)
    argv = m.command(profiles.get("none"))
    logdir = ROOT / "build" / arch / "model-runs"
    if profile != "none":
        argv += hwmodel.emulator_args(hwmodel.load_profile(profile), arch,
                                      m.kernel_path(), logdir / "overhead.hw.log")
    out = {}
    with Guest(argv, log_path=logdir / f"overhead-{profile}.log", cwd=ROOT,
               line_ending=m.line_ending, stop_key=m.stop_key) as g:
        g.boot(timeout=m.boot_timeout)
        for b in suite.BENCHMARKS:
            before = cpu_seconds(g.pid)
            o = g.run(b.command_line, timeout=600)
            # (where user mode cannot count, -icount shift=0 time is the
            # count; only the run without the model's is used)
            insns = sum(r.insns + r.loop_insns if r.counts_insns else r.ns + r.loop_ns
                        for r in o.records() if isinstance(r, protocol.Result))
            out[b.name] = (cpu_seconds(g.pid) - before, insns)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="ds3100")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    arch = hwmodel.load_profile(args.profile).isa
    best: dict[str, dict[str, tuple[float, int]]] = {}
    for _ in range(args.repeat):
        for p in ("none", args.profile):
            for name, (sec, insns) in run_suite(p, arch).items():
                old = best.setdefault(p, {}).get(name)
                if old is None or sec < old[0]:
                    best[p][name] = (sec, insns)
    lines = [f"Hardware model overhead on {arch}: profile {args.profile} vs none "
             f"(no model), best of {args.repeat}", "",
             f"{'benchmark':10} {'guest Minsns':>12} {'none cpu s':>10} {'none MIPS':>10} "
             f"{'model cpu s':>11} {'model MIPS':>11} {'ratio':>6}"]
    tot = {"none": 0.0, args.profile: 0.0}
    tot_insns = 0
    for b in suite.BENCHMARKS:
        s0, n = best["none"][b.name]
        s1, _ = best[args.profile][b.name]
        tot["none"] += s0
        tot[args.profile] += s1
        tot_insns += n
        lines.append(f"{b.name:10} {n / 1e6:12.1f} {s0:10.2f} {n / s0 / 1e6:10.1f} "
                     f"{s1:11.2f} {n / s1 / 1e6:11.1f} {s1 / s0:6.2f}")
    s0, s1 = tot["none"], tot[args.profile]
    lines.append(f"{'all':10} {tot_insns / 1e6:12.1f} {s0:10.2f} {tot_insns / s0 / 1e6:10.1f} "
                 f"{s1:11.2f} {tot_insns / s1 / 1e6:11.1f} {s1 / s0:6.2f}")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    out = ROOT / "results" / f"hwmodel-overhead-{args.profile}.txt"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
