"""harness.bench.suite and harness.bench.checks: judging output, and running on the fake guest."""

import re

import pytest

from harness import ROOT
from harness.bench import checks, suite
from harness.guest.console import Output
from harness.errors import BenchmarkError, GuestHang, ProtocolError
from harness.guest.protocol import Summary

GETPID = suite.BY_NAME["getpid"]


def out(*lines: str) -> Output:
    return Output("x", list(lines), 0.0)


def test_suite_is_the_papers_benchmarks():
    assert suite.SUITE == ("getpid", "cswitch", "select", "bcopy", "readcache", "openclose",
                           "createdelete", "andrew")
    # one list: the suite's, then the integer benchmark the model commands rate MIPS with
    assert [b.name for b in suite.BENCHMARKS] == [*suite.SUITE, "mips"]
    assert suite.BY_NAME["select"].cases == ("1empty", "10empty", "10full")
    assert suite.BY_NAME["bcopy"].cases == ("cached", "uncached")
    assert suite.BY_NAME["openclose"].cases == ("foo", "/a/b/c/foo")
    assert suite.BY_NAME["createdelete"].cases[:3] == ("0k-sync", "10k-sync", "100k-sync")
    assert len(suite.BY_NAME["createdelete"].cases) == 9
    assert suite.BY_NAME["andrew"].cases[:2] == ("copy-sync", "compile-sync")
    assert all(b.timeout > 0 for b in suite.BENCHMARKS)


def test_short_runs_print_a_subset_of_the_cases_in_order():
    """What attribute --case counts on: a short run prints these cases in
    this order, the suite's own (createdelete and andrew: their sync ones)."""
    for b in suite.BENCHMARKS:
        assert b.short_command.split()[0] == b.name
        cases = list(b.short_case_names)
        assert cases == [c for c in b.cases if c in cases], b.name
        if "-p sync" in b.short_command:
            assert cases and all(c.endswith("-sync") for c in cases), b.name
        else:
            assert tuple(cases) == b.cases, b.name


def test_choose():
    assert [b.name for b in suite.choose(None)] == list(suite.SUITE)
    assert [b.name for b in suite.choose(["mips", "getpid"])] == ["getpid", "mips"]
    assert [b.name for b in suite.choose(["bcopy", "getpid"])] == ["getpid", "bcopy"]
    with pytest.raises(BenchmarkError, match="unknown benchmark 'lat_fs'"):
        suite.choose(["lat_fs"])


def test_judge_accepts_good_output():
    line = "RESULT bench=getpid case=call iters=10 ns=300 loop_ns=100 insns=30 loop_insns=10"
    [r] = suite.judge(GETPID, out("hello", line, "getpid: 20 ns"))
    assert r.ns_per_op == 20


@pytest.mark.parametrize("lines, message", [
    (["just words"], "printed no RESULT line .last output: just words"),
    ([], "printed no RESULT line .last output: nothing"),
    (["RESULT bench=getpid case=call iters=1 ns=2 loop_ns=1 insns=0 loop_insns=0",
      "FAIL name=pid why=wrong"], "printed FAIL name=pid why=wrong"),
    (["kernel: killed pid=4 name=getpid why=load_page_fault pc=0x0 addr=0x0"],
     "killed pid 4 .getpid.: load_page_fault"),
    (["RESULT bench=getpid case=call iters=1 ns=5 loop_ns=5 insns=0 loop_insns=0"],
     "ns=5 is not above loop_ns=5"),
    (["RESULT bench=select case=call iters=1 ns=5 loop_ns=1 insns=0 loop_insns=0"],
     "RESULT for bench=select"),
    (["RESULT bench=getpid case=other iters=1 ns=5 loop_ns=1 insns=0 loop_insns=0"],
     "no RESULT for case 'call'"),
    (["RESULT bench=getpid case=call iters=1 ns=5 loop_ns=1 insns=0 loop_insns=0"] * 2,
     "case 'call' twice"),
])
def test_judge_fails_loudly(lines, message):
    with pytest.raises(BenchmarkError, match=message) as e:
        suite.judge(GETPID, out(*lines))
    assert "benchmark getpid" in str(e.value)


def test_judge_malformed_result_is_protocol_error():
    with pytest.raises(ProtocolError, match="missing field 'ns'"):
        suite.judge(GETPID, out("RESULT bench=getpid case=call iters=1 loop_ns=1 insns=0 "
                                "loop_insns=0"))


def test_run_suite_on_fake_guest(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    seen = []
    runs = suite.run_suite(g, suite.BENCHMARKS, progress=lambda r: seen.append(r.bench.name))
    assert seen == ["getpid", "cswitch", "select", "bcopy", "readcache", "openclose",
                    "createdelete", "andrew", "mips"]
    results = suite.all_results(runs)
    assert [(r.bench, r.case) for r in results][:7] == [
        ("getpid", "call"), ("cswitch", "roundtrip"), ("select", "1empty"),
        ("select", "10empty"), ("select", "10full"), ("bcopy", "cached"), ("bcopy", "uncached")]
    assert len(results) == 7 + 1 + 2 + 9 + 6 + 1
    by = {(r.bench, r.case): r for r in results}
    assert by["getpid", "call"].ns_per_op == 300
    assert by["cswitch", "roundtrip"].ms_per_op == 0.025
    assert by["select", "10full"].us_per_op == 6.0
    assert by["bcopy", "cached"].mb_per_s == 1000.0
    assert by["bcopy", "uncached"].mb_per_s == 500.0


@pytest.mark.parametrize("command, error, message", [
    ("noresult", BenchmarkError, "no RESULT line"),
    ("failbench", BenchmarkError, "FAIL name=getpid_value"),
    ("badresult", ProtocolError, "missing field 'ns'"),
    ("zeronet", BenchmarkError, "not above loop_ns"),
    ("killedbench", BenchmarkError, "killed pid 3"),
])
def test_broken_benchmarks_on_fake_guest(fake_guest, command, error, message):
    g = fake_guest()
    g.boot(timeout=10)
    bench = suite.Benchmark("getpid", ("call",), 10, command=command)
    with pytest.raises(error, match=message):
        suite.run_suite(g, [bench])


def test_benchmark_timeout_override(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    bench = suite.Benchmark("getpid", ("call",), 60, command="hang")
    with pytest.raises(GuestHang, match="command 'hang'.*after 0.3 s"):
        suite.run_benchmark(g, bench, timeout=0.3)


# ---------------------------------------------------------------- test programs

def test_checks_list():
    assert checks.TEST_PROGRAMS == ("t_efault", "t_fault", "t_forklimit", "t_pipe",
                                    "t_select", "t_proc", "t_fs", "t_cc", "t_jobs", "t_regs",
                                    "t_deep", "t_copy", "t_protect", "t_cow", "t_net",
                                    "t_entry", "t_rename")


def test_checks_list_is_what_the_makefile_builds():
    """A test program built but not checked (or checked but not built) is a mistake."""
    makefile = (ROOT / "Makefile").read_text()
    built = re.search(r"^GUEST_TESTS\s*:=\s*(.*)$", makefile, re.M)
    assert built is not None
    assert tuple(built.group(1).split()) == checks.TEST_PROGRAMS


def test_check_passing_program(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    run = checks.run_check(g, "t_ok", timeout=10)
    assert run.ok and run.problems() == []
    assert [t.name for t in run.passes] == ["one", "two"]
    assert run.summary == Summary(2, 0, 0)


def test_check_fault_program_collects_kills(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    run = checks.run_check(g, "t_fault", timeout=10)
    assert run.ok
    assert [(k.pid, k.why, k.pc) for k in run.killed] == [(7, "load_page_fault", 0x1A2C)]
    assert [s.why for s in run.skips] == ["not_on_this_isa"]
    assert g.run("echo still here", timeout=10).lines == ["still here"]


def test_check_failing_programs(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    bad = checks.run_check(g, "t_bad", timeout=10)
    assert not bad.ok
    assert bad.problems() == ["FAIL name=two why=got_3_wanted_4", "SUMMARY says failed=1"]
    nosum = checks.run_check(g, "t_nosummary", timeout=10)
    assert nosum.problems() == ["no SUMMARY line"]
    missing = checks.run_check(g, "t_missing", timeout=10)
    assert missing.problems() == ["no SUMMARY line", "no PASS line"]
