"""Heat maps of a grid sweep: two fields of a model varied together.

    plot_bench(rows, "bcopy", [Path("heatmap-bcopy.png")], title, at=(65536, 11.5))

A grid sweep (harness/model/sweep.py with --param2) measures every pair of
values; one figure per benchmark shows them, one panel per case: the first
field's values down the side, the second's along the bottom, each cell
coloured by the value measured there and labelled with it (when the grid is
small enough to read), in the paper's unit.  Where both of the profile's
own values are in the grid, that cell is outlined: the machine as profiled.
The cells are evenly spaced whatever the values are (a sweep's values are
usually powers of two), and the axes are labelled with the values as given.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from . import plotfiles
from .sweeprows import SweepResult, case_words, number, param_words, y_label

# Cells labelled with their numbers up to this many along either side.
LABEL_CELLS = 12


def grid_of(rows: list[SweepResult], bench: str,
            case: str) -> tuple[list[Any], list[Any], list[list[float | None]]]:
    """(first field's values, second's, measured[i][j]) for one case; None
    where a pair has no row."""
    mine = [r for r in rows if r.bench == bench and r.case == case]
    ys = list(dict.fromkeys(r.value for r in mine))
    xs = list(dict.fromkeys(r.value2 for r in mine))
    cell = {(r.value, r.value2): r.measured for r in mine}
    return ys, xs, [[cell.get((y, x)) for x in xs] for y in ys]


def plot_bench(rows: list[SweepResult], bench: str, paths: list[Path], title: str,
               at: tuple[Any, Any] | None = None) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Rectangle

    cases = list(dict.fromkeys(r.case for r in rows if r.bench == bench))
    if not cases:
        raise ValueError(f"no rows for {bench}")
    first = next(r for r in rows if r.bench == bench)
    param, param2, unit = first.param, first.param2, first.unit
    width = max(4.6 * len(cases) + 0.4, 7.5)        # room for the title with one case
    fig, axes = plt.subplots(1, len(cases), figsize=(width, 4.6), squeeze=False)
    for ax, case in zip(axes[0], cases):
        ys, xs, cells = grid_of(rows, bench, case)
        data = np.array([[np.nan if v is None else v for v in row] for row in cells], float)
        image = ax.imshow(data, origin="lower", aspect="auto", cmap="viridis")
        bar = fig.colorbar(image, ax=ax, shrink=0.9)
        bar.set_label(y_label(bench, unit), fontsize=8)
        bar.ax.tick_params(labelsize=7)
        ax.set_xticks(range(len(xs)), [number(x) for x in xs], fontsize=7,
                      rotation=45 if len(xs) > 6 else 0)
        ax.set_yticks(range(len(ys)), [number(y) for y in ys], fontsize=7)
        ax.set_xlabel(param_words(param2 or ""), fontsize=8)
        ax.set_ylabel(param_words(param), fontsize=8)
        ax.set_title(case_words(bench, case), fontsize=9)
        if len(xs) <= LABEL_CELLS and len(ys) <= LABEL_CELLS:
            finite = data[np.isfinite(data)]
            mid = (finite.min() + finite.max()) / 2 if finite.size else 0.0
            for i in range(len(ys)):
                for j in range(len(xs)):
                    if np.isfinite(data[i, j]):
                        # dark text on the light (high) end of viridis
                        ax.text(j, i, f"{data[i, j]:.3g}", ha="center", va="center",
                                fontsize=6.5, color="black" if data[i, j] > mid else "white")
        if at is not None and at[0] in ys and at[1] in xs:
            ax.add_patch(Rectangle((xs.index(at[1]) - 0.5, ys.index(at[0]) - 0.5), 1, 1,
                                   fill=False, edgecolor="red", linewidth=2))
    chars = int(width * 13)                        # about what a line of 10 pt holds
    fig.suptitle(textwrap.fill(title, chars), fontsize=10)
    if at is not None:
        fig.text(0.5, 0.01, textwrap.fill(
            f"outlined in red: the profile's own values ({param} = {number(at[0])}, "
            f"{param2} = {number(at[1])}), where the grid has them", int(chars * 1.3)),
            ha="center", fontsize=7.5)
    fig.tight_layout(rect=(0, 0.05 if at is not None else 0, 1, 0.92))
    plotfiles.save(fig, paths)
    plt.close(fig)
