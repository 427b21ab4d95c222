"""`run --suite net` (make run SUITE=net): seed 002's Network section on two
machines of one profile.  The server program (netd) starts on node b, the
client benchmark (netbench, its five cases) runs on node a against it, and
the run prints the cases, the model's counters for the client, and the
Final Results Table with the hardware's share (the NICs and the wire, from
the profile's [link]: harness/net/table.py) beside each measurement.

    results/ARCH-PROFILE-net/
        results.json, results.csv, report.txt, final.csv   as for any run
        console-a.log, console-b.log                        each node's console
        hwmodel-a.log, hwmodel-b.log                        each node's model

results.json's provenance has both nodes' records ("nodes"), its meta
the nodes' roles and addresses, their netstat counters after the run
("netstat") and their models' HWNET records ("wire").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..bench import finaltable, report, rundir, runrecord, suite
from ..errors import BenchmarkError, HarnessError
from ..model import modellog, profiles, runs
from . import table
from .pair import NODES, ROLES, Pair

SERVER_READY = "netd: ready"


def netstat(lines: list[str]) -> dict[str, int]:
    """`netstat -a`'s counters."""
    if not lines or not lines[0].startswith("net nic="):
        raise BenchmarkError(f"netstat printed {lines[:2]!r}, not its counters")
    return {k: int(v) for k, v in (line.split("=", 1) for line in lines[1:] if "=" in line)}


def read_hwnet(path: Path) -> dict[str, Any]:
    """The HWNET record of a model's log, its fields."""
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.startswith("HWNET "):
            return modellog.parse_fields(line.split()[1:], line)
    return {}


def serve_and_measure(pair: Pair, command: str, timeout: float) -> tuple[Any, dict[str, Any]]:
    """netd on b, `command` on a; (a's output, both nodes' netstat)."""
    pair.b.begin("netd")
    pair.b.wait_for(SERVER_READY, timeout=timeout)
    out = pair.a.run(command, timeout=timeout)
    pair.b.interrupt(timeout=timeout)
    stats = {node: netstat(pair.guests[node].run("netstat -a", timeout=timeout).lines)
             for node in NODES}
    return out, stats


def run_net(arch: str, profile_name: str, out_root: Path, tag: str | None,
            timeout: float | None, say: Callable[[str], None],
            overrides: dict[str, Any] | None = None) -> tuple[Path, report.RunRecord, str]:
    """The whole run; (its results directory, its record, the report's text)."""
    profile = profiles.load(profile_name)
    bench = suite.BY_NAME["net"]
    with rundir.RunDir(out_root, rundir.run_name(arch, profile_name, tag or "net")) as d:
        pair = Pair(arch, profile, d.partial, names=("console-{node}.log",
                                                     "hwmodel-{node}.log"),
                    overrides=overrides)
        command = f"{bench.command_line} {pair.address('b')}"
        try:
            with pair:
                say(f"harness: booted {arch} a (client) and b (server), profile "
                    f"{profile_name}: {' '.join(pair.argv['a'])}")
                output, stats = serve_and_measure(pair, command, timeout or bench.timeout)
                boot = pair.a.boot_record
        except HarnessError as e:
            e.detail = "\n".join(x for x in (e.detail, f"console logs: {d.partial}/") if x)
            raise
        results = suite.judge(bench, output)
        record = report.RunRecord(
            arch=arch, profile=profile.name, mips=profile.mips, profile_note=profile.note,
            results=results, boot=boot, tag=tag or "net",
            paper_machine=profile.data.get("paper", ""),
            paper_os=profile.data.get("paper_os", ""), provenance=pair.provenance())
        record.meta["suite"] = "net"
        record.meta["nodes"] = {n: {"role": ROLES[n], "address": pair.address(n),
                                    "console": pair.console_log(n).name,
                                    "hwmodel": pair.hw_log(n).name} for n in NODES}
        record.meta["netstat"] = stats
        record.meta["wire"] = {n: read_hwnet(pair.hw_log(n)) for n in NODES}
        runs.attach_counters(record, pair.model, pair.hw_log("a"), say)
        rows = table.rows(record.results, pair.profile.data["link"])
        record.meta["final_table"] = finaltable.to_json(rows)
        text = runrecord.report_text(record)
        runrecord.write(d, record, text)
    return d.final, record, text
