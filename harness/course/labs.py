"""The labs (docs/labs/), as the grader sees them.

A lab is a handout (docs/labs/labN-*.md), the ISAs whose test programs must
still pass after the student's change, the benchmarks measured and under
which timing profiles, and the goals the change is scored against.  A
profile names a machine, and the machine's profile names its ISA
(hw-models/profiles/NAME.toml, `isa`): a lab says "ds3100", never "mips",
so when a machine moves to another port its labs follow it.

A measured value is known by a key, "PROFILE BENCH CASE METRIC", e.g.
"ds3100 getpid call cycles": the same key in the baseline file
(docs/labs/baseline/labN.json), in the student's predictions
(docs/labs/predictions/labN.toml) and in the grader's output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..bench import checks, suite
from ..guest import machines
from ..model import modellog, profiles

# ------------------------------------------------------------------ metrics


@dataclass(frozen=True)
class Metric:
    name: str
    unit: str                   # shown after the number
    higher_is_better: bool
    read: Callable[[modellog.Joined], float]
    help: str


def _counter(name: str) -> Callable[[modellog.Joined], float]:
    return lambda j: j.per_op(name)


def _extra_per_op(name: str) -> Callable[[modellog.Joined], float]:
    return lambda j: j.result.count(name) / (j.result.iters or 1)


def _mb_per_s(j: modellog.Joined) -> float:
    v = j.result.mb_per_s
    if v is None:
        raise ValueError(f"{j.result.bench} {j.result.case} is not a bandwidth benchmark")
    return float(v)


# Everything is per operation of the benchmark, its empty loop subtracted,
# except MB/s (a rate).
METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("insns", "insns", False, _counter("insns"), "instructions executed"),
    Metric("loads", "loads", False, _counter("loads"), "data reads (a VAX PUSHR counts one per register)"),
    Metric("stores", "stores", False, _counter("stores"), "data writes"),
    Metric("cycles", "cycles", False, _counter("cycles"), "modelled processor cycles"),
    Metric("stall_cycles", "cycles", False, _counter("stall_cycles"),
           "cycles waiting for memory, the write buffer or the disk"),
    Metric("bytes_in", "bytes", False, _counter("bytes_in"), "bytes read from memory"),
    Metric("bytes_out", "bytes", False, _counter("bytes_out"), "bytes written to memory"),
    Metric("traps", "traps", False, _counter("traps"), "kernel entries"),
    Metric("us", "us", False, lambda j: j.result.us_per_op, "microseconds"),
    Metric("ms", "ms", False, lambda j: j.result.ms_per_op, "milliseconds"),
    Metric("s", "s", False, lambda j: j.result.ms_per_op / 1000, "seconds"),
    Metric("MB/s", "MB/s", True, _mb_per_s, "megabytes (10^6) per second"),
    Metric("disk_ms", "ms", False, lambda j: j.per_op("disk_ns") / 1e6,
           "milliseconds the disk model charged (seek, rotation, transfer, overhead)"),
    Metric("dev_writes", "writes", False, _extra_per_op("dev_writes"),
           "disk writes per operation (on a diskless client: the server's)"),
    Metric("rpcs", "calls", False, _extra_per_op("rpcs"),
           "calls to the file server per operation (a diskless client's)"),
    Metric("sync_writes", "writes", False, _extra_per_op("sync_writes"),
           "disk writes the process waited for, per operation"),
    Metric("idle_us", "us", False, lambda j: j.per_op("idle_ns") / 1000,
           "microseconds the machine sat idle, waiting (for a frame, a timer)"),
)}


# ------------------------------------------------------------------ labs


@dataclass(frozen=True)
class Measure:
    """One command typed at the guest under one profile, and what is read
    off the cases it prints.  `{policy}` in the command and the cases is
    the write policy the student added (lab 4: `grade --policy NAME`).

    remote (lab 7): the command runs on a diskless client, a machine of
    the profile that has mounted, with this protocol (nfs or sprite), the
    file system of a second one serving it with `rfsd SERVER`
    (harness/rfs/measure.py).  label: added to the cases in the keys, to
    tell two runs of one case apart (the unsafe server's "-async").
    student_part: it needs what the student adds (lab 7's rfsd -async),
    as a command naming {policy} does (lab 4's policy)."""

    profile: str
    command: str
    cases: tuple[str, ...]
    metrics: tuple[str, ...]
    remote: str = ""
    server: str = ""
    label: str = ""
    student_part: bool = False

    @property
    def bench(self) -> str:
        """The benchmark's name, as its RESULT lines give it (`net` for
        `netbench`: harness/bench/suite.py)."""
        word = self.command.split()[0]
        return next((b.name for b in suite.BY_NAME.values() if b.command_line == word), word)

    @property
    def pair(self) -> bool:
        """Whether it runs on two machines (a client against netd, or a
        diskless client against its file server)."""
        return bool(self.remote) or suite.needs_pair(self.bench)

    def line(self, policy: str) -> str:
        """What one boot runs, as the grader shows it and knows it by: the
        command, and for a diskless client its protocol and server
        (remote_of reads it back)."""
        command = self.command.format(policy=policy)
        if not self.remote:
            return command
        return f"{command} [diskless {self.remote} client; rfsd{' ' + self.server if self.server else ''}]"

    @property
    def student(self) -> bool:
        """Whether it measures the student's own part, a policy or a server
        (which the unmodified kernel does not have, so no baseline has it)."""
        return self.student_part or "{policy}" in self.command

    def missing(self, policy: str) -> str:
        """Why it is not measured when the student's part is not there."""
        if self.server:
            return f"no `rfsd {self.server}` in this kernel (the lab's change adds it)"
        return f"no policy {policy!r} in this kernel"

    def keys(self, policy: str) -> list[str]:
        return [key(self.profile, self.bench, c.format(policy=policy) + self.label, m)
                for c in self.cases for m in self.metrics]


def key(profile: str, bench: str, case: str, metric: str) -> str:
    return f"{profile} {bench} {case} {metric}"


_REMOTE_LINE = re.compile(r"^(?P<command>.+) \[diskless (?P<proto>\w+) client; "
                          r"rfsd ?(?P<server>[^\]]*)\]$")


def remote_of(line: str) -> tuple[str, str, str] | None:
    """(command, protocol, rfsd's arguments) of a Measure.line() on a
    diskless client; None for any other."""
    m = _REMOTE_LINE.match(line)
    return (m["command"], m["proto"], m["server"]) if m else None


@dataclass(frozen=True)
class Goal:
    """A change the lab asks for, worth `points`: the measured value at
    any of `keys` (the best one counts) moved by `change` (-0.25: a quarter
    less; +0.25: a quarter more) from the baseline's value at the same key,
    or at `against` when given (lab 4: the new policy against `sync`).
    Partial moves earn points in proportion, none for moving the wrong way."""

    text: str
    keys: tuple[str, ...]
    change: float
    points: int
    against: str | None = None


@dataclass(frozen=True)
class Lab:
    number: int
    title: str
    handout: str                # relative to the repository root
    paper: str                  # the paper's section and table it rests on
    measures: tuple[Measure, ...]
    goals: tuple[Goal, ...] = ()
    # Correctness: these test programs on these ISAs (None: every ISA in
    # the registry, for labs whose change is in portable code).
    programs: tuple[str, ...] = checks.TEST_PROGRAMS
    arches: tuple[str, ...] | None = None
    # Checks of the lab's own, run on each of those ISAs after the
    # programs (grade.py: GUEST_CHECKS).
    guest_checks: tuple[str, ...] = ()
    # Checks of two machines on one wire (grade.py: PAIR_CHECKS), run on
    # each of those ISAs that the registry puts on the wire.
    pair_checks: tuple[str, ...] = ()
    uses_policy: bool = False   # the measures name the student's policy
    notes: tuple[str, ...] = field(default=())

    def profiles(self) -> list[str]:
        out: list[str] = []
        for m in self.measures:
            if m.profile not in out:
                out.append(m.profile)
        return out

    def measure_arches(self) -> list[str]:
        """The ISAs the lab's profiles run on (their `isa`), in order."""
        out: list[str] = []
        for p in self.profiles():
            isa = profiles.load(p).isa
            if isa not in out:
                out.append(isa)
        return out

    def check_arches(self) -> list[str]:
        if self.arches is None:
            return machines.names()
        out = list(self.arches)
        for a in self.measure_arches():      # always those it measures on
            if a not in out:
                out.append(a)
        return out

    def keys(self, policy: str, student: bool = True) -> list[str]:
        """Every measured value's key; student=False leaves out those of
        the student's policy."""
        return [k for m in self.measures if student or not m.student
                for k in m.keys(policy)]


# Three machines of 1989 on three instruction sets: the DECstation 3100
# on its own MIPS I code (ds3100) and on RISC-V code (ds3100-riscv), the
# MicroVAX II on the VAX (mvax2).
RISC = ("ds3100", "ds3100-riscv")
TRAP_METRICS = ("insns", "loads", "stores", "cycles", "stall_cycles", "us")
GETPID = "getpid -n 20000"
CSWITCH = "cswitch -n 2000"

LAB1 = Lab(
    1, "One system call, end to end", "docs/labs/lab1-syscall.md",
    "section 4, Table 2 (kernel entry-exit)",
    measures=tuple(Measure(p, GETPID, ("call",), TRAP_METRICS + ("traps",))
                   for p in ("ds3100-riscv", "ds3100", "mvax2")),
    arches=(),
)

LAB2 = Lab(
    2, "A cheaper trap path", "docs/labs/lab2-trap-path.md",
    "sections 4 and 12, Table 2",
    measures=(*(Measure(p, GETPID, ("call",), TRAP_METRICS) for p in (*RISC, "mvax2")),
              *(Measure(p, CSWITCH, ("roundtrip",), ("insns", "cycles")) for p in RISC)),
    goals=(Goal("getpid: a third fewer cycles on a RISC machine (ds3100 or ds3100-riscv)",
                tuple(key(p, "getpid", "call", "cycles") for p in RISC), -1 / 3, 20),
           Goal("getpid: a fifth fewer cycles on the MicroVAX II (mvax2)",
                (key("mvax2", "getpid", "call", "cycles"),), -0.2, 10)),
    arches=None,
)

LAB3 = Lab(
    3, "Copying at the speed of memory", "docs/labs/lab3-copy.md",
    "sections 7 and 8, Tables 5 and 6",
    measures=tuple(Measure(p, c, cases, ("MB/s", "insns", "cycles", "stall_cycles",
                                           "bytes_in", "bytes_out"))
                   for p in (*RISC, "mvax2")
                   for c, cases in (("readcache -n 2", ("1mb",)),
                                    ("bcopy -c 8K -u 1M -n 4", ("cached", "uncached")))),
    goals=(Goal("readcache: a tenth more MB/s on a RISC machine (ds3100 or ds3100-riscv)",
                tuple(key(p, "readcache", "1mb", "MB/s") for p in RISC), 0.10, 20),
           Goal("readcache: a quarter more MB/s on the MicroVAX II (mvax2)",
                (key("mvax2", "readcache", "1mb", "MB/s"),), 0.25, 10)),
    arches=None,
    guest_checks=("readcache_then_fsck",),
)

# Lab 4's measures: each policy's Table 10, on the DECstation's disk.
_CD_CASES = ("0k-{p}", "10k-{p}", "100k-{p}")
_CD_METRICS = ("ms", "disk_ms", "dev_writes", "sync_writes")


def _createdelete(policy: str) -> Measure:
    return Measure("ds3100", f"createdelete -p {policy} -n 10",
                   tuple(c.format(p=policy) for c in _CD_CASES), _CD_METRICS)


LAB4 = Lab(
    4, "A write policy of your own", "docs/labs/lab4-write-policy.md",
    "sections 11 and 12, Table 10",
    measures=(*(_createdelete(p) for p in ("sync", "delayed", "writethrough")),
              Measure("ds3100", "createdelete -p {policy} -n 10",
                      tuple(c.replace("{p}", "{policy}") for c in _CD_CASES), _CD_METRICS)),
    goals=(Goal("your policy: create-delete of an empty file in half the time `sync` takes",
                (key("ds3100", "createdelete", "0k-{policy}", "ms"),), -0.5, 15,
                against=key("ds3100", "createdelete", "0k-sync", "ms")),
           Goal("your policy: a 10 KB file in two thirds of the time `sync` takes",
                (key("ds3100", "createdelete", "10k-{policy}", "ms"),), -1 / 3, 15,
                against=key("ds3100", "createdelete", "10k-sync", "ms"))),
    arches=None,
    guest_checks=("policy_t_fs_fsck",),
    uses_policy=True,
)

LAB5 = Lab(
    5, "A faster context switch", "docs/labs/lab5-cswitch.md",
    "section 5, Table 3",
    measures=tuple(Measure(p, CSWITCH, ("roundtrip",), ("insns", "loads", "stores", "cycles",
                                                          "stall_cycles", "us"))
                   for p in (*RISC, "mvax2")),
    goals=(Goal("cswitch: a third fewer cycles on a RISC machine (ds3100 or ds3100-riscv)",
                tuple(key(p, "cswitch", "roundtrip", "cycles") for p in RISC), -1 / 3, 20),
           Goal("cswitch: a quarter fewer cycles on the MicroVAX II (mvax2)",
                (key("mvax2", "cswitch", "roundtrip", "cycles"),), -0.25, 10)),
    arches=None,
)

# Lab 6's round trips: netbench's three, on a pair of DECstations.
NETBENCH = "netbench -n 200 -c udp-rtt -c tcp-rtt -c icmp-rtt"

LAB6 = Lab(
    6, "What a round trip costs", "docs/labs/lab6-roundtrip.md",
    "seed 002's Network section (3a); the paper's remote file access, Table 8",
    measures=(Measure("ds3100-riscv", NETBENCH, ("udp-rtt", "tcp-rtt", "icmp-rtt"),
                      ("insns", "cycles", "idle_us", "us")),),
    goals=(Goal("udp-rtt: a tenth less time per round trip on the DECstation (ds3100-riscv)",
                (key("ds3100-riscv", "net", "udp-rtt", "us"),), -0.10, 20),
           Goal("tcp-rtt: a tenth less time per round trip on the DECstation (ds3100-riscv)",
                (key("ds3100-riscv", "net", "tcp-rtt", "us"),), -0.10, 10)),
    arches=None,
    pair_checks=("stream_under_loss",),
)

# Lab 7's file benchmarks on the DECstation: locally under each local
# policy, and on a diskless client under each protocol and under nfs with
# the student's unsafe server (rfsd -async: harness/course/rfschecks.py).
DS = "ds3100-riscv"
CREATEDELETE = "createdelete -p {p} -n 5"
ANDREW = "andrew -p {p}"
ASYNC = "-async"


def _files(p: str, remote: str = "", server: str = "") -> tuple[Measure, ...]:
    """Create-delete and Andrew under policy or protocol p; with a server's
    arguments (the student's -async), keys labelled with them."""
    on_server = ("rpcs",) if remote else ()
    return (Measure(DS, CREATEDELETE.format(p=p), (f"0k-{p}", f"100k-{p}"),
                    ("ms", "dev_writes") + on_server, remote, server, server, bool(server)),
            Measure(DS, ANDREW.format(p=p), (f"copy-{p}", f"compile-{p}"),
                    ("s", "dev_writes") + on_server, remote, server, server, bool(server)))


LAB7 = Lab(
    7, "NFS or Sprite?", "docs/labs/lab7-nfs-or-sprite.md",
    "sections 9-11, Tables 7-10: the Remote rows and Table 8's remote penalty",
    measures=(*_files("sync"), *_files("delayed"), *_files("nfs", "nfs"),
              *_files("sprite", "sprite"), *_files("nfs", "nfs", ASYNC)),
    goals=(Goal("nfs, the unsafe server (rfsd -async): create-delete of 100 KB in half the "
                "time the safe server takes",
                (key(DS, "createdelete", "100k-nfs" + ASYNC, "ms"),), -0.5, 20,
                against=key(DS, "createdelete", "100k-nfs", "ms")),
           Goal("nfs, the unsafe server: Andrew's copy phase a quarter faster than under the "
                "safe server",
                (key(DS, "andrew", "copy-nfs" + ASYNC, "s"),), -0.25, 10,
                against=key(DS, "andrew", "copy-nfs", "s"))),
    arches=None,
    pair_checks=("nfs_server_crash", "async_server_crash"),
)

LABS: dict[int, Lab] = {lab.number: lab for lab in (LAB1, LAB2, LAB3, LAB4, LAB5, LAB6, LAB7)}


def get(number: int) -> Lab:
    try:
        return LABS[number]
    except KeyError:
        raise ValueError(f"no lab {number} (labs: {', '.join(map(str, LABS))})") from None
