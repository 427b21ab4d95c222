"""Booting the real kernels for the integration tests (used by conftest.py and tests).

ARCHES lists every ISA the integration tests run on: each test that uses the
`arch` fixture runs once per ISA whose kernel image `make test` built.
MACHINE, KERNEL and LOGS are riscv's, for tests that need one ISA only.
"""

from pathlib import Path

from harness.guest import machines
from harness.model import profiles
from harness.guest.console import Guest

ARCHES = ("riscv", "x86", "m68k", "vax")
PROFILE = profiles.get("none")
TIMEOUT = 30.0          # host seconds per command; each takes about one


def logs(arch: str) -> Path:
    return machines.ROOT / "build" / arch / "test-logs"


MACHINE = machines.get("riscv")
KERNEL = MACHINE.kernel_path()
LOGS = logs("riscv")


def start_guest(name: str, arch: str = "riscv") -> Guest:
    m = machines.get(arch)
    g = Guest(m.command(PROFILE), log_path=logs(arch) / f"{name}.log",
              line_ending=m.line_ending, char_delay=m.char_delay,
              cwd=machines.ROOT, stop_key=m.stop_key)
    g.boot(timeout=m.boot_timeout)
    return g
