"""One benchmark on a diskless client, read as a one-machine model run is:
what the grader uses for lab 7's remote measurements (docs/labs/
lab7-nfs-or-sprite.md), as harness/net/measure.py is for lab 6's round
trips.

    run = run_remote("ds3100-riscv", "nfs", "createdelete -p nfs -n 5")
    run = run_remote("ds3100-riscv", "nfs", "createdelete -p nfs -n 5", server="-async")

Node b serves its file system (`rfsd SERVER`), node a mounts it at / with
the protocol (as `make run ... REMOTE=` does: harness/rfs/run.py) and runs
the command; the result is a runs.ModelRun of the client: its RESULT lines
(whose dev_writes and sync_writes count the server's disk) joined to its
model's region records, with the pair's provenance.  The logs go to
build/ARCH/model-runs/, as run_model()'s do.
"""

from __future__ import annotations

import itertools
import os

from .. import ROOT
from ..errors import BenchmarkError, SetupError
from ..model import profiles, runs
from ..net.measure import client_run
from ..net.pair import Pair
from . import run as rfsrun

_counter = itertools.count()


def run_remote(profile: str, proto: str, command: str, server: str = "",
               timeout: float = 600.0, tag: str = "remote") -> runs.ModelRun:
    """`command` on node a, diskless under `proto`, against `rfsd SERVER` on b."""
    if proto not in rfsrun.PROTOCOLS:
        raise BenchmarkError(f"a diskless client mounts with one protocol "
                             f"({', '.join(rfsrun.PROTOCOLS)}), not {proto!r}")
    hw = profiles.load(profile)
    if not hw.model:
        raise SetupError(f"profile {profile!r} has no hardware model: a pair under it has "
                         f"no modelled time to measure")
    outdir = ROOT / "build" / hw.isa / "model-runs"
    outdir.mkdir(parents=True, exist_ok=True)
    stem = f"{profile}-{tag}-{os.getpid()}-{next(_counter)}"
    pair = Pair(hw.isa, hw, outdir, names=(stem + "-{node}.log", stem + "-{node}.hw.log"))
    with pair:
        rfsrun.serve(pair, timeout, server)
        rfsrun.set_up(pair, (rfsrun.mount_step(proto, pair.address("b")),), timeout)
        out = pair.a.run(command, timeout=timeout)
        made_by = pair.provenance()
    return client_run(pair, command, out, made_by)
