"""The remote penalty's sweep (harness/rfs/sweep.py, make sweep SWEEP_BENCH=remote),
without booting anything: a point's rows from its run (Table 8's penalty,
the server's writes and calls), the paper's penalties for the profile's
machine, what it refuses before anything is built, and its plot and table."""

import pytest

from harness import cli
from harness.errors import BenchmarkError, UsageError
from harness.rfs import sweep as rfssweep, table8

from test_rfs import REMOTE, andrew, record


def point(nfs=(11, 27), sprite=(2, 15)):
    return record(andrew("sync", 8, 20) + andrew("nfs", *nfs, REMOTE) +
                  andrew("delayed", 1, 13) + andrew("sprite", *sprite, REMOTE))


def test_a_points_rows_are_table8s_penalty_with_the_servers_writes_and_calls():
    rows = rfssweep.rows_of(point(), "cpu.clock_mhz", 33.34)
    assert [(r.protocol, r.local_policy) for r in rows] == [("nfs", "sync"),
                                                            ("sprite", "delayed")]
    nfs, sprite = rows
    assert (nfs.local_s, nfs.remote_s) == (pytest.approx(28), pytest.approx(38))
    assert nfs.penalty_pct == pytest.approx((38 / 28 - 1) * 100)
    assert sprite.penalty_pct == pytest.approx((17 / 14 - 1) * 100)
    assert [r.penalty_pct for r in rows] == \
        [table8.penalties(point())[p] for p in ("nfs", "sprite")]
    # copy and compile each wrote 1400 blocks at the server in 300 calls
    assert (nfs.server_writes, nfs.calls) == (2800, 600)
    assert all(r.param == "cpu.clock_mhz" and r.value == 33.34 for r in rows)


def test_a_point_without_both_runs_of_a_protocol_is_an_error():
    half = record(andrew("sync", 8, 20) + andrew("nfs", 11, 27, REMOTE))
    with pytest.raises(BenchmarkError, match=r"link.latency_ns = 1000: .* sprite and delayed"):
        rfssweep.rows_of(half, "link.latency_ns", 1000)


def test_the_papers_penalties_for_the_profiles_machine():
    assert rfssweep.paper_penalties("ds3100-riscv") == {
        "sprite": (6, "DS3100 Sprite"), "nfs": (26, "DS3100 Ultrix 3.1")}
    assert rfssweep.paper_penalties("pc-p5") == {}          # not in Table 8


def test_bad_sweeps_are_refused_by_name_before_anything_is_built():
    ok = ("riscv", "ds3100-riscv")
    rfssweep.check(*ok, "link.bandwidth_mbps", [1, 100], ["remote"])
    rfssweep.check(*ok, "cpu.clock_mhz", [8.335, 66.68], ["remote"])
    with pytest.raises(UsageError, match=r"--param cpu.clock_mhz --values: 0 is not a "
                                         r"possible value .*clock_mhz"):
        rfssweep.check(*ok, "cpu.clock_mhz", [16.67, 0], ["remote"])
    with pytest.raises(UsageError, match=r"link.latency_ns --values: 2000000"):
        rfssweep.check(*ok, "link.latency_ns", [2000000], ["remote"])
    with pytest.raises(UsageError, match=r"sweep getpid apart"):
        rfssweep.check(*ok, "cpu.clock_mhz", [16.67], ["remote", "getpid"])
    with pytest.raises(UsageError, match=r"--param2 disk.seek_ms"):
        rfssweep.check(*ok, "cpu.clock_mhz", [16.67], ["remote"], "disk.seek_ms")
    # the whole command line, as make's check-args runs it: status 2, nothing built
    argv = ["--check-only", "sweep", "--profile", "ds3100-riscv", "--bench", "remote",
            "--param", "link.bandwidth_mbps"]
    assert cli.main(argv + ["--values", "1,10"]) == 0
    assert cli.main(argv + ["--values", "0,10"]) == 2
    # a [link] field with a benchmark of one machine is still refused
    assert cli.main(argv[:4] + ["--bench", "getpid", "--param", "link.bandwidth_mbps",
                                "--values", "10"]) == 2


def test_the_table_and_plot_show_both_protocols(tmp_path):
    rows = (rfssweep.rows_of(point(), "link.bandwidth_mbps", 1) +
            rfssweep.rows_of(point((9, 25), (1.5, 14)), "link.bandwidth_mbps", 10))
    text = rfssweep.text_table(rows, at=10)
    assert "10 (profile)" in text and "35.7" in text        # (34 / 28 - 1) at 10 Mb/s
    rfssweep.plot(rows, [tmp_path / "s.svg"], "t", 10, rfssweep.paper_penalties("ds3100-riscv"))
    svg = (tmp_path / "s.svg").read_text()
    assert "DS3100 Ultrix 3.1" in svg and "nfs remote" in svg and "local delayed" in svg
    assert rfssweep.dir_name("ds3100-riscv", "cpu.clock_mhz") == \
        "sweep-ds3100-riscv-cpu-clock_mhz-remote"
