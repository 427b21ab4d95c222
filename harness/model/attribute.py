"""Where the time goes: a benchmark region's modelled cycles by guest function.

    python3 -m harness attribute --profile ds3100 --bench getpid
    python3 -m harness attribute --profile sun3 --bench bcopy --case uncached
    python3 -m harness attribute --profile sun4 --command "bcopy -u 0 -n 50" --region 2

Runs the command under the model with attribution on for one region (by
default region 2, the first case's timed loop: guests/include/bench.h), reads
the model's per-instruction counts (hw-models/core/attrib.c) and adds them
up by function, using the kernel's symbols for kernel addresses and the
program's for user ones.  For each function: instructions, cycles spent
executing them (CPI, class and load/store extras, and the trap penalty at
the trap vector), stall cycles charged to them (cache misses, a full write buffer,
disk), per operation of the benchmark.  So getpid splits into the entry
assembly, the C trap handler, the system call itself and the way back, and a
copy into instruction time and memory stalls.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT
from ..bench import suite
from ..errors import HarnessError
from ..guest import machines
from ..guest.elfsyms import Symbols, load_range
from . import hwmodel
from .runs import run_model


@dataclass
class FunctionCost:
    name: str
    space: str                       # "kernel" or "user"
    insns: float = 0.0               # per operation
    exec_cycles: float = 0.0
    stall_cycles: float = 0.0

    @property
    def cycles(self) -> float:
        return self.exec_cycles + self.stall_cycles


def parse(path: Path, region: int) -> list[dict[str, int]]:
    """The HWATTR records of one region; paddr is -1 where the plugin wrote "-"."""
    out = []
    for line in path.read_text().splitlines():
        words = line.split()
        if not words or words[0] != "HWATTR":
            continue
        f = hwmodel.parse_fields(words[1:], line)
        for key in ("vaddr", "paddr"):
            v = f.get(key, "-")
            f[key] = -1 if v == "-" else int(str(v), 16) if isinstance(v, str) else v
        if f["region"] == region:
            out.append(f)
    return out


def attribute(profile: str, command: str, region: int | None = None, arch: str | None = None,
              overrides: dict | None = None,
              case: str | None = None) -> tuple[list[FunctionCost], dict]:
    """region: the timed region to split (default 2, the first case's); or
    case: the region of that case of the benchmark `command` runs
    (the benchmark's short_case_names, in order: harness/bench/suite.py)."""
    if case is not None:
        b = suite.BY_NAME.get(command.split()[0])
        cases = b.short_case_names if b else ()
        if case not in cases:
            raise HarnessError(f"{command!r} prints no case {case!r} "
                               f"(its cases: {', '.join(cases) or 'unknown'})")
        region = 2 + 2 * cases.index(case)
    region = region or 2
    arch = arch or hwmodel.load_profile(profile).isa
    machine = machines.get(arch)
    path = ROOT / "build" / arch / "model-runs" / f"attrib-{profile}-{region}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    run = run_model(profile, [command], overrides, arch=arch, tag="attrib",
                    extra=[f"attrib={path}", f"attrib_region={region}"])
    joined = next((j for j in run.joined if j.timed.id == region), None)
    if joined is None:
        raise HarnessError(f"{command!r}: no timed region {region} (regions are "
                           f"2, 4, ... for cases 1, 2, ...: guests/include/bench.h)")
    if case is not None and joined.result.case != case:
        raise HarnessError(f"{command!r}: region {region} is case {joined.result.case!r}, "
                           f"not {case!r} (harness/model/sweep.py CASES is wrong)")
    rows = parse(path, region)
    if not rows:
        raise HarnessError(f"no attribution records for region {region} in {path}")
    iters = joined.result.iters or 1
    kernel = Symbols.load(machine.elf_path())
    program_path = ROOT / "build" / arch / "guests" / "bin" / command.split()[0]
    program = Symbols.load(program_path) if program_path.exists() else Symbols([])
    # Kernel code is what lies in the kernel image's physical pages; user
    # code is in pages the kernel allocated.  (Virtual addresses cannot
    # tell: on the 68040 the kernel and a process use the same ones.)
    klo, khi = load_range(machine.elf_path())
    funcs: dict[tuple[str, str], FunctionCost] = {}
    for f in rows:
        space = "kernel" if klo <= f["paddr"] < khi else "user"
        hit = (kernel if space == "kernel" else program).lookup(f["vaddr"])
        name = hit[0] if hit else f"{f['vaddr']:#x}"
        fc = funcs.setdefault((space, name), FunctionCost(name, space))
        fc.insns += f["execs"] / iters
        fc.exec_cycles += (f["execs"] * f["static_mcyc"] + f["access_mcyc"]) / 1000 / iters
        fc.stall_cycles += f["stall_mcyc"] / 1000 / iters
    costs = sorted(funcs.values(), key=lambda c: -c.cycles)
    region_cycles = joined.timed["cycles"] / iters
    meta = {"command": command, "region": region, "iters": iters, "profile": profile,
            "machine": run.profile.machine, "region_cycles_per_op": region_cycles,
            "clock_mhz": run.profile.get("cpu.clock_mhz"), "result": joined.result.line}
    return costs, meta


def format_costs(costs: list[FunctionCost], meta: dict, top: int = 25) -> str:
    total = sum(c.cycles for c in costs) or 1.0
    ns_per_cycle = 1000.0 / meta["clock_mhz"]
    lines = [f"Where the time goes: `{meta['command']}` on {meta['machine']} "
             f"(profile {meta['profile']}), region {meta['region']}, per operation "
             f"({meta['iters']} operations)"]
    header = ["function", "where", "insns", "exec cyc", "stall cyc", "cycles", "us", "%"]
    rows = []
    for c in costs[:top]:
        rows.append([c.name, c.space, f"{c.insns:.1f}", f"{c.exec_cycles:.1f}",
                     f"{c.stall_cycles:.1f}", f"{c.cycles:.1f}",
                     f"{c.cycles * ns_per_cycle / 1000:.3f}", f"{100 * c.cycles / total:.1f}"])
    rest = costs[top:]
    if rest:
        cyc = sum(c.cycles for c in rest)
        rows.append([f"({len(rest)} more)", "", f"{sum(c.insns for c in rest):.1f}", "", "",
                     f"{cyc:.1f}", f"{cyc * ns_per_cycle / 1000:.3f}", f"{100 * cyc / total:.1f}"])
    by_space: dict[str, float] = defaultdict(float)
    for c in costs:
        by_space[c.space] += c.cycles
    exec_total = sum(c.exec_cycles for c in costs)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(r: list[str]) -> str:
        return "  ".join([r[0].ljust(widths[0]), r[1].ljust(widths[1])] +
                         [x.rjust(w) for x, w in zip(r[2:], widths[2:])])

    lines += [fmt(header), "  ".join("-" * w for w in widths), *map(fmt, rows)]
    lines.append(f"total {total:.1f} cycles per operation ({total * ns_per_cycle / 1000:.3f} us): "
                 + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(by_space.items()))
                 + f"; executing {100 * exec_total / total:.0f}%, stalled "
                 f"{100 * (total - exec_total) / total:.0f}%")
    lines.append(f"(the region's own record: {meta['region_cycles_per_op']:.1f} cycles per "
                 f"operation, including the loop and the clock reads)")
    return "\n".join(lines) + "\n"
