"""The grader on a real kernel: lab 1's RISC-V part (the test programs on
riscv, getpid under ds3100-riscv) passes on the tree as it is.  About ten
seconds (`make test` has built everything: no make here).

Whether the numbers equal the committed baseline is the grader's own check
("baseline: ds3100-riscv unchanged kernel, unchanged numbers"), made only
when the kernel, model and profile are the very ones the baseline measured:
so a stale baseline fails here on the unmodified tree, and a student's
change to the trap path (lab 2) does not (issue 27).

That the grader fails when the lab's invariant is broken is
tests/unit/test_grade.py's (a failing check, a broken build, a panic), and
t_regs's own (tests/integration/test_regs.py); a mutated kernel is too
slow to build here."""

import pytest

from harness.course import grade, labs
from harness.guest import machines


def test_lab1_on_riscv_passes_and_the_baseline_is_the_graders_check(tmp_path):
    if not machines.get("riscv").kernel_path().exists():
        pytest.skip("no riscv kernel")
    g = grade.Grader(build=False, arches=["riscv"], say=lambda m: None,
                     log_dir=tmp_path).grade(labs.LAB1)
    assert g.passed, [f"{c.arch} {c.name}: {c.detail}" for c in g.checks if not c.ok]
    names = {c.name for c in g.checks}
    assert "t_regs" in names and any(n.startswith("measure ds3100-riscv") for n in names)
    assert {c.arch for c in g.checks} == {"riscv"}
    measured = dict(g.values)
    assert set(measured) == {k for k in labs.LAB1.keys("ordered") if k.startswith("ds3100-riscv ")}
    same = [c for c in g.checks if c.name.startswith("baseline: ds3100-riscv")]
    if same:        # the baseline's kernel: every value must be the baseline's
        assert all(c.ok for c in same), [c.detail for c in same]
    else:           # another kernel (a student's change): the change is graded
        assert "differs from the one the baseline measured" in g.baseline_note
    assert measured["ds3100-riscv getpid call traps"] == 1
    text = grade.format_grade(g)
    assert "correctness" in text and "(passed)" in text


def test_lab6_on_riscv_passes_with_two_machines_on_a_lossy_wire(tmp_path):
    """Lab 6's RISC-V part: the test programs, two machines on a link that
    loses and damages frames (every byte of the stream arrives, the client
    retransmits), the round trips measured on a pair of DECstations."""
    if not machines.get("riscv").kernel_path().exists():
        pytest.skip("no riscv kernel")
    g = grade.Grader(build=False, arches=["riscv"], say=lambda m: None,
                     log_dir=tmp_path).grade(labs.LAB6)
    assert g.passed, [f"{c.arch} {c.name}: {c.detail}" for c in g.checks if not c.ok]
    assert any(c.name == "stream_under_loss" and c.arch == "riscv" for c in g.checks)
    assert set(g.values) == set(labs.LAB6.keys("ordered"))
    udp = g.values["ds3100-riscv net udp-rtt us"]
    # the wire's share alone (two 106-byte frames at 10 Mb/s, NICs, cable) is 210.8 us
    assert 210.8 < g.values["ds3100-riscv net udp-rtt idle_us"] < udp
    assert g.values["ds3100-riscv net icmp-rtt us"] < udp < g.values["ds3100-riscv net tcp-rtt us"]
    same = [c for c in g.checks if c.name.startswith("baseline: ds3100-riscv")]
    assert all(c.ok for c in same), [c.detail for c in same]
