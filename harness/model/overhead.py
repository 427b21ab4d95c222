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

With --lockstep it measures instead what keeping two machines in step on
the modelled Ethernet costs (lockstep(); docs/network.md, "What lockstep
costs"): the emulators' CPU seconds per guest instruction of a
two-machine run (netd on b, the network benchmarks on a), against each
machine run again alone on the frames it took (harness/net/alone.py):
the same instructions, its results the same, no peer to keep in step
with.  Whole runs from boot to halt less a run that only boots and halts,
instructions from each model's HWTOTAL.  The issue's target: at most 2.5
times.  Beside it, one machine running the same programs over its
loopback (netd in the background, netbench to 127.0.0.1): other
instructions (no card, no driver, one cache for both ends), what two
machines cost against one doing the same job.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

from .. import ROOT
from ..errors import HarnessError
from ..bench import provenance, suite
from ..guest import buildstamp, machines, protocol
from ..tables import format_table
from . import modellog, modelargs, profiles, runs

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


# ---------------------------------------------------------------- lockstep

# Two workloads (docs/network.md, "What lockstep costs"):
#   compute  both machines run the same CPU-bound program at once (our
#            integer benchmark, some 200 M instructions each), no frames: what keeping two running
#            machines in step costs, check points and waits; one machine
#            runs the program twice;
#   network  the network benchmarks, netbench on a against netd on b; each
#            machine again alone on its recorded frames (the same
#            instructions), and one machine over its loopback (netd in the
#            background, netbench to 127.0.0.1: much the same work without
#            a card).
LOCKSTEP_WORK = {"compute": "mips -n 300000", "network": "netbench -n 1000"}
# The pair's console and model logs in the run directory ({node}: a, b).
PAIR_NAMES = ("lockstep-{node}.log", "lockstep-{node}.hw.log")


def _hwtotal_insns(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith("HWTOTAL "):
            return modellog.parse_fields(line.split()[1:], line)["insns"]
    raise HarnessError(f"{path}: no HWTOTAL record (the emulator did not exit cleanly)")


def _cpu_then_halt(guests: list[Any]) -> float:
    """The emulators' CPU seconds, summed, just before they power off."""
    sec = sum(cpu_seconds(g.pid) for g in guests)
    for g in guests:
        g.close()
    return sec


def _two(hw: Any, arch: str, work: str | None, logdir: Path,
         share_core: bool) -> tuple[float, int]:
    """Two machines boot, run `work` (None: nothing) and halt: their CPU
    seconds and instructions.  Each writes down the frames it takes
    (lockstep-NODE.frames), for _alone()."""
    from ..net.pair import Pair                    # (the net package imports this one's)
    command = LOCKSTEP_WORK.get(work or "")
    pair = Pair(arch, hw, logdir, names=PAIR_NAMES, share_core=share_core, record=True)
    with pair:
        if work == "network":
            pair.b.begin("netd")
            pair.b.wait_for("netd: ready", timeout=120)
            pair.a.run(f"{command} {pair.address('b')}", timeout=3600)
            pair.b.interrupt()
        elif work == "compute":
            pair.b.begin(command)
            pair.a.run(command, timeout=3600)
            pair.b.finish(timeout=3600)
        cpu = _cpu_then_halt([pair.a, pair.b])
    return cpu, sum(_hwtotal_insns(pair.hw_log(n)) for n in ("a", "b"))


def _rx_frames(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith("HWNET "):
            f = modellog.parse_fields(line.split()[1:], line)
            return f["rx_frames"] - f["garbage"]
    raise HarnessError(f"{path}: no HWNET record (the emulator did not exit cleanly)")


def _results(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith("RESULT ")]


def _alone(hw: Any, arch: str, node: str, logdir: Path) -> tuple[float, int]:
    """Node `node` of _two()'s network run again by itself, on the frames
    it took (harness/net/alone.py), the same commands typed: its CPU
    seconds and instructions, boot to halt.  The client must print the
    pair's RESULT lines: else it did not execute the same instructions."""
    from ..net.alone import Alone
    from ..net.pair import recording_of
    console, hw_log = (logdir / name.format(node=node) for name in PAIR_NAMES)
    frames = _rx_frames(hw_log)
    alone = Alone(arch, hw, logdir, node, recording_of(hw_log),
                  names=("lockstep-alone-{node}.log", "lockstep-alone-{node}.hw.log"))
    with alone:
        g = alone.guest
        if node == "b":
            g.begin("netd")
            g.wait_for("netd: ready", timeout=120)
            alone.wait_taken(frames)
            g.interrupt()
        else:
            g.run(f"{LOCKSTEP_WORK['network']} {alone.address('b')}", timeout=3600)
        cpu = _cpu_then_halt([g])
    if node == "a" and _results(alone.console_log(node)) != _results(console):
        raise HarnessError(f"{alone.console_log(node)}: alone, node a printed other RESULT lines "
                           f"than in the pair ({console})")
    return cpu, _hwtotal_insns(alone.hw_log(node))


def _one(hw: Any, arch: str, work: str | None, logdir: Path) -> tuple[float, int]:
    """One machine, the same model, the same programs (none: nothing), on
    the same emulator as the pair's (the wire's QEMU: a build of its own,
    whose speed is not the lockstep's to answer for)."""
    from ..net.pair import none_as_model
    machines.build_wire_qemu()
    m = machines.wire_emulator(machines.get(arch))
    command = LOCKSTEP_WORK.get(work or "")
    g = runs.start(m, hw if hw.model else none_as_model(hw, arch), logdir / "lockstep-one.log",
                   logdir / "lockstep-one.hw.log")
    with g:
        g.boot(timeout=m.boot_timeout)
        if work == "network":
            g.run("netd &", timeout=120)
            for _ in range(100):
                if "netd: ready" in g.transcript.text():
                    break
                g.run("echo", timeout=60)
            g.run(f"{command} 127.0.0.1", timeout=3600)
        elif work == "compute":
            g.run(command, timeout=3600)
            g.run(command, timeout=3600)
        cpu = _cpu_then_halt([g])
    return cpu, _hwtotal_insns(logdir / "lockstep-one.hw.log")


def lockstep_once(profile: str, arch: str, work: str, logdir: Path,
                  share_core: bool = True) -> dict[str, float]:
    """The CPU seconds and instructions `work` adds to a boot-and-halt: on
    two machines in step; on the same two alone (network: _alone(); the
    compute program twice on one machine is that already); on one machine
    (network: over its loopback).  Each less runs that only boot and halt
    (two emulators start and boot where one does, which is not the work;
    the two alone less the pair's, whose nodes boot off the wire)."""
    hw = profiles.load(profile)
    c2, n2 = _two(hw, arch, work, logdir, share_core)
    if work == "network":
        ca, na = _alone(hw, arch, "a", logdir)
        cb, nb = _alone(hw, arch, "b", logdir)
    c20, n20 = _two(hw, arch, None, logdir, share_core)
    c1, n1 = _one(hw, arch, work, logdir)
    c10, n10 = _one(hw, arch, None, logdir)
    two_cpu, two_insns, one_cpu, one_insns = c2 - c20, n2 - n20, c1 - c10, n1 - n10
    if work == "network":
        alone_cpu, alone_insns = ca + cb - c20, na + nb - n20
    else:
        alone_cpu, alone_insns = one_cpu, one_insns
    per = {k: c / n for k, c, n in (("two", two_cpu, two_insns), ("alone", alone_cpu, alone_insns),
                                    ("one", one_cpu, one_insns))}
    return {"two_cpu_s": two_cpu, "two_insns": two_insns, "alone_cpu_s": alone_cpu,
            "alone_insns": alone_insns, "one_cpu_s": one_cpu, "one_insns": one_insns,
            "ratio": per["two"] / per["alone"], "ratio_one": per["two"] / per["one"]}


def lockstep(profile: str, arch: str | None = None, repeat: int = 3, out: Path | None = None,
             say: Callable[[str], None] = print, share_core: bool = True) -> tuple[str, Path]:
    """lockstep_once() `repeat` times per workload; the best of each side
    counts (the least CPU per instruction: a shared host only ever adds).
    share_core=False: the two machines never share a host core (wire.c)."""
    hw = profiles.load(profile)
    arch = arch or (hw.isa if hw.model else machines.DEFAULT_ARCH)
    logdir = ROOT / "build" / arch / "model-runs"
    lines = [f"Lockstep cost on {arch}, profile {profile}: two machines in step on the "
             f"modelled Ethernet vs the same two alone (the same instructions: compute, one "
             f"machine runs the program twice; network, each machine again on the frames it "
             f"took), and vs one machine (network: over its loopback), best of {repeat} (each "
             f"less a boot and halt; host CPU ns per guest instruction"
             f"{'' if share_core else '; wire_share_core=false'})", "",
             f"{'work':8} {'run':3} {'two: Minsns':>12} {'cpu s':>6} {'ns/insn':>7} "
             f"{'alone: Minsns':>13} {'cpu s':>6} {'ns/insn':>7} {'ratio':>5} "
             f"{'one: Minsns':>11} {'cpu s':>6} {'ns/insn':>7} {'ratio':>5}"]
    all_runs: dict[str, list[dict[str, float]]] = {}
    for work in LOCKSTEP_WORK:
        rs = all_runs[work] = []
        for i in range(repeat):
            say(f"overhead --lockstep: {arch}, profile {profile}, {work}, run {i + 1} of {repeat}")
            r = lockstep_once(profile, arch, work, logdir, share_core)
            rs.append(r)
            lines.append(f"{work:8} {i + 1:<3} {r['two_insns'] / 1e6:12.1f} {r['two_cpu_s']:6.2f} "
                         f"{r['two_cpu_s'] / r['two_insns'] * 1e9:7.1f} "
                         f"{r['alone_insns'] / 1e6:13.1f} {r['alone_cpu_s']:6.2f} "
                         f"{r['alone_cpu_s'] / r['alone_insns'] * 1e9:7.1f} {r['ratio']:5.2f} "
                         f"{r['one_insns'] / 1e6:11.1f} {r['one_cpu_s']:6.2f} "
                         f"{r['one_cpu_s'] / r['one_insns'] * 1e9:7.1f} {r['ratio_one']:5.2f}")
    lines.append("")
    for work, rs in all_runs.items():
        two, alone, one = (min(r[f"{k}_cpu_s"] / r[f"{k}_insns"] for r in rs)
                           for k in ("two", "alone", "one"))
        lines.append(f"{work}: best two {two * 1e9:.1f} ns, alone {alone * 1e9:.1f} ns per guest "
                     f"instruction: ratio {two / alone:.2f} (the issue's target: at most 2.5); "
                     f"one machine {one * 1e9:.1f} ns: {two / one:.2f}")
    text = "\n".join(lines) + "\n"
    path = out or ROOT / "results" / f"lockstep-overhead-{profile}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.with_suffix(".json").write_text(json.dumps(
        {"table": text, "runs": all_runs,
         "provenance": provenance.record(machines.wire_emulator(machines.get(arch)), hw)},
        indent=1) + "\n")
    return text, path


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
