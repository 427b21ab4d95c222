"""The harness's one text-table printer and one CSV writer.

    lines = format_table(["benchmark", "insns", "cycles"], rows, left=1)
    write_csv(path, ["bench", "case", "ns"], rows)        # rows: dicts or lists

Every table a command prints has the same shape: columns two spaces apart,
each as wide as its widest cell; the first `left` columns are text and
left-aligned, the others numbers and right-aligned; a rule of dashes under
the header.  The reports, the comparisons, the Final Results Table, the
model's counters, the figures' summaries, the crash test and the grader all
print theirs here, so they line up the same way and a change of layout is
made once.  Every CSV file the harness writes goes through write_csv: a
header line, empty cells for None, floats as repr() (every digit, so a
reader gets back the same number).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence


def format_table(header: Sequence[str] | None, rows: Iterable[Sequence[str]], left: int = 1,
                 rules_after: Iterable[int] = (), free_last: bool = False,
                 indent: str = "") -> list[str]:
    """The lines of a table of strings (no newlines).

    header       the column names, or None for a table without a header
                 line (and then no rule under it);
    left         how many leading columns are left-aligned;
    rules_after  body row counts after which another rule goes (a table's
                 own rows, then the rows it compares them with);
    free_last    the last column is prose: not padded, and its width not
                 taken from its cells (its rule is as long as its header);
    indent       put before every line.
    Trailing spaces are dropped.
    """
    body = [list(r) for r in rows]
    every = ([list(header)] if header is not None else []) + body
    if not every:
        return []
    n = len(every[0])
    sized = n - 1 if free_last else n
    widths = [max(len(r[i]) for r in every) for i in range(sized)]

    def line(cells: list[str]) -> str:
        out = [c.ljust(w) if i < left else c.rjust(w)
               for i, (c, w) in enumerate(zip(cells, widths))]
        out += cells[sized:]
        return (indent + "  ".join(out)).rstrip()

    rule_widths = widths + ([len(header[-1])] if free_last and header is not None else [])
    rule = indent + "  ".join("-" * w for w in rule_widths)
    lines = [] if header is None else [line(list(header)), rule]
    after = set(rules_after)
    for i, r in enumerate(body):
        lines.append(line(r))
        if i + 1 in after and i + 1 < len(body):
            lines.append(rule)
    return lines


def write_csv(path: Path, columns: Sequence[str],
              rows: Iterable[Mapping[str, Any] | Sequence[Any]]) -> None:
    """A CSV file: the columns, then one line per row.  A row is a dict
    (missing keys: empty cells) or a sequence in the columns' order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for row in rows:
            values = [row.get(c) for c in columns] if isinstance(row, Mapping) else list(row)
            w.writerow(["" if v is None else repr(v) if isinstance(v, float) else v
                        for v in values])
