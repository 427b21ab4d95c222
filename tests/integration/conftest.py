"""Boot the real kernels under QEMU for the integration tests: the ISA matrix.

Every test here is marked `integration`.  A test that uses the `arch`
fixture (directly, or through `boot`, `bench_runs` or `test_guest`) runs
once per ISA in booting.ARCHES (the harness's registry), in the style of
kvm-unit-tests' per-ISA tables; an ISA whose kernel image is missing is
skipped with the reason (`make test` builds every ISA, so in CI they run).
A missing QEMU is an error, not a skip: `make deps` installs it.

Fixtures: `boot` starts and boots a fresh guest (closed after the test);
`bench_runs` is one session-long guest per ISA that has run the whole suite
once; `test_guest` is another long-lived guest per ISA for the t_* programs,
so their faults cannot disturb the benchmarks.  If a test leaves it
panicked or hung, the next test gets a freshly booted one: one kernel bug
fails one test, not every test after it.  Console logs go to
build/<arch>/test-logs/.

Under pytest-xdist (`make test` uses two workers, one per core) each ISA's
tests stay on one worker, so its session guests boot once.

Every command gets TIMEOUT host seconds: each takes about a second, so a
hang is reported quickly rather than after the suite's generous defaults.
"""

import pytest

from booting import ARCHES, TIMEOUT, start_guest
from harness.bench import suite
from harness.guest import machines
from harness.guest.console import Guest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/integration/" not in str(item.path).replace("\\", "/"):
            continue
        item.add_marker(pytest.mark.integration)
        arch = getattr(item, "callspec", None) and item.callspec.params.get("arch")
        item.add_marker(pytest.mark.xdist_group(arch or "riscv"))


@pytest.fixture(scope="session", params=ARCHES)
def arch(request):
    m = machines.get(request.param)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel} missing: run `make ARCH={request.param}`")
    return request.param


@pytest.fixture
def boot(request, arch):
    """boot() -> a freshly booted guest of this ISA, killed after the test."""
    made = []

    def make() -> Guest:
        g = start_guest(f"{request.node.name}-{len(made)}", arch)
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


@pytest.fixture(scope="session")
def bench_runs(arch):
    """{benchmark name: BenchRun} from running the suite once on a fresh guest."""
    g = start_guest("bench-session", arch)
    try:
        # 4 x TIMEOUT: the VAX's andrew (SIMH) took over 30 s of host time
        # at a load average of 20 and the whole ISA's session errored; the
        # limit only says when a hung guest is given up on.
        runs = suite.run_suite(g, suite.BENCHMARKS, timeout=4 * TIMEOUT)
    finally:
        g.close()
    return {run.bench.name: run for run in runs}


class _Reusable:
    """One guest shared by many tests, rebooted when a test left it unusable."""

    def __init__(self, name: str, arch: str) -> None:
        self.name = name
        self.arch = arch
        self.boots = 0
        self.guest: Guest | None = None

    def get(self) -> Guest:
        if self.guest is None or self.guest.state != "ready":
            if self.guest is not None:
                self.guest.close()
            self.boots += 1
            self.guest = start_guest(f"{self.name}-{self.boots}", self.arch)
        return self.guest

    def close(self) -> None:
        if self.guest is not None:
            self.guest.close()


@pytest.fixture(scope="session")
def _test_guests(arch):
    pool = _Reusable("tests-session", arch)
    yield pool
    pool.close()


@pytest.fixture
def test_guest(_test_guests):
    return _test_guests.get()
