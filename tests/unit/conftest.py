"""Fixtures for the unit tests: a fake guest instead of QEMU."""

import sys

import pytest

from fakes import FAKE, fake_argv
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


@pytest.fixture
def fake_machine(monkeypatch):
    """register(*options): make `--arch fake` boot the fake guest with those options."""
    def register(*options: str) -> machines.Machine:
        def argv(exe, kernel, interactive):
            return [exe, str(kernel), *options]

        rel = str(FAKE.relative_to(machines.ROOT))
        m = machines.Machine("fake", sys.executable, rel, argv, boot_timeout=10, port_file=rel)
        monkeypatch.setitem(machines.MACHINES, "fake", m)
        return m

    return register
