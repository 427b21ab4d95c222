"""harness/rfs/readpredict.py and fileread.py: the RPC's sizes against the
kernel's headers, a READ's frames and their time on the wire, the rows'
arithmetic, the commands a run types, and what `run --suite measure
--remote` refuses."""

import re

import pytest

from harness import ROOT
from harness.bench.diskpredict import Disk
from harness.bench.finaltable import Hardware, fileread_client_ns
from harness.errors import UsageError
from harness.guest.protocol import parse_line
from harness.model import profiles
from harness.net.link import Link
from harness.rfs import fileread, readpredict


def define(path, name):
    m = re.search(rf"#define\s+{name}\s+(.*?)\s*(?:/\*|$)", (ROOT / path).read_text(), re.M)
    assert m, f"{name} not in {path}"
    return m.group(1)


def test_rpc_sizes_are_the_kernels():
    assert int(define("kernel/port/rfs/rpc.h", "RPC_FRAG_HDR")) == readpredict.RPC_FRAG_HDR
    assert int(define("kernel/port/rfs/rfs.h", "RFS_MAXDATA")) == readpredict.RFS_MAXDATA
    assert define("kernel/port/rfs/rpc.h", "RPC_FRAG_DATA") == "(UDP_MAXDATA - RPC_FRAG_HDR)"
    assert define("kernel/port/net/net.h", "UDP_MAXDATA") == "(ETH_MTU - IP_HLEN - UDP_HLEN)"
    assert int(define("kernel/port/net/net.h", "ETH_MTU")) == 1500
    assert readpredict.RPC_FRAG_DATA == 1456


def test_a_read_is_one_frame_out_and_six_back():
    assert readpredict.frames(readpredict.READ_CALL) == [14 + 20 + 8 + 16 + 20]
    back = readpredict.frames(readpredict.READ_REPLY)
    assert back == [1514] * 5 + [14 + 20 + 8 + 16 + 8224 - 5 * 1456]
    assert readpredict.frames(0) == [58]


def test_a_reads_wire_time_is_link_arithmetic():
    link = Link.from_profile(profiles.load("ds3100-riscv").data["link"])
    ns = readpredict.read_call_wire_ns(link)
    assert ns == link.one_way_ns(78) + 5 * link.stream_ns(1514) + link.one_way_ns(1002)
    # 10 Mb/s: 8 KB and its headers take 6.7 ms of wire at least
    assert 6.7e6 < ns < 7.5e6


def result(case, ns, iters=64, size=65536, dev_reads=64):
    return parse_line(f"RESULT bench=fileread case={case} iters={iters} bytes=1024 ns={ns} "
                      f"loop_ns=0 insns=1 loop_insns=0 size={size} dev_reads={dev_reads} "
                      f"misses={dev_reads}")


def test_rows_local_first_then_each_protocol_and_their_predictions():
    data = profiles.load("ds3100-riscv").data
    hw, disk, link = Hardware.from_profile(data), Disk.from_profile(data), \
        Link.from_profile(data["link"])
    results = [result("seq-local-64k", 64 * 2_000_000), result("random-local-64k", 64 * 9_000_000),
               result("seq-nfs-64k", 64 * 3_000_000, dev_reads=0),
               result("random-sprite-64k", 64 * 5_000_000, dev_reads=0),
               result("seq-other", 1)]
    rows = readpredict.rows(results, data)
    assert [r.key for r in rows] == ["fileread/seq-local-64k", "fileread/random-local-64k",
                                     "fileread/seq-nfs-64k", "fileread/random-sprite-64k"]
    assert rows[0].hardware_ns == pytest.approx(fileread_client_ns(hw) + disk.sequential_ns)
    assert rows[1].hardware_ns == pytest.approx(fileread_client_ns(hw) + disk.random_ns(65536))
    wire = readpredict.read_call_wire_ns(link) / 8
    assert rows[2].hardware_ns == pytest.approx(fileread_client_ns(hw) + wire +
                                                disk.sequential_ns)
    # random: one positioning per 8-block chunk
    assert rows[3].hardware_ns == pytest.approx(
        rows[2].hardware_ns + (disk.random_ns(65536) - disk.sequential_ns) / 8)
    assert rows[2].measured_ns == 3_000_000
    assert rows[2].operation == "remote, nfs file read, per block: 64 KB file, cold, seq"
    assert rows[2].source == "002 4c" and rows[0].source == "002 4b"


def test_commands_and_cases():
    assert fileread.make_command(256) == "rfileread fileread -k 256 -m"
    b = fileread.read_bench("sprite", 1024)
    assert b.command_line == "rfileread fileread -k 1024 -e sprite-1024k"
    assert b.cases == ("seq-sprite-1024k", "random-sprite-1024k")
    assert b.name == "fileread"


def test_the_remote_measure_run_takes_no_bench():
    from harness import cli
    parser, _ = cli.build_parser()
    args = parser.parse_args(["run", "--arch", "riscv", "--profile", "ds3100-riscv",
                              "--suite", "measure", "--remote", "nfs", "--bench", "fileread"])
    with pytest.raises(UsageError, match="not --bench"):
        cli.check_run(args)
