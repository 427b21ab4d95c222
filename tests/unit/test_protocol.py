"""Parsing docs/protocol.md lines, and the derived values, on known integers."""

import re
from fractions import Fraction

import pytest

from harness.errors import ProtocolError
from harness.guest.protocol import (Boot, Killed, Panic, Result, Summary, TestLine, parse_line,
                              parse_lines)

GETPID = ("RESULT bench=getpid case=call iters=100000 ns=17401100 loop_ns=200100 "
          "insns=17400999 loop_insns=200025")
BCOPY = ("RESULT bench=bcopy case=cached iters=200 bytes=8192 ns=1648000 loop_ns=9600 "
         "insns=1000 loop_insns=0")


# ---------------------------------------------------------------- good lines

def test_result_fields():
    r = parse_line(GETPID)
    assert isinstance(r, Result)
    assert (r.bench, r.case) == ("getpid", "call")
    assert (r.iters, r.ns, r.loop_ns, r.insns, r.loop_insns, r.bytes) == \
        (100000, 17401100, 200100, 17400999, 200025, 0)
    assert r.line == GETPID
    assert r.extra == {}


@pytest.mark.parametrize("ending", ["", "\n", "\r\n", "\r\r\n", "\r"])
def test_line_endings_are_ignored(ending):
    assert parse_line(GETPID + ending) == parse_line(GETPID)


def test_result_with_bytes_and_extra_field():
    r = parse_line(BCOPY + " dcache_misses=12")
    assert r.bytes == 8192
    assert r.extra == {"dcache_misses": 12}      # typed once, here


def test_pass_fail_skip():
    assert parse_line("PASS name=pipe_eof") == TestLine("PASS", "pipe_eof", None)
    assert parse_line("FAIL name=x why=got_3_wanted_4") == TestLine("FAIL", "x", "got_3_wanted_4")
    assert parse_line("SKIP name=y why=no_fpu") == TestLine("SKIP", "y", "no_fpu")


def test_summary():
    assert parse_line("SUMMARY passed=5 failed=0 skipped=1") == Summary(5, 0, 1)


def test_killed():
    k = parse_line("kernel: killed pid=7 name=t_fault why=load_page_fault pc=0x1a2C addr=0x0")
    assert k == Killed(7, "t_fault", "load_page_fault", 0x1A2C, 0)


def test_killed_without_addresses():
    assert parse_line("kernel: killed pid=3 name=sh why=illegal_instruction") == \
        Killed(3, "sh", "illegal_instruction", None, None)


def test_panic_keeps_message():
    assert parse_line("panic: kalloc: out of memory\r") == Panic("kalloc: out of memory")


def test_boot():
    b = parse_line("BOOT arch=riscv ram=134217728 hz=100 pages=32398")
    assert b == Boot("riscv", 134217728, 100, {"pages": 32398})


@pytest.mark.parametrize("line", [
    "", "$ ", "hello world", "RESULT", "RESULTS bench=x", "getpid call: 0.172 us each",
    " RESULT bench=getpid", "PASSED name=x", "kernel: halt", "BOOTING now",
])
def test_lines_for_people_parse_to_none(line):
    assert parse_line(line) is None


def test_parse_lines_keeps_order_and_drops_human_lines():
    recs = parse_lines(["hi", "PASS name=a", "x", "SUMMARY passed=1 failed=0 skipped=0"])
    assert recs == [TestLine("PASS", "a"), Summary(1, 0, 0)]


# ---------------------------------------------------------------- malformed lines

@pytest.mark.parametrize("field", ["bench", "case", "iters", "ns", "loop_ns", "insns",
                                   "loop_insns"])
def test_result_missing_field_names_it(field):
    words = [w for w in GETPID.split() if not w.startswith(field + "=")]
    line = " ".join(words)
    with pytest.raises(ProtocolError) as e:
        parse_line(line)
    assert f"missing field '{field}'" in str(e.value)
    assert line in str(e.value)


@pytest.mark.parametrize("bad", ["12.5", "-3", "0x10", "1e6", "12a", "+4"])
@pytest.mark.parametrize("field", ["iters", "ns", "loop_ns", "insns", "loop_insns", "bytes"])
def test_result_non_integer_names_field(field, bad):
    line = re.sub(rf" {field}=[0-9]+", f" {field}={bad}", BCOPY)
    assert f" {field}={bad}" in line
    with pytest.raises(ProtocolError) as e:
        parse_line(line)
    assert f"field '{field}' is not a decimal integer" in str(e.value)
    assert repr(bad) in str(e.value)


def test_result_zero_iters_rejected():
    with pytest.raises(ProtocolError, match="iters"):
        parse_line(GETPID.replace("iters=100000", "iters=0"))


@pytest.mark.parametrize("line, why", [
    (GETPID + " ns=5", "appears twice"),
    (GETPID + " junk", "expected key=value"),
    (GETPID + " =5", "expected key=value"),
    (GETPID.replace("case=call", "case="), "empty value"),
    ("FAIL name=x", "missing field 'why'"),
    ("SKIP name=x", "missing field 'why'"),
    ("PASS why=x", "missing field 'name'"),
    ("SUMMARY passed=1 failed=0", "missing field 'skipped'"),
    ("SUMMARY passed=1 failed=no skipped=0", "'failed' is not a decimal integer"),
    ("kernel: killed pid=x name=a why=b", "'pid' is not a decimal integer"),
    ("kernel: killed pid=1 name=a why=b pc=1234", "'pc' is not a 0x hex number"),
    ("BOOT arch=riscv ram=1M hz=100", "'ram' is not a decimal integer"),
    ("BOOT ram=1 hz=100", "missing field 'arch'"),
])
def test_malformed_lines(line, why):
    with pytest.raises(ProtocolError, match=why):
        parse_line(line)


# ---------------------------------------------------------------- derived values

def test_per_op_exact():
    r = parse_line(GETPID)
    assert r.net_ns == 17201000
    assert r.ns_per_op == Fraction(17201000, 100000) == Fraction(17201, 100)
    assert r.us_per_op == pytest.approx(0.17201, abs=0, rel=1e-15)
    assert r.ms_per_op == 0.00017201
    assert r.insns_per_op == Fraction(17400999 - 200025, 100000)


def test_bandwidth_exact():
    r = parse_line(BCOPY)
    # 200 * 8192 bytes in 1648000 - 9600 = 1638400 ns: exactly 1 byte/ns = 1000 MB/s
    assert r.bytes_per_ns == 1
    assert r.mb_per_s == 1000.0
    r2 = parse_line("RESULT bench=bcopy case=uncached iters=3 bytes=1000 ns=7000 loop_ns=1000 "
                    "insns=0 loop_insns=0")
    assert r2.bytes_per_ns == Fraction(1, 2)
    assert r2.mb_per_s == 500.0


def test_no_bandwidth_without_bytes_or_net_time():
    assert parse_line(GETPID).mb_per_s is None
    r = parse_line(BCOPY.replace("ns=1648000", "ns=9600"))
    assert r.net_ns == 0 and r.mb_per_s is None


def test_instructions_not_counted():
    r = parse_line(GETPID.replace("insns=17400999", "insns=0").replace("loop_insns=200025",
                                                                        "loop_insns=0"))
    assert not r.counts_insns
    assert r.insns_per_op is None
    assert r.derived()["insns_per_op"] is None


def test_derived_values_and_typed_extra_fields():
    r = parse_line(BCOPY + " l2=7 policy=sync")
    assert r.derived() == {"ns_per_op": 8192.0, "us_per_op": 8.192, "ms_per_op": 0.008192,
                           "insns_per_op": 5.0, "mb_per_s": 1000.0}
    assert r.extra == {"l2": 7, "policy": "sync"}
    assert r.count("l2") == 7 and r.count("dev_reads") == 0
    with pytest.raises(ProtocolError, match="'policy' is not a decimal integer"):
        r.count("policy")
