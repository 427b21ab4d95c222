"""The failure-case test programs (guests/tests/t_*.c) pass on the real kernel."""

import pytest

from booting import TIMEOUT
from harness.bench import checks
from harness.guest import machines


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


def test_isa_programs_pass(arch, test_guest):
    """The ISA's own test programs (guests/tests/<isa>/): on SPARC, t_windows
    (a process with a bad stack pointer is killed, the kernel goes on)."""
    programs = machines.get(arch).test_programs
    if not programs:
        pytest.skip(f"{arch} has no test programs of its own")
    for program in programs:
        run = checks.run_check(test_guest, program, timeout=TIMEOUT)
        assert run.problems() == [], "\n".join(run.lines[-20:])
        assert run.summary is not None and run.summary.failed == 0 and len(run.passes) >= 2
        if program == "t_windows":          # killed for its windows, nothing else
            assert {k.why for k in run.killed} == {"bad_stack"}, run.killed
    assert test_guest.run("echo alive", timeout=TIMEOUT).lines == ["alive"]
