"""The executor of the multi-run commands (harness/model/executor.py), on
cheap jobs (tests/unit/fake_jobs.py): values come back in the jobs' order
whatever order they finished in, a failing job's error names its
configuration and keeps its kind, a failure stops the rest, and a Dask
cluster of two local workers gives what the local pool gives."""

import time

import pytest

import fake_jobs
from harness.errors import HarnessError
from harness.model import executor
from harness.model.executor import DaskCluster, Job, JobFailed, LocalPool, Serial, run_jobs


def squares(n=6):
    # the first jobs sleep longest, so they finish last on two workers
    return [Job(f"point x={x}", fake_jobs.square, (x, 0.05 * (n - x))) for x in range(n)]


@pytest.mark.parametrize("ex", [Serial(), LocalPool(2), LocalPool(3)], ids=lambda e: e.name)
def test_values_come_back_in_the_jobs_order(ex):
    said = []
    assert run_jobs(squares(), ex, said.append, "test") == [0, 1, 4, 9, 16, 25]
    # each job's own lines reach this side, once each
    assert sorted(s for s in said if s.startswith("square")) == [f"square {x}" for x in range(6)]
    assert said[0] == f"test: 6 runs on {ex.name}"
    assert said[-1].startswith("test: 6 of 6 done (")


def test_the_pool_really_runs_side_by_side(tmp_path):
    """Two jobs that each wait for the other finish only side by side."""
    jobs = [Job("a", fake_jobs.rendezvous, (str(tmp_path), "a", "b")),
            Job("b", fake_jobs.rendezvous, (str(tmp_path), "b", "a"))]
    assert run_jobs(jobs, LocalPool(2), lambda s: None) == ["a", "b"]


@pytest.mark.parametrize("ex", [Serial(), LocalPool(2)], ids=lambda e: e.name)
@pytest.mark.parametrize("kind,words,code", [
    ("benchmark", "printed no RESULT line", 1),
    ("setup", "run `make ARCH=mips`", 2),
    ("panic", "kernel panic during bcopy: trap in kernel mode", 1),
    ("bug", "ZeroDivisionError: division by zero", 1),
])
def test_a_failing_job_names_its_configuration(ex, kind, words, code):
    jobs = squares(3) + [Job("ds3100 memory.bandwidth_mbs=0.5", fake_jobs.fail, (kind,))]
    said = []
    with pytest.raises(JobFailed) as info:
        run_jobs(jobs, ex, said.append)
    e = info.value
    assert str(e).startswith("ds3100 memory.bandwidth_mbs=0.5: ") and words in str(e)
    assert e.exit_code == code                      # SetupError stays "build first" (2)
    assert "about to fail" in said                  # what it said before it failed is shown
    if kind == "panic":
        assert "tail line 2" in e.detail            # the console's last lines come along
    if kind == "bug":
        assert "fake_jobs.py" in e.detail and "1 / 0" in e.detail   # and a bug's traceback


def test_a_failure_stops_the_other_workers():
    """The job that fails first ends the run: the long ones are stopped,
    not waited for."""
    jobs = [Job("long 1", fake_jobs.sleepy, (60.0,)), Job("long 2", fake_jobs.sleepy, (60.0,)),
            Job("bad", fake_jobs.fail, ("benchmark",), cost=0.0)]
    start = time.monotonic()
    with pytest.raises(JobFailed, match="^bad: "):
        run_jobs(jobs, LocalPool(3), lambda s: None)
    assert time.monotonic() - start < 45              # not the 60 s the long ones take


def test_the_dearest_jobs_start_first():
    jobs = [Job("a", fake_jobs.square, (1,), cost=1), Job("b", fake_jobs.square, (2,), cost=5),
            Job("c", fake_jobs.square, (3,), cost=1), Job("d", fake_jobs.square, (4,), cost=3)]
    assert executor.start_order(jobs) == [1, 3, 0, 2]


def test_each_is_called_here_as_jobs_finish():
    seen = []
    run_jobs(squares(4), LocalPool(2), lambda s: None, each=lambda i, v: seen.append((i, v)))
    assert sorted(seen) == [(0, 0), (1, 1), (2, 4), (3, 9)]


def test_progress_says_how_long_the_rest_will_take():
    now = [100.0]
    lines = []
    p = executor.Progress(4, "sweep ds3100", lines.append, every=5.0, clock=lambda: now[0])
    now[0] += 30
    p.step("ds3100 memory.bandwidth_mbs=1", 29.5)
    assert lines[-1] == ("sweep ds3100: 1 of 4 done (ds3100 memory.bandwidth_mbs=1: 30 s); "
                         "30 s so far, about 1 min 30 s to go")
    now[0] += 1                       # within 5 s of the last line: quiet
    p.step("x", 1)
    assert len(lines) == 1
    now[0] += 3600
    p.step("y", 1)
    assert lines[-1].endswith("1 h 00 min so far, about 20 min 10 s to go")
    p.step("z", 1)                    # the last is always said
    assert lines[-1].startswith("sweep ds3100: 4 of 4 done") and "to go" not in lines[-1]


def test_what_the_command_line_asks_for():
    assert isinstance(executor.executor(1), Serial)
    assert isinstance(executor.executor(2), LocalPool) and executor.executor(2).workers == 2
    assert isinstance(executor.executor(None, "tcp://h:8786"), DaskCluster)
    default = executor.executor(None)
    assert (default.workers if isinstance(default, LocalPool) else 1) == executor.cores()
    with pytest.raises(HarnessError, match="-j 0"):
        LocalPool(0)


def test_workers_of_other_code_are_refused():
    here = {"commit": "a" * 40, "dirty": False, "diff_sha256": None}
    executor.check_workers({"tcp://w1:1": {**here, "root": "/x"}}, here)
    with pytest.raises(HarnessError, match="tcp://w2:1 runs commit bbbbbbbbbbbb in /y"):
        executor.check_workers({"tcp://w1:1": {**here, "root": "/x"},
                                "tcp://w2:1": {**here, "commit": "b" * 40, "root": "/y"}}, here)
    with pytest.raises(HarnessError, match="with local changes"):
        executor.check_workers({"tcp://w1:1": {**here, "dirty": True, "diff_sha256": "f" * 64,
                                               "root": "/x"}}, here)
    with pytest.raises(HarnessError, match="no workers"):
        executor.check_workers({}, here)


def test_no_scheduler_there_is_a_clear_error():
    pytest.importorskip("distributed")
    with pytest.raises(HarnessError, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        run_jobs(squares(2), DaskCluster("tcp://127.0.0.1:9", timeout=1), lambda s: None)


@pytest.fixture(scope="module")
def two_workers():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster_of_two_gives_what_the_pool_gives(two_workers):
    said = []
    ex = DaskCluster(two_workers)        # connects through the address, as --scheduler does
    assert run_jobs(squares(), ex, said.append) == run_jobs(squares(), LocalPool(2),
                                                            lambda s: None)
    assert sorted(s for s in said if s.startswith("square")) == [f"square {x}" for x in range(6)]


def test_a_failing_job_on_the_dask_cluster_names_its_configuration(two_workers):
    jobs = squares(2) + [Job("sun3 dcache.size=0", fake_jobs.fail, ("panic",))]
    with pytest.raises(JobFailed, match="^sun3 dcache.size=0: kernel panic during bcopy"):
        run_jobs(jobs, DaskCluster(two_workers), lambda s: None)


def test_a_worker_that_dies_fails_its_job():
    with pytest.raises(HarnessError, match=r"^sun4 cpu.cpi=9: its local worker \(pid \d+\) "
                                           r"died with exit status 3"):
        run_jobs([Job("sun4 cpu.cpi=9", fake_jobs.die, (3,))] + squares(2), LocalPool(2),
                 lambda s: None)
