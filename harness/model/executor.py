"""Independent boots side by side: the one executor of the multi-run commands.

    jobs = [Job("ds3100 memory.bandwidth_mbs=8", sweep.measure_point, (...)), ...]
    values = run_jobs(jobs, executor(jobs=2), say=print, what="sweep")

Calibration (one fit per machine), Figure 1 (one job per machine) and the
sweeps (one job per point) run many emulators, each on its own: nothing
one run does reaches another (each boots a fresh guest, with its logs under
a name of its own: harness/model/runs.py).  So they can run at the same
time, and this module is where they do:

  - Serial()                   one after another, in this process (-j 1);
  - LocalPool(n)               n worker processes on this machine (-j N,
                               default: one per core);
  - DaskCluster("tcp://...")   the workers of a Dask distributed cluster
                               (--scheduler), each with its own built
                               checkout of the same commit (docs/harness.md
                               says how to start them, under Slurm too).

run_jobs() returns the jobs' values in the order the jobs were given, not
the order they finished in, so whatever ran them, the output is the same.
A job that raises stops the lot: what has not started is cancelled, the
local workers are stopped (their emulators killed), and the error is raised
here again, starting with the job's label, which names its configuration.

A job is a module-level function (workers find it by name) called as
fn(*args, say=say): what it says is printed here, all at once when it is
done (live under Serial), so that the lines of two runs never interleave;
after each job a progress line says how many are done and, from the time
so far, about how long the rest will take.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from .. import ROOT
from ..bench import provenance
from ..errors import HarnessError, SetupError, UsageError

Say = Callable[[str], None]


@dataclass(frozen=True)
class Job:
    label: str                       # its configuration, e.g. "ds3100 memory.bandwidth_mbs=8"
    fn: Callable[..., Any]           # module-level, called as fn(*args, say=say)
    args: tuple[Any, ...] = ()
    # What it costs relative to the others (a guess: host seconds): the
    # dearest start first, so that one long job is not left to run alone
    # at the end.  It changes only the order the jobs start in.
    cost: float = 1.0


@dataclass(frozen=True)
class Failure:
    """An exception in a worker, as text: exceptions do not all survive
    pickling (GuestPanic's arguments are not its message), and a Dask
    worker's traceback is of no use on this side without its text."""

    kind: str                        # the exception's class name
    exit_code: int                   # HarnessError's (1, or 2: set up first); 1 for a bug
    message: str
    detail: str = ""                 # HarnessError.detail: the console's last lines
    trace: str = ""                  # the traceback, for an exception that is a bug


@dataclass
class Outcome:
    index: int
    value: Any = None
    said: list[str] = field(default_factory=list)
    failure: Failure | None = None
    seconds: float = 0.0


class JobFailed(HarnessError):
    """A job raised; the message starts with its label."""

    def __init__(self, job: Job, failure: Failure, note: str = "") -> None:
        detail = "\n".join(x for x in (failure.trace.rstrip(), failure.detail) if x)
        super().__init__(f"{job.label}: {failure.message}{note}", detail)
        self.job = job
        self.failure = failure
        self.exit_code = failure.exit_code


def call(job: Job, index: int, say: Say | None = None) -> Outcome:
    """Run one job, in whatever process or thread the executor chose, and
    never raise for what the job raised: return it, as text."""
    said: list[str] = []
    start = time.monotonic()
    try:
        value = job.fn(*job.args, say=say or said.append)
    except HarnessError as e:
        failure = Failure(type(e).__name__, e.exit_code, str(e), e.detail)
    except Exception as e:                       # a bug: keep its traceback
        failure = Failure(type(e).__name__, 1, f"{type(e).__name__}: {e}",
                          trace=traceback.format_exc())
    else:
        return Outcome(index, value, said, None, time.monotonic() - start)
    return Outcome(index, None, said, failure, time.monotonic() - start)


def start_order(jobs: Sequence[Job]) -> list[int]:
    """The jobs' indexes, dearest first (ties in the order given)."""
    return sorted(range(len(jobs)), key=lambda i: -jobs[i].cost)


# ---------------------------------------------------------------- progress

def duration(seconds: float) -> str:
    """12 s, 3 min 05 s, 2 h 07 min."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """After each job: 'sweep: 12 of 64 done (...); 3 min 20 s so far, about
    14 min 10 s to go'.  The estimate is the time per job so far, which on
    n workers already counts n at a time.  A line at most every `every`
    seconds, and always for the first and the last."""

    def __init__(self, total: int, what: str, say: Say, every: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.what, self.say, self.every, self.clock = total, what, say, every, clock
        self.start = clock()
        self.done = 0
        self.last = -1e9

    def line(self, label: str, seconds: float) -> str:
        elapsed = self.clock() - self.start
        text = (f"{self.what}: {self.done} of {self.total} done ({label}: {duration(seconds)}); "
                f"{duration(elapsed)} so far")
        if self.done < self.total:
            text += f", about {duration(elapsed / self.done * (self.total - self.done))} to go"
        return text

    def step(self, label: str, seconds: float) -> None:
        self.done += 1
        now = self.clock()
        if self.done in (1, self.total) or now - self.last >= self.every:
            self.last = now
            self.say(self.line(label, seconds))


# ---------------------------------------------------------------- executors

class Executor(Protocol):
    name: str

    def run(self, jobs: Sequence[Job], done: Callable[[Outcome], None]) -> None:
        """Run every job, calling done(outcome) here as each finishes; stop
        at the first failure, raising nothing (done() raises it)."""


class Serial:
    """One job after another in this process: -j 1.  What a job says is
    shown as it says it."""

    name = "serial"

    def __init__(self, say: Say | None = None) -> None:
        self.say = say

    def run(self, jobs: Sequence[Job], done: Callable[[Outcome], None]) -> None:
        for i in range(len(jobs)):
            done(call(jobs[i], i, self.say))


def _exit_on_term(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _worker(tasks: Any, results: Any, current: Any, slot: int) -> None:
    """A local worker: run jobs until told to stop (None).  current[slot]
    says which job it is running (-1: none), in memory shared with the
    parent, which a worker that dies cannot leave half-written the way it
    can a queue."""
    # Ctrl-C at the terminal reaches the workers too (one process group):
    # the parent decides, and stops them with SIGTERM, which becomes
    # SystemExit here, so each `with guest:` kills its emulator on the way out.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_term)
    while True:
        item = tasks.get()
        if item is None:
            # Done: the parent may still stop this process while Python
            # shuts it down (waiting for the results queue's thread), where
            # a SystemExit would be printed as an ignored exception.
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            return
        job, index = item
        current[slot] = index
        results.put(call(job, index))


class LocalPool:
    """n worker processes on this machine, each taking the next job when it
    is done with one.  Spawned, not forked: a fresh interpreter each,
    sharing nothing with this one but the files.  (Not multiprocessing's
    Pool: this one can stop its workers at once when a job fails and say
    which job a worker that died was running.)"""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise UsageError(f"-j {workers}: give a number of workers >= 1")
        self.workers = workers
        self.name = f"{workers} local worker{'s' if workers > 1 else ''}"

    def run(self, jobs: Sequence[Job], done: Callable[[Outcome], None]) -> None:
        ctx = multiprocessing.get_context("spawn")
        tasks, results = ctx.Queue(), ctx.Queue()
        n = min(self.workers, len(jobs))
        current = ctx.Array("l", [-1] * n, lock=False)
        for i in start_order(jobs):
            tasks.put((jobs[i], i))
        for _ in range(n):
            tasks.put(None)
        procs = [ctx.Process(target=_worker, args=(tasks, results, current, k), daemon=True)
                 for k in range(n)]
        for p in procs:
            p.start()
        try:
            left = len(jobs)
            while left:
                try:
                    got = results.get(timeout=1.0)
                except queue.Empty:
                    _check_alive(procs, current, jobs)
                    continue
                left -= 1
                done(got)                            # raises at a failure
        finally:
            _stop(procs)
            tasks.cancel_join_thread()       # what is left in the queues is dropped
            results.cancel_join_thread()


def _check_alive(procs: list[Any], current: Any, jobs: Sequence[Job]) -> None:
    """A worker that died without a word (killed, out of memory) fails its
    job.  (Exit status 0: it had its stop sign, after its last result.)"""
    for slot, p in enumerate(procs):
        if p.exitcode in (None, 0):
            continue
        index = current[slot]
        what = jobs[index].label if index >= 0 else "a job"
        raise HarnessError(f"{what}: its local worker (pid {p.pid}) died with exit "
                           f"status {p.exitcode}")


def _stop(procs: list[Any]) -> None:
    """Stop the workers still running (SIGTERM: each kills its emulator),
    and wait for them; SIGKILL any that do not go within 10 seconds."""
    for p in procs:
        if p.is_alive():
            p.terminate()
    deadline = time.monotonic() + 10
    for p in procs:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join()


class DaskCluster:
    """The workers of a Dask distributed cluster, through its scheduler.
    Each worker must run in a checkout of the same commit, built (make
    figure1's builds, or the sweep's ISA), with the emulators installed."""

    def __init__(self, address: str, timeout: float = 20.0) -> None:
        self.address = address
        self.timeout = timeout                   # seconds to wait for the scheduler
        self.name = f"the Dask cluster at {address}"

    def _connect(self) -> Any:
        try:
            from distributed import Client
        except ImportError:
            raise SetupError("--scheduler needs Dask's distributed package: run `make deps`") \
                from None
        try:
            return Client(self.address, timeout=self.timeout, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise SetupError(f"no Dask scheduler answers at {self.address}: {e}") from None

    def run(self, jobs: Sequence[Job], done: Callable[[Outcome], None]) -> None:
        from distributed import as_completed
        client = self._connect()
        try:
            try:
                states = client.run(worker_checkout)
            except Exception as e:            # as the worker raised it, e.g. no harness
                raise SetupError(f"the Dask workers at {self.address} cannot run the harness "
                                 f"({type(e).__name__}: {e}): start each in a built checkout "
                                 f"of this commit, with the checkout on PYTHONPATH "
                                 f"(docs/harness.md)") from None
            check_workers(states, git_here())
            futures = []
            # pure=False: run every job, even two with equal arguments; the
            # dearest are asked for first (priority: higher runs sooner).
            for rank, i in enumerate(start_order(jobs)):
                futures.append(client.submit(call, jobs[i], i, pure=False,
                                             priority=len(jobs) - rank,
                                             key=f"harness-{i}-{os.getpid()}-{time.time_ns()}"))
            try:
                for f in as_completed(futures, loop=client.loop):
                    try:
                        got = f.result()
                    except Exception as e:      # the worker died under it, or was lost
                        raise HarnessError(f"a Dask worker failed: {e!r}") from None
                    done(got)
            finally:
                client.cancel(futures)
        finally:
            client.close()


def worker_checkout() -> dict[str, Any]:
    """On a worker: where its harness is and the git state there."""
    return {"root": str(ROOT), **provenance.git_state(ROOT)}


def git_here() -> dict[str, Any]:
    return provenance.git_state(ROOT)


def check_workers(states: dict[str, dict[str, Any]], here: dict[str, Any]) -> None:
    """Refuse a cluster whose workers run other code than this checkout:
    their results would not be this commit's.  (The builds are checked by
    each run, as everywhere: provenance.verify.)"""
    if not states:
        raise SetupError("the Dask cluster has no workers: start some (docs/harness.md)")
    for address, s in sorted(states.items()):
        if (s.get("commit"), s.get("diff_sha256")) != (here.get("commit"),
                                                       here.get("diff_sha256")):
            raise SetupError(f"Dask worker {address} runs {provenance.short_git(s)} in "
                             f"{s.get('root')}, this checkout is at {provenance.short_git(here)}: "
                             f"check out and build the same code there")


def cores() -> int:
    """The cores this process may run on (the default -j)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:               # not Linux
        return os.cpu_count() or 1


def executor(jobs: int | None = None, scheduler: str | None = None,
             say: Say | None = None) -> Executor:
    """What the command line asks for: --scheduler ADDRESS, else -j N (one
    per core if not given; 1 runs in this process)."""
    if scheduler:
        return DaskCluster(scheduler)
    n = cores() if jobs is None else jobs
    return Serial(say) if n == 1 else LocalPool(n)


def run_jobs(jobs: Sequence[Job], ex: Executor | None = None, say: Say = print,
             what: str = "runs", each: Callable[[int, Any], None] | None = None) -> list[Any]:
    """Every job's value, in the jobs' order; JobFailed for the first that
    failed.  `ex`: Serial() if not given.  each(index, value), if given, is
    called here as each job finishes (calibration writes a machine's
    results as soon as it has them)."""
    ex = ex or Serial(say)
    values: list[Any] = [None] * len(jobs)
    if not jobs:
        return values
    progress = Progress(len(jobs), what, say)
    if len(jobs) > 1:
        say(f"{what}: {len(jobs)} runs on {ex.name}")

    def done(o: Outcome) -> None:
        job = jobs[o.index]
        for line in o.said:                      # (none if they were shown live)
            say(line)
        if o.failure is not None:
            raise JobFailed(job, o.failure)
        values[o.index] = o.value
        if each is not None:
            each(o.index, o.value)
        progress.step(job.label, o.seconds)

    ex.run(jobs, done)
    return values
