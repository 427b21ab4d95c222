"""A sweep's results and the words its plots use (sweep.py measures and
plots them; heatmap.py draws a grid sweep's).

    rows = read_csv(Path("results/sweep-ds3100-memory.bandwidth_mbs/sweep.csv"))
    write_csv(path, *csv_table(rows))                   # harness/tables.py
    param_words("memory.bandwidth_mbs")  -> "memory bandwidth (MB/s)"
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bench import report
from ..errors import HarnessError
from . import modellog, schema


@dataclass
class SweepResult:
    """One benchmark case measured at one point of a sweep."""

    param: str
    value: float
    bench: str
    case: str
    unit: str
    measured: float
    mips_relative: float | None
    machine_mips: float
    counters: dict[str, float]
    param2: str | None = None        # the second field of a grid sweep, and its value
    value2: Any = None
    # The hardware's share of the case, in its unit, where the harness
    # predicts one (the network's: the NICs and the wire, from [link])
    hardware: float | None = None


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


CSV_COLUMNS = ("param", "value", "bench", "case", "unit", "measured", "mips_relative",
               "machine_mips")


def csv_table(rows: list[SweepResult]) -> tuple[list[str], list[list[Any]]]:
    """sweep.csv, tidy: one row per point and benchmark case.  A grid
    sweep's have the second field and its value after the first's
    (param2, value2)."""
    keys = list(modellog.COUNTERS)
    two = any(r.param2 is not None for r in rows)
    hw = any(r.hardware is not None for r in rows)
    head = list(CSV_COLUMNS)
    if two:
        head[2:2] = ["param2", "value2"]
    if hw:
        head.append("hardware")
    out = []
    for r in rows:
        point = [r.param, r.value, *([r.param2, r.value2] if two else [])]
        out.append([*point, r.bench, r.case, r.unit, r.measured, r.mips_relative,
                    r.machine_mips, *([r.hardware] if hw else []),
                    *[r.counters[k] for k in keys]])
    return [*head, *[f"model_{k}_per_op" for k in keys]], out


def read_csv(path: Path) -> list[SweepResult]:
    """The rows of a sweep.csv (to plot again without measuring again)."""
    with open(path, newline="") as f:
        out = []
        for d in csv.DictReader(f):
            value = parse_values(d["value"])[0]
            counters = {k[len("model_"):-len("_per_op")]: float(v) for k, v in d.items()
                        if k.startswith("model_")}
            two = d.get("param2")
            out.append(SweepResult(d["param"], value, d["bench"], d["case"], d["unit"],
                                   float(d["measured"]),
                                   float(d["mips_relative"]) if d["mips_relative"] else None,
                                   float(d["machine_mips"]), counters,
                                   two or None,
                                   parse_values(d["value2"])[0] if two else None,
                                   float(d["hardware"]) if d.get("hardware") else None))
    return out


# ---------------------------------------------------------------- words

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
    ("net", "udp-rtt"): "UDP round trip, 64 B",
    ("net", "tcp-rtt"): "TCP round trip, 64 B",
    ("net", "icmp-rtt"): "ICMP echo, 64 B",
    ("net", "tcp-bulk"): "TCP bulk transfer",
    ("net", "tcp-connect"): "TCP setup and teardown",
}


def param_words(param: str, unit: bool = True) -> str:
    """What a swept field is, in words (params.def's doc line), with its
    unit unless `unit` is False: the x axis, a title."""
    p = schema.load().params.get(param)
    if p is None:
        return param
    return p.label if unit else p.doc


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


def number(v: Any) -> str:
    """A swept value as people write it: 131072, 11.5, write-back."""
    return str(v) if isinstance(v, (int, str)) else f"{v:.3g}"
