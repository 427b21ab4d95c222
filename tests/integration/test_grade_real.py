"""The grader on a real kernel: lab 1's RISC-V part (the test programs on
riscv, getpid under ds3100-riscv) passes on the unmodified tree and
measures exactly the committed baseline, so it reports no improvement.
About ten seconds (`make test` has built everything: no make here).

That the grader fails when the lab's invariant is broken is
tests/unit/test_grade.py's (a failing check, a broken build, a panic), and
t_regs's own (tests/integration/test_regs.py); a mutated kernel is too
slow to build here."""

import pytest

from harness.course import grade, labs
from harness.guest import machines


def test_lab1_on_riscv_passes_and_matches_its_baseline(tmp_path):
    if not machines.get("riscv").kernel_path().exists():
        pytest.skip("no riscv kernel")
    g = grade.Grader(build=False, arches=["riscv"], say=lambda m: None,
                     log_dir=tmp_path).grade(labs.LAB1)
    assert g.passed, [f"{c.arch} {c.name}: {c.detail}" for c in g.checks if not c.ok]
    names = {c.name for c in g.checks}
    assert "t_regs" in names and any(n.startswith("measure ds3100-riscv") for n in names)
    assert {c.arch for c in g.checks} == {"riscv"}
    base = g.baseline["values"]
    measured = dict(g.values)
    assert set(measured) == {k for k in labs.LAB1.keys("ordered") if k.startswith("ds3100-riscv ")}
    stale = {k: (base[k], v) for k, v in measured.items()
             if abs(v - base[k]) > grade.SAME * abs(base[k])}
    assert not stale, (f"the kernel's numbers moved from docs/labs/baseline/lab1.json "
                       f"(baseline, now): {stale}; if that is meant, make the baselines again: "
                       f"`make grade BASELINE=1` on a clean tree")
    assert measured["ds3100-riscv getpid call traps"] == 1
    text = grade.format_grade(g)
    assert "correctness" in text and "(passed)" in text
