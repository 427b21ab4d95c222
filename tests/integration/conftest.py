"""Boot the real kernel (build/riscv/kernel.elf) under QEMU for the integration tests.

Every test here is marked `integration`.  They are skipped, with the reason,
only when the kernel image is missing (`make test` builds it first, so in CI
they run).  A missing QEMU is an error, not a skip: `make deps` installs it.

Fixtures: `boot` starts and boots a fresh guest (closed after the test);
`bench_runs` is one session-long guest that has run the whole suite once;
`test_guest` is another session-long guest for the t_* programs, so their
faults cannot disturb the benchmarks.  Console logs go to
build/riscv/test-logs/ for reading after a failure.
"""

import pytest

from harness import machines, profiles, suite
from harness.console import Guest

MACHINE = machines.get("riscv")
PROFILE = profiles.get("none")
KERNEL = MACHINE.kernel_path()
LOGS = machines.ROOT / "build" / "riscv" / "test-logs"


def pytest_collection_modifyitems(config, items):
    missing = not KERNEL.exists()
    for item in items:
        if "tests/integration/" not in str(item.path).replace("\\", "/"):
            continue
        item.add_marker(pytest.mark.integration)
        if missing:
            item.add_marker(pytest.mark.skip(
                reason=f"{MACHINE.kernel} missing: run `make ARCH=riscv` (make test does)"))


def start_guest(name: str) -> Guest:
    g = Guest(MACHINE.command(PROFILE), log_path=LOGS / f"{name}.log",
              line_ending=MACHINE.line_ending, char_delay=MACHINE.char_delay,
              cwd=machines.ROOT)
    g.boot(timeout=MACHINE.boot_timeout)
    return g


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
    return {run.bench.name: run for run in suite.run_suite(bench_guest, suite.BENCHMARKS)}


@pytest.fixture(scope="session")
def test_guest():
    g = start_guest("tests-session")
    yield g
    g.close()
