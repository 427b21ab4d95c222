"""Grid sweeps (harness/model/sweep.py with a second field, heatmap.py):
the points in order, impossible pairs refused before anything boots, the
tidy CSV with both fields, and a heat map per benchmark."""

import pandas as pd
import pytest

from harness.errors import UsageError
from harness.model import heatmap, modellog, sweep, sweeprows
from harness.tables import write_csv


def rows_2d():
    out = []
    for bw in (4, 16):
        for size in (16384, 65536):
            for case in ("cached", "uncached"):
                out.append(sweeprows.SweepResult(
                    "memory.bandwidth_mbs", bw, "bcopy", case, "MB/s",
                    bw / 2 + size / 65536 + (case == "cached"), 0.1, 13.0,
                    {k: 1.0 for k in modellog.COUNTERS}, "dcache.size", size))
    return out


def test_the_grid_has_every_pair_first_field_outermost():
    assert sweep.grid("a.x", [1, 2], "b.y", [10, 20, 30]) == [
        (("a.x", 1), ("b.y", 10)), (("a.x", 1), ("b.y", 20)), (("a.x", 1), ("b.y", 30)),
        (("a.x", 2), ("b.y", 10)), (("a.x", 2), ("b.y", 20)), (("a.x", 2), ("b.y", 30))]
    assert sweep.grid("a.x", [1, 2]) == [(("a.x", 1),), (("a.x", 2),)]


def test_a_pair_that_is_no_machine_is_refused_before_booting():
    # each value is possible alone; a 64-byte cache of 128-byte lines is not
    with pytest.raises(UsageError, match=r"dcache.size = 64 with dcache.line = 128 .*smaller "
                                         r"than one line"):
        sweep.sweep("ds3100", "dcache.size", [64, 65536], ["bcopy"],
                    param2="dcache.line", values2=[4, 128])
    with pytest.raises(UsageError, match="vary two different fields"):
        sweep.sweep("ds3100", "dcache.size", [1024], ["bcopy"],
                    param2="dcache.size", values2=[2048])
    with pytest.raises(UsageError, match="--param2 dcache.line --values2: 3 "):
        sweep.sweep("ds3100", "dcache.size", [1024], ["bcopy"],
                    param2="dcache.line", values2=[3])


def test_a_grid_csv_is_tidy_and_reads_back(tmp_path):
    rows = rows_2d()
    write_csv(tmp_path / "sweep.csv", *sweeprows.csv_table(rows))
    df = pd.read_csv(tmp_path / "sweep.csv")
    assert list(df.columns[:6]) == ["param", "value", "param2", "value2", "bench", "case"]
    assert len(df) == 8                          # one row per point and case
    wide = df[df.case == "uncached"].pivot(index="value", columns="value2", values="measured")
    assert wide.loc[16, 16384] == pytest.approx(8.25)
    back = sweeprows.read_csv(tmp_path / "sweep.csv")
    assert [(r.value, r.value2, r.measured) for r in back] == \
        [(r.value, r.value2, r.measured) for r in rows]


def test_a_one_field_csv_is_as_before(tmp_path):
    rows = [sweeprows.SweepResult("memory.bandwidth_mbs", 4, "bcopy", "cached", "MB/s", 1.0,
                                  None, 13.0, {k: 0.0 for k in modellog.COUNTERS})]
    write_csv(tmp_path / "sweep.csv", *sweeprows.csv_table(rows))
    head = (tmp_path / "sweep.csv").read_text().splitlines()[0]
    assert head.startswith("param,value,bench,case,unit,measured,mips_relative,machine_mips,")


def test_the_heat_map_has_a_cell_per_pair(tmp_path):
    rows = rows_2d()
    ys, xs, cells = heatmap.grid_of(rows, "bcopy", "uncached")
    assert ys == [4, 16] and xs == [16384, 65536]
    assert cells == [[2.25, 3.0], [8.25, 9.0]]
    # a missing pair is a hole, not a shifted row
    ys, xs, cells = heatmap.grid_of(rows[:-1], "bcopy", "uncached")
    assert cells[1] == [8.25, None]
    heatmap.plot_bench(rows, "bcopy", [tmp_path / "h.png", tmp_path / "h.svg"], "title",
                       at=(16, 65536))
    assert (tmp_path / "h.png").stat().st_size > 10000
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")


def test_grid_sweeps_have_a_directory_of_their_own():
    assert sweep.dir_name("ds3100", "memory.bandwidth_mbs") == "sweep-ds3100-memory-bandwidth_mbs"
    assert sweep.dir_name("ds3100", "dcache.size", "memory.bandwidth_mbs") == \
        "sweep-ds3100-dcache-size-memory-bandwidth_mbs"
