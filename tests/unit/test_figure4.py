"""harness.model.figure4: the curves from the guest's output, and their files."""

import csv

import pytest

from harness.model import figure4, profiles
from harness.tables import write_csv


def result(size, ns_total, refs=1000):
    return (f"RESULT bench=memlat case=x iters={refs} ns={ns_total} loop_ns=0 insns=0 "
            f"loop_insns=0 stride=128 size={size}")


def test_points_are_cycles_per_reference_with_the_prediction(tmp_path):
    outputs = {figure4.command(p, 1000): [result(512, 14444 + i), result(1 << 20, 574_000),
                                          "memlat: a line for people"]
               for i, p in enumerate(figure4.POLICIES)}
    pts = figure4.points("pc-p5", outputs, 1000)
    cycle = 1000 / profiles.load("pc-p5").data["cpu"]["clock_mhz"]
    by = {(p.policy, p.size): p for p in pts}
    assert set(by) == {(p, s) for p in (*figure4.POLICIES, "predicted") for s in (512, 1 << 20)}
    assert by[("coloured", 512)].cycles == pytest.approx(14.444 / cycle)
    assert by[("random", 512)].ns == pytest.approx(14.445)
    assert by[("predicted", 512)].cycles == pytest.approx(1.3)          # the profile's CPI
    write_csv(tmp_path / "f.csv", *figure4.csv_table(pts, "pc-p5"))
    rows = list(csv.DictReader(open(tmp_path / "f.csv")))
    assert len(rows) == 8 and rows[0]["policy"] == "coloured" and rows[0]["stride"] == "128"
    text = figure4.text(pts)
    assert text.splitlines()[1].split() == ["size", *figure4.POLICIES, "predicted"]
    assert text.splitlines()[3].startswith("512 ") and "1024K" in text
