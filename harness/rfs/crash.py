"""`python3 -m harness rfscrash` (make rfscrash): what each remote file
system's design buys when its server crashes and comes back, in the style
of `make crashtest` (docs/remote-files.md, "When a server crashes").

One workload for both protocols, all in one client process (fileset), so
that nothing waits between commands while the machines' clocks run on:

    hold /tmp/h0 (3000 bytes, open for writing to the end), 35 s idle,
    write /tmp/f0..f4 (10 KB each, each closed), 35 s idle, release h0

The server crashes (rfsd: its memory and dirty blocks lost, its disk kept;
down DOWN_MS; an fsck -y as it comes back) after serving CRASH_WRITES
writes: under nfs in the middle of writing the f files, each close waiting
for its data to reach the server's disk; under sprite in the middle of the
client's write-back of them, 30 s after they were written and closed, each
WRITE acknowledged as the server puts it in its cache.

Then the client reads everything back (fileset verify), and the report
says what was lost of what had been acknowledged, what the client did
(retransmissions, reopens: Sprite's recovery), and what the server lost.

With async (rfscrash --async, make rfscrash ASYNC=1) the server is asked to
be an "unsafe" NFS server, one that answers a WRITE before its data is on
its disk (rfsd -async): what nfs then loses is what the unsafe server
costs.  The rfsd as shipped has no -async (it prints its usage, and the
run stops saying so): adding it is lab 7's change
(docs/labs/lab7-nfs-or-sprite.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..tables import format_table
from ..errors import BenchmarkError
from ..guest import machines
from ..guest.console import Guest
from ..model import profiles
from ..net.pair import Pair
from . import run as rfsrun

DOWN_MS = 2000
CRASH_WRITES = 5                  # nfs: the f files' writes; sprite: write-backs
FILES, SIZE, HELD = 5, 10240, 3000
WORKLOAD = (f"fileset hold /tmp/h0 {HELD} sleep 35000 write /tmp/f {FILES} {SIZE} "
            f"sleep 35000 release")
VERIFY = f"fileset verify /tmp/f {FILES} {SIZE} verify /tmp/h 1 {HELD}"

SERVER = f"-crashwrites {CRASH_WRITES} -down {DOWN_MS}"
ASYNC = "-async"                  # rfsd's: the unsafe server (lab 7)
USAGE = "usage: rfsd"
NO_ASYNC = ("this rfsd has no -async (it printed its usage): adding it is lab 7's change "
            "(docs/labs/lab7-nfs-or-sprite.md)")

CRASHED = re.compile(r"rfsd: crash after (\d+) calls: (\d+) dirty blocks lost")
UP = re.compile(r"rfsd: up again, epoch (\d+), fsck -y: (\d+) problems left")
VERIFIED = re.compile(r"fileset: verified (\d+) files: missing=(\d+) short=(\d+) "
                      r"bad_bytes=(\d+)")


@dataclass
class Outcome:
    proto: str
    crash_after_calls: int
    server_blocks_lost: int
    fsck_problems_left: int
    bytes_lost: int                    # of the f files, all acknowledged
    held_bytes_lost: int               # of the held file
    client: dict[str, int] = field(default_factory=dict)    # rfsstat
    server: dict[str, int] = field(default_factory=dict)

    def row(self) -> list[str]:
        c = self.client
        return [self.proto, str(self.crash_after_calls), str(self.server_blocks_lost),
                str(c.get("rpc_retrans", 0)), str(c.get("rfs_recoveries", 0)),
                str(c.get("rfs_reopens", 0)), f"{self.bytes_lost} B",
                f"{self.held_bytes_lost} B", str(self.fsck_problems_left)]


HEADER = ["protocol", "crash after", "server blocks lost", "retransmitted", "recoveries",
          "reopens", "acknowledged data lost", "held file lost", "fsck -y left"]


def model_of(arch: str) -> str:
    """The profile a crash runs under: the ISA's own model (any will do:
    what is lost does not depend on the timing)."""
    return machines.get(arch).model_profile


def start_server(guest: Guest, args: str, timeout: float) -> bool:
    """`rfsd ARGS -wait` begun on the server's console, so that what it
    prints later is its output; False if this rfsd refused the arguments
    (printed its usage: no -async before lab 7's change)."""
    guest.begin(f"rfsd {args} -wait")
    said = guest.wait_for(f"{re.escape(rfsrun.SERVER_READY)}|{USAGE}", timeout=timeout)
    if USAGE in said:
        guest.finish(timeout=timeout)
        return False
    return True


def scenario(proto: str, logdir: Path, arch: str = machines.DEFAULT_ARCH,
             say: Callable[[str], None] = lambda s: None, unsafe: bool = False) -> Outcome:
    """The workload under proto with a server crash on two `arch`
    machines (unsafe: the server asked to answer writes before its disk
    has them); what came of it."""
    if proto not in rfsrun.PROTOCOLS:
        raise BenchmarkError(f"unknown protocol {proto!r}")
    with Pair(arch, profiles.load(model_of(arch)), logdir,
              names=(f"{proto}-{{node}}.log", f"{proto}-{{node}}.hw.log")) as pair:
        args = f"{SERVER}{' ' + ASYNC if unsafe else ''}"
        if not start_server(pair.b, args, timeout=120):
            raise BenchmarkError(f"`rfsd {args}`: {NO_ASYNC}")
        pair.a.run(f"mount -t {proto} {pair.address('b')} /", timeout=120)
        out = pair.a.run(WORKLOAD, timeout=900)
        if f"fileset: wrote {FILES} files of {SIZE} bytes" not in out.lines:
            raise BenchmarkError(f"the workload printed {out.lines!r}")
        crashed = CRASHED.search(pair.b.wait_for(CRASHED.pattern, timeout=120))
        up = UP.search(pair.b.wait_for(UP.pattern, timeout=120))
        pair.b.interrupt(timeout=60)
        checked = [VERIFIED.match(line) for line in pair.a.run(VERIFY, timeout=300).lines]
        checked = [m for m in checked if m]
        client = rfsrun.rfsstat(pair.a.run("rfsstat -a", timeout=120).lines)
        server = rfsrun.rfsstat(pair.b.run("rfsstat -a", timeout=120).lines)
    if not crashed or not up or len(checked) != 2:
        raise BenchmarkError(f"{proto}: no crash and recovery seen (server console "
                             f"{logdir / f'{proto}-b.log'}), or no verification")
    say(f"harness: {proto}: {crashed.group(0)}")
    return Outcome(proto, int(crashed.group(1)), int(crashed.group(2)), int(up.group(2)),
                   int(checked[0].group(4)), int(checked[1].group(4)), client, server)


def format_report(outcomes: list[Outcome], arch: str, unsafe: bool = False) -> str:
    lines = [f"Server crashes: {WORKLOAD!r} on a client of a {model_of(arch)} server "
             f"({arch}{', rfsd ' + ASYNC if unsafe else ''})",
             *format_table(HEADER, [o.row() for o in outcomes]), "",
             "acknowledged data lost: bytes of the f files, every one closed (and, under "
             "sprite, written back and acknowledged by the server) before the crash, "
             "missing or different after it; held file: open for writing across the crash."]
    return "\n".join(lines) + "\n"


def run_all(out: Path, protocols: tuple[str, ...] = rfsrun.PROTOCOLS,
            arch: str = machines.DEFAULT_ARCH,
            say: Callable[[str], None] = lambda s: None,
            unsafe: bool = False) -> tuple[list[Outcome], str]:
    out.mkdir(parents=True, exist_ok=True)
    outcomes = [scenario(p, out, arch, say=say, unsafe=unsafe) for p in protocols]
    text = format_report(outcomes, arch, unsafe)
    (out / "report.txt").write_text(text)
    return outcomes, text

