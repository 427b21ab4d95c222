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

import dataclasses

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


def test_lab7_on_riscv_keeps_what_the_server_acknowledged(tmp_path):
    """Lab 7's checks of two machines on the unmodified tree: a server
    crash under nfs loses nothing the server acknowledged; the unsafe
    server's check is not run (the rfsd as shipped has no -async, which
    the lab's change adds) and its rows are not measured, which fails
    nothing; create-delete on a diskless client under nfs, measured
    (Andrew, sprite and the local rows are left to `make grade LAB=7`:
    about a minute more).  A server that answers before its disk has the
    data fails the first check (tests/mutants.toml: rfs-unsafe-default)."""
    if not machines.get("riscv").kernel_path().exists():
        pytest.skip("no riscv kernel")
    lab = dataclasses.replace(labs.LAB7, programs=(), measures=tuple(
        m for m in labs.LAB7.measures if m.remote == "nfs" and m.bench == "createdelete"))
    g = grade.Grader(build=False, arches=["riscv"], say=lambda m: None,
                     log_dir=tmp_path).grade(lab)
    assert g.passed, [f"{c.arch} {c.name}: {c.detail}" for c in g.checks if not c.ok]
    crashes = {c.name: c for c in g.checks if c.name.endswith("_server_crash")}
    assert set(crashes) == {"nfs_server_crash", "async_server_crash"}
    assert "nothing lost in the crash" in crashes["nfs_server_crash"].detail
    assert crashes["nfs_server_crash"].points == 1
    assert crashes["async_server_crash"].detail.startswith("not run: this rfsd has no -async")
    assert crashes["async_server_crash"].points == 0
    v = g.values
    assert set(v) == set(lab.keys("ordered", student=False))
    assert set(g.not_measured) == set(lab.keys("ordered")) - set(v)
    assert "no `rfsd -async` in this kernel" in grade.format_grade(g)
    # the safe server's 100 KB: every WRITE's blocks, inode and bitmap on
    # its disk before the reply (100 data blocks and more), 16 calls a file
    assert v["ds3100-riscv createdelete 100k-nfs dev_writes"] > 100
    assert v["ds3100-riscv createdelete 100k-nfs rpcs"] == 16
    same = [c for c in g.checks if c.name.startswith("baseline: ds3100-riscv")]
    assert all(c.ok for c in same), [c.detail for c in same]
