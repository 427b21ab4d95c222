"""Where a round trip's time goes: one network case of netbench, on the
client of a pair, split into the hardware's share and the software's parts.

    python3 -m harness attribute --profile ds3100-riscv --bench net --case udp-rtt
    make attribute PROFILE=ds3100-riscv BENCH=net CASE=udp-rtt

The client (node a) runs `netbench -c CASE` against netd on node b, with
the model's attribution on for the case's timed region (2k for netbench's
k-th case).  Its region's modelled time is

  - the instructions the client executed, each with its execution and
    stall cycles (hw-models/core/attrib.c), added up by function
    (harness/model/attribute.py) and the functions by category: the
    kernel's by the source file that defines them (CATEGORIES, below: the
    one table), the program's and its library's as user;
  - the time the client sat idle, waiting for the answer (the region's
    idle_ns: the model's clock jumped to the frame's arrival).  Of that, the
    hardware's share is the link model's (the NICs' latencies, the
    serialisation and the cable, both ways: harness/net/table.py's
    prediction for the case, link.c's arithmetic); the rest is the server's
    work that the client did not overlap with work of its own (the server
    is not attributed: it opens no timed region).

The parts add up to the region's cycles but for stall cycles that no
instruction was charged with (shown as "unattributed"); the region's time
differs from the measured time per operation by the empty loop (netbench
subtracts it) and the two clock reads.
"""

from __future__ import annotations

import fnmatch
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT
from ..bench import suite
from ..errors import HarnessError
from ..guest import machines
from ..guest.elfsyms import Symbols, load_range, read_symbols
from ..model import attribute, profiles
from ..tables import format_table
from . import measure, table
from .link import Link

# The kernel's source files -> a category of a round trip's time, the
# first pattern that matches (paths under kernel/, any ISA: `*` is the
# ISA's directory), after FUNCTIONS.  A function of a file no pattern
# names is "other kernel".  One place: the lab's handout and docs/attribution.md say
# what the categories are and name this table.
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("arch/*/usercopy.*", "copies"),            # copyin, copyout
    ("arch/*/memcpy.*", "copies"),
    ("port/string.*", "copies"),                # memcpy, memset
    ("dev/*", "NIC driver"),                    # virtio-net, the LANCE
    ("arch/*/nic.*", "NIC driver"),             # each board's part
    ("arch/*/delqa.*", "NIC driver"),       # the Q-bus card
    ("arch/*/trapentry.*", "trap and interrupt"),
    ("arch/*/trap.*", "trap and interrupt"),
    ("arch/*/plic.*", "trap and interrupt"),    # the interrupt controllers
    ("arch/*/pic.*", "trap and interrupt"),
    ("arch/*/gfpic.*", "trap and interrupt"),
    ("arch/*/intctl.*", "trap and interrupt"),
    ("arch/*/piix4.*", "trap and interrupt"),
    ("arch/*/windows.*", "trap and interrupt"),  # SPARC's window traps
    ("port/syscall.*", "system call"),
    ("port/sysfile.*", "system call"),
    ("port/file.*", "system call"),
    ("port/net/*", "protocol"),                 # Ethernet to TCP, sockets, buffers
    ("port/sched.*", "scheduler"),
    ("port/proc.*", "scheduler"),               # sleep, wakeup
    ("arch/*/swtch.*", "scheduler"),
    ("arch/*/idle.*", "scheduler"),
    ("arch/*/timer.*", "clock"),
)
# Functions whose file says too little: these few by name, before the files.
FUNCTIONS: dict[str, str] = {
    "sched_idle": "scheduler",              # netif.c: the scheduler's idle, the wire's seam
    "arch_idle": "scheduler",               # each board's machine.c
    "copyin": "copies",                     # vm.c's checks around the copy loop
    "copyout": "copies",
}
USER = "user"
OTHER = "other kernel"
ORDER = (USER, "system call", "trap and interrupt", "protocol", "copies", "NIC driver",
         "scheduler", "clock", OTHER)


def category_of_file(path: str) -> str:
    """A kernel source file's category (path relative to kernel/, its
    suffix .o, .c or .S)."""
    for pattern, cat in CATEGORIES:
        if fnmatch.fnmatchcase(path, pattern):
            return cat
    return OTHER


def kernel_files(arch: str) -> dict[str, str]:
    """Each kernel function's source file (relative to kernel/), from the
    build's object files (build/ARCH/kernel/**.o)."""
    root = ROOT / "build" / arch / "kernel"
    out: dict[str, str] = {}
    for obj in sorted(root.rglob("*.o")):
        rel = obj.relative_to(root).as_posix()
        for s in read_symbols(obj.read_bytes()):
            out.setdefault(s.name, rel)
    if not out:
        raise HarnessError(f"no object files under {root}: build the kernel "
                           f"(make all ARCH={arch})")
    return out


@dataclass
class Part:
    name: str
    ns: float                       # per round trip
    insns: float = 0.0
    cycles: float = 0.0
    detail: str = ""


@dataclass
class RoundTrip:
    case: str
    profile: str
    machine: str
    iters: int
    measured_ns: float              # the RESULT's, empty loop subtracted
    region_ns: float                # the timed region's, per operation
    parts: list[Part]
    functions: list[attribute.FunctionCost]
    categories: dict[str, str]      # function name -> category
    attribution: attribute.Attribution      # for attribute.annotate()

    @property
    def total_ns(self) -> float:
        return sum(p.ns for p in self.parts)


def measure_case(profile: str, case: str, arch: str | None = None, iters: int = 200,
                 overrides: dict | None = None) -> RoundTrip:
    hw = profiles.load(profile, overrides)
    arch = arch or hw.isa
    cases = suite.BY_NAME["net"].cases          # netbench's, in its order
    if case not in cases:
        raise HarnessError(f"net has no case {case!r} (its cases: {', '.join(cases)})")
    machine = machines.get(arch)
    # netbench times case k (1, 2, ... in its order) as region 2k, whichever it runs
    region = 2 * (cases.index(case) + 1)
    path = ROOT / "build" / arch / "model-runs" / f"attrib-{profile}-net-{case}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    run = measure.run_pair(profile, f"netbench -n {iters} -c {case}", overrides, arch=arch,
                           client_model=[f"attrib={path}", f"attrib_region={region}"],
                           tag="attrib")
    joined = next((j for j in run.joined if j.timed.id == region), None)
    if joined is None or joined.result.case != case:
        raise HarnessError(f"netbench -c {case}: no timed region {region} for {case}")
    rows = attribute.parse(path, region)
    if not rows:
        raise HarnessError(f"no attribution records for region {region} in {path}")
    n = joined.result.iters or 1
    program = ROOT / "build" / arch / "guests" / "bin" / "netbench"
    meta = {"command": f"netbench -n {iters} -c {case}", "region": region, "iters": n,
            "profile": profile, "machine": run.profile.machine,
            "region_cycles_per_op": joined.timed["cycles"] / n,
            "clock_mhz": run.profile.get("cpu.clock_mhz"), "result": joined.result.line}
    att = attribute.Attribution(rows, meta, n, Symbols.load(machine.elf_path()),
                                Symbols.load(program), program,
                                load_range(machine.elf_path()), arch)
    funcs = attribute.by_function(att)
    files = kernel_files(arch)
    cats = {f.name: USER if f.space == "user" else
            FUNCTIONS.get(f.name) or category_of_file(files.get(f.name, "")) for f in funcs}
    ns_per_cycle = 1000.0 / run.profile.get("cpu.clock_mhz")
    by_cat: dict[str, Part] = {c: Part(c, 0.0) for c in ORDER}
    for f in funcs:
        p = by_cat[cats[f.name]]
        p.insns += f.insns
        p.cycles += f.cycles
        p.ns += f.cycles * ns_per_cycle
    for p in by_cat.values():
        top = sorted((f for f in funcs if cats[f.name] == p.name), key=lambda f: -f.cycles)[:3]
        p.detail = ", ".join(f.name for f in top)
    timed = joined.timed
    region_ns = timed["ns"] / n
    idle_ns = timed["idle_ns"] / n
    wire_ns = float(table.predictions(Link.from_profile(run.profile.data["link"]))[case][3])
    attributed_ns = sum(p.ns for p in by_cat.values())
    parts = [p for p in by_cat.values() if p.cycles]
    parts.append(Part("wire and NICs", wire_ns,
                      detail="the link model's, both ways: NIC latencies, serialisation, "
                             "cable"))
    parts.append(Part("server (idle here)", idle_ns - wire_ns,
                      detail="the client idle, less the wire: the server's work not "
                             "overlapped"))
    rest = region_ns - idle_ns - attributed_ns
    parts.append(Part("unattributed", rest,
                      detail="the region's cycles no instruction was charged with"))
    measured = (joined.result.ns - joined.result.loop_ns) / n
    return RoundTrip(case, profile, run.profile.machine, n, measured, region_ns, parts, funcs,
                     cats, att)


def format_roundtrip(rt: RoundTrip, top: int = 15) -> str:
    lines = [f"Where a round trip's time goes: netbench {rt.case} on the client of two "
             f"{rt.machine} (profile {rt.profile}), per operation ({rt.iters} operations)"]
    rows = []
    for p in rt.parts:
        rows.append([p.name, f"{p.insns:.0f}" if p.insns else "",
                     f"{p.ns / 1000:.1f}", f"{100 * p.ns / rt.measured_ns:.1f}", p.detail])
    lines += format_table(["part", "insns", "us", "% of measured", "what (the top functions)"],
                          rows, left=1, free_last=True)
    diff = rt.total_ns - rt.measured_ns
    lines.append(f"parts add up to {rt.total_ns / 1000:.2f} us; measured "
                 f"{rt.measured_ns / 1000:.2f} us per round trip (the RESULT line, empty loop "
                 f"subtracted): {diff / 1000:+.2f} us ({100 * diff / rt.measured_ns:+.2f}%); "
                 f"the timed region's own record {rt.region_ns / 1000:.2f} us")
    software = sum(p.ns for p in rt.parts if p.name not in ("wire and NICs",))
    wire = next(p.ns for p in rt.parts if p.name == "wire and NICs")
    lines.append(f"hardware (wire and NICs) {100 * wire / rt.measured_ns:.0f}%, software "
                 f"(both machines) {100 * software / rt.measured_ns:.0f}%")
    lines.append("")
    lines.append(f"The client's functions (top {top}), by category (harness/net/roundtrip.py: "
                 f"CATEGORIES):")
    fn_rows = []
    ns_per_cycle = next((p.ns / p.cycles for p in rt.parts if p.cycles), 0.0)
    for f in rt.functions[:top]:
        fn_rows.append([f.name, rt.categories[f.name], f"{f.insns:.1f}", f"{f.cycles:.1f}",
                        f"{f.cycles * ns_per_cycle / 1000:.2f}"])
    lines += format_table(["function", "category", "insns", "cycles", "us"], fn_rows, left=2)
    return "\n".join(lines) + "\n"
