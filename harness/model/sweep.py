"""Sweeps: vary one parameter of a hardware model, rerun chosen benchmarks.

    python3 -m harness sweep --profile ds3100 --param memory.bandwidth_mbs \\
        --values 1,2,4,8,16,32,64 --bench bcopy --bench mips

One QEMU boot per value (a model's parameters are fixed for a run).  For
each benchmark case it records the value in the paper's unit (us, ms, MB/s),
the MIPS-relative speed by the paper's rule (against the Sun3 row, with the
machine's MIPS measured by `mips` at that point when it is among the
benchmarks, else the profile's Table 1 rating), and the model's counters per
operation.  Writes <out>.csv (one row per value x case) and <out>.png (one
panel per benchmark, and one of MIPS-relative speed).  `make sweep` runs
the bandwidth sweep of the issue: 1-64 MB/s for bcopy and mips on ds3100.

The swept values go through the same validation as the profile, so a
bandwidth of 0 is refused before QEMU starts.  Sweeps are predictions:
nothing is fitted here.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import ROOT
from ..bench import report
from ..errors import HarnessError
from . import hwmodel
from .runs import run_model

# Shorter runs than the suite's defaults: a sweep boots once per value.
COMMANDS = {
    "getpid": "getpid -n 20000",
    "cswitch": "cswitch -n 2000",
    "select": "select -n 2000",
    "bcopy": "bcopy -c 8K -u 1M -n 4",
    "readcache": "readcache -n 2",
    "openclose": "openclose -n 1000",
    "createdelete": "createdelete -p sync -n 20",
    "mips": "mips -n 5000",
}
# What each of those prints, in order: its cases, whose timed loops are the
# model's regions 2, 4, 6, ... (guests/include/bench.h).  `attribute --case`
# picks a region by them (and checks the RESULT line it gets).
CASES = {
    "getpid": ("call",),
    "cswitch": ("roundtrip",),
    "select": ("1empty", "10empty", "10full"),
    "bcopy": ("cached", "uncached"),
    "readcache": ("1mb",),
    "openclose": ("foo", "/a/b/c/foo"),
    "createdelete": ("0k-sync", "10k-sync", "100k-sync"),
    "mips": ("integer",),
}
DEFAULT_BENCHES = ("bcopy", "readcache", "getpid", "mips")
UNITS = {v.bench: v.unit for v in report.VIEWS}


@dataclass
class Row:
    param: str
    value: float
    bench: str
    case: str
    unit: str
    measured: float
    mips_relative: float | None
    machine_mips: float
    counters: dict[str, float]


def parse_values(text: str) -> list[Any]:
    out: list[Any] = []
    for word in text.split(","):
        word = word.strip()
        if not word:
            continue
        try:
            out.append(int(word))
        except ValueError:
            try:
                out.append(float(word))
            except ValueError:
                out.append(word)            # e.g. a write policy
    if not out:
        raise HarnessError("sweep: no values given")
    return out


def sweep(profile: str, param: str, values: list[Any], benches: list[str],
          arch: str | None = None, say=print) -> list[Row]:
    unknown = [b for b in benches if b not in COMMANDS]
    if unknown:
        raise HarnessError(f"sweep: unknown benchmark {unknown[0]!r} "
                           f"(known: {', '.join(COMMANDS)})")
    for v in values:                          # refuse bad values before any boot
        hwmodel.load_profile(profile, {param: v})
    arch = arch or hwmodel.load_profile(profile).isa
    rows: list[Row] = []
    for v in values:
        run = run_model(profile, [COMMANDS[b] for b in benches], {param: v}, arch=arch,
                        tag="sweep")
        machine_mips = run.profile.mips
        for j in run.joined:
            r = j.result
            if r.bench == "mips":
                machine_mips = hwmodel.mips_rating(r.iters, r.net_ns)
        record = report.RunRecord(arch=arch, profile=profile, mips=machine_mips,
                                  profile_note="", results=run.results)
        for j in run.joined:
            r = j.result
            if r.bench == "mips":
                unit, measured, rel = "MIPS", machine_mips, None
            else:
                unit = UNITS.get(r.bench, "us")
                measured = report.value_in_unit(r, unit) or 0.0
                view = next((x for x in report.VIEWS if x.bench == r.bench), None)
                rel = report.our_relative(view, record) if view and \
                    view.cases[view.table.derived_from] == r.case else None
            rows.append(Row(param, v, r.bench, r.case, unit, measured, rel, machine_mips,
                            j.counters()))
        say(f"  {param} = {v}: " + ", ".join(
            f"{x.bench} {x.case} {x.measured:.3g} {x.unit}" for x in rows if x.value == v))
    return rows


def write_csv(rows: list[Row], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = list(hwmodel.COUNTERS)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["param", "value", "bench", "case", "unit", "measured", "mips_relative",
                    "machine_mips", *[f"{k}_per_op" for k in keys]])
        for r in rows:
            w.writerow([r.param, r.value, r.bench, r.case, r.unit, f"{r.measured:.6g}",
                        "" if r.mips_relative is None else f"{r.mips_relative:.4g}",
                        f"{r.machine_mips:.4g}", *[f"{r.counters[k]:.6g}" for k in keys]])


def plot(rows: list[Row], path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    benches = list(dict.fromkeys(r.bench for r in rows))
    rel = [r for r in rows if r.mips_relative is not None]
    panels = len(benches) + (1 if rel else 0)
    fig, axes = plt.subplots(1, panels, figsize=(4.2 * panels, 3.6), squeeze=False)
    numeric = all(isinstance(r.value, (int, float)) for r in rows)
    logx = numeric and min(r.value for r in rows) > 0 and \
        max(r.value for r in rows) / min(r.value for r in rows) >= 8
    param = rows[0].param
    for ax, bench in zip(axes[0], benches):
        for case in dict.fromkeys(r.case for r in rows if r.bench == bench):
            pts = [r for r in rows if r.bench == bench and r.case == case]
            ax.plot([p.value for p in pts], [p.measured for p in pts], marker="o", label=case)
        ax.set_title(bench)
        ax.set_xlabel(param)
        ax.set_ylabel(pts[0].unit)
        if logx:
            ax.set_xscale("log", base=2)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    if rel:
        ax = axes[0][-1]
        for key in dict.fromkeys((r.bench, r.case) for r in rel):
            pts = [r for r in rel if (r.bench, r.case) == key]
            ax.plot([p.value for p in pts], [p.mips_relative for p in pts], marker="o",
                    label=f"{key[0]} {key[1]}")
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_title("MIPS-relative speed (Sun3 = 1)")
        ax.set_xlabel(param)
        if logx:
            ax.set_xscale("log", base=2)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_sweep(profile: str, param: str, values: list[Any], benches: list[str],
              out: Path | None = None, arch: str | None = None,
              say=print) -> tuple[Path, Path]:
    hw = hwmodel.load_profile(profile)
    arch = arch or hw.isa
    say(f"sweep {profile} ({hw.machine}): {param} over {values}; benchmarks {', '.join(benches)}")
    rows = sweep(profile, param, values, benches, arch, say)
    stem = out or ROOT / "results" / f"sweep-{profile}-{param.replace('.', '-')}"
    csv_path, png_path = stem.with_suffix(".csv"), stem.with_suffix(".png")
    write_csv(rows, csv_path)
    plot(rows, png_path, f"{hw.machine}: {param} swept (all else as profiled)")
    say(f"wrote {csv_path} and {png_path}")
    return csv_path, png_path
