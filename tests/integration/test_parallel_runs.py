"""Real boots through the executor (harness/model/executor.py): a small
grid sweep under the DECstation's model gives the same CSV, byte for byte,
one run after another, on two local workers and on a Dask cluster of two
local workers.  (The executor's own rules, on cheap jobs, are unit tests:
tests/unit/test_executor.py.)  Twelve boots of a few seconds each, and the
cluster's start.
"""

import pytest

from harness.guest import machines
from harness.model import modelargs, sweep
from harness.model.executor import DaskCluster, LocalPool, Serial

pytestmark = pytest.mark.skipif(
    not modelargs.PLUGIN.exists() or not machines.get("mips").kernel_path().exists(),
    reason="plugin or mips kernel missing: run `make hwmodel ARCH=mips` (make test does)")

# Each field moves getpid's time, so the cells all differ: a point landing
# in the wrong row would show.
GRID = dict(param="memory.bandwidth_mbs", values=[4, 16], param2="cpu.cpi", values2=[1.5, 3.0])


def grid_csv(tmp_path, name, ex):
    d = sweep.run_sweep("ds3100", GRID["param"], GRID["values"], ["getpid"],
                        out=tmp_path / name, say=lambda m: None, param2=GRID["param2"],
                        values2=GRID["values2"], ex=ex)
    return (d / "sweep.csv").read_bytes()


def test_a_grid_sweep_is_the_same_whatever_ran_it(tmp_path):
    distributed = pytest.importorskip("distributed")
    serial = grid_csv(tmp_path, "serial", Serial())
    lines = serial.decode().splitlines()
    assert len(lines) == 1 + 4                                 # a row per point (one case)
    times = [float(line.split(",")[7]) for line in lines[1:]]
    assert len(set(times)) == 4                                # every cell its own
    assert grid_csv(tmp_path, "pool", LocalPool(2)) == serial
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        assert grid_csv(tmp_path, "dask", DaskCluster(cluster.scheduler_address)) == serial
