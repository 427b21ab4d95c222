"""Booting the real kernels for the integration tests (used by conftest.py and tests).

ARCHES is every ISA in the harness's registry (harness/guest/machines.py),
in its order: each test that uses the `arch` fixture runs once per ISA whose
kernel image `make test` built.  MODEL_ARCHES are those the hardware model
runs on, TRACING_ARCHES those whose model also writes address traces and
attribution (the QEMU plugin's).  A new ISA joins every list by its
registry entry alone.
"""

from pathlib import Path

from harness import ROOT
from harness.guest import machines
from harness.guest.console import Guest
from harness.model import modelargs, profiles, runs

ARCHES = tuple(machines.MACHINES)
MODEL_ARCHES = tuple(a for a, m in machines.MACHINES.items() if m.model is not None)
TRACING_ARCHES = tuple(a for a in MODEL_ARCHES
                       if modelargs.backend(machines.get(a)).tracing)
PROFILE = profiles.load("none")
TIMEOUT = 30.0          # host seconds per command; each takes about one


def logs(arch: str) -> Path:
    return ROOT / "build" / arch / "test-logs"


def start_guest(name: str, arch: str = "riscv") -> Guest:
    """A booted guest of `arch` with no model; its console log is NAME.log."""
    m = machines.get(arch)
    g = runs.start(m, PROFILE, logs(arch) / f"{name}.log")
    g.boot(timeout=m.boot_timeout)
    return g
