"""-icount makes runs bit-identical: two fresh boots print the same RESULT lines."""

import pytest

from booting import TIMEOUT
from harness import suite


@pytest.mark.slow
def test_two_boots_identical_results(boot):
    lines = []
    for _ in range(2):
        g = boot()
        runs = suite.run_suite(g, [suite.BY_NAME["getpid"], suite.BY_NAME["bcopy"]],
                               timeout=TIMEOUT)
        lines.append([r.line for r in suite.all_results(runs)])
        g.close()
    assert len(lines[0]) == 3
    assert lines[0] == lines[1]
