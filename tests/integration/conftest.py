"""Boot the real kernel (build/riscv/kernel.elf) under QEMU for the integration tests.

Every test here is marked `integration`.  They are skipped, with the reason,
only when the kernel image is missing (`make test` builds it first, so in CI
they run).  A missing QEMU is an error, not a skip: `make deps` installs it.

Fixtures: `boot` starts and boots a fresh guest (closed after the test);
`bench_runs` is one session-long guest that has run the whole suite once;
`test_guest` is another long-lived guest for the t_* programs, so their
faults cannot disturb the benchmarks.  If a test leaves it panicked or hung,
the next test gets a freshly booted one: one kernel bug fails one test, not
every test after it.  Console logs go to build/riscv/test-logs/.

Every command gets TIMEOUT host seconds: each takes about a second, so a
hang is reported quickly rather than after the suite's generous defaults.
"""

import pytest

from booting import KERNEL, MACHINE, TIMEOUT, start_guest
from harness import suite
from harness.console import Guest


def pytest_collection_modifyitems(config, items):
    missing = not KERNEL.exists()
    for item in items:
        if "tests/integration/" not in str(item.path).replace("\\", "/"):
            continue
        item.add_marker(pytest.mark.integration)
        if missing:
            item.add_marker(pytest.mark.skip(
                reason=f"{MACHINE.kernel} missing: run `make ARCH=riscv` (make test does)"))


@pytest.fixture
def boot(request):
    """boot() -> a freshly booted guest, killed after the test."""
    made = []

    def make() -> Guest:
        g = start_guest(f"{request.node.name}-{len(made)}")
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


@pytest.fixture(scope="session")
def bench_guest():
    g = start_guest("bench-session")
    yield g
    g.close()


@pytest.fixture(scope="session")
def bench_runs(bench_guest):
    """{benchmark name: BenchRun} from running the suite once on bench_guest."""
    runs = suite.run_suite(bench_guest, suite.BENCHMARKS, timeout=TIMEOUT)
    return {run.bench.name: run for run in runs}


class _Reusable:
    """One guest shared by many tests, rebooted when a test left it unusable."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.boots = 0
        self.guest: Guest | None = None

    def get(self) -> Guest:
        if self.guest is None or self.guest.state != "ready":
            if self.guest is not None:
                self.guest.close()
            self.boots += 1
            self.guest = start_guest(f"{self.name}-{self.boots}")
        return self.guest

    def close(self) -> None:
        if self.guest is not None:
            self.guest.close()


@pytest.fixture(scope="session")
def _test_guests():
    pool = _Reusable("tests-session")
    yield pool
    pool.close()


@pytest.fixture
def test_guest(_test_guests):
    return _test_guests.get()
