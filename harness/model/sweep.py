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

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import ROOT
from ..bench import paper as paper_tables
from ..bench import mipsscale, report, suite
from ..bench.rundir import RunDir
from ..errors import SetupError, UsageError
from ..tables import write_csv
from ..net import measure
from ..net import table as nettable
from ..net.link import Link
from . import heatmap, plotfiles, profiles, schema
from .executor import Executor, Job, run_jobs
from .runs import run_model
from .sweeprows import (UNIT_WORDS, SweepResult, case_words, csv_table, number, param_words,
                        y_label)

DEFAULT_BENCHES = ("bcopy", "readcache", "getpid", "mips")


def check_values(profile: str, param: str, values: list[Any], which: str = "") -> None:
    """Refuse a bad swept value before anything boots, blaming the value
    (which: "2" for the second field of a grid: its options are --param2
    and --values2)."""
    profiles.load(profile)               # the profile itself must be good
    for v in values:
        try:
            profiles.load(profile, {param: v})
        except SetupError as e:
            why = str(e).split(": ", 1)[-1]
            raise UsageError(f"sweep --param{which} {param} --values{which}: {v!r} is not a "
                             f"possible value "
                             f"({why})") from None


def check_pairs(profile: str, param: str, values: list[Any], param2: str,
                values2: list[Any]) -> None:
    """Refuse a pair of values that is no machine together (a cache smaller
    than its line), before anything boots."""
    for v in values:
        for v2 in values2:
            try:
                profiles.load(profile, {param: v, param2: v2})
            except SetupError as e:
                why = str(e).split(": ", 1)[-1]
                raise UsageError(f"sweep: {param} = {v!r} with {param2} = {v2!r} is not a "
                                 f"possible machine ({why})") from None


def measure_point(profile: str, point: tuple[tuple[str, Any], ...], benches: list[str],
                  arch: str, say=print) -> tuple[list[SweepResult], dict[str, Any]]:
    """One point of a sweep: the benchmarks with the point's values in place
    of the profile's ((field, value), one pair or two); (its rows, in the
    order the benchmarks ran, and the run's provenance).  A job of the
    executor (harness/model/executor.py)."""
    # each on a fresh boot (runs.Fresh): what ran before cannot move its numbers;
    # a benchmark of two machines on a fresh pair (harness/net/measure.py)
    chosen = [suite.BY_NAME[b] for b in benches]
    one = [b.short_command for b in chosen if not suite.needs_pair(b.name)]
    pairs = [b.short_command for b in chosen if suite.needs_pair(b.name)]
    made = [run_model(profile, one, dict(point), arch=arch, tag="sweep")] if one else []
    made += [measure.run_pair(profile, c, dict(point), arch=arch, tag="sweep") for c in pairs]
    joined = [j for run in made for j in run.joined]
    (param, v), *second = point
    param2, v2 = second[0] if second else (None, None)
    machine_mips = made[0].profile.mips
    for j in joined:
        r = j.result
        if r.bench == "mips":
            machine_mips = mipsscale.mips_rating(r.iters, r.net_ns)
    hardware = _hardware_share(made[0].profile) if pairs else {}
    rows: list[SweepResult] = []
    for j in joined:
        r = j.result
        hw = None
        if r.bench == "mips":
            unit, measured, rel = "MIPS", machine_mips, None
        else:
            view = report.view_of(r.bench)
            unit = view.unit if view else "MB/s" if r.bytes else "us"
            measured = report.value_in_unit(r, unit) or 0.0
            col = report.column_of(view, r.case) if view else None
            rel = None if col is None else report.relative_speed(
                view.table, col[0], measured, machine_mips, unit == "MB/s")
            if (r.bench, r.case) in hardware:
                hw = _in_unit(hardware[r.bench, r.case], r.bytes, unit)
        rows.append(SweepResult(param, v, r.bench, r.case, unit, measured, rel, machine_mips,
                        j.counters(), param2, v2, hw))
    where = ", ".join(f"{k} = {x}" for k, x in point)
    say(f"  {where}: " + ", ".join(f"{x.bench} {x.case} {x.measured:.3g} {x.unit}"
                                   for x in rows))
    provenance = made[0].provenance if len(made) == 1 else \
        {"runs": [run.provenance for run in made]}
    return rows, provenance


def _hardware_share(hw: profiles.Profile) -> dict[tuple[str, str], float]:
    """(bench, case) -> the hardware's share of each network case, ns per
    operation, from the point's [link] (the Final Results Table's column:
    harness/net/table.py)."""
    pred = nettable.predictions(Link.from_profile(hw.data["link"]))
    return {("net", case): p[3] for case, p in pred.items()}


def _in_unit(ns: float, nbytes: int, unit: str) -> float:
    """ns per operation in a row's unit (MB/s: `nbytes` per operation)."""
    if unit == "MB/s":
        return nbytes * 1e3 / ns if ns else 0.0
    return ns / {"us": 1e3, "ms": 1e6, "s": 1e9}[unit]


def check_link(param: str, benches: list[str], which: str = "") -> None:
    """A [link] field changes only the wire between two machines: swept
    with a benchmark of one machine, it cannot change anything."""
    if param.split(".", 1)[0] != "link":
        return
    alone = [b for b in benches if not suite.needs_pair(b)]
    if alone:
        two = [b.name for b in suite.NET_BENCHMARKS]
        raise UsageError(f"sweep --param{which} {param}: a [link] field is the wire between "
                         f"two machines, and {', '.join(alone)} runs on one machine, so "
                         f"nothing it measures can change; sweep it with a benchmark of two "
                         f"machines (--bench {' --bench '.join(two)}; "
                         f"make sweep SWEEP_BENCH={' '.join(two)}), or sweep the remote "
                         f"file systems' penalty (--bench remote: harness/rfs/sweep.py)")


def grid(param: str, values: list[Any], param2: str | None = None,
         values2: list[Any] | None = None) -> list[tuple[tuple[str, Any], ...]]:
    """The points of a sweep, the first field's values outermost:
    ((param, v),) each, or ((param, v), (param2, v2)) for a grid."""
    if param2 is None:
        return [((param, v),) for v in values]
    return [((param, v), (param2, v2)) for v in values for v2 in values2 or []]


def check(profile: str, param: str, values: list[Any], benches: list[str],
          param2: str | None = None, values2: list[Any] | None = None) -> None:
    """Everything a sweep is asked, before anything boots or is written."""
    suite.choose(benches)                      # BenchmarkError naming a bad one
    check_link(param, benches)
    check_values(profile, param, values)
    if param2 is not None:
        if param2 == param:
            raise UsageError(f"sweep: --param2 {param2} is --param: vary two different fields")
        check_link(param2, benches, "2")
        check_values(profile, param2, values2 or [], "2")
        check_pairs(profile, param, values, param2, values2 or [])
    if any(suite.needs_pair(b) for b in benches):
        try:
            measure.check(profile)
        except SetupError as e:
            raise UsageError(f"sweep --profile {profile}: {e}") from None


def sweep(profile: str, param: str, values: list[Any], benches: list[str],
          arch: str | None = None, say=print, param2: str | None = None,
          values2: list[Any] | None = None,
          ex: Executor | None = None) -> tuple[list[SweepResult], list[dict[str, Any]]]:
    """(rows, the provenance of each point's run), point by point in grid()'s
    order, whatever order `ex` ran them in (one after another if not
    given).  With param2 and values2: every pair of values."""
    check(profile, param, values, benches, param2, values2)
    arch = arch or profiles.load(profile).isa
    points = grid(param, values, param2, values2)
    jobs = [Job(f"{profile} " + " ".join(f"{k}={v}" for k, v in pt), measure_point,
                (profile, pt, list(benches), arch)) for pt in points]
    got = run_jobs(jobs, ex, say, f"sweep {profile}")
    rows = [r for point_rows, _ in got for r in point_rows]
    return rows, [prov for _, prov in got]


# ---------------------------------------------------------------- the plot

@dataclass
class Marks:
    """What the plot marks beside our curves: the profile's own value of the
    swept field (the calibrated machine), and the paper's numbers for the
    machine's row, {(bench, case): (value, configuration)}."""

    at: Any
    at_words: str
    paper: dict[tuple[str, str], tuple[float, str]]
    paper_relative: dict[tuple[str, str], float]


def marks(profile: str, param: str, rows: list[SweepResult]) -> Marks:
    hw = profiles.load(profile)
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
    p = schema.load().params.get(param)
    unit = p.unit if p else ""
    return Marks(at, f"{hw.name} {calibrated}: {number(at)} {unit}".rstrip(), paper, relative)


def _headline(rows: list[SweepResult]) -> list[tuple[str, str]]:
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


def plot(rows: list[SweepResult], paths: list[Path], title: str, m: Marks | None = None) -> None:
    """One panel per benchmark and one of MIPS-relative speed, three to a
    row; linear tick labels at the swept values (a log axis when they span
    a factor of 8 or more); our curves solid, the profile's own value of
    the field a dashed vertical line, the paper's numbers stars on it."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    # a panel per benchmark, or per benchmark and unit where its cases have
    # several (the network's: times and a bandwidth)
    benches = list(dict.fromkeys((r.bench, r.unit) for r in rows))
    split = {b for b, _ in benches if sum(1 for x, _ in benches if x == b) > 1}
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

    for ax, (bench, unit) in zip(flat, benches):
        mine = [r for r in rows if r.bench == bench and r.unit == unit]
        cases = list(dict.fromkeys(r.case for r in mine))
        for i, case in enumerate(cases):
            pts = [r for r in mine if r.case == case]
            color = colors[i % len(colors)]
            ax.plot([p.value for p in pts], [p.measured for p in pts], marker="o",
                    markersize=4, color=color, label=f"ours: {case_words(bench, case)}")
            if any(p.hardware is not None for p in pts):
                ax.plot([p.value for p in pts if p.hardware is not None],
                        [p.hardware for p in pts if p.hardware is not None], linestyle=":",
                        color=color, label=None if i else "dotted: the hardware's share "
                        "(NICs, wire)")
            if m is not None and numeric and (bench, case) in m.paper:
                star(ax, m.paper[bench, case][0], color)
        b = suite.BY_NAME.get(bench)
        ax.set_title(f"{bench}" + (f" ({b.paper})" if b and b.paper else "")
                     + (f": {UNIT_WORDS.get(unit, unit)}" if bench in split else ""),
                     fontsize=9)
        ax.set_ylabel(y_label(bench, unit), fontsize=8)
        ys = [r.measured for r in mine] + [r.hardware for r in mine if r.hardware is not None]
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
    hw = profiles.load(profile)
    return f"{hw.machine} on {hw.isa}: {param_words(param, unit=False)} varied, " \
           f"all else as profiled"


def _one_field(row: dict[str, Any]) -> dict[str, Any]:
    """A 1-D sweep's row as before grids: without param2 and value2."""
    return {k: v for k, v in row.items() if k not in ("param2", "value2")}


def dir_name(profile: str, param: str, param2: str | None = None) -> str:
    """sweep-ds3100-memory-bandwidth_mbs; a grid's names both fields."""
    fields = [param] + ([param2] if param2 else [])
    return f"sweep-{profile}-" + "-".join(f.replace(".", "-") for f in fields)


def run_sweep(profile: str, param: str, values: list[Any], benches: list[str],
              out: Path | None = None, arch: str | None = None,
              say=print, param2: str | None = None, values2: list[Any] | None = None,
              ex: Executor | None = None) -> Path:
    """Measure (on `ex`: one point after another if not given), then write
    the sweep's directory under `out` (results/).  With param2: a grid,
    plotted as one heat map per benchmark (heatmap-BENCH.png and .svg)."""
    hw = profiles.load(profile)
    arch = arch or hw.isa
    over = f"{param} over {values}" + (f" x {param2} over {values2}" if param2 else "")
    say(f"sweep {profile} ({hw.machine}): {over}; benchmarks {', '.join(benches)}")
    check(profile, param, values, benches, param2, values2)
    with RunDir(out or ROOT / "results", dir_name(profile, param, param2)) as d:
        rows, made_by = sweep(profile, param, values, benches, arch, say, param2, values2, ex)
        write_csv(d.path("sweep.csv"), *csv_table(rows))
        info: dict[str, Any] = {"profile": profile, "param": param, "values": values}
        if param2 is None:
            m = marks(profile, param, rows)
            plot(rows, [d.path("sweep.png"), d.path("sweep.svg")], title_for(profile, param), m)
            plots = ["sweep.png", "sweep.svg"]
            info.update({"benches": benches, "profile_value": m.at,
                         "paper": [{"bench": b, "case": c, "value": v, "config": cfg}
                                   for (b, c), (v, cfg) in m.paper.items()],
                         "rows": [_one_field(asdict(r)) for r in rows]})
        else:
            at = (hw.get(param), hw.get(param2))
            title = (f"{hw.machine} on {hw.isa}: {param_words(param, unit=False)} x "
                     f"{param_words(param2, unit=False)}, all else as profiled")
            plots = []
            for bench in dict.fromkeys(r.bench for r in rows):
                names = [f"heatmap-{bench}.png", f"heatmap-{bench}.svg"]
                heatmap.plot_bench(rows, bench, [d.path(n) for n in names],
                                   f"{bench}: {title}", at)
                plots += names
            info.update({"param2": param2, "values2": values2, "benches": benches,
                         "profile_value": at[0], "profile_value2": at[1],
                         "rows": [asdict(r) for r in rows]})
        info["provenance"] = made_by
        d.path("sweep.json").write_text(json.dumps(info, indent=1) + "\n")
    say(f"wrote {d.final}/: sweep.csv, sweep.json, {', '.join(plots)}")
    return d.final
