"""One client command on two machines, read as a one-machine model run is:
what sweeps, attribution and the grader use when a benchmark needs a pair.

    run = run_pair("ds3100-riscv", "netbench -n 200 -c udp-rtt")
    run.joined[0].counters()           # the client's (node a's) counters per op

netd serves on node b (the server), the command runs on node a (the
client) with the server's address appended, and the result is a
runs.ModelRun of the client: its RESULT lines joined to its model's region
records, the pair's provenance (both nodes').  `client_model` adds model
arguments for node a alone (attribution's attrib= and attrib_region=).
The logs go to build/ARCH/model-runs/, as run_model()'s do.

Which benchmarks need a pair is suite.py's (NET_BENCHMARKS: needs_pair()).
"""

from __future__ import annotations

import itertools
import os
import tempfile
from pathlib import Path
from typing import Any

from .. import ROOT
from ..errors import BenchmarkError, SetupError
from ..model import modellog, profiles, runs
from .pair import Pair
from .run import SERVER_READY

_counter = itertools.count()


class _ClientPair(Pair):
    """A Pair whose client's model gets some arguments of its own."""

    def __init__(self, *args: Any, client_model: list[str] | None = None,
                 **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.client_model = list(client_model or [])

    def _net_args(self, node: str) -> tuple[list[str], list[str]]:
        emulator, model = super()._net_args(node)
        return emulator, model + (self.client_model if node == "a" else [])


def check(profile: str, arch: str | None = None,
          overrides: dict[str, Any] | None = None) -> None:
    """SetupError, before anything boots, if two machines of this profile
    cannot be put on a wire (no [link], no driver on the ISA yet)."""
    hw = profiles.load(profile)
    with tempfile.TemporaryDirectory() as d:
        Pair(arch or hw.isa, hw, Path(d), overrides=overrides)


def run_pair(profile: str, command: str, overrides: dict[str, Any] | None = None,
             arch: str | None = None, timeout: float = 600.0,
             client_model: list[str] | None = None, tag: str = "pair") -> runs.ModelRun:
    """`command` (without the address) on node a against netd on node b."""
    hw = profiles.load(profile)
    if not hw.model:
        raise SetupError(f"profile {profile!r} has no hardware model: a pair under it has "
                         f"no modelled time to measure")
    arch = arch or hw.isa
    outdir = ROOT / "build" / arch / "model-runs"
    outdir.mkdir(parents=True, exist_ok=True)
    stem = f"{profile}-{tag}-{os.getpid()}-{next(_counter)}"
    pair = _ClientPair(arch, hw, outdir, names=(stem + "-{node}.log", stem + "-{node}.hw.log"),
                       overrides=overrides, client_model=client_model)
    line = f"{command} {pair.address('b')}"
    with pair:
        pair.b.begin("netd")
        pair.b.wait_for(SERVER_READY, timeout=timeout)
        out = pair.a.run(line, timeout=timeout)
        pair.b.interrupt(timeout=timeout)
        made_by = pair.provenance()
    return client_run(pair, line, out, made_by)


def client_run(pair: Any, line: str, out: Any, made_by: dict[str, Any]) -> runs.ModelRun:
    """The client's (node a's) results of `line` joined with its model's
    regions, as one machine's run; refused if its model warned."""
    results = runs.results_of(line, out)
    log = pair.hw_log("a")
    regions, warnings = modellog.read_log(log)
    if warnings:
        raise BenchmarkError(f"hardware model warned: {warnings[0]}")
    return runs.ModelRun(pair.profile, results, regions, modellog.join(results, regions), log,
                         {line: out.lines}, made_by)
