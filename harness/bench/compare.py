"""Two runs side by side: `python3 -m harness compare A B` (make compare A=.. B=..).

Per benchmark and case: A's value and B's in the paper's unit, B/A, the
instructions per operation of each (where the ISA counts them) and, under
a hardware model, the model's counters per operation and their change.
First it says what produced each run and what differs between the two
(code, images, emulator, profile file: harness/bench/provenance.py).

Runs of different ISAs, profiles or benchmark cases are refused, naming
what differs and which cases each lacks, unless --allow-mismatch: then the
cases both have are compared, under a header saying what differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import provenance
from .report import RunRecord, fmt, value_in_unit, view_of
from ..errors import UsageError
from ..tables import format_table

# The model's counters the table shows (the CSV has every one; the register
# window traps only where the ISA has windows, SPARC).
SHOWN = ("insns", "loads", "stores", "imiss", "dmiss", "writebacks", "bytes_in", "bytes_out",
         "traps", "wovf", "wunf", "stall_cycles", "cycles")


@dataclass
class CaseDiff:
    """One benchmark case in both runs."""

    bench: str
    case: str
    unit: str
    a: float | None
    b: float | None
    insns_a: float | None = None
    insns_b: float | None = None
    model_a: dict[str, float] = field(default_factory=dict)
    model_b: dict[str, float] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        if self.a is None or self.b is None or self.a == 0:
            return None
        return self.b / self.a

    @property
    def counters(self) -> list[str]:
        """The model counters both runs have, in the model's order."""
        return [k for k in self.model_a if k in self.model_b]


@dataclass
class Comparison:
    a: RunRecord
    b: RunRecord
    rows: list[CaseDiff]
    differences: list[str]                 # what produced A and B differently
    only_a: list[tuple[str, str]]
    only_b: list[tuple[str, str]]


def _cases(run: RunRecord) -> list[tuple[str, str]]:
    return [(r.bench, r.case) for r in run.results]


def describe_cases(cases: list[tuple[str, str]]) -> str:
    """'getpid (all), select 10full': by benchmark, in order."""
    by: dict[str, list[str]] = {}
    for bench, case in cases:
        by.setdefault(bench, []).append(case)
    return "; ".join(f"{b} {', '.join(cs)}" for b, cs in by.items())


def compare(a: RunRecord, b: RunRecord, allow_mismatch: bool = False) -> Comparison:
    ca, cb = _cases(a), _cases(b)
    only_a = [c for c in ca if c not in cb]
    only_b = [c for c in cb if c not in ca]
    setup = []
    if a.arch != b.arch:
        setup.append(f"ISA {a.arch} / {b.arch}")
    if a.profile != b.profile:
        setup.append(f"profile {a.profile} / {b.profile}")
    if (setup or only_a or only_b) and not allow_mismatch:
        parts = [f"A ({a.name}) and B ({b.name}) are not runs of the same suite"]
        if setup:
            parts.append("they differ in " + " and ".join(setup))
        if only_a:
            parts.append(f"cases only A has: {describe_cases(only_a)}")
        if only_b:
            parts.append(f"cases only B has: {describe_cases(only_b)}")
        if not ca or not cb or not [c for c in ca if c in cb]:
            parts.append("they have no case in common")
        raise UsageError("; ".join(parts) + ". Compare runs of one ISA, profile and "
                         "benchmark list, or add --allow-mismatch to compare the cases "
                         "both have")
    differences = setup + provenance.same(a.provenance, b.provenance)
    rows = []
    for bench, case in ca:
        if (bench, case) not in cb:
            continue
        ra, rb = a.result(bench, case), b.result(bench, case)
        assert ra is not None and rb is not None
        view = view_of(bench)
        unit = view.unit if view else "us"
        rows.append(CaseDiff(bench, case, unit, value_in_unit(ra, unit),
                             value_in_unit(rb, unit), _f(ra.insns_per_op), _f(rb.insns_per_op),
                             dict(a.model.get((bench, case), {}).get("per_op", {})),
                             dict(b.model.get((bench, case), {}).get("per_op", {}))))
    if not rows:
        raise UsageError(f"A ({a.name}) and B ({b.name}) have no case in common")
    return Comparison(a, b, rows, differences, only_a, only_b)


def _f(v: Any) -> float | None:
    return None if v is None else float(v)


def _diff(x: float | None, y: float | None) -> float | None:
    return None if x is None or y is None else y - x


def _signed(v: float | None) -> str:
    if v is None:
        return "-"
    if v == 0:
        return "0"
    return ("+" if v > 0 else "") + fmt(v)


def _who(run: RunRecord) -> str:
    p = run.provenance or {}
    when = p.get("created", "?")
    return f"{run.name}: {provenance.short_git(p.get('git', {}))}, {when}"


def text(c: Comparison) -> str:
    """The comparison as `harness compare` prints it."""
    out = [f"A = {_who(c.a)}", f"B = {_who(c.b)}"]
    if c.differences:
        out.append("What differs: " + "; ".join(c.differences))
    else:
        out.append("What differs: nothing recorded (same code, images, emulator and profile)")
    if c.only_a:
        out.append(f"Only in A (not compared): {describe_cases(c.only_a)}")
    if c.only_b:
        out.append(f"Only in B (not compared): {describe_cases(c.only_b)}")
    out.append("")
    insns = any(r.insns_a is not None or r.insns_b is not None for r in c.rows)
    header = ["benchmark", "case", "unit", "A", "B", "B/A"]
    if insns:
        header += ["insns/op A", "insns/op B", "change"]
    body = []
    for r in c.rows:
        cells = [r.bench, r.case, r.unit, fmt(r.a), fmt(r.b),
                 "-" if r.ratio is None else f"{r.ratio:.4f}"]
        if insns:
            cells += [fmt(r.insns_a), fmt(r.insns_b), _signed(_diff(r.insns_a, r.insns_b))]
        body.append(cells)
    out += format_table(header, body, left=3)
    keys = [k for k in SHOWN if any(k in r.counters for r in c.rows)]
    if keys:
        out += ["", "Hardware model counters per operation: B - A (empty loop subtracted)"]
        body = [[r.bench, r.case, *[_signed(_diff(r.model_a.get(k), r.model_b.get(k)))
                                   for k in keys]] for r in c.rows if r.counters]
        out += format_table(["benchmark", "case", *keys], body, left=2)
    return "\n".join(out) + "\n"


def csv_table(c: Comparison) -> tuple[list[str], list[dict[str, Any]]]:
    """The comparison's CSV file: (columns, rows), one row per case."""
    counters = list(dict.fromkeys(k for r in c.rows for k in r.counters))
    cols = ["bench", "case", "unit", "a_run", "b_run", "a_value", "b_value", "ratio",
            "a_insns_per_op", "b_insns_per_op", "insns_per_op_change"]
    for k in counters:
        cols += [f"a_model_{k}_per_op", f"b_model_{k}_per_op", f"model_{k}_per_op_change"]
    rows = []
    for r in c.rows:
        row: dict[str, Any] = {
            "bench": r.bench, "case": r.case, "unit": r.unit, "a_run": c.a.name,
            "b_run": c.b.name, "a_value": r.a, "b_value": r.b, "ratio": r.ratio,
            "a_insns_per_op": r.insns_a, "b_insns_per_op": r.insns_b,
            "insns_per_op_change": _diff(r.insns_a, r.insns_b)}
        for k in r.counters:
            row[f"a_model_{k}_per_op"] = r.model_a[k]
            row[f"b_model_{k}_per_op"] = r.model_b[k]
            row[f"model_{k}_per_op_change"] = r.model_b[k] - r.model_a[k]
        rows.append(row)
    return cols, rows
