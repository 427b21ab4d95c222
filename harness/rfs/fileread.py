"""`run --suite measure --remote nfs|sprite|both` (make run SUITE=measure
REMOTE=...): seed 002's remote file read (its 4c) beside the local one, on
two machines of one profile, node a the client and node b the server
(harness/rfs/run.py boots the pairs the same way for the paper's file
benchmarks).

002 read its files with O_DIRECT, so that no cache served them.  Our
kernel has no O_DIRECT, and FSCTL_DROPCACHE (what the local `fileread`
uses) empties only the buffer cache of the machine that calls it: not a
remote file system's client cache, nor the server's.  So every file is
fresh instead: `rfileread fileread -k KB -m` (/bin/measure with this
compiled in: PROGRAM, below), run on the machine whose disk holds the
files, makes one file per case (seq, random) and empties that machine's
buffer cache; then `rfileread fileread -k KB -e LABEL` reads each
file once, one block a call after an lseek, in order or in the local
suite's shuffled order, and no cache has seen its blocks.  On each pair,
one file size and one protocol:

    0. both boot the tests' image, which has /bin/rfileread;
    1. b makes the files on its disk (-m);
    2. with the first protocol only, the Local row: a makes the same files
       on its own disk and reads them (-e local-KBk);
    3. b serves (rfsd), a mounts b's file system at / (a diskless client,
       as for the paper's benchmarks) and reads b's files (-e PROTO-KBk);
    4. a's `rfsstat -a -s`: its calls, and the server's disk reads.

The sizes and the prediction are readpredict.py's; the report is the
Final Results Table of those rows.

    results/ARCH-PROFILE-measure-remote-PROTO/
        results.json, results.csv, report.txt, final.csv   as for any run
        console-a.log, console-b.log, hwmodel-a.log, hwmodel-b.log
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..bench import finaltable, report, rundir, runrecord, suite
from ..errors import BenchmarkError, HarnessError
from ..model import profiles, runs
from ..net.pair import NODES, Pair
from . import readpredict
from .run import _append, mount_step, pair_record, protocols_of, rfsstat, serve, set_up

TIMEOUT = 300.0                        # host seconds for one command


# /bin/measure with the remote file read compiled in, in the tests' image
# only (guests/testimage/rfileread.c): the pairs boot that image, so that
# the benchmarks' image, and every number the local suites print, stay as
# they were.
PROGRAM = "rfileread fileread"


def make_command(kb: int) -> str:
    return f"{PROGRAM} -k {kb} -m"


def read_bench(where: str, kb: int) -> suite.Benchmark:
    """`rfileread fileread -e` on the files of one size, as a benchmark whose
    cases carry where the files are."""
    lab = readpredict.label(where, kb)
    return suite.Benchmark("fileread", tuple(f"{c}-{lab}" for c in readpredict.CASES),
                           TIMEOUT, command=f"{PROGRAM} -k {kb} -e {lab}",
                           in_suite=False, paper="002 4c" if where != "local" else "002 4b")


def make_files(guest: Any, node: str, kb: int, timeout: float) -> None:
    """`-m` on one node: it prints nothing when all went well."""
    out = guest.run(make_command(kb), timeout=timeout)
    if out.lines:
        raise BenchmarkError(f"{make_command(kb)!r} on {node} printed {out.lines!r}")


def run_size(arch: str, profile: profiles.Profile, d: rundir.RunDir, proto: str, kb: int,
             local: bool, index: int, timeout: float) -> tuple[list[suite.BenchRun],
                                                              dict[str, int], Pair]:
    """One pair: (its benchmark runs, the client's rfsstat, the pair, closed)."""
    pair = Pair(arch, profile, d.partial, names=("boot-console-{node}.log",
                                                 "boot-hwmodel-{node}.log"), test_image=True)
    benches = ([read_bench("local", kb)] if local else []) + [read_bench(proto, kb)]
    for node in NODES:
        with d.path(f"console-{node}.log").open("a") as f:
            f.write(f"--- pair {index}: {kb} KB files, {proto}"
                    f"{' and local' if local else ''} (harness/rfs/fileread.py) ---\n")
    done = []
    try:
        with pair:
            make_files(pair.b, "b", kb, timeout)
            if local:
                make_files(pair.a, "a", kb, timeout)
                out = pair.a.run(benches[0].command_line, timeout=timeout)
                done.append(suite.BenchRun(benches[0], suite.judge(benches[0], out),
                                           out.lines, out.seconds))
            serve(pair, timeout)
            set_up(pair, (mount_step(proto, Pair.address("b")),), timeout)
            out = pair.a.run(benches[-1].command_line, timeout=timeout)
            done.append(suite.BenchRun(benches[-1], suite.judge(benches[-1], out),
                                       out.lines, out.seconds))
            stats = rfsstat(pair.a.run("rfsstat -a -s", timeout=timeout).lines)
    finally:
        for node in NODES:
            _append(d.path(f"console-{node}.log"), pair.console_log(node))
            _append(d.path(f"hwmodel-{node}.log"), pair.hw_log(node))
    return done, stats, pair


def run_remote_read(arch: str, profile_name: str, choice: str, out_root: Path,
                    tag: str | None, timeout: float | None, say: Callable[[str], None]
                    ) -> tuple[Path, report.RunRecord, str]:
    """The whole run; (its results directory, its record, the report's text)."""
    protocols = protocols_of(choice)
    profile = profiles.load(profile_name)
    tag = tag or f"measure-remote-{choice}"
    with rundir.RunDir(out_root, rundir.run_name(arch, profile_name, tag)) as d:
        done: list[suite.BenchRun] = []
        stats: dict[str, dict[str, int]] = {}
        say(f"harness: {len(protocols) * len(readpredict.SIZES_KB)} pairs of {arch} "
            f"(a client, b server), profile {profile_name}: 002's remote file read")
        try:
            for proto in protocols:
                for kb in readpredict.SIZES_KB:
                    runs_, stats[readpredict.label(proto, kb)], pair = run_size(
                        arch, profile, d, proto, kb, proto == protocols[0], len(stats) + 1,
                        timeout or TIMEOUT)
                    for r in runs_:
                        say(f"harness: {r.bench.command_line}: {len(r.results)} result(s) "
                            f"in {r.seconds:.1f} s of host time")
                    done += runs_
                    if len(stats) == 1:
                        first = pair
        except HarnessError as e:
            e.detail = "\n".join(x for x in (e.detail, f"console logs: {d.partial}/") if x)
            raise
        record = pair_record(arch, profile, tag, done, first, "measure-remote", stats)
        record.meta["remote"] = {"protocols": list(protocols), "server": Pair.address("b"),
                                 "sizes_kb": list(readpredict.SIZES_KB)}
        if profile.model:
            runs.attach_counters(record, first.model, d.path("hwmodel-a.log"), say)
        record.meta["final_table"] = finaltable.to_json(     # profile none: the
            readpredict.rows(record.results, first.profile.data))  # pair's stand-in link
        text = runrecord.report_text(record)
        runrecord.write(d, record, text)
    return d.final, record, text
