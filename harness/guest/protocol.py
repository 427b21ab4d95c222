"""Parse the guest-to-host line protocol (docs/protocol.md) into dataclasses.

    parse_line("RESULT bench=getpid case=call iters=10 ns=...")  -> Result
    parse_line("PASS name=pipe_eof")                             -> TestLine
    parse_line("hello, world")                                   -> None

A line that starts with a protocol word must follow the document exactly:
a missing required field, a repeated field, a word without `=`, or a value
that should be an integer and is not raises ProtocolError naming the field
and quoting the line.  Lines that start with anything else are for people
and parse to None.  Every field is typed here, once: a RESULT or BOOT
line's fields beyond the required ones (size=, dev_reads=, policy=) are
ints where the guest printed a decimal integer and text otherwise, and no
reader parses them again.  Derived values (time per operation, bandwidth) are
computed here with exact fractions so rounding happens only when printing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Union

from ..errors import ProtocolError

# A decimal integer as the guest prints it: no sign, no spaces, no floating point.
_UINT = re.compile(r"[0-9]+")
_HEX = re.compile(r"0[xX][0-9a-fA-F]+")


def _fields(words: list[str], line: str) -> dict[str, str]:
    """Turn `key=value` words into a dict, rejecting anything else."""
    out: dict[str, str] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise ProtocolError(f"expected key=value, got {word!r} in line {line!r}")
        if not value:
            raise ProtocolError(f"field {key!r} has an empty value in line {line!r}")
        if key in out:
            raise ProtocolError(f"field {key!r} appears twice in line {line!r}")
        out[key] = value
    return out


def _require(f: dict[str, str], key: str, line: str) -> str:
    if key not in f:
        raise ProtocolError(f"missing field {key!r} in line {line!r}")
    return f[key]


def _uint(f: dict[str, str], key: str, line: str, default: int | None = None) -> int:
    if key not in f and default is not None:
        return default
    value = _require(f, key, line)
    if not _UINT.fullmatch(value):
        raise ProtocolError(f"field {key!r} is not a decimal integer ({value!r}) in line {line!r}")
    return int(value)


def _hex(f: dict[str, str], key: str, line: str) -> int | None:
    if key not in f:
        return None
    value = f[key]
    if not _HEX.fullmatch(value):
        raise ProtocolError(f"field {key!r} is not a 0x hex number ({value!r}) in line {line!r}")
    return int(value, 16)


def _value(v: str) -> int | str:
    """An extra field's value: an int if the guest printed a decimal integer."""
    return int(v) if _UINT.fullmatch(v) else v


@dataclass(frozen=True)
class Result:
    """One measured case: raw totals from the guest, derived values as properties.

    Bandwidth is in MB/s with MB = 10**6 bytes (so 1 byte/ns = 1000 MB/s).
    The paper writes "Mbytes/second" without saying which megabyte; at its
    precision (two or three digits) the 4.9% difference to 2**20 is visible,
    so we name ours explicitly.
    """

    bench: str
    case: str
    iters: int
    ns: int
    loop_ns: int
    insns: int
    loop_insns: int
    bytes: int = 0
    extra: dict[str, int | str] = field(default_factory=dict)   # typed: _value()
    line: str = ""

    REQUIRED_INTS = ("iters", "ns", "loop_ns", "insns", "loop_insns")

    @property
    def net_ns(self) -> int:
        """Time of the timed loop minus the empty loop, for all iterations."""
        return self.ns - self.loop_ns

    @property
    def ns_per_op(self) -> Fraction:
        """(ns - loop_ns) / iters, exactly."""
        return Fraction(self.net_ns, self.iters)

    @property
    def us_per_op(self) -> float:
        return float(self.ns_per_op / 1000)

    @property
    def ms_per_op(self) -> float:
        return float(self.ns_per_op / 1_000_000)

    @property
    def counts_insns(self) -> bool:
        """False when the ISA cannot count instructions (the guest prints 0s)."""
        return self.insns != 0 or self.loop_insns != 0

    @property
    def insns_per_op(self) -> Fraction | None:
        """(insns - loop_insns) / iters, or None when instructions are not counted."""
        if not self.counts_insns:
            return None
        return Fraction(self.insns - self.loop_insns, self.iters)

    @property
    def bytes_per_ns(self) -> Fraction | None:
        """bytes * iters / (ns - loop_ns); None if not a bandwidth case or no net time."""
        if self.bytes == 0 or self.net_ns <= 0:
            return None
        return Fraction(self.bytes * self.iters, self.net_ns)

    @property
    def mb_per_s(self) -> float | None:
        """Bandwidth in MB/s, MB = 10**6 bytes: bytes/ns * 10**9 / 10**6."""
        b = self.bytes_per_ns
        return None if b is None else float(b * 1000)

    def derived(self) -> dict[str, float | None]:
        """The derived values as plain numbers, for JSON and CSV."""
        ipo = self.insns_per_op
        return {
            "ns_per_op": float(self.ns_per_op),
            "us_per_op": self.us_per_op,
            "ms_per_op": self.ms_per_op,
            "insns_per_op": None if ipo is None else float(ipo),
            "mb_per_s": self.mb_per_s,
        }

    def count(self, key: str) -> int:
        """Extra field `key` as an integer, 0 when the line has none
        (dev_reads=, size=, ...); ProtocolError if the guest printed text."""
        v = self.extra.get(key, 0)
        if not isinstance(v, int):
            raise ProtocolError(f"field {key!r} is not a decimal integer ({v!r}) "
                                f"in line {self.line!r}")
        return v


@dataclass(frozen=True)
class TestLine:
    """PASS, FAIL or SKIP from a test program.  `why` is None for PASS."""

    __test__ = False  # not a pytest test class, despite the name

    kind: str
    name: str
    why: str | None = None


@dataclass(frozen=True)
class Summary:
    passed: int
    failed: int
    skipped: int


@dataclass(frozen=True)
class Killed:
    """`kernel: killed pid=P name=N why=W pc=0x.. addr=0x..`."""

    pid: int
    name: str
    why: str
    pc: int | None = None
    addr: int | None = None


@dataclass(frozen=True)
class Panic:
    message: str


@dataclass(frozen=True)
class Boot:
    """`BOOT arch=riscv ram=<bytes> hz=<timer Hz>`: the kernel is up."""

    arch: str
    ram: int
    hz: int
    extra: dict[str, int | str] = field(default_factory=dict)   # typed: _value()


Record = Union[Result, TestLine, Summary, Killed, Panic, Boot]


def _parse_result(rest: list[str], line: str) -> Result:
    f = _fields(rest, line)
    bench = _require(f, "bench", line)
    case = _require(f, "case", line)
    ints = {k: _uint(f, k, line) for k in Result.REQUIRED_INTS}
    nbytes = _uint(f, "bytes", line, default=0)
    if ints["iters"] == 0:
        raise ProtocolError(f"field 'iters' must be > 0 in line {line!r}")
    known = {"bench", "case", "bytes", *Result.REQUIRED_INTS}
    extra = {k: _value(v) for k, v in f.items() if k not in known}
    return Result(bench=bench, case=case, bytes=nbytes, extra=extra, line=line, **ints)


def _parse_test(kind: str, rest: list[str], line: str) -> TestLine:
    f = _fields(rest, line)
    name = _require(f, "name", line)
    why = _require(f, "why", line) if kind != "PASS" else f.get("why")
    return TestLine(kind=kind, name=name, why=why)


def _parse_summary(rest: list[str], line: str) -> Summary:
    f = _fields(rest, line)
    return Summary(passed=_uint(f, "passed", line), failed=_uint(f, "failed", line),
                   skipped=_uint(f, "skipped", line))


def _parse_killed(rest: list[str], line: str) -> Killed:
    f = _fields(rest, line)
    return Killed(pid=_uint(f, "pid", line), name=_require(f, "name", line),
                  why=_require(f, "why", line), pc=_hex(f, "pc", line),
                  addr=_hex(f, "addr", line))


def _parse_boot(rest: list[str], line: str) -> Boot:
    f = _fields(rest, line)
    extra = {k: _value(v) for k, v in f.items() if k not in ("arch", "ram", "hz")}
    return Boot(arch=_require(f, "arch", line), ram=_uint(f, "ram", line),
                hz=_uint(f, "hz", line), extra=extra)


def parse_line(line: str) -> Record | None:
    """Parse one console line (trailing \\r and \\n are ignored); None if not for us."""
    line = line.rstrip("\r\n")
    if line.startswith("panic: "):
        return Panic(message=line[len("panic: "):].strip())
    if line.startswith("kernel: killed "):
        return _parse_killed(line.split()[2:], line)
    word, space, _ = line.partition(" ")
    if not space:
        return None
    rest = line.split()[1:]
    if word == "RESULT":
        return _parse_result(rest, line)
    if word in ("PASS", "FAIL", "SKIP"):
        return _parse_test(word, rest, line)
    if word == "SUMMARY":
        return _parse_summary(rest, line)
    if word == "BOOT":
        return _parse_boot(rest, line)
    return None


def parse_lines(lines: list[str]) -> list[Record]:
    """Parse many lines, keeping only the protocol records, in order."""
    out: list[Record] = []
    for line in lines:
        rec = parse_line(line)
        if rec is not None:
            out.append(rec)
    return out
