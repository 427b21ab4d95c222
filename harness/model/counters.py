"""The counter table a run prints after its report: the model's counters
per operation, as Chen et al. print them beside each benchmark.
"""

from __future__ import annotations

from ..guest import machines
from ..guest.protocol import Result
from .mipsscale import mips_rating
from .modellog import Joined
from .profiles import Profile

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


def format_counters(hw: Profile, joined: list[Joined]) -> str:
    """A table of counters per operation, as Chen et al. print beside each
    benchmark: one row per RESULT, empty-loop counts subtracted."""
    return format_counter_table(hw.name, hw.machine, hw.mips,
                                [(j.result, j.counters()) for j in joined])


def format_counter_table(profile: str, machine: str, table1_mips: float,
                         items: list[tuple[Result, dict[str, float]]]) -> str:
    """format_counters() from (RESULT, counters per operation) pairs, as a
    results file keeps them (`python3 -m harness report`)."""
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
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"Hardware model counters per operation: profile {profile}, {machine}"]
    fmt = lambda r: "  ".join([r[0].ljust(widths[0])] +  # noqa: E731
                              [x.rjust(w) for x, w in zip(r[1:], widths[1:])])
    lines.append(fmt(header))
    lines.append("  ".join("-" * w for w in widths))
    lines += [fmt(r) for r in rows]
    lines.append("(per operation, empty loop subtracted; stall% = memory and disk stall "
                 "cycles / all cycles; B = bytes to/from memory"
                 + "".join("; " + n for n in notes) + ")")
    for r, _ in items:
        if r.bench == "mips" and r.net_ns > 0:
            lines.append(f"mips: {mips_rating(r.iters, r.net_ns):.2f} MIPS "
                         f"(VAX-11/780 = 1: the 780's time for the same work); "
                         f"Table 1 rates this machine {table1_mips:g}")
    return "\n".join(lines) + "\n"
