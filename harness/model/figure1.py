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
Andrew benchmark (total, local disk), open-close ("foo", local),
create-delete (no data, local).  The paper's points use every row of those
tables for the machine (all its operating systems; local file systems
only), against the MVAX2 Ultrix row.

Andrew and create-delete run under each of our write policies, and each
paper row is compared with ours under its OS's policy (paper.os_policy:
Sprite `delayed`, the UNIX systems `sync`).  Our number for such a
benchmark on a machine is the geometric mean over the policies of the
machine's rows: `delayed` alone for the Sun-3 (Sprite is its only row in
Tables 7 and 10), `sync` alone for the MicroVAX II, the 8800 and the M2000,
both for the DECstation and the Sun-4, which the paper ran under Sprite and
under UNIX.  Every point says which (figure1.txt, figure1.csv's `policy`,
the plot's labels).  Every benchmark runs on a freshly booted machine, as
in `make run` (harness/model/runs.py, Fresh), so its numbers are the same
as that run's.

Of these, only MIPS (Table 1) and bcopy (Table 5) were fitted; the other
seven are predictions of the models.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from .. import ROOT
from ..bench import paper, suite
from ..bench.rundir import RunDir
from ..errors import HarnessError
from ..guest.protocol import Result
from ..tables import format_table, write_csv
from . import plotfiles, profiles
from .executor import Executor, Job, run_jobs
from .runs import run_model

# The paper's machines, each with the profile that models it, cheapest first.
MACHINES = (("MVAX2", "mvax2"), ("Sun3", "sun3"), ("8800", "vax8800"),
            ("Sun4", "sun4"), ("DS3100", "ds3100"), ("M2000", "m2000"))
REFERENCE = "MVAX2"
# Host seconds each machine's boot took (serial `make figure1`, see
# hw-models/README.md), only to start the longest first when they run side
# by side: the order they start in changes nothing else.
COST = {"mvax2": 25.0, "sun3": 18.0, "vax8800": 22.0, "sun4": 9.0, "ds3100": 9.0,
        "m2000": 9.0}


@dataclass(frozen=True)
class Bench:
    name: str                   # our benchmark
    # our cases whose values add up to the number; {p}: the write policy
    # (paper.os_policy of the paper row's OS)
    cases: tuple[str, ...]
    unit: str                   # "us" (time) or "MB/s" (rate), per op
    table: paper.Table
    column: int                 # the paper's column
    where: str = ""             # "Local" for Tables 7, 9 and 10

    @property
    def is_rate(self) -> bool:
        return self.unit == "MB/s"

    @property
    def has_policy(self) -> bool:
        return any("{p}" in c for c in self.cases)


BENCHES = (
    Bench("getpid", ("call",), "us", paper.TABLE2, 0),
    Bench("cswitch", ("roundtrip",), "us", paper.TABLE3, 0),
    Bench("select", ("10full",), "us", paper.TABLE4, 2),
    Bench("bcopy", ("uncached",), "MB/s", paper.TABLE5, 1),
    Bench("readcache", ("1mb",), "MB/s", paper.TABLE6, 0),
    Bench("andrew", ("copy-{p}", "compile-{p}"), "us", paper.TABLE7, 2, "Local"),
    Bench("openclose", ("foo",), "us", paper.TABLE9, 0, "Local"),
    Bench("createdelete", ("0k-{p}",), "us", paper.TABLE10, 0, "Local"),
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

@dataclass(frozen=True)
class PaperPoint:
    """One row of the paper's for one benchmark: its MIPS-relative speed."""

    os: str                     # as printed, e.g. "Ultrix 3.1"
    config: str                 # the row's configuration, e.g. "DS3100 Ultrix 3.1 Local"
    table: str                  # e.g. "Table 2"
    value: float                # in the table's unit
    speed: float                # MIPS-relative, MVAX2 = 1
    policy: str = ""            # ours that stands for its OS, for Andrew and create-delete


def paper_rows(machine: str) -> dict[str, list[PaperPoint]]:
    """{benchmark: the machine's rows in the paper, with their speeds}."""
    mips = paper.TABLE1[machine].mips
    out: dict[str, list[PaperPoint]] = {}
    for b in BENCHES:
        ref = b.table.row(REFERENCE, "Ultrix", b.where).values[b.column]
        assert ref is not None
        for row in b.table.rows:
            v = row.values[b.column]
            if row.machine == machine and row.where == b.where and v is not None:
                out.setdefault(b.name, []).append(PaperPoint(
                    row.os, row.config, f"Table {b.table.number}", v,
                    relative(v, ref, mips, b.is_rate), row.policy if b.has_policy else ""))
    return out


def policies(machine: str) -> dict[str, list[str]]:
    """{benchmark with a write policy: our policies its paper rows stand for,
    in the rows' order} for one machine (paper.os_policy)."""
    out: dict[str, list[str]] = {}
    for name, rows in paper_rows(machine).items():
        for r in rows:
            if r.policy and r.policy not in out.setdefault(name, []):
                out[name].append(r.policy)
    return out


def paper_speeds(machine: str) -> dict[str, list[float]]:
    """{benchmark: the MIPS-relative speeds of the machine's rows}."""
    return {k: [p.speed for p in v] for k, v in paper_rows(machine).items()}


# ---------------------------------------------------------------- ours

def our_value(b: Bench, results: list[Result], policy: str = "") -> float:
    """Our number for a benchmark (under `policy`, for one with a write
    policy): the sum of its cases, per operation."""
    total = 0.0
    for case in (c.format(p=policy) for c in b.cases):
        r = next((r for r in results if r.bench == b.name and r.case == case), None)
        if r is None:
            raise HarnessError(f"figure1: no RESULT for {b.name} {case}")
        v = r.mb_per_s if b.is_rate else float(r.us_per_op)
        if v is None or v <= 0:
            raise HarnessError(f"figure1: {b.name} {case} measured nothing: {r.line}")
        total += v
    return total


def measure(profile: str, say=print) -> tuple[list[Result], dict]:
    """The benchmarks of the figure under one model, each on a fresh boot
    with the suite's own command line (as `make run` runs it); (results,
    provenance)."""
    hw = profiles.load(profile)
    say(f"figure1: {profile} ({hw.machine}, on {hw.isa})")
    commands = [suite.BY_NAME[b.name].command_line for b in BENCHES]
    run = run_model(profile, commands, arch=hw.isa, tag="figure1",
                    timeout=max(suite.BY_NAME[b.name].timeout for b in BENCHES))
    return run.results, run.provenance


@dataclass
class Point:
    machine: str
    profile: str
    mips: float
    ours: dict[str, float]              # benchmark -> our MIPS-relative speed
    paper: dict[str, list[float]]       # benchmark -> the paper's, one per row
    values: dict[str, float] = field(default_factory=dict)   # ours, in the table's unit
    rows: dict[str, list[PaperPoint]] = field(default_factory=dict)   # the paper's rows
    # benchmark -> {policy: (our value, its MIPS-relative speed)}, for those
    # with a write policy: ours[b] is the geometric mean of these speeds
    by_policy: dict[str, dict[str, tuple[float, float]]] = field(default_factory=dict)

    @property
    def policies(self) -> list[str]:
        """The write policies this point's file benchmarks use."""
        return list(dict.fromkeys(p for v in self.by_policy.values() for p in v))

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
    # The reference is the MVAX2 Ultrix row: ours under Ultrix's policy.
    ref_policy = paper.os_policy(paper.TABLE2.row(REFERENCE, "Ultrix").os)
    ref = {b.name: our_value(b, measured[ref_profile], ref_policy) for b in BENCHES}
    out = []
    for machine, profile in MACHINES:
        if profile not in measured:
            continue
        mips = paper.TABLE1[machine].mips
        values: dict[str, float] = {}
        ours: dict[str, float] = {}
        by_policy: dict[str, dict[str, tuple[float, float]]] = {}
        wanted = policies(machine)
        for b in BENCHES:
            if not b.has_policy:
                values[b.name] = our_value(b, measured[profile])
                ours[b.name] = relative(values[b.name], ref[b.name], mips, b.is_rate)
                continue
            if b.name not in wanted:
                raise HarnessError(f"figure1: the paper has no row of {machine} for {b.name}")
            each = {}
            for pol in wanted[b.name]:
                v = our_value(b, measured[profile], pol)
                each[pol] = (v, relative(v, ref[b.name], mips, b.is_rate))
            by_policy[b.name] = each
            ours[b.name] = geomean([speed for _, speed in each.values()])
            values[b.name] = geomean([v for v, _ in each.values()])
        out.append(Point(machine, profile, mips, ours, paper_speeds(machine), values,
                         paper_rows(machine), by_policy))
    return out


# ---------------------------------------------------------------- output

def text(pts: list[Point]) -> str:
    """The figure's numbers as a table (figure1.txt)."""
    names = [b.name for b in BENCHES]
    header = ["machine", "MIPS", "", *names, "geo. mean", "file system (policy / OS)"]
    rows = []
    for p in pts:
        rows.append([p.machine, f"{p.mips:g}", "ours",
                     *["/".join(f"{s:.2f}" for _, s in p.by_policy[n].values())
                       if n in p.by_policy else f"{p.ours[n]:.2f}" for n in names],
                     f"{p.ours_mean:.2f}", "/".join(p.policies)])
        rows.append(["", "", "paper",
                     *["/".join(f"{v:.2f}" for v in p.paper.get(n, [])) or "-" for n in names],
                     f"{p.paper_mean:.2f}",
                     "/".join(dict.fromkeys(r.os for rs in p.rows.values() for r in rs
                                            if r.policy))])
    lines = ["Figure 1: MIPS-relative speed (MVAX2 = 1), per benchmark and geometric mean",
             *format_table(header, rows, left=3)]
    lines.append("(ours: our kernel on the machine's hardware model, rated at Table 1's MIPS; "
                 "paper: every row of the machine in Tables 2-7, 9, 10, several where it "
                 "ran several systems; only MIPS and bcopy were fitted; andrew and "
                 "createdelete: ours under the write policy of each row's OS, Sprite "
                 "delayed, UNIX sync, one value per policy, their geometric mean counted)")
    return "\n".join(lines) + "\n"


CSV_COLUMNS = ("machine", "profile", "mips", "source", "os", "config", "table", "benchmark",
               "policy", "unit", "value", "mips_relative")


def csv_table(pts: list[Point]) -> tuple[tuple[str, ...], list[dict[str, object]]]:
    """figure1.csv: (CSV_COLUMNS, csv_rows())."""
    return CSV_COLUMNS, csv_rows(pts)


def csv_rows(pts: list[Point]) -> list[dict[str, object]]:
    """One row per point of the figure: ours per machine and benchmark, the
    paper's per machine, benchmark and row (its OS and configuration), and
    each side's geometric mean (benchmark "geomean").  Andrew and
    create-delete have one row of ours per write policy the machine's paper
    rows stand for (os "ours sync", "ours delayed"; `policy` says which, and
    which the paper's rows stand for).  (machine, source, os, benchmark) is
    a key: pandas can pivot on it."""
    out: list[dict[str, object]] = []
    for p in pts:
        base = {"machine": p.machine, "profile": p.profile, "mips": p.mips}
        for b in BENCHES:
            table = f"Table {b.table.number}"
            unit = "MB/s" if b.is_rate else "us"
            ours = {"": (p.values.get(b.name), p.ours[b.name])}
            if b.name in p.by_policy:
                ours = p.by_policy[b.name]
            for pol, (value, speed) in ours.items():
                out.append({**base, "source": "ours", "os": f"ours {pol}".strip(),
                            "config": f"{p.profile} model", "table": table,
                            "benchmark": b.name, "policy": pol, "unit": unit,
                            "value": value, "mips_relative": speed})
            for r in p.rows.get(b.name, []):
                out.append({**base, "source": "paper", "os": r.os, "config": r.config,
                            "table": r.table, "benchmark": b.name, "policy": r.policy,
                            "unit": "MB/s" if b.is_rate else paper_unit(b),
                            "value": r.value, "mips_relative": r.speed})
        out.append({**base, "source": "ours", "os": "ours", "config": f"{p.profile} model",
                    "table": "", "benchmark": "geomean", "policy": "/".join(p.policies),
                    "unit": "", "value": None, "mips_relative": p.ours_mean})
        out.append({**base, "source": "paper", "os": "all", "config": "every row above",
                    "table": "", "benchmark": "geomean", "policy": "", "unit": "",
                    "value": None, "mips_relative": p.paper_mean})
    return out


def paper_unit(b: Bench) -> str:
    """The unit of the paper's column, as its header says."""
    header = b.table.columns[b.column]
    for word, unit in (("microseconds", "us"), ("ms", "ms"), ("seconds", "s")):
        if word in header:
            return unit
    return ""


def plot(pts: list[Point], paths: list[Path]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.2, 4.8))
    xs = [p.mips for p in pts]
    for p in pts:                       # how far ours is from the paper's
        ax.plot([p.mips, p.mips], [p.paper_mean, p.ours_mean], color="grey", linewidth=0.8,
                zorder=1)
    # the paper's hollow and on top, so that a point of ours under it shows
    ax.plot(xs, [p.paper_mean for p in pts], "o", mfc="none", mec="black", mew=1.3, ms=11,
            zorder=3, label="paper: mean over the machine's rows in Tables 2-10 (its 1990 "
            "Figure 1)")
    ax.plot(xs, [p.ours_mean for p in pts], "s", color="tab:blue", ms=6, zorder=2,
            label="ours: our kernel on the machine's hardware model; (policy): the write "
            "policy of\nAndrew and create-delete, as the machine's paper rows' OS "
            "(Sprite delayed, UNIX sync)")
    for p in pts:                       # each point's file system: our write policy
        ax.annotate(f"{p.machine} ({', '.join(p.policies)})",
                    (p.mips, max(p.paper_mean, p.ours_mean)),
                    textcoords="offset points", xytext=(-4, 7), fontsize=7)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
    ax.annotate("1 = the OS keeps pace with the processor", (21.5, 1.0),
                textcoords="offset points", xytext=(0, 4), fontsize=7, ha="right",
                color="dimgrey")
    ax.set_xlim(0, 22)
    ax.set_xticks([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20])
    ax.set_ylim(0, max(1.3, max(max(p.ours_mean, p.paper_mean) for p in pts) * 1.15))
    ax.set_xlabel("processor speed (MIPS, VAX-11/780 = 1: the paper's Table 1)", fontsize=9)
    ax.set_ylabel("operating-system speed relative to processor speed\n"
                  "(geometric mean of 8 benchmarks' MIPS-relative speeds, MicroVAX II = 1)",
                  fontsize=8)
    ax.set_title("Figure 1 rebuilt: operating-system speed against processor speed", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7.5, loc="lower left")
    fig.tight_layout()
    plotfiles.save(fig, paths)
    plt.close(fig)


def figure1(out: Path | None = None, say=print,
            ex: Executor | None = None) -> tuple[str, Path]:
    """Measure every machine (one job each, on `ex`: one after another if
    not given), print the table; write the directory OUT/figure1/
    (figure1.txt, .csv, .png, .svg, .json), replaced whole."""
    jobs = [Job(f"figure1 {profile}", measure, (profile,), cost=COST.get(profile, 1.0))
            for _, profile in MACHINES]
    got = run_jobs(jobs, ex, say, "figure1")
    measured = {profile: results for (_, profile), (results, _) in zip(MACHINES, got)}
    made_by = {profile: prov for (_, profile), (_, prov) in zip(MACHINES, got)}
    pts = points(measured)
    table = text(pts)
    with RunDir(out or ROOT / "results", "figure1") as d:
        d.path("figure1.txt").write_text(table)
        write_csv(d.path("figure1.csv"), *csv_table(pts))
        plot(pts, [d.path("figure1.png"), d.path("figure1.svg")])
        d.path("figure1.json").write_text(json.dumps(
            {"points": csv_rows(pts), "provenance": made_by}, indent=1) + "\n")
    return table, d.final
