"""Where the time goes: a benchmark region's modelled cycles by guest function.

    python3 -m harness attribute --profile ds3100 --bench getpid
    python3 -m harness attribute --profile sun3 --bench bcopy --case uncached
    python3 -m harness attribute --profile sun4 --command "bcopy -u 0 -n 50" --region 2
    python3 -m harness attribute --profile ds3100 --bench getpid --function trap_entry

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

--function NAME shows one function instruction by instruction: the
disassembly (the build's build/ARCH/kernel.asm for the kernel, the ISA's
objdump for a program) with each instruction's executions, execution
cycles and stall cycles per operation beside it.
"""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT
from ..bench import suite
from ..errors import HarnessError, UsageError
from ..guest import machines
from ..guest.elfsyms import Symbols, load_range
from ..tables import format_table
from . import modellog, profiles
from .runs import ModelRun, run_model


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
        f = modellog.parse_fields(words[1:], line)
        for key in ("vaddr", "paddr"):
            v = f.get(key, "-")
            f[key] = -1 if v == "-" else int(str(v), 16) if isinstance(v, str) else v
        if f["region"] == region:
            out.append(f)
    return out


@dataclass
class Attribution:
    """One attributed region: the model's per-instruction records and what
    is needed to name them."""

    rows: list[dict[str, int]]
    meta: dict
    iters: int
    kernel: Symbols
    program: Symbols
    program_path: Path
    kernel_range: tuple[int, int]
    arch: str

    def space(self, row: dict[str, int]) -> str:
        # Kernel code is what lies in the kernel image's physical pages; user
        # code is in pages the kernel allocated.  (Virtual addresses cannot
        # tell: on the 68040 the kernel and a process use the same ones.)
        klo, khi = self.kernel_range
        return "kernel" if klo <= row["paddr"] < khi else "user"

    def name(self, row: dict[str, int]) -> tuple[str, str]:
        space = self.space(row)
        hit = (self.kernel if space == "kernel" else self.program).lookup(row["vaddr"])
        return space, hit[0] if hit else f"{row['vaddr']:#x}"


def _case_guess(command: str, case: str) -> int | None:
    """The region of `case` if `command`'s program prints the cases its
    short run does (harness/bench/suite.py, short_case_names), in that
    order: 2 for the first, 4 for the second..."""
    b = suite.BY_NAME.get(command.split()[0])
    cases = b.short_case_names if b else ()
    return 2 + 2 * cases.index(case) if case in cases else None


def collect(profile: str, command: str, region: int | None = None, arch: str | None = None,
            overrides: dict | None = None, case: str | None = None) -> Attribution:
    """region: the timed region to split (default 2, the first case's); or
    case: the region of that case of what `command` prints (guessed from
    the benchmark's short_case_names, and if the run shows the guess wrong,
    run again with the region the case's RESULT line came from)."""
    arch = arch or profiles.load(profile).isa
    machine = machines.get(arch)
    if case is not None:
        region = _case_guess(command, case)
    region = region or 2

    def run_for(region: int) -> tuple[Path, ModelRun]:
        path = ROOT / "build" / arch / "model-runs" / f"attrib-{profile}-{region}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        return path, run_model(profile, [command], overrides, arch=arch, tag="attrib",
                               extra=[f"attrib={path}", f"attrib_region={region}"])

    path, run = run_for(region)
    if case is not None:
        found = [j for j in run.joined if j.result.case == case]
        if not found:
            raise HarnessError(f"{command!r} prints no case {case!r} (its cases: "
                               f"{', '.join(j.result.case for j in run.joined)})")
        if found[0].timed.id != region:
            region = found[0].timed.id
            path, run = run_for(region)
    joined = next((j for j in run.joined if j.timed.id == region), None)
    if joined is None:
        raise HarnessError(f"{command!r}: no timed region {region} (regions are "
                           f"2, 4, ... for cases 1, 2, ...: guests/include/bench.h)")
    if case is not None and joined.result.case != case:
        raise HarnessError(f"{command!r}: region {region} is case {joined.result.case!r}, "
                           f"not {case!r}")
    rows = parse(path, region)
    if not rows:
        raise HarnessError(f"no attribution records for region {region} in {path}")
    iters = joined.result.iters or 1
    program_path = ROOT / "build" / arch / "guests" / "bin" / command.split()[0]
    meta = {"command": command, "region": region, "iters": iters, "profile": profile,
            "machine": run.profile.machine,
            "region_cycles_per_op": joined.timed["cycles"] / iters,
            "clock_mhz": run.profile.get("cpu.clock_mhz"), "result": joined.result.line}
    return Attribution(rows, meta, iters, Symbols.load(machine.elf_path()),
                       Symbols.load(program_path) if program_path.exists() else Symbols([]),
                       program_path, load_range(machine.elf_path()), arch)


def by_function(att: Attribution) -> list[FunctionCost]:
    funcs: dict[tuple[str, str], FunctionCost] = {}
    for f in att.rows:
        space, name = att.name(f)
        fc = funcs.setdefault((space, name), FunctionCost(name, space))
        fc.insns += f["execs"] / att.iters
        fc.exec_cycles += (f["execs"] * f["static_mcyc"] + f["access_mcyc"]) / 1000 / att.iters
        fc.stall_cycles += f["stall_mcyc"] / 1000 / att.iters
    return sorted(funcs.values(), key=lambda c: -c.cycles)


def attribute(profile: str, command: str, region: int | None = None, arch: str | None = None,
              overrides: dict | None = None,
              case: str | None = None) -> tuple[list[FunctionCost], dict]:
    """The region's cycles by function, and what was run (see collect())."""
    att = collect(profile, command, region, arch, overrides, case)
    return by_function(att), att.meta


# ------------------------------------------------------------------ one function


@dataclass
class Insn:
    vaddr: int
    text: str
    execs: float = 0.0              # per operation
    exec_cycles: float = 0.0
    stall_cycles: float = 0.0


_INSN = re.compile(r"^\s*([0-9a-f]+):\t[0-9a-f ]+\t(.*)$")
_HEAD = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")


def parse_objdump(text: str) -> dict[str, list[Insn]]:
    """`objdump -d` output: each symbol's instructions (address, text)."""
    out: dict[str, list[Insn]] = {}
    current: list[Insn] | None = None
    for line in text.splitlines():
        m = _HEAD.match(line)
        if m:
            current = out.setdefault(m.group(2), [])
            continue
        m = _INSN.match(line)
        if m and current is not None:
            current.append(Insn(int(m.group(1), 16), " ".join(m.group(2).split())))
    return out


def disassemble(elf: Path, objdump: str | None, listing: Path | None = None) -> dict[str, list[Insn]]:
    """The ELF file's functions, from `listing` (the build's objdump -d of the
    kernel, build/ARCH/kernel.asm) or by running `objdump -d`."""
    if listing is not None and listing.exists() and \
            listing.stat().st_mtime >= elf.stat().st_mtime:
        return parse_objdump(listing.read_text())
    if not objdump:
        raise HarnessError(f"to disassemble {elf.relative_to(ROOT)}, give the ISA's objdump "
                           "(--objdump; `make attribute` passes it)")
    try:
        p = subprocess.run([objdump, "-d", str(elf)], capture_output=True, text=True,
                           timeout=60)
    except OSError as e:
        raise HarnessError(f"cannot run {objdump}: {e}") from None
    if p.returncode != 0:
        raise HarnessError(f"{objdump} -d {elf}: {p.stderr.strip()[-300:]}")
    return parse_objdump(p.stdout)


def check_functions(arch: str, program: str, functions: list[str],
                    objdump: str | None) -> None:
    """Refuse, before anything boots, a --function that annotate() would
    not find: a name that is no function of the kernel's listing nor of
    the program's (a label inside a function is listed under the
    function's name: usercopy_begin is inside arch_copyin's listing)."""
    if not functions:
        return
    kernel = ROOT / "build" / arch / "kernel.elf"
    prog = ROOT / "build" / arch / "guests" / "bin" / program
    if not kernel.exists():
        return                          # not built: the run says what to build
    found = set(disassemble(kernel, objdump, kernel.with_suffix(".asm")))
    missing = [f for f in functions if f not in found]
    if missing and prog.exists() and objdump:
        found |= set(disassemble(prog, objdump))
        missing = [f for f in functions if f not in found]
    if missing:
        raise UsageError(f"--function {missing[0]}: no function of that name in the "
                         f"disassembly of build/{arch}/kernel.elf or of {program} (a label "
                         f"that is no function symbol is listed under the function it "
                         f"is in)")


def annotate(att: Attribution, function: str, objdump: str | None = None) -> str:
    """Each instruction of `function` (kernel or the program's, or both when
    both have one: `main`) with its executions, execution and stall cycles
    per operation, in address order, and the function's totals."""
    places = []
    if att.kernel.address(function) is not None:
        places.append(("kernel", ROOT / "build" / att.arch / "kernel.elf",
                       ROOT / "build" / att.arch / "kernel.asm"))
    if att.program.address(function) is not None:
        places.append(("user", att.program_path, None))
    if not places:
        raise HarnessError(f"no function {function!r} in the kernel or in "
                           f"{att.program_path.name}")
    blocks = []
    for space, elf, listing in places:
        insns = disassemble(elf, objdump, listing).get(function)
        if not insns:
            raise HarnessError(f"{function!r} is not in the disassembly of {elf.name}")
        at = {i.vaddr: i for i in insns}
        for f in att.rows:
            if att.space(f) == space and f["vaddr"] in at:
                i = at[f["vaddr"]]
                i.execs += f["execs"] / att.iters
                i.exec_cycles += (f["execs"] * f["static_mcyc"] + f["access_mcyc"]) \
                    / 1000 / att.iters
                i.stall_cycles += f["stall_mcyc"] / 1000 / att.iters
        if len(places) > 1 and not any(i.execs for i in insns):
            continue                    # the other `main`: not run in this region
        blocks.append(_format_block(att, function, space, insns))
    return "\n".join(blocks)


SKIP_RUN = 6            # more instructions than this that never ran: one line


def _format_block(att: Attribution, function: str, space: str, insns: list[Insn]) -> str:
    m = att.meta
    ns_per_cycle = 1000.0 / m["clock_mhz"]
    lines = [f"{function} ({space}): `{m['command']}` on {m['machine']} (profile "
             f"{m['profile']}), region {m['region']}, per operation ({m['iters']} operations)",
             f"{'address':>10}  {'execs':>7}  {'exec cyc':>8}  {'stall cyc':>9}  instruction"]
    ran = [bool(i.execs or i.exec_cycles or i.stall_cycles) for i in insns]
    k = 0
    while k < len(insns):
        # A long run of instructions that never ran (the other vectors, an
        # error path) is one line.
        end = k
        while end < len(insns) and not ran[end]:
            end += 1
        if end - k > SKIP_RUN:
            lines.append(f"{'':>10}  {'.':>7}  {'.':>8}  {'.':>9}  ... {end - k} instructions "
                         f"not executed ({insns[k].vaddr:x}-{insns[end - 1].vaddr:x})")
            k = end
            continue
        i = insns[k]
        if ran[k]:
            counts = f"{i.execs:7.2f}  {i.exec_cycles:8.2f}  {i.stall_cycles:9.2f}"
        else:
            counts = f"{'.':>7}  {'.':>8}  {'.':>9}"
        lines.append(f"{i.vaddr:10x}  {counts}  {i.text}")
        k += 1
    n = sum(i.execs for i in insns)
    e = sum(i.exec_cycles for i in insns)
    st = sum(i.stall_cycles for i in insns)
    lines.append(f"{'total':>10}  {n:7.2f}  {e:8.2f}  {st:9.2f}  = {e + st:.1f} cycles, "
                 f"{(e + st) * ns_per_cycle / 1000:.3f} us per operation; "
                 f"{sum(1 for i in insns if not i.execs)} of {len(insns)} instructions "
                 "not executed (.)")
    return "\n".join(lines) + "\n"


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
    lines += format_table(header, rows, left=2)
    lines.append(f"total {total:.1f} cycles per operation ({total * ns_per_cycle / 1000:.3f} us): "
                 + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(by_space.items()))
                 + f"; executing {100 * exec_total / total:.0f}%, stalled "
                 f"{100 * (total - exec_total) / total:.0f}%")
    lines.append(f"(the region's own record: {meta['region_cycles_per_op']:.1f} cycles per "
                 f"operation, including the loop and the clock reads)")
    return "\n".join(lines) + "\n"
