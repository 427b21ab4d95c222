"""Exceptions the harness raises, in one place so callers can catch them.

Every error the harness expects (a missing emulator, a kernel panic, a guest
that stops answering, a malformed protocol line, a benchmark that printed no
result) is a HarnessError.  The CLI prints str(error) as its one-line message
and `detail` (the last lines of console output, when there are any) above it.
Anything else that escapes is a bug in the harness itself.
"""

from __future__ import annotations


class HarnessError(Exception):
    """Base class.  `detail` is extra context printed above the message."""

    exit_code = 1

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class SetupError(HarnessError):
    """Something must be installed or built before the harness can run."""

    exit_code = 2


class ProtocolError(HarnessError):
    """A line that starts with a protocol word but does not follow docs/protocol.md."""


class GuestError(HarnessError):
    """The guest misbehaved; `tail` holds its last lines of console output."""

    def __init__(self, message: str, tail: list[str] | None = None) -> None:
        self.tail = list(tail or [])
        detail = ""
        if self.tail:
            detail = "last console lines:\n" + "\n".join("  | " + t for t in self.tail)
        super().__init__(message, detail)


class GuestPanic(GuestError):
    """The kernel printed `panic: ...`.  `panic` is the text after `panic: `."""

    def __init__(self, panic: str, during: str, tail: list[str] | None = None) -> None:
        self.panic = panic
        self.during = during
        super().__init__(f"kernel panic during {during}: {panic}", tail)


class GuestHang(GuestError):
    """No prompt (or BOOT line) arrived in time."""

    def __init__(self, during: str, seconds: float, waiting_for: str,
                 tail: list[str] | None = None) -> None:
        self.during = during
        self.seconds = seconds
        super().__init__(
            f"guest hung during {during}: no {waiting_for} after {seconds:g} s", tail)


class GuestExited(GuestError):
    """The emulator exited on its own when the harness expected more output."""


class BenchmarkError(HarnessError):
    """A benchmark or test program ran but its output is not acceptable."""


class UsageError(HarnessError):
    """The command line asks for something that cannot be done as asked:
    a run that does not exist, two runs that cannot be compared."""

    exit_code = 2
