"""Booting the real kernel for the integration tests (used by conftest.py and tests)."""

from harness import machines, profiles
from harness.console import Guest

MACHINE = machines.get("riscv")
PROFILE = profiles.get("none")
KERNEL = MACHINE.kernel_path()
LOGS = machines.ROOT / "build" / "riscv" / "test-logs"
TIMEOUT = 30.0          # host seconds per command; each takes about one


def start_guest(name: str) -> Guest:
    g = Guest(MACHINE.command(PROFILE), log_path=LOGS / f"{name}.log",
              line_ending=MACHINE.line_ending, char_delay=MACHINE.char_delay,
              cwd=machines.ROOT)
    g.boot(timeout=MACHINE.boot_timeout)
    return g
