"""The counter table a run under a model prints after its report: the
model's counters per operation, as Chen et al. print them beside each
benchmark (the counters are the model log's, harness/model/modellog.py,
kept in the run's record).
"""

from __future__ import annotations

from ..guest import machines
from ..guest.protocol import Result
from ..tables import format_table
from .mipsscale import mips_rating
from .report import RunRecord

COLUMNS = (("insns", "insns"), ("loads", "loads"), ("stores", "stores"),
           ("I-miss", "imiss"), ("D-miss", "dmiss"), ("wr-back", "writebacks"),
           ("B in", "bytes_in"), ("B out", "bytes_out"), ("traps", "traps"),
           ("cycles", "cycles"), ("stall%", None))
# Columns for the OPTIONAL_COUNTERS, after "traps", where the records have them.
WINDOW_COLUMNS = (("w-ovf", "wovf"), ("w-unf", "wunf"))
TLB_COLUMNS = (("ITLB-miss", "itlb_miss"), ("DTLB-miss", "dtlb_miss"), ("seg-ld", "segloads"))


def _cell(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 1:
        return f"{v:.1f}"
    return f"{v:.3f}"


def counter_table(record: RunRecord) -> str:
    """The table for a run's record ("" without the model's counters): one
    row per RESULT that has them, empty-loop counts subtracted."""
    if not record.model:
        return ""
    machine = record.meta.get("hwmodel", {}).get("params", {}).get("machine", "")
    items = [(r, record.model[(r.bench, r.case)]["per_op"]) for r in record.results
             if (r.bench, r.case) in record.model]
    return format_counter_table(record.profile, machine, record.mips, items)


def format_counter_table(profile: str, machine: str, table1_mips: float,
                         items: list[tuple[Result, dict[str, float]]]) -> str:
    """The table from (RESULT, counters per operation) pairs: the TLB and
    register-window columns where every pair has them, and the mips
    benchmark's rating under it."""
    columns = list(COLUMNS)
    notes = []
    if items and all(k in c for _, c in items for _, k in WINDOW_COLUMNS):
        at = [k for _, k in columns].index("traps") + 1
        columns[at:at] = WINDOW_COLUMNS
        notes.append("w-ovf, w-unf = register window overflow and underflow traps")
    if items and all(k in c for _, c in items for _, k in TLB_COLUMNS):
        at = [k for _, k in columns].index("dmiss") + 1
        columns[at:at] = TLB_COLUMNS
        segments = ", ".join(m.arch for m in machines.MACHINES.values() if m.segment_loads)
        notes.append("ITLB-miss, DTLB-miss = TLB refills; seg-ld = segment register loads "
                     f"({segments})")
    header = ["benchmark", *[c for c, _ in columns]]
    rows = []
    for result, c in items:
        cells = [f"{result.bench} {result.case}"]
        for _, key in columns:
            if key is None:
                stall = c["stall_cycles"] / c["cycles"] * 100 if c["cycles"] else 0.0
                cells.append(f"{stall:.0f}")
            else:
                cells.append(_cell(c[key]))
        rows.append(cells)
    lines = [f"Hardware model counters per operation: profile {profile}, {machine}",
             *format_table(header, rows)]
    lines.append("(per operation, empty loop subtracted; stall% = memory and disk stall "
                 "cycles / all cycles; B = bytes to/from memory"
                 + "".join("; " + n for n in notes) + ")")
    for r, _ in items:
        if r.bench == "mips" and r.net_ns > 0:
            lines.append(f"mips: {mips_rating(r.iters, r.net_ns):.2f} MIPS "
                         f"(VAX-11/780 = 1: the 780's time for the same work); "
                         f"Table 1 rates this machine {table1_mips:g}")
    return "\n".join(lines) + "\n"
