"""Sweeps: vary one parameter of a hardware model, rerun chosen benchmarks.

    python3 -m harness sweep --profile ds3100 --param memory.bandwidth_mbs \\
        --values 1,2,4,8,16,32,64 --bench bcopy --bench mips

One boot per value (a model's parameters are fixed for a run), running
each benchmark's short command (harness/bench/suite.py).  For each
benchmark case it records the value in the paper's unit (us, ms, MB/s),
the MIPS-relative speed by the 1990 paper's rule (MVAX2 Ultrix = 1, with
the machine's MIPS measured by `mips` at that point when it is among the
benchmarks, else the profile's Table 1 rating), and the model's counters
per operation.  Writes the directory OUT/sweep-PROFILE-PARAM/, replaced
whole (harness/bench/rundir.py): sweep.csv (one row per value x case),
sweep.json (the same with the paper's values and the provenance) and
sweep.png with sweep.svg: one panel per benchmark and one of MIPS-relative
speed, the profile's own (calibrated) value marked, and the paper's number
for the machine at it.

The swept values go through the same validation as the profile, so a
bandwidth of 0 is refused, naming the swept field, before anything boots.
Sweeps are predictions: nothing is fitted here.
"""

from __future__ import annotations

import csv
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import ROOT
from ..bench import paper as paper_tables
from ..bench import report, suite
from ..bench.rundir import RunDir
from ..errors import HarnessError, SetupError, UsageError
from . import hwmodel, plotfiles
from .runs import run_model

DEFAULT_BENCHES = ("bcopy", "readcache", "getpid", "mips")


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


def check_values(profile: str, param: str, values: list[Any]) -> None:
    """Refuse a bad swept value before anything boots, blaming the value."""
    hwmodel.load_profile(profile)               # the profile itself must be good
    for v in values:
        try:
            hwmodel.load_profile(profile, {param: v})
        except SetupError as e:
            why = str(e).split(": ", 1)[-1]
            raise UsageError(f"sweep --param {param} --values: {v!r} is not a possible value "
                             f"({why})") from None


def sweep(profile: str, param: str, values: list[Any], benches: list[str],
          arch: str | None = None, say=print) -> tuple[list[Row], list[dict[str, Any]]]:
    """(rows, the provenance of each point's run)."""
    suite.choose(benches)                      # BenchmarkError naming a bad one
    # in the order given: what ran before a benchmark in the same boot moves
    # its numbers (physical pages, cache contents), so the order is kept
    chosen = [suite.BY_NAME[b] for b in benches]
    check_values(profile, param, values)
    arch = arch or hwmodel.load_profile(profile).isa
    rows: list[Row] = []
    made_by = []
    for v in values:
        run = run_model(profile, [b.short_command for b in chosen], {param: v}, arch=arch,
                        tag="sweep")
        made_by.append(run.provenance)
        machine_mips = run.profile.mips
        for j in run.joined:
            r = j.result
            if r.bench == "mips":
                machine_mips = hwmodel.mips_rating(r.iters, r.net_ns)
        for j in run.joined:
            r = j.result
            if r.bench == "mips":
                unit, measured, rel = "MIPS", machine_mips, None
            else:
                view = report.view_of(r.bench)
                unit = view.unit if view else "us"
                measured = report.value_in_unit(r, unit) or 0.0
                col = report.column_of(view, r.case) if view else None
                rel = None if col is None else report.relative_speed(
                    view.table, col[0], measured, machine_mips, unit == "MB/s")
            rows.append(Row(param, v, r.bench, r.case, unit, measured, rel, machine_mips,
                            j.counters()))
        say(f"  {param} = {v}: " + ", ".join(
            f"{x.bench} {x.case} {x.measured:.3g} {x.unit}" for x in rows if x.value == v))
    return rows, made_by


CSV_COLUMNS = ("param", "value", "bench", "case", "unit", "measured", "mips_relative",
               "machine_mips")


def write_csv(rows: list[Row], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = list(hwmodel.COUNTERS)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([*CSV_COLUMNS, *[f"model_{k}_per_op" for k in keys]])
        for r in rows:
            w.writerow([r.param, r.value, r.bench, r.case, r.unit, repr(r.measured),
                        "" if r.mips_relative is None else repr(r.mips_relative),
                        repr(r.machine_mips), *[repr(r.counters[k]) for k in keys]])


def read_csv(path: Path) -> list[Row]:
    """The rows of a sweep.csv (to plot again without measuring again)."""
    with open(path, newline="") as f:
        out = []
        for d in csv.DictReader(f):
            value = parse_values(d["value"])[0]
            counters = {k[len("model_"):-len("_per_op")]: float(v) for k, v in d.items()
                        if k.startswith("model_")}
            out.append(Row(d["param"], value, d["bench"], d["case"], d["unit"],
                           float(d["measured"]),
                           float(d["mips_relative"]) if d["mips_relative"] else None,
                           float(d["machine_mips"]), counters))
    return out


# ---------------------------------------------------------------- the plot

# What a swept field is, in words, with its unit (the x axis).
PARAM_WORDS = {
    "memory.bandwidth_mbs": "memory bandwidth (MB/s, MB = 10^6 bytes)",
    "memory.latency_ns": "memory latency (nanoseconds)",
    "memory.bus_bytes": "memory bus width (bytes)",
    "cpu.cpi": "cycles per instruction",
    "cpu.clock_mhz": "processor clock (MHz)",
    "cpu.trap_extra": "extra cycles per trap",
    "icache.size": "instruction cache size (bytes)",
    "dcache.size": "data cache size (bytes)",
    "dcache.line": "data cache line (bytes)",
    "dcache.write_buffer": "write buffer entries",
    "l2.size": "second-level cache size (bytes)",
    "disk.seek_ms": "disk seek time (milliseconds)",
    "disk.rpm": "disk rotation speed (revolutions per minute)",
    "disk.transfer_mbs": "disk transfer rate (MB/s)",
}
UNIT_WORDS = {"us": "microseconds", "ms": "milliseconds", "s": "seconds",
              "MB/s": "MB per second", "MIPS": "MIPS, VAX-11/780 = 1"}
# What each case is, for the legends.
CASE_WORDS = {
    ("getpid", "call"): "getpid() call",
    ("cswitch", "roundtrip"): "round trip: 2 switches",
    ("select", "1empty"): "1 empty pipe",
    ("select", "10empty"): "10 empty pipes",
    ("select", "10full"): "10 pipes with data",
    ("bcopy", "cached"): "8 KB block (in cache)",
    ("bcopy", "uncached"): "1 MB block (not in cache)",
    ("readcache", "1mb"): "1 MB file, 16 KB reads",
    ("openclose", "foo"): '"foo"',
    ("openclose", "/a/b/c/foo"): '"/a/b/c/foo"',
    ("mips", "integer"): "integer benchmark",
}


def param_words(param: str) -> str:
    return PARAM_WORDS.get(param, param)


def case_words(bench: str, case: str) -> str:
    if (bench, case) in CASE_WORDS:
        return CASE_WORDS[bench, case]
    what, _, policy = case.partition("-")     # createdelete 10k-sync, andrew copy-sync
    what = {"0k": "no data", "10k": "10 KB", "100k": "100 KB"}.get(what, what)
    return f"{what}, {policy} writes" if policy else what


def y_label(bench: str, unit: str) -> str:
    view = report.view_of(bench)
    if unit == "MIPS":
        return "integer speed (MIPS, VAX-11/780 = 1)"
    if unit == "MB/s":
        return "bandwidth (MB per second)"
    op = view.op if view else "operation"
    return f"time per {op} ({UNIT_WORDS.get(unit, unit)})"


@dataclass
class Marks:
    """What the plot marks beside our curves: the profile's own value of the
    swept field (the calibrated machine), and the paper's numbers for the
    machine's row, {(bench, case): (value, configuration)}."""

    at: Any
    at_words: str
    paper: dict[tuple[str, str], tuple[float, str]]
    paper_relative: dict[tuple[str, str], float]


def marks(profile: str, param: str, rows: list[Row]) -> Marks:
    hw = hwmodel.load_profile(profile)
    at = hw.get(param)
    calibrated = "as calibrated" if param in ("cpu.cpi", "memory.bandwidth_mbs") and \
        "calibration" in hw.data else "as profiled"
    record = report.RunRecord(arch=hw.isa, profile=profile, mips=hw.mips, profile_note="",
                              results=[], paper_machine=hw.data.get("paper", ""),
                              paper_os=hw.data.get("paper_os", ""))
    paper: dict[tuple[str, str], tuple[float, str]] = {}
    relative: dict[tuple[str, str], float] = {}
    for r in rows:
        key = (r.bench, r.case)
        if r.bench == "mips" and record.paper_machine:
            paper[key] = (paper_tables.TABLE1[record.paper_machine].mips, "Table 1 MIPS")
            continue
        pv = report.paper_value(record, r.bench, r.case)
        if pv is not None:
            paper[key] = (pv[2], pv[1])
            view = report.view_of(r.bench)
            col = report.column_of(view, r.case) if view else None
            rel = None if col is None else report.relative_speed(
                view.table, col[0], pv[2], paper_tables.TABLE1[record.paper_machine].mips,
                r.unit == "MB/s")
            if rel is not None:
                relative[key] = rel
    unit = param_words(param).partition("(")[2].split(",")[0].rstrip(")")
    return Marks(at, f"{hw.name} {calibrated}: {number(at)} {unit}".rstrip(), paper, relative)


def number(v: Any) -> str:
    """A swept value as people write it: 131072, 11.5, write-back."""
    return str(v) if isinstance(v, (int, str)) else f"{v:.3g}"


def _headline(rows: list[Row]) -> list[tuple[str, str]]:
    """The case per benchmark the relative-speed panel shows: the one the
    paper derives its own column from (Figure 1's choice)."""
    out = []
    for bench in dict.fromkeys(r.bench for r in rows):
        view = report.view_of(bench)
        if view is None:
            continue
        p = view.policies[0] if view.policies else ""
        case = view.cases[view.table.derived_from].format(p=p)
        if any(r.bench == bench and r.case == case and r.mips_relative is not None
               for r in rows):
            out.append((bench, case))
    return out


def plot(rows: list[Row], paths: list[Path], title: str, m: Marks | None = None) -> None:
    """One panel per benchmark and one of MIPS-relative speed, three to a
    row; linear tick labels at the swept values (a log axis when they span
    a factor of 8 or more); our curves solid, the profile's own value of
    the field a dashed vertical line, the paper's numbers stars on it."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    benches = list(dict.fromkeys(r.bench for r in rows))
    headline = _headline(rows)
    panels = len(benches) + (1 if headline else 0)
    cols = min(3, panels)
    nrows = -(-panels // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.4 * cols, 3.5 * nrows + 0.9),
                             squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[panels:]:
        ax.set_visible(False)
    values = list(dict.fromkeys(r.value for r in rows))
    numeric = all(isinstance(v, (int, float)) for v in values)
    logx = numeric and min(values) > 0 and max(values) / min(values) >= 8
    param = rows[0].param
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]

    def x_axis(ax) -> None:
        if logx:
            ax.set_xscale("log", base=2)
        if numeric:
            ax.xaxis.set_major_locator(FixedLocator(values))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xlabel(param_words(param), fontsize=8)
        if numeric:                         # room for a star at either end
            lo, hi = min(values), max(values)
            if logx:
                pad = (hi / lo) ** 0.06
                ax.set_xlim(lo / pad, hi * pad)
            elif hi > lo:
                pad = (hi - lo) * 0.06
                ax.set_xlim(lo - pad, hi + pad)
        ax.tick_params(labelsize=8)
        ax.grid(True, alpha=0.3)
        if m is not None and numeric:
            ax.axvline(m.at, color="grey", linestyle="--", linewidth=1)

    def star(ax, y: float, color: str) -> None:
        ax.plot([m.at], [y], marker="*", markersize=12, color=color,
                markeredgecolor="black", markeredgewidth=0.6, linestyle="none", zorder=5)

    for ax, bench in zip(flat, benches):
        cases = list(dict.fromkeys(r.case for r in rows if r.bench == bench))
        for i, case in enumerate(cases):
            pts = [r for r in rows if r.bench == bench and r.case == case]
            color = colors[i % len(colors)]
            ax.plot([p.value for p in pts], [p.measured for p in pts], marker="o",
                    markersize=4, color=color, label=f"ours: {case_words(bench, case)}")
            if m is not None and numeric and (bench, case) in m.paper:
                star(ax, m.paper[bench, case][0], color)
        b = suite.BY_NAME.get(bench)
        ax.set_title(f"{bench}" + (f" ({b.paper})" if b and b.paper else ""), fontsize=9)
        ax.set_ylabel(y_label(bench, pts[0].unit), fontsize=8)
        ys = [r.measured for r in rows if r.bench == bench]
        if m is not None:
            ys += [v for (b, _), (v, _) in m.paper.items() if b == bench]
        ax.set_ylim(0, max(ys) * 1.1)
        x_axis(ax)
        ax.legend(fontsize=7)
    if headline:
        ax = flat[len(benches)]
        for i, key in enumerate(headline):
            pts = [r for r in rows if (r.bench, r.case) == key]
            color = colors[i % len(colors)]
            ax.plot([p.value for p in pts], [p.mips_relative for p in pts], marker="o",
                    markersize=4, color=color, label=f"{key[0]}: {case_words(*key)}")
            if m is not None and numeric and key in m.paper_relative:
                star(ax, m.paper_relative[key], color)
        ax.axhline(1.0, color="black", linewidth=0.8)
        top = max(1.2, max(r.mips_relative or 0 for r in rows) * 1.1)
        ax.set_ylim(0, top)
        ax.set_title("MIPS-relative speed (MicroVAX II = 1)", fontsize=9)
        ax.set_ylabel("OS speed / processor speed (1 = keeps pace)", fontsize=8)
        x_axis(ax)
        # under the line at 1, where the curves of a slow OS do not reach
        ax.legend(fontsize=7, loc="upper right", bbox_to_anchor=(1, 0.98 / top - 0.01))
    if m is not None and numeric:
        from matplotlib.lines import Line2D
        handles = [Line2D([], [], color="grey", linestyle="--", label=m.at_words)]
        if m.paper:
            configs = sorted({c for _, c in m.paper.values()})
            handles.append(Line2D([], [], marker="*", markersize=11, color="white",
                                  markeredgecolor="black", linestyle="none",
                                  label="the paper's numbers for the real machine "
                                  f"({', '.join(configs)}), drawn at {number(m.at)}"))
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8,
                   frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.05 if m is not None else 0, 1, 0.97))
    plotfiles.save(fig, paths)
    plt.close(fig)


def title_for(profile: str, param: str) -> str:
    hw = hwmodel.load_profile(profile)
    return f"{hw.machine} on {hw.isa}: {param_words(param).split(' (')[0]} varied, " \
           f"all else as profiled"


def run_sweep(profile: str, param: str, values: list[Any], benches: list[str],
              out: Path | None = None, arch: str | None = None,
              say=print) -> Path:
    """Measure, then write the sweep's directory under `out` (results/)."""
    hw = hwmodel.load_profile(profile)
    arch = arch or hw.isa
    say(f"sweep {profile} ({hw.machine}): {param} over {values}; benchmarks {', '.join(benches)}")
    name = f"sweep-{profile}-{param.replace('.', '-')}"
    with RunDir(out or ROOT / "results", name) as d:
        rows, made_by = sweep(profile, param, values, benches, arch, say)
        write_csv(rows, d.path("sweep.csv"))
        m = marks(profile, param, rows)
        plot(rows, [d.path("sweep.png"), d.path("sweep.svg")], title_for(profile, param), m)
        d.path("sweep.json").write_text(json.dumps({
            "profile": profile, "param": param, "values": values, "benches": benches,
            "profile_value": m.at,
            "paper": [{"bench": b, "case": c, "value": v, "config": cfg}
                      for (b, c), (v, cfg) in m.paper.items()],
            "rows": [asdict(r) for r in rows],
            "provenance": made_by}, indent=1) + "\n")
    say(f"wrote {d.final}/: sweep.csv, sweep.json, sweep.png, sweep.svg")
    return d.final
