"""`python3 -m harness table8 [RUN ...]` (make table8): the paper's Table 8
from our remote runs on several machines (harness/rfs/run.py), beside the
paper's rows, and the question the paper asks of it: does NFS's remote
penalty grow as machines get faster, and Sprite's not?

Each run is a results directory (or its results.json) of `run --remote
both` (or nfs, sprite); by default every `results/*-remote-both/` there is
(any ISA on the wire, any profile).  The MIPS-relative speed is against
our own MicroVAX II run's local Andrew, when it is among them (report.py,
table8_rows).
"""

from __future__ import annotations

from pathlib import Path

from ..bench import report
from ..errors import UsageError
from ..tables import format_table

DEFAULT_RUNS = "*-remote-both/results.json"      # under the results directory


def default_runs(root: Path) -> list[Path]:
    return sorted(root.glob(DEFAULT_RUNS))


def load(paths: list[Path]) -> list[report.RunRecord]:
    runs = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            p = p / "results.json"
        if not p.exists():
            raise UsageError(f"{p}: no such results file (run `make run ... REMOTE=both` first)")
        runs.append(report.load_json(p))
    return runs


def penalties(run: report.RunRecord) -> dict[str, float]:
    """protocol -> remote penalty %, for the protocols the run has both ways."""
    out = {}
    for p in report.REMOTE_POLICIES:
        local, remote = report.andrew_total(run, report.LOCAL_OF[p]), report.andrew_total(run, p)
        if local is not None and remote is not None:
            out[p] = report.remote_penalty(local, remote)
    return out


def format_all(runs: list[report.RunRecord]) -> str:
    mvax = next((r for r in runs if r.paper_machine == report.REFERENCE[0]), None)
    reference = report.andrew_total(mvax, "sync") if mvax else None
    ours = [row for r in sorted(runs, key=lambda r: r.mips)
            for row in report.table8_rows(r, reference)]
    lines = report.format_table8(ours)
    lines += ["", "Remote penalty against MIPS (ours, by profile):"]
    header = ["Profile", "MIPS", "nfs penalty (%)", "sprite penalty (%)"]
    rows = []
    for r in sorted(runs, key=lambda r: r.mips):
        pen = penalties(r)
        rows.append([f"{r.arch} {r.profile}", f"{r.mips:g}",
                     *(f"{pen[p]:.0f}" if p in pen else "-" for p in report.REMOTE_POLICIES)])
    lines += format_table(header, rows)
    note = ("MIPS-relative speed against our MicroVAX II's local Andrew" if reference else
            "no MicroVAX II run given: no MIPS-relative speed")
    return "\n".join(lines) + f"\n\n{note}; penalties: remote / local - 1 (report.py).\n"
