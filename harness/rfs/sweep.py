"""`sweep --bench remote` (make sweep SWEEP_BENCH=remote): Table 8's remote
penalty swept over one profile field, to test the paper's claim that "the
relative penalty for using NFS is increasing as machine speeds increase".

    make sweep SWEEP_PROFILE=ds3100-riscv SWEEP_PARAM=cpu.clock_mhz \\
               SWEEP_VALUES=8.335,16.67,33.34,66.68 SWEEP_BENCH=remote

Each point is one `run --remote both --bench andrew` (harness/rfs/run.py)
with the point's value in place of the profile's: Andrew on the client's
own disk under sync and under delayed, then on a diskless client under nfs
and under sprite, each on a fresh pair.  The penalty is table8.penalties()'s
(remote / local - 1, each protocol against its operating system's local
policy: nfs against sync, sprite against delayed), not computed again here.
A point also keeps the server's disk writes and the calls to the server
during the remote Andrew, which say where nfs's extra time goes.

Writes OUT/sweep-PROFILE-FIELD-remote/, replaced whole (rundir.RunDir):
sweep.csv (one row per point and protocol), sweep.json (the same, the
paper's penalties for the profile's machine and each point's provenance),
sweep.png and sweep.svg (the two penalties against the field, and
Andrew's four totals), sweep.txt (the table it prints), and
OUT/sweep-.../runs/, each point's run directory (its report, results and
consoles).  Everything a sweep is asked is checked before anything
boots: check().
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from .. import ROOT
from ..bench import paper, report
from ..bench.rundir import RunDir
from ..errors import BenchmarkError, SetupError, UsageError
from ..model import plotfiles, profiles
from ..model import sweep as modelsweep
from ..model.executor import Executor, Job, run_jobs
from ..model.sweeprows import param_words
from ..tables import format_table, write_csv
from . import run, table8

BENCH = "remote"                  # the name --bench (SWEEP_BENCH) gives it
WORKLOAD = "andrew"               # Table 8's benchmark


@dataclass
class PenaltyRow:
    """One protocol's remote penalty at one point of the sweep."""

    param: str
    value: Any
    protocol: str                 # nfs, sprite
    local_policy: str             # the local run it is against: sync, delayed
    local_s: float                # Andrew, copy + compile, modelled seconds
    remote_s: float
    penalty_pct: float            # table8.penalties()
    server_writes: int            # the server's disk writes during the remote Andrew
    calls: int                    # the calls to the server during it


def asked(benches: list[str] | None) -> bool:
    return bool(benches) and BENCH in benches


def check(arch: str | None, profile: str, param: str, values: list[Any], benches: list[str],
          param2: str | None = None) -> None:
    """Refuse, naming what is wrong, before anything is built or boots."""
    others = [b for b in benches if b != BENCH]
    if others:
        raise UsageError(f"sweep --bench {BENCH}: the remote penalty is a sweep of its own "
                         f"(Andrew local and remote, a pair booted for each); sweep "
                         f"{', '.join(others)} apart")
    if param2 is not None:
        raise UsageError(f"sweep --bench {BENCH}: one field at a time (--param2 {param2} "
                         f"makes a grid, which the remote penalty does not draw)")
    modelsweep.check_values(profile, param, values)
    try:
        run.check(arch or profiles.load(profile).isa, profile, "both", [WORKLOAD])
    except SetupError as e:
        raise UsageError(f"sweep --bench {BENCH} --profile {profile}: {e}") from None


def rows_of(record: report.RunRecord, param: str, value: Any) -> list[PenaltyRow]:
    """A point's rows from its run's record: one per protocol."""
    penalty = table8.penalties(record)
    rows = []
    for p in report.REMOTE_POLICIES:
        if p not in penalty:
            raise BenchmarkError(f"sweep --bench {BENCH}: {param} = {value}: the run has no "
                                 f"{WORKLOAD} under {p} and {report.LOCAL_OF[p]} to compare")
        remote = [r for r in record.results
                  if r.bench == WORKLOAD and r.case.rpartition("-")[2] == p]
        rows.append(PenaltyRow(
            param, value, p, report.LOCAL_OF[p],
            report.andrew_total(record, report.LOCAL_OF[p]) or 0.0,
            report.andrew_total(record, p) or 0.0, penalty[p],
            sum(r.count("dev_writes") // r.iters for r in remote),
            sum(r.count("rpcs") // r.iters for r in remote)))
    return rows


def measure_point(arch: str, profile: str, param: str, value: Any, runs_root: str,
                  say: Callable[[str], None] = print) -> tuple[list[PenaltyRow], Any]:
    """One point: a remote run of both protocols with `param` = `value`
    (a job of the executor); (its rows, the run's provenance)."""
    _, record, _ = run.run_remote(arch, profile, "both", Path(runs_root),
                                  f"{param}-{value}", [WORKLOAD], None, say,
                                  overrides={param: value})
    rows = rows_of(record, param, value)
    say(f"  {param} = {value}: " + "; ".join(
        f"{r.protocol} {r.remote_s:.3g} s against {r.local_policy} {r.local_s:.3g} s, "
        f"penalty {r.penalty_pct:.1f}%" for r in rows))
    return rows, record.provenance


def paper_penalties(profile: str) -> dict[str, tuple[float, str]]:
    """protocol -> (the paper's Table 8 penalty %, its row) for the
    profile's machine: its Sprite row for sprite, its other one for nfs."""
    machine = profiles.load(profile).data.get("paper", "")
    out: dict[str, tuple[float, str]] = {}
    for row in paper.TABLE8.rows:
        if row.machine != machine or row.values[1] is None:
            continue
        out["sprite" if row.is_sprite else "nfs"] = (row.values[1], row.config)
    return out


def words(v: Any) -> str:
    """A swept value as people write it: 16.67, 100000."""
    return f"{v:.10g}" if isinstance(v, (int, float)) else str(v)


def text_table(rows: list[PenaltyRow], at: Any = None) -> str:
    """The sweep as the terminal shows it: a line per point."""
    by = {(r.value, r.protocol): r for r in rows}
    values = list(dict.fromkeys(r.value for r in rows))
    param = rows[0].param
    body = []
    for v in values:
        nfs, spr = by[v, "nfs"], by[v, "sprite"]
        body.append([words(v) + (" (profile)" if v == at else ""),
                     f"{nfs.local_s:.3g}", f"{nfs.remote_s:.3g}", f"{nfs.penalty_pct:.1f}",
                     f"{spr.local_s:.3g}", f"{spr.remote_s:.3g}", f"{spr.penalty_pct:.1f}",
                     str(nfs.server_writes)])
    head = [param_words(param), "sync local (s)", "nfs (s)", "nfs penalty (%)",
            "delayed local (s)", "sprite (s)", "sprite penalty (%)", "nfs server writes"]
    return "\n".join(format_table(head, body)) + "\n"


def plot(rows: list[PenaltyRow], paths: list[Path], title: str, at: Any,
         paper_marks: dict[str, tuple[float, str]]) -> None:
    """Two panels: each protocol's penalty against the field (the paper's
    for the profile's machine a star at the profile's value), and Andrew's
    four totals (local dotted, remote solid)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    values = list(dict.fromkeys(r.value for r in rows))
    logx = min(values) > 0 and max(values) / min(values) >= 8
    colors = {"nfs": "tab:red", "sprite": "tab:blue"}
    fig, (pen, tot) = plt.subplots(1, 2, figsize=(10, 4.2))
    for p in report.REMOTE_POLICIES:
        mine = [r for r in rows if r.protocol == p]
        xs = [r.value for r in mine]
        pen.plot(xs, [r.penalty_pct for r in mine], marker="o", color=colors[p],
                 label=f"{p} (against local {report.LOCAL_OF[p]})")
        if p in paper_marks:
            pen.plot([at], [paper_marks[p][0]], marker="*", markersize=13, color=colors[p],
                     markeredgecolor="black", markeredgewidth=0.6, linestyle="none",
                     label=f"the paper: {paper_marks[p][1]}", zorder=5)
        tot.plot(xs, [r.remote_s for r in mine], marker="o", color=colors[p],
                 label=f"{p} remote")
        tot.plot(xs, [r.local_s for r in mine], marker=".", linestyle=":", color=colors[p],
                 label=f"local {report.LOCAL_OF[p]}")
    pen.set_title("Table 8's remote penalty: remote / local - 1", fontsize=9)
    pen.set_ylabel("remote penalty (%)", fontsize=8)
    pen.set_ylim(0, max([r.penalty_pct for r in rows] +
                        [v for v, _ in paper_marks.values()]) * 1.15)
    tot.set_title(f"{WORKLOAD}: copy + compile, modelled seconds", fontsize=9)
    tot.set_ylabel("seconds", fontsize=8)
    tot.set_ylim(0, max(r.remote_s for r in rows) * 1.1)
    for ax in (pen, tot):
        if logx:
            ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(FixedLocator(values))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: words(v)))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xlabel(param_words(rows[0].param), fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(True, alpha=0.3)
        ax.axvline(at, color="grey", linestyle="--", linewidth=1,
                   label=f"the profile's: {words(at)}")
        ax.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    plotfiles.save(fig, paths)
    plt.close(fig)


def dir_name(profile: str, param: str) -> str:
    """sweep-ds3100-riscv-link-bandwidth_mbps-remote (apart from the
    network suite's sweep of the same field)."""
    return f"{modelsweep.dir_name(profile, param)}-{BENCH}"


def run_sweep(profile: str, param: str, values: list[Any], out: Path | None = None,
              arch: str | None = None, say: Callable[[str], None] = print,
              ex: Executor | None = None) -> Path:
    """Measure every point (on `ex`: one after another if not given), then
    write the sweep's directory under `out` (results/)."""
    hw = profiles.load(profile)
    arch = arch or hw.isa
    check(arch, profile, param, values, [BENCH])
    say(f"sweep {profile} ({hw.machine}): {param} over {values}; the remote penalty "
        f"({WORKLOAD} local under sync and delayed, remote under nfs and sprite)")
    with RunDir(out or ROOT / "results", dir_name(profile, param)) as d:
        runs_root = d.path("runs")
        runs_root.mkdir(exist_ok=True)
        jobs = [Job(f"{profile} {param}={v} remote", measure_point,
                    (arch, profile, param, v, str(runs_root))) for v in values]
        got = run_jobs(jobs, ex, say, f"sweep {profile} remote")
        rows = [r for point_rows, _ in got for r in point_rows]
        at = hw.get(param)
        marks = paper_penalties(profile)
        fields = list(PenaltyRow.__dataclass_fields__)
        write_csv(d.path("sweep.csv"), fields, [[getattr(r, f) for f in fields] for r in rows])
        title = (f"{hw.machine} on {hw.isa}: {param_words(param, unit=False)} varied, "
                 f"all else as profiled")
        plot(rows, [d.path("sweep.png"), d.path("sweep.svg")], title, at, marks)
        text = text_table(rows, at)
        d.path("sweep.txt").write_text(text)
        info = {"profile": profile, "param": param, "values": values, "bench": BENCH,
                "profile_value": at,
                "paper": [{"protocol": p, "penalty_pct": v, "config": c}
                          for p, (v, c) in marks.items()],
                "rows": [asdict(r) for r in rows],
                "provenance": [prov for _, prov in got]}
        d.path("sweep.json").write_text(json.dumps(info, indent=1) + "\n")
    print(text, end="")
    say(f"wrote {d.final}/: sweep.csv, sweep.json, sweep.txt, sweep.png, sweep.svg, runs/")
    return d.final
