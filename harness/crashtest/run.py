"""Make the write logs: boot a fresh guest per workload and policy with the
hardware model's write log on (writelog=, hw-models/core/wlog.c), run the
workload, halt.  The guest's file system starts as build/<arch>/fs.img, so
that image and the log are all the replay needs.

The model is needed only for its hooks; the profile's timing is irrelevant
here (ds3100-riscv by default: riscv's own).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BenchmarkError, SetupError
from ..guest import machines
from ..guest.elfsyms import Symbols
from ..bench.suite import POLICIES      # the write policies, named once
from ..model import modellog, profiles, runs

# A metadata-heavy workload in the shell: directories and small files
# made, grown and removed; what stays at the end is /tmp/m/d/f6.
METADATA = [
    "mkdir /tmp/m", "mkdir /tmp/m/a", "mkdir /tmp/m/b",
    "echo one > /tmp/m/a/f1", "echo two > /tmp/m/a/f2", "echo three > /tmp/m/b/f3",
    "mkdir /tmp/m/a/c", "echo four > /tmp/m/a/c/f4", "rm /tmp/m/a/f1",
    "echo five >> /tmp/m/a/f2", "rm -r /tmp/m/b", "mkdir /tmp/m/d",
    "echo six > /tmp/m/d/f6", "rm -r /tmp/m/a",
]

# Replace a file in one step, four times: write the new version beside it,
# then rename it over the name (mv).  Each version joins some of Andrew's
# sources (6-19 KB: several blocks, so a half-written one shows); the
# checker (names.py) knows them all.  What stays at the end is the last.
RENAME_NAME = "/tmp/r/f"
RENAME_VERSIONS = [["/src/kern/kern0.c"], ["/src/kern/kern1.c", "/src/kern/kern2.c"],
                   ["/src/fs/fs0.c"], ["/src/fs/fs6.c", "/src/kern/kern.h"],
                   ["/src/lib/lib0.c"]]
RENAME = ["mkdir /tmp/r", f"cat {' '.join(RENAME_VERSIONS[0])} > {RENAME_NAME}"] + [
    c for v in RENAME_VERSIONS[1:]
    for c in (f"cat {' '.join(v)} > {RENAME_NAME}.new", f"mv {RENAME_NAME}.new {RENAME_NAME}")]

WORKLOADS: dict[str, list[str]] = {
    "createdelete": ["createdelete -p {policy} -n 3"],
    "andrew": ["andrew -p {policy}"],
    "metadata": METADATA,
    "rename": RENAME,
}
# The workloads whose one name is held to a promise at every crash point
# (names.py): the name, and the versions it may hold.
WATCHED: dict[str, tuple[str, list[list[str]]]] = {"rename": (RENAME_NAME, RENAME_VERSIONS)}


def writelog_args(machine: machines.Machine, log: Path) -> list[str]:
    """The model's arguments that turn the write log on."""
    syms = Symbols.load(machine.elf_path())
    pcs = {}
    for key, name in (("wlog_write_pc", "ramdisk_write"), ("wlog_dirty_pc", "bdirty")):
        addr = syms.address(name)
        if addr is None:
            raise SetupError(f"{machine.elf_path()}: no symbol {name!r}")
        pcs[key] = addr
    return [f"writelog={log}", *(f"{k}={v:#x}" for k, v in pcs.items())]


def make_log(arch: str, profile: str, workload: str, policy: str, outdir: Path,
             timeout: float = 600.0) -> Path:
    """Run one workload under one policy; the write log's path."""
    machine = machines.get(arch)
    hw = profiles.load(profile)
    if not hw.model:
        raise SetupError("the write log needs a profile with a model (e.g. ds3100-riscv)")
    outdir.mkdir(parents=True, exist_ok=True)
    stem = f"{workload}-{policy}"
    log = outdir / f"{stem}.wlog"
    guest = runs.start(machine, hw, outdir / f"{stem}.log", outdir / f"{stem}.hw.log",
                       writelog_args(machine, log))
    with guest as g:
        g.boot(timeout=machine.boot_timeout)
        for c in [f"policy {policy}", *WORKLOADS[workload]]:
            out = g.run(c.format(policy=policy), timeout=timeout)
            bad = [l for l in out.lines if "FAIL" in l or ": cannot" in l]
            if bad:
                raise BenchmarkError(f"{c!r}: {bad[0]}")
        g.halt()
    regions, warnings = modellog.read_log(outdir / f"{stem}.hw.log")
    if warnings:
        raise BenchmarkError(f"hardware model warned: {warnings[0]}")
    return log
