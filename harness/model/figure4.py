"""Figure 4 of Chen et al. 1995 (shared/papers/004): memory access time
against array size, one curve per page-allocation policy.

    python3 -m harness figure4 [--profile pc-p5]      # or: make figure4 [PROFILE=...]

Chen et al. followed a ring of pointers 128 bytes apart through arrays of
512 bytes to 1 MB on a Pentium with an 8 KB on-chip data cache and a 256 KB
direct-mapped board cache, physically indexed.  Windows NT placed pages by
colour and its curve stayed flat up to 256 KB, then rose smoothly to 512 KB;
NetBSD took whatever page the free list held, and its curve rose early, from
8 KB, wherever two pages of the array fell on the same part of the board
cache.  Here the same program (`measure memlat -s 128 -f`, guests/bin/
measure.c) runs once per policy of our kernel's page allocator (kernel/port/
kalloc.c: `list`, its default, `coloured` and `random`), each on a boot of
its own, on the profile's model; sizes go up in quarter steps to 4 MB.  The curve the profile
predicts for pages placed by colour (harness/bench/finaltable.py: load_ns)
is drawn beside them.  On any profile the curve draws that machine's cache
hierarchy.

Output: OUT/figure4.csv, .png, .json for pc-p5 (OUT/figure4-PROFILE.* for
another profile): one CSV row per policy and size, cycles per reference.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from ..bench.finaltable import Hardware
from ..guest import protocol
from ..tables import format_table, write_csv
from . import plotfiles, profiles
from .runs import run_model

POLICIES = ("coloured", "random", "list")
STRIDE = 128
REFS = 262144                   # loads per size: 8 laps of the largest ring


@dataclass(frozen=True)
class Point:
    policy: str                 # a page policy, or "predicted"
    size: int                   # bytes
    ns: float                   # per reference
    cycles: float


def command(policy: str, refs: int = REFS) -> str:
    return f"measure memlat -s {STRIDE} -f -n {refs} -p {policy}"


def points(profile: str, outputs: dict[str, list[str]], refs: int = REFS) -> list[Point]:
    """The measured curves from each policy's output, and the prediction."""
    hw = Hardware.from_profile(profiles.load(profile).data)
    pts = []
    sizes: list[int] = []
    for policy in POLICIES:
        lines = outputs[command(policy, refs)]
        for r in (protocol.parse_line(x) for x in lines if x.startswith("RESULT ")):
            assert isinstance(r, protocol.Result)
            size = r.count("size")
            ns = float(r.ns_per_op)
            pts.append(Point(policy, size, ns, ns / hw.cycle_ns))
            if policy == POLICIES[0]:
                sizes.append(size)
    for size in sizes:
        ns = hw.load_ns(size, STRIDE)
        pts.append(Point("predicted", size, ns, ns / hw.cycle_ns))
    return pts


def csv_table(pts: list[Point], profile: str) -> tuple[list[str], list[list[object]]]:
    """The figure's CSV file: (columns, rows), one row per point."""
    return (["profile", "policy", "stride", "size", "ns_per_ref", "cycles_per_ref"],
            [[profile, p.policy, STRIDE, p.size, p.ns, p.cycles] for p in pts])


def plot(pts: list[Point], profile: str, machine: str, paths: list[Path]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    styles = {"coloured": ("tab:blue", "o-"), "random": ("tab:red", "s-"),
              "list": ("tab:green", "^-"), "predicted": ("black", ":")}
    for policy in (*POLICIES, "predicted"):
        mine = [p for p in pts if p.policy == policy]
        color, style = styles[policy]
        label = ("predicted from the profile, pages by colour" if policy == "predicted"
                 else f"page policy {policy}")
        ax.plot([p.size for p in mine], [p.cycles for p in mine], style, color=color,
                markersize=3, label=label, linewidth=1.2)
    ax.set_xscale("log", base=2)
    ticks = [512 << i for i in range(0, 14, 2)]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t >> 20}M" if t >= 1 << 20 else f"{t >> 10}K" if t >= 1024
                        else str(t) for t in ticks])
    ax.set_xlabel("array size (bytes)")
    ax.set_ylabel("cycles per memory reference")
    ax.set_title(f"Memory access time, stride {STRIDE} B: {machine} (profile {profile})",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    plotfiles.save(fig, paths)
    plt.close(fig)


def text(pts: list[Point]) -> str:
    """The curves as a table: cycles per reference by array size and policy."""
    sizes = sorted({p.size for p in pts})
    cols = (*POLICIES, "predicted")
    by = {(p.policy, p.size): p.cycles for p in pts}
    rows = [[f"{s / 1024:g}K" if s >= 1024 else str(s),
             *[f"{by.get((c, s), float('nan')):.1f}" for c in cols]] for s in sizes]
    lines = [f"Figure 4: cycles per reference, by array size and page policy "
             f"(stride {STRIDE} bytes)", *format_table(["size", *cols], rows)]
    return "\n".join(lines) + "\n"


def figure4(profile: str, out: Path, say: Callable[[str], None] = print,
            refs: int = REFS) -> tuple[str, list[Path]]:
    hw = profiles.load(profile)
    commands = [command(p, refs) for p in POLICIES]
    say(f"harness: figure4: {profile}: {', '.join(commands)}")
    run = run_model(profile, commands, tag="figure4", timeout=900)
    pts = points(profile, run.outputs, refs)
    stem = "figure4" if profile == "pc-p5" else f"figure4-{profile}"
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{stem}.csv", out / f"{stem}.png", out / f"{stem}.json"]
    write_csv(paths[0], *csv_table(pts, profile))
    plot(pts, profile, hw.machine, [paths[1]])
    paths[2].write_text(json.dumps({"profile": profile, "stride": STRIDE, "refs": refs,
                                    "commands": commands, "points": [asdict(p) for p in pts],
                                    "provenance": run.provenance}, indent=1) + "\n")
    return text(pts), paths
