"""Results as the paper shows them, and as JSON and CSV files.

format_report(run) prints one table per benchmark in the layout of the
paper's Tables 2-7, 9 and 10: our row first (labelled with arch and profile,
with the instructions per operation under it when the ISA counts them, and
the disk writes for the file benchmarks), then the paper's rows as printed,
units in the headers, and a note under the tables saying what our notional
machine is.  The file benchmarks that run under each write policy
(createdelete, andrew) have one row of ours per policy.

write_json / load_json keep every parsed field and the derived values with
the run's context (arch, profile, emulator version, git commit), so
`python3 -m harness report FILE.json` can print the table again later.
write_csv writes one row per RESULT for spreadsheets and plots.
"""

from __future__ import annotations

import csv
import datetime as _dt
import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paper
from ..errors import HarnessError
from ..guest.protocol import Boot, Result

FORMAT = "ousterhout-harness-results/1"


@dataclass
class RunRecord:
    """One run of the suite: what was measured, and on what."""

    arch: str
    profile: str
    mips: float
    profile_note: str
    results: list[Result]
    boot: Boot | None = None
    meta: dict[str, Any] = field(default_factory=dict)   # emulator, git, time, command

    @property
    def label(self) -> str:
        return f"ours: {self.arch}, profile {self.profile}"

    def result(self, bench: str, case: str) -> Result | None:
        for r in self.results:
            if r.bench == bench and r.case == case:
                return r
        return None


# ---------------------------------------------------------------- the tables

@dataclass(frozen=True)
class View:
    """How one benchmark lines up with one of the paper's tables."""

    bench: str
    table: paper.Table
    cases: tuple[str, ...]      # our case for each of the table's value columns
    unit: str                   # "us", "ms", "s" or "MB/s": the table's unit
    op: str                     # what one operation is, for "instructions per ..."
    # The file benchmarks run under each write policy: one row of ours per
    # policy, its cases named by formatting {p} in `cases`.
    policies: tuple[str, ...] = ()
    total: bool = False         # the table's last column is the sum of ours (Table 7)


_POLICIES = ("sync", "delayed", "writethrough")

VIEWS: tuple[View, ...] = (
    View("getpid", paper.TABLE2, ("call",), "us", "call"),
    View("cswitch", paper.TABLE3, ("roundtrip",), "ms", "round trip"),
    View("select", paper.TABLE4, ("1empty", "10empty", "10full"), "us", "select call"),
    View("bcopy", paper.TABLE5, ("cached", "uncached"), "MB/s", "copy"),
    View("readcache", paper.TABLE6, ("1mb",), "MB/s", "16 KB read"),
    View("andrew", paper.TABLE7, ("copy-{p}", "compile-{p}"), "s", "phase",
         policies=_POLICIES, total=True),
    View("openclose", paper.TABLE9, ("foo", "/a/b/c/foo"), "ms", "open and close"),
    View("createdelete", paper.TABLE10, ("0k-{p}", "10k-{p}", "100k-{p}"), "ms", "file",
         policies=_POLICIES),
)

# The paper's reference row for our MIPS-relative speeds: our kernel is a
# small UNIX-like system, so the Sun3 SunOS row, as for Ultrix and RISC/os.
REFERENCE_OS = "SunOS"


def value_in_unit(r: Result, unit: str) -> float | None:
    if unit == "us":
        return r.us_per_op
    if unit == "ms":
        return r.ms_per_op
    if unit == "s":
        return float(r.ns_per_op / 1_000_000_000)
    if unit == "MB/s":
        return r.mb_per_s
    raise ValueError(f"unknown unit {unit!r}")


def our_relative(view: View, run: RunRecord) -> float | None:
    """Our row's derived column, by the paper's rule for that table."""
    t = view.table
    r = run.result(view.bench, view.cases[t.derived_from])
    if r is None:
        return None
    ours = value_in_unit(r, view.unit)
    if ours is None or ours <= 0:
        return None
    if t.derivation == "per_mips":
        return ours / run.mips
    ref = t.row("Sun3", REFERENCE_OS)
    ref_value = ref.values[t.derived_from]
    assert ref_value is not None
    sun3 = paper.TABLE1["Sun3"].mips
    if t.derivation == "time":
        return paper.mips_relative_time(ours, run.mips, ref_value, sun3)
    return paper.mips_relative_rate(ours, run.mips, ref_value, sun3)


def fmt(v: float | None) -> str:
    """A measured number with three significant digits (at least a whole number),
    in e-notation only when it is tiny."""
    if v is None:
        return "-"
    a = abs(v)
    if a == 0:
        return "0"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a >= 0.001:
        return f"{v:#.3g}"
    return f"{v:.2e}"


def fmt_paper(v: float | None) -> str:
    return "-" if v is None else f"{v:g}"


def _grid(header: list[str], rows: list[list[str]], rule_after: int) -> list[str]:
    """Left-align the first column, right-align the rest; a rule under the header
    and another after `rule_after` body rows."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:])]
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    out = [line(header), rule]
    for i, r in enumerate(rows):
        out.append(line(r))
        if i + 1 == rule_after and rule_after < len(rows):
            out.append(rule)
    return out


def _our_rows(view: View, run: RunRecord, label: str, cases: tuple[str, ...]) -> list[list[str]]:
    """Our row for these cases, with the instructions (and disk writes) under it."""
    t = view.table
    ours = [run.result(view.bench, c) for c in cases]
    values = [value_in_unit(r, view.unit) if r else None for r in ours]
    if view.total:
        values.append(sum(values) if all(v is not None for v in values) else None)  # type: ignore
    row = [label] + [fmt(v) for v in values]
    if t.printed_column:
        rel = our_relative(view, run)
        row.append(fmt(rel) if rel is not None else "-")
    rows = [row]
    pad = [""] * (int(view.total) + int(bool(t.printed_column)))
    insns = [r.insns_per_op if r else None for r in ours]
    if any(i is not None for i in insns):
        rows.append([f"  instructions per {view.op}"] +
                    [fmt(None if i is None else float(i)) for i in insns] + pad)
    writes = [r.extra.get("dev_writes") if r else None for r in ours]
    if any(w is not None for w in writes):
        rows.append([f"  disk writes per {view.op}"] +
                    [fmt(int(w) / r.iters) if w is not None and r else "-"
                     for w, r in zip(writes, ours)] + pad)
    return rows


def format_view(view: View, run: RunRecord) -> list[str]:
    t = view.table
    header = ["Configuration", *t.columns]
    if t.printed_column:
        header.append(t.printed_column)
    if view.policies:
        rows = [row for p in view.policies
                for row in _our_rows(view, run, f"{run.label}, {p}",
                                     tuple(c.format(p=p) for c in view.cases))]
    else:
        rows = _our_rows(view, run, run.label, view.cases)
    ours_count = len(rows)
    for pr in t.rows:
        cells = [pr.config] + [fmt_paper(v) for v in pr.values]
        if t.printed_column:
            cells.append("-" if pr.printed is None else f"{pr.printed:.2f}")
        rows.append(cells)
    title = f"Table {t.number}: {t.title}"
    return [title, *_grid(header, rows, ours_count)]


def _other_results(run: RunRecord) -> list[str]:
    """Benchmarks without a table of the paper: per-operation values only."""
    known = {v.bench for v in VIEWS}
    others = [r for r in run.results if r.bench not in known]
    if not others:
        return []
    header = ["Benchmark", "Case", "ns per op", "instructions per op", "MB/s"]
    rows = [[r.bench, r.case, fmt(float(r.ns_per_op)),
             fmt(None if r.insns_per_op is None else float(r.insns_per_op)),
             fmt(r.mb_per_s)] for r in others]
    return ["Other results (no table in the paper)", *_grid(header, rows, 0)]


def format_report(run: RunRecord) -> str:
    blocks: list[list[str]] = []
    have = {r.bench for r in run.results}
    for view in VIEWS:
        if view.bench in have:
            blocks.append(format_view(view, run))
    other = _other_results(run)
    if other:
        blocks.append(other)
    # A hardware-model profile is rated in the paper's own VAX-11/780 MIPS
    # (its calibration meets Table 1); "none" counts native instructions.
    modelled = run.profile != "none"
    kind = "MIPS (VAX-11/780 = 1, the model's calibrated rating)" if modelled else "native MIPS"
    notes = [
        f"Our rows: {run.arch}, {run.profile_note}",
        f"MIPS-relative speed of our rows: the paper's rule (section 4) with {run.mips:g} "
        f"{kind} against the Sun3 {REFERENCE_OS} row; Bytes/instruction is "
        "uncached MB/s divided by MIPS.",
        ("Times are the hardware model's (hw-models/README.md).  MB = 10^6 bytes." if modelled
         else "Our MIPS count instructions of the emulated ISA, not VAX-11/780 MIPS as in "
         "the paper's Table 1.  MB = 10^6 bytes."),
        "Paper rows: Ousterhout, WRL TN-11 (1989), as printed.",
    ]
    text = "\n\n".join("\n".join(b) for b in blocks)
    return text + "\n\n" + "\n".join(notes) + "\n"


# ---------------------------------------------------------------- files

def git_commit(root: Path) -> tuple[str | None, bool | None]:
    """(commit hash, tree has uncommitted changes), or (None, None) outside git."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None, None
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip(), bool(dirty.stdout.strip())
    except (OSError, subprocess.TimeoutExpired):
        return None, None


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def to_json(run: RunRecord) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "arch": run.arch,
        "profile": run.profile,
        "mips": run.mips,
        "profile_note": run.profile_note,
        **run.meta,
        "boot": None if run.boot is None else {
            "arch": run.boot.arch, "ram": run.boot.ram, "hz": run.boot.hz, **run.boot.extra},
        "results": [{**r.raw(), "line": r.line, "derived": r.derived()} for r in run.results],
    }


def write_json(run: RunRecord, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")


def _result_from_json(d: dict[str, Any]) -> Result:
    fixed = {"bench", "case", "bytes", "line", "derived", *Result.REQUIRED_INTS}
    return Result(bench=d["bench"], case=d["case"], bytes=int(d.get("bytes", 0)),
                  line=d.get("line", ""),
                  extra={k: str(v) for k, v in d.items() if k not in fixed},
                  **{k: int(d[k]) for k in Result.REQUIRED_INTS})


def load_json(path: Path) -> RunRecord:
    try:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise HarnessError(f"cannot read results file {path}: {e}") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise HarnessError(f"{path} is not a results file of this harness "
                           f"(expected format {FORMAT!r})")
    b = d.get("boot")
    boot = None
    if b:
        boot = Boot(arch=b["arch"], ram=int(b["ram"]), hz=int(b["hz"]),
                    extra={k: str(v) for k, v in b.items() if k not in ("arch", "ram", "hz")})
    known = {"format", "arch", "profile", "mips", "profile_note", "boot", "results"}
    try:
        return RunRecord(arch=d["arch"], profile=d["profile"], mips=float(d["mips"]),
                         profile_note=d.get("profile_note", ""),
                         results=[_result_from_json(r) for r in d["results"]],
                         boot=boot, meta={k: v for k, v in d.items() if k not in known})
    except (KeyError, TypeError, ValueError) as e:
        raise HarnessError(f"{path}: malformed results file ({e!r})") from None


CSV_FIELDS = ("arch", "profile", "bench", "case", "iters", "bytes", "ns", "loop_ns",
              "insns", "loop_insns", "ns_per_op", "us_per_op", "ms_per_op",
              "insns_per_op", "mb_per_s")


def write_csv(run: RunRecord, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in run.results:
            row: dict[str, Any] = {"arch": run.arch, "profile": run.profile}
            row.update({k: v for k, v in r.raw().items() if k in CSV_FIELDS})
            row.update({k: ("" if v is None else repr(v)) for k, v in r.derived().items()})
            w.writerow(row)


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
