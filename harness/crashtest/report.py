"""The crash test as a whole (`make crashtest`, `python3 -m harness
crashtest`): make each workload's write log under each policy (run.py),
replay it (replay.py), and write results/crashtest/: crashtest.txt (the
table), crashtest.json (every crash point), risk-delayed.png and .svg (the
acknowledged data at risk over time under `delayed`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import ROOT
from ..bench import provenance
from ..guest import machines
from ..model import plotfiles, profiles
from ..tables import format_table
from . import names, replay, run, wlog


@dataclass
class PolicyRun:
    """One workload run under one write policy, and its crash states checked."""

    workload: str
    policy: str
    writes: int                  # W records in the log
    states: int                  # crash states there were (prefixes + reorders)
    points: list[replay.Point]   # those tried
    risk: list[tuple[int, int]]  # (ns, bytes at risk) at acknowledgements (a sample)
    watched: bool = False        # its workload has a name held to a promise (names.py)

    def count(self, verdict: str) -> int:
        return sum(1 for p in self.points if p.verdict == verdict)

    @property
    def left(self) -> int:
        return sum(1 for p in self.points if p.check.left)

    @property
    def reordered(self) -> int:
        return sum(1 for p in self.points if p.kind == "reorder")

    @property
    def lost_points(self) -> int:
        return sum(1 for p in self.points if p.lost)

    @property
    def max_lost(self) -> int:
        return max((p.lost for p in self.points), default=0)

    def names(self, verdict: str) -> str:
        """Points whose watched name is `verdict` ("-": nothing watched)."""
        return str(sum(1 for p in self.points if p.name == verdict)) if self.watched else "-"

    @property
    def max_risk(self) -> int:
        return max((b for _, b in self.risk), default=0)


HEADER = ("workload", "policy", "writes", "tried", "reord", "consistent", "leaks",
          "inconsistent", "after -y", "lose data", "max lost", "max at risk", "name gone",
          "name partial")


LEGEND = """\
writes: device writes in the log. tried: crash states checked (of all there
were, when sampled); reord: of them, states where one write of a batch did
not land while the later ones did (delayed only: the policy promises no
order). consistent: fsck finds nothing; leaks: only lost space (an orphaned
inode, a link count too high, a block marked used by nothing, a block past
the end of its file), which fsck -y reclaims; inconsistent: anything else.
after -y: states fsck -y could not make clean. lose data: states that lack
acknowledged data (a write() that had returned); max lost: the most bytes
any of them lacks. max at risk: the most acknowledged bytes not on the disk
at any moment a program resumed (crashes between writes too: the plot).
name gone, name partial (the rename workload): states where the name it
replaces by rename names nothing, or a file that is none of the versions
written whole (counted once the name was acknowledged to exist).
"""


def table(rows: list[PolicyRun]) -> str:
    cells = [HEADER]
    for r in rows:
        tried = f"{len(r.points)}" + ("" if len(r.points) == r.states else f"/{r.states}")
        cells.append((r.workload, r.policy, str(r.writes), tried, str(r.reordered),
                      str(r.count("consistent")), str(r.count("leaks")),
                      str(r.count("inconsistent")), str(r.left), str(r.lost_points),
                      f"{r.max_lost} B", f"{r.max_risk} B", r.names(names.MISSING),
                      r.names(names.PARTIAL)))
    return "\n".join(format_table(cells[0], cells[1:], left=2)) + "\n"


def explain(rows: list[PolicyRun], limit: int = 3) -> str:
    """The inconsistent crash points, a few per row, and what they broke."""
    out = []
    for r in rows:
        bad = [p for p in r.points if p.verdict == "inconsistent"]
        kinds: dict[str, int] = {}
        for p in bad:
            key = p.check.first.split(":")[-1].strip() if p.check.first else "?"
            key = " ".join(w if not w.isdigit() else "N" for w in key.split())
            kinds[key] = kinds.get(key, 0) + 1
        for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:limit]:
            out.append(f"  {r.workload}/{r.policy}: {n} x {k}")
    return "\n".join(out) + ("\n" if out else "")


def plot(risk: dict[str, list[tuple[int, int]]], paths: list[Path], arch: str) -> None:
    """One panel per workload: acknowledged bytes not on the disk, over the
    run's guest time (each has its own scale: Andrew risks a megabyte, the
    shell session a few bytes)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [n for n, pts in risk.items() if pts]
    fig, axes = plt.subplots(1, len(names), figsize=(3.3 * len(names), 3.2), squeeze=False)
    for ax, name in zip(axes[0], names):
        pts = risk[name]
        t0 = pts[0][0]
        peak = max(b for _, b in pts)
        unit, div = ("KB", 1024) if peak >= 4096 else ("bytes", 1)
        ax.step([(t - t0) / 1e9 for t, _ in pts], [b / div for _, b in pts], where="post")
        ax.set_title(name)
        ax.set_xlabel("modelled time, s (idle not counted)")
        ax.set_ylabel(f"acknowledged, not on disk ({unit})")
        ax.grid(alpha=0.3)
    fig.suptitle(f"delayed write policy: what a crash would lose, over time ({arch})")
    fig.tight_layout()
    plotfiles.save(fig, paths)
    plt.close(fig)


def crashtest(out: Path, arch: str = machines.DEFAULT_ARCH, profile: str = "",
              max_points: int = 400, workloads: list[str] | None = None,
              policies: list[str] | None = None,
              say: Callable[[str], None] = print) -> tuple[str, Path]:
    machine = machines.get(arch)
    profile = profile or machine.model_profile
    where = out / "crashtest"
    logs = where / "logs"
    fsck = replay.Fsck(ROOT / "build" / arch / "tools" / "fsck")
    image = ROOT / "build" / arch / "fs.img"
    rows: list[PolicyRun] = []
    risk: dict[str, list[tuple[int, int]]] = {}
    try:
        for w in workloads or list(run.WORKLOADS):
            for pol in policies or list(run.POLICIES):
                say(f"crashtest: {w} under {pol}")
                log = run.make_log(arch, profile, w, pol, logs)
                bsize, records = wlog.read(log)
                watch = None
                if w in run.WATCHED:
                    watch = names.watch(replay.initial_disk(image), *run.WATCHED[w])
                points, n_pre, n_re = replay.replay(image, bsize, records, fsck,
                                                    reorder=pol == "delayed",
                                                    max_points=max_points, watch=watch)
                at_risk = replay.risk_over_time(image, bsize, records)
                rows.append(PolicyRun(w, pol, sum(1 for r in records if r.kind == "W"),
                                      n_pre + n_re, points, at_risk, watch is not None))
                if pol == "delayed":
                    risk[w] = at_risk
    finally:
        fsck.close()
    text = (f"crash test on {arch} (profile {profile}); at most {max_points} prefix and "
            f"{max_points} reordered states per row (docs/crashtest.md)\n\n" + table(rows)
            + "\n" + LEGEND)
    why = explain(rows)
    if why:
        text += "\ninconsistent crash points, by the first problem fsck found:\n" + why
    where.mkdir(parents=True, exist_ok=True)
    (where / "crashtest.txt").write_text(text)
    hw = profiles.load(profile)
    made_by = provenance.record(machine, hw, [], None)
    (where / "crashtest.json").write_text(json.dumps({
        "made_by": made_by, "arch": arch, "profile": profile, "max_points": max_points,
        "rows": [{"workload": r.workload, "policy": r.policy, "writes": r.writes,
                  "states": r.states, "tried": len(r.points), "reordered": r.reordered,
                  "consistent": r.count("consistent"), "leaks": r.count("leaks"),
                  "inconsistent": r.count("inconsistent"), "after_repair": r.left,
                  "points_losing_data": r.lost_points, "max_lost_bytes": r.max_lost,
                  "max_at_risk_bytes": r.max_risk, "at_risk": r.risk,
                  "name_missing": r.names(names.MISSING),
                  "name_partial": r.names(names.PARTIAL),
                  "points": [{"kind": p.kind, "writes": p.writes, "ns": p.ns,
                              "verdict": p.verdict, "first": p.check.first,
                              "problems": p.check.problems, "leaks": p.check.leaks,
                              "left": p.check.left, "lost": p.lost,
                              "lost_paths": p.lost_paths[:10], "dropped": p.dropped,
                              "name": p.name}
                             for p in r.points]} for r in rows],
        }, indent=1, default=str) + "\n")
    if risk:
        plot(risk, [where / "risk-delayed.png", where / "risk-delayed.svg"], arch)
    return text, where
