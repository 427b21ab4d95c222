"""Sweeps of the wire, without booting anything (harness/model/sweep.py
with a benchmark of two machines): a [link] field swept with a one-machine
benchmark is refused, naming both; a link sweep's CSV carries the
hardware's share and reads back; the hardware share follows the swept bit
rate; times and a bandwidth are plotted in panels of their own."""

import pytest

from harness.errors import UsageError
from harness.model import modellog, sweep, sweeprows
from harness.model import profiles
from harness.bench import suite
from harness.tables import write_csv


def test_a_link_field_with_a_one_machine_benchmark_is_refused():
    with pytest.raises(UsageError, match=r"--param link.bandwidth_mbps: .*getpid runs on one "
                                         r"machine.*--bench net"):
        sweep.check("ds3100-riscv", "link.bandwidth_mbps", [5, 10], ["getpid"])
    # mixed: the one-machine benchmark is named
    with pytest.raises(UsageError, match=r"bcopy runs on one machine"):
        sweep.check("ds3100-riscv", "link.latency_ns", [0, 1000], ["net", "bcopy"])
    # as the second field of a grid too
    with pytest.raises(UsageError, match=r"--param2 link.latency_ns"):
        sweep.check("ds3100-riscv", "memory.bandwidth_mbs", [4], ["bcopy"],
                    "link.latency_ns", [0])
    # a value the link cannot have is refused as any field's is
    with pytest.raises(UsageError, match=r"--values: 0 is not a possible value"):
        sweep.check("ds3100-riscv", "link.bandwidth_mbps", [0, 10], ["net"])


def test_a_link_sweep_with_the_network_benchmark_is_accepted():
    sweep.check("ds3100-riscv", "link.bandwidth_mbps", [1, 10], ["net"])
    # and any field with it: the pair is what it runs on
    sweep.check("ds3100-riscv", "memory.bandwidth_mbs", [4, 8], ["net"])
    assert suite.needs_pair("net") and not suite.needs_pair("getpid")


def test_the_hardware_share_follows_the_swept_bit_rate():
    slow = sweep._hardware_share(profiles.load("ds3100-riscv", {"link.bandwidth_mbps": 1}))
    fast = sweep._hardware_share(profiles.load("ds3100-riscv", {"link.bandwidth_mbps": 10}))
    # a 106-byte frame each way: 8 + 110 bytes at 8 us a byte, NICs 10 us, cable 1 us
    assert slow["net", "udp-rtt"] == 2 * (5000 + 118 * 8000 + 1000 + 5000)
    assert fast["net", "udp-rtt"] == 2 * (5000 + 118 * 800 + 1000 + 5000)
    # a bulk block in MB/s: the wire's rate, ten times as high at ten times the bits
    assert sweep._in_unit(fast["net", "tcp-bulk"], 8192, "MB/s") == \
        pytest.approx(10 * sweep._in_unit(slow["net", "tcp-bulk"], 8192, "MB/s"), rel=1e-3)
    assert sweep._in_unit(1500.0, 0, "us") == 1.5


def test_a_link_sweep_csv_has_the_hardware_share_and_reads_back(tmp_path):
    rows = [sweeprows.SweepResult("link.bandwidth_mbps", v, "net", case, unit, m, None, 13.0,
                                  {k: 1.0 for k in modellog.COUNTERS}, hardware=hw)
            for v, case, unit, m, hw in ((1, "udp-rtt", "us", 2925.4, 1910.0),
                                         (1, "tcp-bulk", "MB/s", 0.148, 0.119))]
    write_csv(tmp_path / "sweep.csv", *sweeprows.csv_table(rows))
    head = (tmp_path / "sweep.csv").read_text().splitlines()[0]
    assert head.startswith("param,value,bench,case,unit,measured,mips_relative,machine_mips,"
                           "hardware,")
    back = sweeprows.read_csv(tmp_path / "sweep.csv")
    assert [(r.case, r.measured, r.hardware) for r in back] == \
        [("udp-rtt", 2925.4, 1910.0), ("tcp-bulk", 0.148, 0.119)]


def test_a_link_sweep_plots_times_and_bandwidth_apart(tmp_path):
    rows = [sweeprows.SweepResult("link.bandwidth_mbps", v, "net", case, unit, m * v, None,
                                  13.0, {k: 1.0 for k in modellog.COUNTERS}, hardware=m)
            for v in (1, 10) for case, unit, m in (("udp-rtt", "us", 100.0),
                                                  ("tcp-bulk", "MB/s", 0.1))]
    m = sweep.marks("ds3100-riscv", "link.bandwidth_mbps", rows)
    assert m.at == 10 and "10 Mb/s" in m.at_words
    sweep.plot(rows, [tmp_path / "s.svg"], "t", m)
    svg = (tmp_path / "s.svg").read_text()
    assert "net (002 3): microseconds" in svg and "net (002 3): MB per second" in svg
