"""Results as the paper shows them, and as JSON and CSV files.

format_report(run) prints one table per benchmark in the layout of the
paper's Tables 2-7, 9 and 10: our row first (labelled with arch and profile,
with the instructions per operation under it when the ISA counts them, and
the disk writes for the file benchmarks), then the paper's rows as printed,
units in the headers, and a note under the tables saying what our notional
machine is.  The file benchmarks that run under each write policy
(createdelete, andrew) have one row of ours per policy; those run on a
remote file system (harness/rfs/run.py: the policies nfs and sprite, and
openclose under them) a row for each protocol run, with the server's disk
writes and the calls made under it; and a run with Andrew both local and
remote gets Table 8, its MIPS-relative speed and remote penalty.

MIPS-relative speed has one rule everywhere, the 1990 paper's: (MVAX2
Ultrix value / value) / (MIPS / 0.9), rates the other way up.  So the
tables recompute the paper's rows' column by it (the 1989 note printed them
against the Sun3; paper.py keeps those as printed, and its tests check them).

write_json / load_json keep every parsed field, typed (numbers as numbers,
null where the ISA counts no instructions), the derived values, the model's
counters and the run's provenance, so `python3 -m harness report DIR` can
print the tables again later.  csv_table() is the same fields flat, one
row per benchmark case (case_fields()), for pandas and spreadsheets.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paper
from ..errors import HarnessError
from ..tables import format_table
from ..guest.protocol import Boot, Result
from .suite import POLICIES

FORMAT = "ousterhout-harness-results/2"


@dataclass
class RunRecord:
    """One run of the suite: what was measured, and on what."""

    arch: str
    profile: str
    mips: float
    profile_note: str
    results: list[Result]
    boot: Boot | None = None
    meta: dict[str, Any] = field(default_factory=dict)   # emulator command, hwmodel params
    tag: str | None = None
    # The paper's row the profile stands for (Table 1 machine, OS), if any.
    paper_machine: str = ""
    paper_os: str = ""
    # The model's records per case, {(bench, case): {"per_op", "timed", "empty"}}.
    model: dict[tuple[str, str], dict[str, dict[str, Any]]] = field(default_factory=dict)
    provenance: dict[str, Any] | None = None

    @property
    def label(self) -> str:
        return f"ours: {self.arch}, profile {self.profile}"

    @property
    def name(self) -> str:
        return f"{self.arch}-{self.profile}" + (f"-{self.tag}" if self.tag else "")

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


_POLICIES = POLICIES
# The remote file systems' protocols (kernel/port/rfs/), run as policies
# are: their cases are named after them, and their rows are "Remote".
REMOTE_POLICIES = ("nfs", "sprite")
# The local policy of the operating system each protocol came with: the
# Local row a protocol's remote penalty is measured against (Table 8).
LOCAL_OF = {"nfs": "sync", "sprite": "delayed"}

VIEWS: tuple[View, ...] = (
    View("getpid", paper.TABLE2, ("call",), "us", "call"),
    View("cswitch", paper.TABLE3, ("roundtrip",), "ms", "round trip"),
    View("select", paper.TABLE4, ("1empty", "10empty", "10full"), "us", "select call"),
    View("bcopy", paper.TABLE5, ("cached", "uncached"), "MB/s", "copy"),
    View("readcache", paper.TABLE6, ("1mb",), "MB/s", "16 KB read"),
    View("andrew", paper.TABLE7, ("copy-{p}", "compile-{p}"), "s", "phase",
         policies=_POLICIES + REMOTE_POLICIES, total=True),
    View("openclose", paper.TABLE9, ("foo", "/a/b/c/foo"), "ms", "open and close",
         policies=("",) + REMOTE_POLICIES),
    View("createdelete", paper.TABLE10, ("0k-{p}", "10k-{p}", "100k-{p}"), "ms", "file",
         policies=_POLICIES + REMOTE_POLICIES),
)


def view_cases(view: View, p: str) -> tuple[str, ...]:
    """Our cases for one row: the view's with the policy in them ("copy-{p}"),
    or, where they name none (openclose), with "-POLICY" after them under a
    remote protocol and as they are locally (p "")."""
    return tuple(c.format(p=p) if "{p}" in c else (f"{c}-{p}" if p else c)
                 for c in view.cases)

# The 1990 paper's reference for every MIPS-relative speed: the MicroVAX II
# under Ultrix (the local row where the table has local and remote ones).
REFERENCE = ("MVAX2", "Ultrix")
REFERENCE_MIPS = paper.TABLE1["MVAX2"].mips


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


def _where(table: paper.Table) -> str:
    """"Local" for the tables that split local and remote file systems."""
    return "Local" if any(r.where for r in table.rows) else ""


def reference_value(table: paper.Table, column: int) -> float | None:
    """The MVAX2 Ultrix value of a table's column (None where it has none)."""
    try:
        return table.row(*REFERENCE, _where(table)).values[column]
    except KeyError:
        return None


def relative_speed(table: paper.Table, column: int, value: float | None, mips: float,
                   rate: bool) -> float | None:
    """The 1990 paper's MIPS-relative speed of `value` (in the table's unit)
    on a machine of `mips`, against the MVAX2 Ultrix value of the column."""
    ref = reference_value(table, column)
    if ref is None or value is None or value <= 0:
        return None
    if rate:
        return paper.mips_relative_rate(value, mips, ref, REFERENCE_MIPS)
    return paper.mips_relative_time(value, mips, ref, REFERENCE_MIPS)


def derived(view: View, value: float | None, mips: float) -> float | None:
    """A table's derived column for a row with this value of the column it
    derives from: MIPS-relative speed, or Table 5's MB/s per MIPS."""
    t = view.table
    if value is None or value <= 0:
        return None
    if t.derivation == "per_mips":
        return value / mips
    return relative_speed(t, t.derived_from, value, mips, view.unit == "MB/s")


def our_relative(view: View, run: RunRecord) -> float | None:
    """Our row's derived column, by the table's rule."""
    r = run.result(view.bench, view.cases[view.table.derived_from])
    return None if r is None else derived(view, value_in_unit(r, view.unit), run.mips)


def paper_derived(view: View, row: paper.PaperRow) -> float | None:
    """A paper row's derived column by the same rule, from its values and
    its machine's Table 1 MIPS (the 1989 ratings, those of the tables)."""
    return derived(view, row.values[view.table.derived_from], paper.TABLE1[row.machine].mips)


def derived_header(view: View) -> str:
    if view.table.derivation == "per_mips":
        return "MB/s per MIPS"           # the paper's "Bytes/instruction": see the notes
    return "MIPS-relative speed (MVAX2 = 1)"


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


def _our_rows(view: View, run: RunRecord, label: str, cases: tuple[str, ...],
              remote: bool = False) -> list[list[str]]:
    """Our row for these cases, with the instructions (and disk writes) under
    it; on a remote file system the server's disk writes and the calls."""
    t = view.table
    ours = [run.result(view.bench, c) for c in cases]
    values = [value_in_unit(r, view.unit) if r else None for r in ours]
    if view.total:
        values.append(sum(values) if all(v is not None for v in values) else None)  # type: ignore
    row = [label] + [fmt(v) for v in values]
    if t.printed_column:
        row.append(fmt(our_relative(view, run)))
    rows = [row]
    pad = [""] * (int(view.total) + int(bool(t.printed_column)))
    insns = [r.insns_per_op if r else None for r in ours]
    if any(i is not None for i in insns):
        rows.append([f"  instructions per {view.op}"] +
                    [fmt(None if i is None else float(i)) for i in insns] + pad)
    writes = [r.extra.get("dev_writes") if r else None for r in ours]
    if any(w is not None for w in writes):
        rows.append([f"  {'server ' if remote else ''}disk writes per {view.op}"] +
                    [fmt(r.count("dev_writes") / r.iters) if w is not None and r else "-"
                     for w, r in zip(writes, ours)] + pad)
    calls = [r.extra.get("rpcs") if r else None for r in ours]
    if remote and any(c is not None for c in calls):
        rows.append([f"  calls to the server per {view.op}"] +
                    [fmt(int(c) / r.iters) if c is not None and r else "-"
                     for c, r in zip(calls, ours)] + pad)
    return rows


def _row_label(run: RunRecord, p: str) -> str:
    if p in REMOTE_POLICIES:
        return f"{run.label}, {p} remote"
    return f"{run.label}, {p}" if p else run.label


def _shown(view: View, run: RunRecord, p: str) -> bool:
    """A row for every local policy (as always), but in a run with remote
    rows (harness/rfs/run.py) only for the policies that ran."""
    ran = any(run.result(view.bench, c) for c in view_cases(view, p))
    remote = any(r.extra.get("policy") in REMOTE_POLICIES for r in run.results)
    return ran or (p not in REMOTE_POLICIES and not remote)


def format_view(view: View, run: RunRecord) -> list[str]:
    t = view.table
    header = ["Configuration", *t.columns]
    if t.printed_column:
        header.append(derived_header(view))
    if view.policies:
        rows = [row for p in view.policies if _shown(view, run, p)
                for row in _our_rows(view, run, _row_label(run, p), view_cases(view, p),
                                     p in REMOTE_POLICIES)]
    else:
        rows = _our_rows(view, run, run.label, view.cases)
    ours_count = len(rows)
    for pr in t.rows:
        cells = [pr.config] + [fmt_paper(v) for v in pr.values]
        if t.printed_column:
            d = paper_derived(view, pr)
            cells.append("-" if d is None else f"{d:.2f}")
        rows.append(cells)
    title = f"Table {t.number}: {t.title}"
    return [title, *format_table(header, rows, rules_after=(ours_count,))]


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
    return ["Other results (no table in the paper)", *format_table(header, rows)]


def andrew_total(run: RunRecord, p: str) -> float | None:
    """Andrew's copy and compile phases under policy p, in seconds."""
    rs = [run.result("andrew", f"{ph}-{p}") for ph in ("copy", "compile")]
    return None if None in rs else sum(value_in_unit(r, "s") for r in rs)  # type: ignore


def remote_penalty(local: float, remote: float) -> float:
    """Table 8's remote penalty: how much longer remote took, in per cent."""
    return (remote / local - 1) * 100


def table8_rows(run: RunRecord, reference: float | None = None
                ) -> list[tuple[str, float | None, float]]:
    """Our Table 8 rows: (label, MIPS-relative speed of the local run,
    remote penalty %) for each protocol run with its local policy too.
    The MIPS-relative speed is the 1990 rule's against our own MVAX2's
    local (sync) Andrew total, `reference`: our Andrew is not the paper's
    program (docs/remote-files.md), so the paper's MVAX2 time cannot be
    the reference; None without it."""
    out = []
    for p in REMOTE_POLICIES:
        local, remote = andrew_total(run, LOCAL_OF[p]), andrew_total(run, p)
        if local is None or remote is None:
            continue
        rel = None if not reference else \
            paper.mips_relative_time(local, run.mips, reference, REFERENCE_MIPS)
        out.append((f"{run.label}, {LOCAL_OF[p]} local / {p} remote", rel,
                    remote_penalty(local, remote)))
    return out


def own_reference(run: RunRecord) -> float | None:
    """A MicroVAX II run is its own reference (its sync local total)."""
    return andrew_total(run, "sync") if run.paper_machine == REFERENCE[0] else None


def format_table8(ours: list[tuple[str, float | None, float]]) -> list[str]:
    """Table 8 with our rows (table8_rows) above the paper's: the paper's
    MIPS-relative speeds recomputed by the same rule from Table 7's local
    totals, its penalties as printed."""
    t = paper.TABLE8
    rows = [[label, fmt(rel), f"{pen:.0f}"] for label, rel, pen in ours]
    for pr in t.rows:
        try:
            local = paper.TABLE7.row(pr.machine, pr.os, "Local").values[2]
            rel = fmt_paper(round(relative_speed(paper.TABLE7, 2, local,
                                                 paper.TABLE1[pr.machine].mips, False), 2))
        except KeyError:
            rel = "-"
        rows.append([pr.config, rel, fmt_paper(pr.values[1])])
    header = ["Configuration", "MIPS-relative speed, local (MVAX2 = 1)", "Remote penalty (%)"]
    return [f"Table {t.number}: {t.title}", *format_table(header, rows, rules_after=(len(ours),))]


def format_report(run: RunRecord) -> str:
    blocks: list[list[str]] = []
    have = {r.bench for r in run.results}
    for view in VIEWS:
        if view.bench in have:
            blocks.append(format_view(view, run))
        if view.bench == "andrew" and table8_rows(run):
            blocks.append(format_table8(table8_rows(run, own_reference(run))))
    other = _other_results(run)
    if other:
        blocks.append(other)
    # A hardware-model profile is rated in the paper's own VAX-11/780 MIPS
    # (its calibration meets Table 1); "none" counts native instructions.
    modelled = run.profile != "none"
    kind = "MIPS (VAX-11/780 = 1, the model's calibrated rating)" if modelled else "native MIPS"
    notes = [
        f"Our rows: {run.arch}, {run.profile_note}",
        f"MIPS-relative speed: the 1990 paper's rule, (MVAX2 Ultrix value / value) / "
        f"(MIPS / {REFERENCE_MIPS:g}), for every row (the paper's recomputed from its values "
        f"and Table 1; the 1989 note printed them against the Sun3); ours with "
        f"{run.mips:g} {kind}.",
        ("Times are the hardware model's (hw-models/README.md).  MB = 10^6 bytes." if modelled
         else "Our MIPS count instructions of the emulated ISA, not VAX-11/780 MIPS as in "
         "the paper's Table 1.  MB = 10^6 bytes."),
        "Paper rows: Ousterhout, DEC WRL Technical Note TN-11 (1989), values as printed.",
    ]
    if table8_rows(run):
        notes.append("Table 8: our MIPS-relative speed is against our own MicroVAX II's "
                     "local Andrew (`python3 -m harness table8` puts the machines' remote "
                     "runs together); the remote penalty is remote / local - 1 under the "
                     "protocol's OS's local policy (nfs: sync, sprite: delayed).")
    if "bcopy" in have:
        notes.insert(2, "MB/s per MIPS (Table 5; the paper heads it \"Bytes/instruction\"): "
                     "uncached MB/s divided by MIPS, i.e. bytes per instruction of the MIPS "
                     "rating, not per instruction executed (\"instructions per copy\" under "
                     "our row counts those).")
    text = "\n\n".join("\n".join(b) for b in blocks)
    return text + "\n\n" + "\n".join(notes) + "\n"


# ---------------------------------------------------------------- one case, flat

def view_of(bench: str) -> View | None:
    return next((v for v in VIEWS if v.bench == bench), None)


def column_of(view: View, case: str) -> tuple[int, str] | None:
    """(the paper's column, the write policy or "") of one of our cases."""
    for p in view.policies or ("",):
        for i, name in enumerate(view_cases(view, p)):
            if name == case:
                return i, p
    return None


def paper_value(run: RunRecord, bench: str, case: str) -> tuple[str, str, float] | None:
    """(table, configuration, value): the paper's number for this case in
    the row of the machine and OS the profile names, if the paper has one
    (and, for the write-policy cases, only under that OS's policy)."""
    view = view_of(bench)
    col = column_of(view, case) if view else None
    if not run.paper_machine or view is None or col is None:
        return None
    column, policy = col
    os_name, where = run.paper_os, _where(view.table)
    if policy in REMOTE_POLICIES:            # the paper's Remote row of that protocol's OS
        where = "Remote"
        if policy == "sprite":
            os_name = "Sprite"
        elif os_name.startswith("Sprite"):
            return None
    elif policy and policy != paper.os_policy(run.paper_os):
        return None
    try:
        row = view.table.row(run.paper_machine, os_name, where)
    except KeyError:
        return None
    v = row.values[column]
    return None if v is None else (f"Table {view.table.number}", row.config, v)


def case_fields(run: RunRecord, r: Result) -> dict[str, Any]:
    """Every field of one case, typed and flat: the RESULT line's (None
    where the ISA counts no instructions), the derived values, the paper's
    number for the profile's row, the model's counters per operation."""
    counts = r.counts_insns
    out: dict[str, Any] = {"run": run.name, "arch": run.arch, "profile": run.profile,
                           "tag": run.tag, "bench": r.bench, "case": r.case,
                           "policy": r.extra.get("policy")}
    for k in ("iters", "bytes", "ns", "loop_ns"):
        out[k] = getattr(r, k)
    out["insns"] = r.insns if counts else None
    out["loop_insns"] = r.loop_insns if counts else None
    for k, v in r.extra.items():
        if k != "policy":
            out[k] = v
    d = r.derived()
    out.update(d)
    for k in ("dev_reads", "dev_writes"):
        if isinstance(out.get(k), int):
            out[f"{k}_per_op"] = out[k] / r.iters
    view = view_of(r.bench)
    unit = view.unit if view else "us"
    value = value_in_unit(r, unit)
    col = column_of(view, r.case) if view else None
    out.update(unit=unit, value=value, mips=run.mips,
               mips_relative=None if col is None else
               relative_speed(view.table, col[0], value, run.mips, unit == "MB/s"))
    pv = paper_value(run, r.bench, r.case)
    out.update(paper_table=pv[0] if pv else None, paper_config=pv[1] if pv else None,
               paper_value=pv[2] if pv else None)
    for k, v in run.model.get((r.bench, r.case), {}).get("per_op", {}).items():
        out[f"model_{k}_per_op"] = v
    # Chen et al.'s event counters by their names (None: not modelled)
    for k, v in run.model.get((r.bench, r.case), {}).get("events", {}).items():
        out[f"model_event_{k}_per_op"] = v
    return out


# ---------------------------------------------------------------- files

_FIXED = {"bench", "case", "iters", "bytes", "ns", "loop_ns", "insns", "loop_insns"}
# What the harness computes from a RESULT line (the JSON's "derived").
DERIVED = ("ns_per_op", "us_per_op", "ms_per_op", "insns_per_op", "mb_per_s",
           "dev_reads_per_op", "dev_writes_per_op", "unit", "value", "mips", "mips_relative")


def to_json(run: RunRecord) -> dict[str, Any]:
    results = []
    for r in run.results:
        flat = case_fields(run, r)
        entry: dict[str, Any] = {k: flat[k] for k in
                                 ("bench", "case", "iters", "bytes", "ns", "loop_ns",
                                  "insns", "loop_insns")}
        entry.update(r.extra)
        entry["line"] = r.line
        entry["derived"] = {k: flat[k] for k in DERIVED if k in flat}
        entry["paper"] = None if flat["paper_table"] is None else {
            "table": flat["paper_table"], "config": flat["paper_config"],
            "value": flat["paper_value"]}
        model = run.model.get((r.bench, r.case))
        if model:
            entry["model"] = model
        results.append(entry)
    return {
        "format": FORMAT,
        "run": run.name,
        "arch": run.arch,
        "profile": run.profile,
        "tag": run.tag,
        "mips": run.mips,
        "profile_note": run.profile_note,
        "paper_row": {"machine": run.paper_machine, "os": run.paper_os}
        if run.paper_machine else None,
        "provenance": run.provenance,
        **run.meta,
        "boot": None if run.boot is None else {
            "arch": run.boot.arch, "ram": run.boot.ram, "hz": run.boot.hz,
            **run.boot.extra},
        "results": results,
    }


def write_json(run: RunRecord, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")


def _result_from_json(d: dict[str, Any]) -> Result:
    skip = {"line", "derived", "paper", "model"} | _FIXED
    return Result(bench=d["bench"], case=d["case"], bytes=int(d.get("bytes") or 0),
                  line=d.get("line", ""),
                  extra={k: v for k, v in d.items() if k not in skip},
                  iters=int(d["iters"]), ns=int(d["ns"]), loop_ns=int(d["loop_ns"]),
                  insns=int(d["insns"] or 0), loop_insns=int(d["loop_insns"] or 0))


def load_json(path: Path) -> RunRecord:
    try:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise HarnessError(f"cannot read results file {path}: {e}") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        got = d.get("format") if isinstance(d, dict) else None
        older = f" (it is {got!r}, from an older harness: run it again)" if got else ""
        raise HarnessError(f"{path} is not a results file of this harness "
                           f"(expected format {FORMAT!r}){older}")
    b = d.get("boot")
    boot = None
    if b:
        boot = Boot(arch=b["arch"], ram=int(b["ram"]), hz=int(b["hz"]),
                    extra={k: v for k, v in b.items() if k not in ("arch", "ram", "hz")})
    known = {"format", "run", "arch", "profile", "tag", "mips", "profile_note", "paper_row",
             "provenance", "boot", "results"}
    try:
        results = [_result_from_json(r) for r in d["results"]]
        model = {(r["bench"], r["case"]): r["model"] for r in d["results"] if r.get("model")}
        row = d.get("paper_row") or {}
        return RunRecord(arch=d["arch"], profile=d["profile"], mips=float(d["mips"]),
                         profile_note=d.get("profile_note", ""), results=results, boot=boot,
                         meta={k: v for k, v in d.items() if k not in known},
                         tag=d.get("tag"), paper_machine=row.get("machine", ""),
                         paper_os=row.get("os", ""), model=model,
                         provenance=d.get("provenance"))
    except (KeyError, TypeError, ValueError) as e:
        raise HarnessError(f"{path}: malformed results file ({e!r})") from None


# The columns every run's CSV has, in this order; then any other field of
# its RESULT lines, then the model's counters (model_<counter>_per_op).
CSV_FIELDS = ("run", "arch", "profile", "tag", "bench", "case", "policy", "iters", "bytes",
              "ns", "loop_ns", "insns", "loop_insns", "dev_reads", "dev_writes", "sync_writes",
              "misses", "ns_per_op", "us_per_op", "ms_per_op", "insns_per_op", "mb_per_s",
              "dev_reads_per_op", "dev_writes_per_op", "unit", "value", "mips",
              "mips_relative", "paper_table", "paper_config", "paper_value")


def csv_table(run: RunRecord) -> tuple[list[str], list[dict[str, Any]]]:
    """results.csv's (columns, rows): one row per case (tables.write_csv)."""
    rows = [case_fields(run, r) for r in run.results]
    others = [k for row in rows for k in row if k not in CSV_FIELDS]
    extra = [k for k in dict.fromkeys(others) if not k.startswith("model_")]
    model = [k for k in dict.fromkeys(others) if k.startswith("model_")]
    return [*CSV_FIELDS, *extra, *model], rows


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
