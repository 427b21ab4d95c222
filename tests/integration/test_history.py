"""A benchmark's numbers depend on the machine, the profile and the kernel,
not on what ran before it (issue 27): open-close run alone (`make run
BENCH=openclose`), after Andrew on the same run, and inside Figure 1 (whose
benchmarks run Andrew first) prints the very same RESULT lines.

Every command that reports numbers runs each benchmark on a machine booted
for it (harness/model/runs.py, Fresh; docs/benchmarks.md, "Every benchmark
on a fresh machine").  Run on the same boot after Andrew, open-close met
the file system and buffer cache Andrew had left: "foo" took 1422 ms
for 5000 where it takes 821 ms alone (1.73x; this test fails so, when
Fresh reruns the earlier commands on each boot).  The DS3100 profile: a
machine of Figure 1's, and a quick one to boot.  About 80 s."""

import json
import subprocess
import sys

import pytest

from harness import ROOT
from harness.bench import suite
from harness.guest import machines
from harness.model import figure1, profiles, runs

PROFILE = "ds3100"


def lines_of(results, bench="openclose"):
    return [r.line for r in results if r.bench == bench]


@pytest.mark.slow
def test_openclose_alone_after_andrew_and_in_figure1_agree(tmp_path):
    hw = profiles.load(PROFILE)
    machine = machines.get(hw.isa)
    if not machine.kernel_path().exists():
        pytest.skip(f"no {hw.isa} kernel")

    # alone, as `make run PROFILE=ds3100 BENCH=openclose` runs it
    run = subprocess.run([sys.executable, "-m", "harness", "run", "--profile", PROFILE,
                          "--bench", "openclose", "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    d = json.loads((tmp_path / f"{hw.isa}-{PROFILE}" / "results.json").read_text())
    alone = [r["line"] for r in d["results"] if r["bench"] == "openclose"]
    assert len(alone) == 2, alone                # foo, a/b/c/foo

    # after Andrew, through the runner `make run` uses
    fresh = runs.Fresh(machine, hw, tmp_path / "after.log")
    done = suite.run_suite(fresh, [suite.BY_NAME["andrew"], suite.BY_NAME["openclose"]])
    after = lines_of(suite.all_results(done))
    assert after == alone, "open-close after Andrew differs from open-close alone"
    assert fresh.boots == 2

    # inside Figure 1, whose order puts Andrew before open-close
    names = [b.name for b in figure1.BENCHES]
    assert names.index("andrew") < names.index("openclose")
    results, _ = figure1.measure(PROFILE, say=lambda m: None)
    in_figure1 = lines_of(results)

    assert in_figure1 == alone, "open-close in Figure 1 differs from open-close alone"
