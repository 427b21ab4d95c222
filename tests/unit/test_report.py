"""harness.bench.report: the paper-style tables, and JSON/CSV files that round-trip."""

import json

import pytest

from harness.bench import paper, report
from harness.errors import HarnessError
from harness.guest.protocol import Boot, parse_line
from harness.tables import write_csv

LINES = [
    "RESULT bench=getpid case=call iters=1000 ns=250000 loop_ns=50000 insns=250000 loop_insns=50000",
    "RESULT bench=cswitch case=roundtrip iters=100 ns=400500 loop_ns=500 insns=400500 loop_insns=500",
    "RESULT bench=select case=1empty iters=10 ns=5000 loop_ns=0 insns=5000 loop_insns=0",
    "RESULT bench=select case=10empty iters=10 ns=12000 loop_ns=0 insns=12000 loop_insns=0",
    "RESULT bench=select case=10full iters=10 ns=11000 loop_ns=1000 insns=11000 loop_insns=1000",
    "RESULT bench=bcopy case=cached iters=200 bytes=8192 ns=1648000 loop_ns=9600 "
    "insns=1000 loop_insns=0 l1_misses=3",
    "RESULT bench=bcopy case=uncached iters=10 bytes=1048576 ns=20971520 loop_ns=0 "
    "insns=0 loop_insns=0",
]


def make_run(lines=LINES) -> report.RunRecord:
    return report.RunRecord(
        arch="riscv", profile="none", mips=1000.0, profile_note="profile none = test note",
        results=[parse_line(line) for line in lines],
        boot=Boot("riscv", 134217728, 100, {"pages": 32398}),
        meta={"emulator": "QEMU emulator version 10.0.2", "qemu_version": "10.0.2",
              "git_commit": "abc", "git_dirty": False, "created": "2026-01-01T00:00:00+00:00",
              "command": ["qemu", "-kernel", "k.elf"]})


def view(bench):
    return next(v for v in report.VIEWS if v.bench == bench)


def test_our_relative_speeds_follow_the_1990_rule():
    """MVAX2 Ultrix = 1 (0.9 MIPS), as in the 1990 paper and Figure 1."""
    run = make_run()
    # getpid: 200 ns = 0.2 us on a 1000-MIPS machine against MVAX2 Ultrix 207 us
    assert report.our_relative(view("getpid"), run) == pytest.approx((207 / 0.2) / (1000 / 0.9))
    # cswitch: 4000 ns = 0.004 ms against 3.66 ms
    assert report.our_relative(view("cswitch"), run) == pytest.approx((3.66 / 0.004) / (1000 / 0.9))
    # select uses the 10-full case: 1000 ns = 1 us against 1820 us
    assert report.our_relative(view("select"), run) == pytest.approx((1820 / 1) / (1000 / 0.9))
    # bcopy: uncached 500 MB/s / 1000 MIPS = 0.5 bytes per instruction
    assert report.our_relative(view("bcopy"), run) == 0.5


def test_format_report_contents():
    text = report.format_report(make_run())
    for title in ("Table 2: Getpid kernel call time",
                  "Table 3: Cswitch: echo one byte between processes using pipes",
                  "Table 4: Time for select kernel call",
                  "Table 5: Throughput of bcopy procedure for large blocks"):
        assert title in text
    lines = text.splitlines()
    # our getpid row: 0.200 us, MIPS-relative (207/0.2)/(1000/0.9) = 0.931
    row = next(line for line in lines if line.startswith("ours: riscv, profile none")
               and "0.200" in line)
    assert row.split()[-2:] == ["0.200", "0.931"]
    assert "  instructions per call" in text
    assert any(line.split()[-1] == "200" for line in lines if "instructions per call" in line)
    # select: 0.500, 1.20, 1.00 us and 1820/1 / (1000/0.9) = 1.64
    sel = [line for line in lines if line.startswith("ours:")][2]
    assert sel.split()[-4:] == ["0.500", "1.20", "1.00", "1.64"]
    # bcopy: 1000 and 500 MB/s, 0.500 bytes/instruction; uncached counts no instructions
    bc = [line for line in lines if line.startswith("ours:")][3]
    assert bc.split()[-3:] == ["1000", "500", "0.500"]
    ins = [line for line in lines if "instructions per copy" in line][0]
    assert ins.split()[-2:] == ["5.00", "-"]
    # paper rows as printed, units in headers, the notes underneath
    assert "Time (microseconds)" in text and "Time (ms)" in text
    assert "Cached (Mbytes/second)" in text
    # the paper's rows by the same rule: M2000 (207/18)/(20/0.9) = 0.52, the MVAX2 1
    assert any(line.startswith("M2000 RISC/os 4.0") and line.split()[-2:] == ["18", "0.52"]
               for line in lines)
    assert any(line.startswith("MVAX2 Ultrix 3.0") and line.split()[-2:] == ["207", "1.00"]
               for line in lines)
    assert "MIPS-relative speed (MVAX2 = 1)" in text and "Sun3 = 1" not in text
    # Table 5's column is MB/s per MIPS, and says so: 500 MB/s / 1000 MIPS
    assert "MB/s per MIPS" in text and "Bytes/instruction  " not in text
    assert any(line.startswith("Sun4 SunOS 4.0") and line.split()[-1] == "0.52"
               for line in lines)
    assert "profile none = test note" in text
    assert "MB = 10^6 bytes" in text


def test_our_row_comes_first_then_a_rule():
    block = report.format_view(view("getpid"), make_run())
    assert block[0] == "Table 2: Getpid kernel call time"
    assert block[1].startswith("Configuration")
    assert set(block[2].replace(" ", "")) == {"-"}
    assert block[3].startswith("ours: riscv, profile none")
    assert block[4].startswith("  instructions per call")
    assert set(block[5].replace(" ", "")) == {"-"}
    assert block[6].startswith("M2000 RISC/os 4.0")
    assert len(block) == 6 + len(paper.TABLE2.rows)


def test_partial_run_prints_only_its_tables():
    text = report.format_report(make_run(LINES[:1]))
    assert "Table 2" in text and "Table 3" not in text and "Table 5" not in text


def test_unknown_benchmark_goes_to_other_results():
    extra = "RESULT bench=lat_fs case=create iters=4 ns=4000 loop_ns=0 insns=0 loop_insns=0"
    text = report.format_report(make_run([*LINES, extra]))
    assert "Other results (no table in the paper)" in text
    assert any(line.split()[:3] == ["lat_fs", "create", "1000"] for line in text.splitlines())


def test_json_round_trip(tmp_path):
    run = make_run()
    path = tmp_path / "out" / "results.json"
    report.write_json(run, path)
    d = json.loads(path.read_text())
    assert d["format"] == report.FORMAT
    assert (d["arch"], d["profile"], d["mips"], d["qemu_version"], d["git_commit"]) == \
        ("riscv", "none", 1000.0, "10.0.2", "abc")
    assert d["boot"] == {"arch": "riscv", "ram": 134217728, "hz": 100, "pages": 32398}
    first = d["results"][0]
    assert first["line"] == LINES[0]
    assert first["derived"]["ns_per_op"] == 200.0
    assert first["derived"]["mb_per_s"] is None
    assert d["results"][5]["l1_misses"] == 3              # a number, not "3"
    # bcopy uncached printed insns=0 loop_insns=0: not counted, so null, not 0
    assert (d["results"][6]["insns"], d["results"][6]["loop_insns"]) == (None, None)
    assert d["results"][6]["derived"]["insns_per_op"] is None
    assert d["results"][0]["insns"] == 250000

    back = report.load_json(path)
    assert back.results == run.results
    assert back.boot == run.boot
    assert (back.arch, back.profile, back.mips, back.profile_note) == \
        (run.arch, run.profile, run.mips, run.profile_note)
    assert back.meta == run.meta
    assert report.format_report(back) == report.format_report(run)


def test_csv_round_trip(tmp_path):
    run = make_run()
    path = tmp_path / "results.csv"
    write_csv(path, *report.csv_table(run))
    rows = report.read_csv(path)
    assert list(rows[0])[:len(report.CSV_FIELDS)] == list(report.CSV_FIELDS)
    assert list(rows[0])[len(report.CSV_FIELDS):] == ["l1_misses"]
    assert len(rows) == len(run.results)
    for row, r in zip(rows, run.results):
        assert (row["arch"], row["profile"], row["bench"], row["case"]) == \
            ("riscv", "none", r.bench, r.case)
        for k in ("iters", "bytes", "ns", "loop_ns"):
            assert int(row[k]) == getattr(r, k)
        for k, v in r.derived().items():
            assert (row[k] == "") if v is None else (float(row[k]) == v)
    assert float(rows[5]["mb_per_s"]) == 1000.0
    assert rows[6]["insns"] == rows[6]["loop_insns"] == rows[6]["insns_per_op"] == ""
    assert rows[0]["unit"] == "us" and float(rows[0]["value"]) == 0.2
    assert float(rows[0]["mips_relative"]) == pytest.approx((207 / 0.2) / (1000 / 0.9))
    # profile none stands for no machine of the paper: no paper value
    assert rows[0]["paper_value"] == rows[0]["paper_table"] == ""


def test_paper_value_is_the_profiles_row():
    """A DS3100 model compares with Ultrix; the file benchmarks' UNIX rows
    with our sync policy (Ultrix wrote metadata synchronously) only."""
    run = make_run(LINES + FILE_LINES)
    run.paper_machine, run.paper_os = "DS3100", "Ultrix"
    by = {(r.bench, r.case): report.case_fields(run, r) for r in run.results}
    assert (by["getpid", "call"]["paper_table"], by["getpid", "call"]["paper_config"],
            by["getpid", "call"]["paper_value"]) == ("Table 2", "DS3100 Ultrix 3.1", 25)
    assert by["select", "10empty"]["paper_value"] == 153
    assert by["bcopy", "uncached"]["paper_value"] == 5.1
    assert by["openclose", "/a/b/c/foo"]["paper_config"] == "DS3100 Ultrix 3.1 Local"
    assert by["openclose", "/a/b/c/foo"]["paper_value"] == 0.41
    assert by["createdelete", "100k-sync"]["paper_value"] == 548
    assert by["createdelete", "100k-delayed"]["paper_value"] is None
    assert by["andrew", "compile-sync"]["paper_value"] == 133
    # typed counts, per operation too: 140 writes over 10 iterations
    cd = by["createdelete", "100k-sync"]
    assert (cd["policy"], cd["dev_writes"], cd["dev_writes_per_op"]) == ("sync", 140, 14.0)
    run.paper_machine, run.paper_os = "Sun3", "SunOS"   # Table 10 has no Sun3 SunOS row
    assert report.case_fields(run, run.result("createdelete", "0k-sync"))["paper_value"] is None


@pytest.mark.parametrize("content, message", [
    ("not json", "cannot read results file"),
    ('{"format": "other"}', "not a results file of this harness"),
    ('{"format": "%s", "arch": "riscv"}' % report.FORMAT, "malformed results file"),
])
def test_load_json_errors(tmp_path, content, message):
    p = tmp_path / "x.json"
    p.write_text(content)
    with pytest.raises(HarnessError, match=message):
        report.load_json(p)


def test_load_json_missing_file(tmp_path):
    with pytest.raises(HarnessError, match="cannot read results file"):
        report.load_json(tmp_path / "nope.json")


@pytest.mark.parametrize("v, s", [(None, "-"), (0, "0"), (1234.4, "1234"), (12.34, "12.3"),
                                  (1.234, "1.23"), (0.172, "0.172"), (0.0039, "0.00390"),
                                  (0.0000123, "1.23e-05")])
def test_fmt(v, s):
    assert report.fmt(v) == s


def test_git_state_outside_git(tmp_path):
    from harness.bench import provenance
    assert provenance.git_state(tmp_path)["commit"] is None


FILE_LINES = [
    "RESULT bench=readcache case=1mb iters=64 bytes=16384 ns=2097152 loop_ns=0 insns=0 "
    "loop_insns=0 misses=0 dev_reads=0",
    "RESULT bench=openclose case=foo iters=100 ns=200000 loop_ns=0 insns=0 loop_insns=0",
    "RESULT bench=openclose case=/a/b/c/foo iters=100 ns=500000 loop_ns=0 insns=0 loop_insns=0",
    *[f"RESULT bench=createdelete case={kb}k-{p} iters=10 ns={(kb + 1) * 1000000} loop_ns=0 "
      f"insns=0 loop_insns=0 policy={p} dev_writes={0 if p == 'delayed' else 40 + kb} "
      f"sync_writes=0 dev_reads=0"
      for p in ("sync", "delayed", "writethrough") for kb in (0, 10, 100)],
    *[f"RESULT bench=andrew case={ph}-{p} iters=1 ns={2000000000 if ph == 'copy' else 7000000000} "
      f"loop_ns=0 insns=0 loop_insns=0 policy={p} dev_writes=5 sync_writes=5 dev_reads=0"
      for p in ("sync", "delayed", "writethrough") for ph in ("copy", "compile")],
]


def test_file_benchmark_tables():
    text = report.format_report(make_run(LINES + FILE_LINES))
    lines = text.splitlines()
    assert "Other results" not in text
    # Table 6: 16384 * 64 bytes in 2097152 ns = 500 MB/s
    assert "Table 6: Bandwidth of reading from the file cache" in text
    assert any(line.startswith("ours: riscv, profile none") and " 500 " in line for line in lines)
    # Table 9: 2000 ns = 0.002 ms and 5000 ns = 0.005 ms
    assert any(line.startswith("ours: riscv, profile none") and "0.00200" in line
               and "0.00500" in line for line in lines)
    # Table 10: a row per policy, with the disk writes per file under it
    sync = lines.index(next(l for l in lines if l.startswith("ours: riscv, profile none, sync")
                            and "0.100" in l))
    assert lines[sync].split()[-3:] == ["0.100", "1.10", "10.1"]
    assert lines[sync + 1].split()[-3:] == ["4.00", "5.00", "14.0"]      # 40/10, 50/10, 140/10
    assert any(l.startswith("ours: riscv, profile none, delayed") for l in lines)
    # Table 7: copy, compile and their total, in seconds
    andrew = next(l for l in lines if l.startswith("ours: riscv, profile none, writethrough")
                  and "9.00" in l)
    assert andrew.split()[-3:] == ["2.00", "7.00", "9.00"]
