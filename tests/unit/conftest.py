"""Fixtures for the unit tests: a fake guest instead of QEMU, and the host
tools that make and check file-system images."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fakes import FAKE, fake_argv
from harness import ROOT
from harness.guest import machines
from harness.guest.console import Guest


@pytest.fixture
def fake_guest():
    """A factory: fake_guest("--stubborn") gives an unbooted Guest; all are closed after."""
    made = []

    def make(*options: str, **kw) -> Guest:
        g = Guest(fake_argv(*options), **kw)
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


class FakeEmulator:
    """tests/unit/fake_guest.py, run by this Python, as an emulator."""

    name = "fake_guest.py"

    def __init__(self, options: tuple[str, ...]) -> None:
        self.options = options

    def locate(self) -> str:
        return sys.executable

    def missing(self, arch: str) -> str:       # pragma: no cover - never missing
        return "no Python?"

    def argv(self, exe, image, interactive, nic=()):
        return [exe, str(image), *self.options, *nic]

    def version(self, exe) -> str:
        return "fake_guest 1.0"

    def loads_too(self, image):
        return []


@pytest.fixture
def fake_machine(monkeypatch):
    """register(*options): make `--arch fake` boot the fake guest with those options."""
    def register(*options: str) -> machines.Machine:
        rel = str(FAKE.relative_to(ROOT))
        m = machines.Machine("fake", FakeEmulator(options), "the fake guest", image=rel,
                             boot_timeout=10, port_file=rel, build_stamp=False)
        monkeypatch.setitem(machines.MACHINES, "fake", m)
        return m

    return register


@pytest.fixture(scope="session")
def host_tools(tmp_path_factory) -> Path:
    """The directory holding tools/mkfs and tools/fsck, built for the host
    by the Makefile's own rules (its HOST_CFLAGS), once per session, into a
    build directory of their own."""
    if shutil.which(os.environ.get("HOSTCC", "gcc")) is None:
        pytest.skip("no host C compiler")
    build = tmp_path_factory.mktemp("build")
    r = subprocess.run(["make", f"BUILD={build}", f"{build}/tools/mkfs", f"{build}/tools/fsck"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return build / "tools"
