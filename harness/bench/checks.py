"""The failure-case test programs (guests/tests/t_*.c) and how to judge them.

A test program prints PASS, FAIL or SKIP lines, one per check, and a SUMMARY
line last (docs/protocol.md).  It passes when it printed a SUMMARY with
failed=0, at least one PASS, and no FAIL line.  `kernel: killed` lines are
collected but are not failures: t_fault provokes them on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..guest.console import Guest
from ..guest.protocol import Killed, Summary, TestLine, parse_lines

TEST_PROGRAMS: tuple[str, ...] = ("t_efault", "t_fault", "t_forklimit", "t_pipe",
                                  "t_select", "t_proc", "t_fs", "t_cc", "t_jobs", "t_regs",
                                  "t_deep", "t_copy", "t_protect", "t_cow", "t_net",
                                  "t_entry", "t_rename")
DEFAULT_TIMEOUT = 120.0


@dataclass
class CheckRun:
    program: str
    lines: list[str]
    seconds: float = 0.0
    tests: list[TestLine] = field(default_factory=list)
    summary: Summary | None = None
    killed: list[Killed] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[TestLine]:
        return [t for t in self.tests if t.kind == kind]

    @property
    def passes(self) -> list[TestLine]:
        return self.of_kind("PASS")

    @property
    def fails(self) -> list[TestLine]:
        return self.of_kind("FAIL")

    @property
    def skips(self) -> list[TestLine]:
        return self.of_kind("SKIP")

    def problems(self) -> list[str]:
        """Why this run does not count as passed; empty when it does."""
        out = [f"FAIL name={t.name} why={t.why}" for t in self.fails]
        if self.summary is None:
            out.append("no SUMMARY line")
        elif self.summary.failed != 0:
            out.append(f"SUMMARY says failed={self.summary.failed}")
        if not self.passes:
            out.append("no PASS line")
        return out

    @property
    def ok(self) -> bool:
        return not self.problems()


def collect(program: str, lines: list[str], seconds: float = 0.0) -> CheckRun:
    """Sort a test program's output into a CheckRun (raises ProtocolError)."""
    run = CheckRun(program, lines, seconds)
    for rec in parse_lines(lines):
        if isinstance(rec, TestLine):
            run.tests.append(rec)
        elif isinstance(rec, Summary):
            run.summary = rec           # the last one counts
        elif isinstance(rec, Killed):
            run.killed.append(rec)
    return run


def run_check(guest: Guest, program: str, timeout: float = DEFAULT_TIMEOUT) -> CheckRun:
    out = guest.run(program, timeout=timeout)
    return collect(program, out.lines, out.seconds)
