"""The failure-case test programs (guests/tests/t_*.c) pass on the real kernel.

A program may SKIP a check it cannot make where it runs (t_jobs and
t_protect when standard input is not the console, t_proc without kstat).
Run here as the shell runs any job, each one makes every check, so a SKIP
fails the test unless EXPECTED_SKIPS lists it with its reason: a check
that quietly stopped running is a check lost.
"""

import pytest

from booting import TIMEOUT
from harness.bench import checks
from harness.guest import machines

# (program, check) -> the reason the program gives, for each SKIP that is
# expected where the tests run it.  The shell gives every job the console
# as standard input, and kstat is in every kernel; t_entry's misaligned
# entry cannot be made where any byte may start an instruction (x86 and
# the VAX: the ISA's USER_PC_ALIGN is 1), and says so.
EXPECTED_SKIPS: dict[tuple[str, str], str] = {
    ("t_entry", "misaligned"): "an_instruction_may_start_at_any_byte_on_this_ISA",
}


@pytest.mark.parametrize("program", checks.TEST_PROGRAMS)
def test_program_passes(test_guest, program):
    run = checks.run_check(test_guest, program, timeout=TIMEOUT)
    assert run.problems() == [], "\n".join(run.lines[-20:])
    assert run.summary is not None and run.summary.failed == 0
    assert len(run.passes) >= 1
    assert run.summary.passed == len(run.passes)
    unexpected = [f"{t.name}: {t.why}" for t in run.skips
                  if EXPECTED_SKIPS.get((program, t.name.split(".", 1)[-1])) != t.why]
    assert unexpected == [], f"{program} skipped checks it should make: {unexpected}"


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


def test_bad_entry_points_refused_and_the_machine_runs(test_guest):
    """exec refuses an entry point the processor cannot start at with
    ENOEXEC (on SPARC, it used to stop the machine), and the guest lives on."""
    run = checks.run_check(test_guest, "t_entry", timeout=TIMEOUT)
    assert run.ok, "\n".join(run.lines[-20:])
    names = {t.name for t in run.passes}
    assert {"t_entry.null", "t_entry.kernel", "t_entry.last_word", "t_entry.past_text",
            "t_entry.in_data", "t_entry.text_not_executable", "t_entry.unchanged_again"} <= names
    assert test_guest.run("echo alive", timeout=TIMEOUT).lines == ["alive"]
