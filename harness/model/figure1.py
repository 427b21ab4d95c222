"""Figure 1 of the 1990 paper, ours beside the paper's.

    python3 -m harness figure1            # or: make figure1

Ousterhout's summary figure (USENIX 1990 version, shared/papers/003) puts
one point per machine: the geometric mean of all its MIPS-relative speeds,
against its MIPS rating.  1.0 means the operating system kept pace with the
processor; the faster machines all sat well below it.

Here each machine is one of our hardware models running our kernel
(hw-models/profiles), rated at its Table 1 MIPS (its calibration meets it).
A MIPS-relative speed is the paper's rule with the MicroVAX II as the
reference, as in the 1990 version: (MVAX2 time / machine time) / (machine
MIPS / 0.9), with the ratio of rates instead for bandwidths.  Our MVAX2 is
our mvax2 model, so its point is 1.0 by definition, as the paper's is.

The MIPS are the 1989 Table 1's (the 1990 paper re-rated the DS3100 and
the Sun4 at 12 and 8).  The benchmarks: one number each, the column the paper derives its own
MIPS-relative speeds from where it prints them: getpid, cswitch, select
(10 full pipes), bcopy (uncached), read from the file cache, the modified
Andrew benchmark (total, local disk, our `sync` write policy: the UNIX
one), open-close ("foo", local), create-delete (no data, local, `sync`).
The paper's points use every row of those tables for the machine (all its
operating systems; local file systems only), against the MVAX2 Ultrix row.

Of these, only MIPS (Table 1) and bcopy (Table 5) were fitted; the other
seven are predictions of the models.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT
from ..bench import paper, suite
from ..errors import HarnessError
from ..guest.protocol import Result
from . import hwmodel
from .runs import run_model

# The paper's machines, each with the profile that models it, cheapest first.
MACHINES = (("MVAX2", "mvax2"), ("Sun3", "sun3"), ("8800", "vax8800"),
            ("Sun4", "sun4"), ("DS3100", "ds3100"), ("M2000", "m2000"))
REFERENCE = "MVAX2"


@dataclass(frozen=True)
class Bench:
    name: str                   # our benchmark
    cases: tuple[str, ...]      # our cases whose values add up to the number
    unit: str                   # "us" (time) or "MB/s" (rate), per op
    table: paper.Table
    column: int                 # the paper's column
    where: str = ""             # "Local" for Tables 7, 9 and 10

    @property
    def is_rate(self) -> bool:
        return self.unit == "MB/s"


BENCHES = (
    Bench("getpid", ("call",), "us", paper.TABLE2, 0),
    Bench("cswitch", ("roundtrip",), "us", paper.TABLE3, 0),
    Bench("select", ("10full",), "us", paper.TABLE4, 2),
    Bench("bcopy", ("uncached",), "MB/s", paper.TABLE5, 1),
    Bench("readcache", ("1mb",), "MB/s", paper.TABLE6, 0),
    Bench("andrew", ("copy-sync", "compile-sync"), "us", paper.TABLE7, 2, "Local"),
    Bench("openclose", ("foo",), "us", paper.TABLE9, 0, "Local"),
    Bench("createdelete", ("0k-sync",), "us", paper.TABLE10, 0, "Local"),
)


def relative(value: float, ref: float, mips: float, is_rate: bool) -> float:
    """The paper's MIPS-relative speed against the MVAX2 (0.9 MIPS)."""
    ref_mips = paper.TABLE1[REFERENCE].mips
    if is_rate:
        return paper.mips_relative_rate(value, mips, ref, ref_mips)
    return paper.mips_relative_time(value, mips, ref, ref_mips)


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


# ---------------------------------------------------------------- the paper

def paper_speeds(machine: str) -> dict[str, list[float]]:
    """{benchmark: the MIPS-relative speeds of the machine's rows}."""
    mips = paper.TABLE1[machine].mips
    out: dict[str, list[float]] = {}
    for b in BENCHES:
        ref = b.table.row(REFERENCE, "Ultrix", b.where).values[b.column]
        assert ref is not None
        for row in b.table.rows:
            v = row.values[b.column]
            if row.machine == machine and row.where == b.where and v is not None:
                out.setdefault(b.name, []).append(relative(v, ref, mips, b.is_rate))
    return out


# ---------------------------------------------------------------- ours

def our_value(b: Bench, results: list[Result]) -> float:
    """Our number for a benchmark: the sum of its cases, per operation."""
    total = 0.0
    for case in b.cases:
        r = next((r for r in results if r.bench == b.name and r.case == case), None)
        if r is None:
            raise HarnessError(f"figure1: no RESULT for {b.name} {case}")
        v = r.mb_per_s if b.is_rate else float(r.us_per_op)
        if v is None or v <= 0:
            raise HarnessError(f"figure1: {b.name} {case} measured nothing: {r.line}")
        total += v
    return total


def measure(profile: str, say=print) -> list[Result]:
    """The benchmarks of the figure under one model: one boot, default arguments."""
    hw = hwmodel.load_profile(profile)
    say(f"figure1: {profile} ({hw.machine}, on {hw.isa})")
    commands = [suite.BY_NAME[b.name].command_line for b in BENCHES]
    return run_model(profile, commands, arch=hw.isa, tag="figure1",
                     timeout=max(suite.BY_NAME[b.name].timeout for b in BENCHES)).results


@dataclass
class Point:
    machine: str
    profile: str
    mips: float
    ours: dict[str, float]              # benchmark -> our MIPS-relative speed
    paper: dict[str, list[float]]       # benchmark -> the paper's, one per row

    @property
    def ours_mean(self) -> float:
        return geomean(list(self.ours.values()))

    @property
    def paper_mean(self) -> float:
        return geomean([v for vs in self.paper.values() for v in vs])


def points(measured: dict[str, list[Result]]) -> list[Point]:
    """measured: {profile: its results}; the reference profile must be there."""
    ref_profile = dict(MACHINES)[REFERENCE]
    if ref_profile not in measured:
        raise HarnessError(f"figure1: the reference machine ({ref_profile}) was not measured")
    ref = {b.name: our_value(b, measured[ref_profile]) for b in BENCHES}
    out = []
    for machine, profile in MACHINES:
        if profile not in measured:
            continue
        mips = paper.TABLE1[machine].mips
        ours = {b.name: relative(our_value(b, measured[profile]), ref[b.name], mips, b.is_rate)
                for b in BENCHES}
        out.append(Point(machine, profile, mips, ours, paper_speeds(machine)))
    return out


# ---------------------------------------------------------------- output

def format_table(pts: list[Point]) -> str:
    names = [b.name for b in BENCHES]
    header = ["machine", "MIPS", "", *names, "geo. mean"]
    rows = []
    for p in pts:
        rows.append([p.machine, f"{p.mips:g}", "ours",
                     *[f"{p.ours[n]:.2f}" for n in names], f"{p.ours_mean:.2f}"])
        rows.append(["", "", "paper",
                     *["/".join(f"{v:.2f}" for v in p.paper.get(n, [])) or "-" for n in names],
                     f"{p.paper_mean:.2f}"])
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["Figure 1: MIPS-relative speed (MVAX2 = 1), per benchmark and geometric mean",
             "  ".join(h.ljust(w) if i < 3 else h.rjust(w)
                       for i, (h, w) in enumerate(zip(header, widths))),
             "  ".join("-" * w for w in widths)]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i < 3 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    lines.append("(ours: our kernel on the machine's hardware model, rated at Table 1's MIPS; "
                 "paper: every row of the machine in Tables 2-7, 9, 10, several where it "
                 "ran several systems; only MIPS and bcopy were fitted)")
    return "\n".join(lines) + "\n"


def write_csv(pts: list[Point], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["machine", "profile", "mips", "source", "benchmark", "mips_relative"])
        for p in pts:
            for b in BENCHES:
                w.writerow([p.machine, p.profile, p.mips, "ours", b.name, f"{p.ours[b.name]:.4f}"])
                for v in p.paper.get(b.name, []):
                    w.writerow([p.machine, p.profile, p.mips, "paper", b.name, f"{v:.4f}"])
            w.writerow([p.machine, p.profile, p.mips, "ours", "geomean", f"{p.ours_mean:.4f}"])
            w.writerow([p.machine, p.profile, p.mips, "paper", "geomean", f"{p.paper_mean:.4f}"])


def plot(pts: list[Point], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    xs = [p.mips for p in pts]
    ax.plot(xs, [p.paper_mean for p in pts], "o", mfc="none", mec="black", ms=8,
            label="paper: its Tables 2-10, as its Figure 1 sums them")
    ax.plot(xs, [p.ours_mean for p in pts], "s", color="tab:blue", ms=7,
            label="ours (our kernel on the models)")
    for p in pts:
        ax.annotate(p.machine, (p.mips, max(p.paper_mean, p.ours_mean)),
                    textcoords="offset points", xytext=(4, 6), fontsize=8)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlim(0, 22)
    ax.set_ylim(0, max(1.3, max(max(p.ours_mean, p.paper_mean) for p in pts) * 1.15))
    ax.set_xlabel("MIPS (VAX-11/780 = 1, Table 1)")
    ax.set_ylabel("relative performance (MVAX2 = 1)")
    ax.set_title("Operating system speed against processor speed", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def figure1(out: Path | None = None, say=print) -> tuple[str, Path, Path]:
    """Measure every machine, print the table, write CSV and PNG."""
    measured = {profile: measure(profile, say) for _, profile in MACHINES}
    pts = points(measured)
    stem = out or ROOT / "results" / "figure1"
    stem.parent.mkdir(parents=True, exist_ok=True)
    csv_path, png_path = stem.with_suffix(".csv"), stem.with_suffix(".png")
    text = format_table(pts)
    stem.with_suffix(".txt").write_text(text)
    write_csv(pts, csv_path)
    plot(pts, png_path)
    return text, csv_path, png_path
