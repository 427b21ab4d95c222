"""harness/rfs and report.py's remote rows: the commands a remote run types,
the cases and rows of Tables 7-10 under nfs and sprite, Table 8's penalty
and MIPS-relative speed, and the parsers of rfsstat and the server's crash
lines (docs/remote-files.md)."""

import pytest

from harness.bench import report
from harness.errors import BenchmarkError, SetupError, UsageError
from harness.guest import machines
from harness.net.pair import on_wire
from harness.guest.protocol import parse_line
from harness.rfs import crash, run as rfsrun, table8


def andrew(p, copy_s, compile_s, extra=""):
    return [f"RESULT bench=andrew case={ph}-{p} iters=1 ns={int(s * 1e9)} loop_ns=0 insns=10 "
            f"loop_insns=0 policy={p}{extra}" for ph, s in (("copy", copy_s), ("compile", compile_s))]


def record(lines, profile="ds3100", machine="DS3100", mips=13.0):
    return report.RunRecord(arch="mips", profile=profile, mips=mips, profile_note="note",
                            results=[parse_line(x) for x in lines], paper_machine=machine,
                            paper_os="Ultrix")


REMOTE = " dev_writes=1400 sync_writes=1400 dev_reads=4 rpcs=300 retrans=0 local_writes=0"


def test_plan_runs_local_then_each_protocol_each_on_its_own_pair():
    steps = rfsrun.plan(("nfs", "sprite"), rfsrun.BENCHES, "10.0.0.1")
    assert [s.commands for s in steps] == [
        ["openclose"],
        ["createdelete -p sync"], ["createdelete -p delayed"],
        ["andrew -p sync"], ["andrew -p delayed"],
        ["mount -t nfs 10.0.0.1 /", "openclose -p nfs"],
        ["mount -t nfs 10.0.0.1 /", "createdelete -p nfs"],
        ["mount -t nfs 10.0.0.1 /", "andrew -p nfs"],
        ["mount -t sprite 10.0.0.1 /", "openclose -p sprite"],
        ["mount -t sprite 10.0.0.1 /", "createdelete -p sprite"],
        ["mount -t sprite 10.0.0.1 /", "andrew -p sprite"]]
    assert steps[5].setup == (("mount -t nfs 10.0.0.1 /", "mount: nfs 10.0.0.1 on /"),)
    assert steps[5].bench.cases == ("foo-nfs", "/a/b/c/foo-nfs")
    assert steps[7].bench.cases == ("copy-nfs", "compile-nfs")
    # one protocol: only its OS's local policy
    assert [s.commands for s in rfsrun.plan(("sprite",), ("andrew",), "10.0.0.1")] == [
        ["andrew -p delayed"], ["mount -t sprite 10.0.0.1 /", "andrew -p sprite"]]


def test_a_remote_run_is_refused_off_the_wire_and_for_other_benchmarks():
    """Before anything is built: an ISA whose machine has no NIC (Pair's
    check), a benchmark with no remote rows, an unknown protocol."""
    off = [m.arch for m in machines.MACHINES.values() if not on_wire(m)]
    for arch in off:
        with pytest.raises(SetupError, match=f"arch '{arch}'"):
            rfsrun.check(arch, "none", "both")
    on = [m.arch for m in machines.MACHINES.values() if on_wire(m)]
    assert on, "no ISA on the wire"
    rfsrun.check(on[0], "none", "both")
    with pytest.raises(UsageError, match="not getpid"):
        rfsrun.check(on[0], "none", "nfs", ["getpid"])
    with pytest.raises(UsageError, match="'afs'"):
        rfsrun.check(on[0], "none", "afs")


def test_protocols_of_refuses_an_unknown_one_by_name():
    assert rfsrun.protocols_of("both") == ("nfs", "sprite")
    with pytest.raises(UsageError, match="'afs'"):
        rfsrun.protocols_of("afs")


def test_view_cases_name_remote_cases_after_the_protocol():
    oc = report.view_of("openclose")
    assert report.view_cases(oc, "") == ("foo", "/a/b/c/foo")
    assert report.view_cases(oc, "sprite") == ("foo-sprite", "/a/b/c/foo-sprite")
    assert report.view_cases(report.view_of("createdelete"), "nfs") == (
        "0k-nfs", "10k-nfs", "100k-nfs")
    assert report.column_of(oc, "/a/b/c/foo-nfs") == (1, "nfs")


def test_remote_rows_and_the_papers_remote_row():
    lines = (andrew("sync", 8, 20) + andrew("nfs", 11, 27, REMOTE) +
             ["RESULT bench=openclose case=foo-nfs iters=10 ns=17000000 loop_ns=0 insns=10 "
              "loop_insns=0 policy=nfs" + REMOTE.replace("rpcs=300", "rpcs=10")])
    run = record(lines)
    text = report.format_report(run)
    assert "ours: mips, profile ds3100, nfs remote" in text
    assert "  server disk writes per phase" in text
    assert "  calls to the server per open and close" in text
    # no empty rows for the policies that did not run in a remote run
    assert "ours: mips, profile ds3100, writethrough" not in text
    # the paper's number for a remote case is its Remote row of the OS
    assert report.paper_value(run, "andrew", "copy-nfs") == (
        "Table 7", "DS3100 Ultrix 3.1 Remote", 115)
    assert report.paper_value(run, "openclose", "foo-nfs") == (
        "Table 9", "DS3100 Ultrix 3.1 Remote", 3.8)


def test_table8_penalty_and_mips_relative_speed_against_our_mvax2():
    ours = record(andrew("sync", 8, 20) + andrew("nfs", 11, 27, REMOTE) +
                  andrew("delayed", 1, 13) + andrew("sprite", 2, 15, REMOTE))
    rows = report.table8_rows(ours, reference=280.0)
    assert [r[0] for r in rows] == ["ours: mips, profile ds3100, sync local / nfs remote",
                                    "ours: mips, profile ds3100, delayed local / sprite remote"]
    assert rows[0][2] == pytest.approx((38 / 28 - 1) * 100)
    assert rows[1][2] == pytest.approx((17 / 14 - 1) * 100)
    assert rows[0][1] == pytest.approx((280 / 28) / (13 / 0.9))
    assert report.table8_rows(ours)[0][1] is None          # no reference: no speed
    text = "\n".join(report.format_table8(rows))
    assert "Sun4 SunOS 4.0" in text and "53" in text
    mvax = record(andrew("sync", 70, 210) + andrew("nfs", 80, 230, REMOTE), "mvax2", "MVAX2", 0.9)
    assert report.own_reference(mvax) == pytest.approx(280)
    assert report.own_reference(ours) is None
    out = table8.format_all([ours, mvax])
    assert out.index("profile mvax2") < out.index("profile ds3100")    # by MIPS
    assert "MIPS-relative speed against our MicroVAX II" in out
    assert table8.penalties(mvax) == {"nfs": pytest.approx((310 / 280 - 1) * 100)}


def test_rfsstat_parser_wants_its_first_line():
    assert rfsrun.rfsstat(["rfs proto=nfs", "rpc_calls=3", "rpc_retrans=0"]) == {
        "rpc_calls": 3, "rpc_retrans": 0}
    with pytest.raises(BenchmarkError, match="not its counters"):
        rfsrun.rfsstat(["t -a", "rfs proto=none"])


def test_crash_lines_are_parsed():
    m = crash.CRASHED.search("rfsd: crash after 22 calls: 22 dirty blocks lost")
    assert m.groups() == ("22", "22")
    assert crash.UP.search("rfsd: up again, epoch 2, fsck -y: 0 problems left").group(2) == "0"
    v = crash.VERIFIED.match("fileset: verified 5 files: missing=0 short=2 bad_bytes=20448")
    assert v.group(4) == "20448"
