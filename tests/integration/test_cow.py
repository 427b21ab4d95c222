"""Copy-on-write fork (kernel/port/cow.c) on every ISA: the mode is chosen
at run time and reads back (policy -fork); under it parent and child see
only their own writes to globals, heap and stack, a read() into a shared
page copies it in either process, and a fork copies fewer pages than the
copying fork (t_cow); programs that fork, exec and fault still behave
(t_proc, t_fault, t_pipe under cow); and the mode goes back to copy, the
default."""

import re

from booting import TIMEOUT
from harness.bench import checks

FORK = re.compile(r"fork=(copy|cow) copies=(\d+) cowfaults=(\d+)$")
COPIES = re.compile(r"t_cow: page copies for a fork: copy (\d+), cow (\d+)$")


def _fork(guest, mode):
    """Set the mode with `policy -fork`; (mode, copies, write faults)."""
    lines = guest.run(f"policy -fork {mode}", timeout=TIMEOUT).lines
    said = [m for line in lines if (m := FORK.match(line))]
    assert len(said) == 1, lines
    return said[0].group(1), int(said[0].group(2)), int(said[0].group(3))


def _passes(guest, program):
    run = checks.run_check(guest, program, timeout=TIMEOUT)
    assert run.problems() == [], "\n".join(run.lines[-20:])
    assert run.summary is not None and run.summary.failed == 0, "\n".join(run.lines[-20:])
    return run


def test_cow_fork_isolates_and_copies_less(test_guest):
    g = test_guest
    try:
        run = _passes(g, "t_cow")
        names = {t.name for t in run.passes}
        assert {"t_cow.child_writes_own", "t_cow.parent_writes_own",
                "t_cow.parent_keeps_writes", "t_cow.pipe_child", "t_cow.pipe_parent",
                "t_cow.fewer_copies", "t_cow.mode_back"} <= names
        copies = [m for line in run.lines if (m := COPIES.search(line))]
        assert len(copies) == 1, run.lines
        copy, cow = int(copies[0].group(1)), int(copies[0].group(2))
        assert 1 <= cow < copy

        # The shell and everything it starts fork copy-on-write from here.
        mode, copies0, faults0 = _fork(g, "cow")
        assert mode == "cow"
        for program in ("t_proc", "t_pipe", "t_fault"):
            run = _passes(g, program)
        assert run.killed and {k.why for k in run.killed} >= {"store_fault"}
        mode, copies1, faults1 = _fork(g, "cow")
        assert faults1 > faults0               # shared pages were written
    finally:
        mode, _, _ = _fork(g, "copy")
    assert mode == "copy"
    assert g.run("echo alive", timeout=TIMEOUT).lines == ["alive"]
