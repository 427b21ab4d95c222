"""The failure-case test programs (guests/tests/t_*.c) pass on the real kernel."""

import pytest

from booting import TIMEOUT
from harness.bench import checks


@pytest.mark.parametrize("program", checks.TEST_PROGRAMS)
def test_program_passes(test_guest, program):
    run = checks.run_check(test_guest, program, timeout=TIMEOUT)
    assert run.problems() == [], "\n".join(run.lines[-20:])
    assert run.summary is not None and run.summary.failed == 0
    assert len(run.passes) >= 1
    assert run.summary.passed == len(run.passes)


def test_fault_kills_and_the_guest_lives_on(test_guest):
    run = checks.run_check(test_guest, "t_fault", timeout=TIMEOUT)
    assert run.ok
    assert run.killed, "t_fault produced no `kernel: killed` line"
    for k in run.killed:
        assert k.name == "t_fault"
        assert k.pc is not None
    assert {k.why for k in run.killed} >= {"load_fault", "store_fault", "illegal_instruction"}
    assert test_guest.run("echo alive", timeout=TIMEOUT).lines == ["alive"]
