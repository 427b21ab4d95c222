"""Register integrity on every ISA (guests/tests/t_regs.c): a system call,
timer interrupts in a busy loop, fork, a context switch and a page fault
served under demand paging give a process back every register it set.  test_programs.py runs t_regs as one of the
test programs; this names what it must have checked, so that a check
quietly dropped fails here."""

import re

from booting import TIMEOUT
from harness.bench import checks

CHECKS = {"syscall", "syscall_error", "syscall_that_sleeps", "interrupt",
          "fork_parent", "fork_child", "switched_out", "page_fault"}


def test_every_register_survives_traps_interrupts_fork_and_switches(test_guest):
    run = checks.run_check(test_guest, "t_regs", timeout=TIMEOUT)
    assert run.problems() == [], "\n".join(run.lines[-30:])
    assert {t.name for t in run.passes} == {f"t_regs.{c}" for c in CHECKS}
    assert run.skips == []
    # Interrupts really landed in the busy loops.
    said = [m for line in run.lines
            if (m := re.match(r"t_regs: (\d+) interrupts during (\d+) busy loops", line))]
    assert len(said) == 1 and int(said[0].group(1)) >= 4, run.lines
