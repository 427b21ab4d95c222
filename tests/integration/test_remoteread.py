"""Seed 002's remote file read (harness/rfs/fileread.py, docs/measure.md),
end to end on riscv under ds3100-riscv, with 64 KB files: the files made
on the server's disk by `rfileread fileread -m` (the tests' image's
/bin/measure with the remote read compiled in), read by a diskless client
under nfs and sprite, and the same files made and read on the client's
own disk beside them:

  - every block of both files came from the server's disk while the
    client read them (its buffer cache was emptied after they were made):
    2 x 64 disk reads at least;
  - the client fetched them 8 KB at a time, one READ per 8 blocks;
  - a sequential block costs the client at least the wire's share of its
    READ more than a local one (the calls' software comes on top);
  - a random block costs less remote than local: the server positions its
    disk once per 8 KB chunk, the local disk once per block;
  - no hardware prediction is above what was measured for the remote rows;
  - under nfs, a second pair prints the same RESULT lines.
"""

import pytest

from booting import TIMEOUT
from harness.guest import machines
from harness.guest.protocol import parse_line
from harness.model import profiles
from harness.net.link import Link
from harness.net.pair import Pair
from harness.rfs import fileread, readpredict
from harness.bench.diskpredict import Disk
from harness.bench.finaltable import Hardware
from harness.rfs.run import mount_step, rfsstat, serve, set_up

ARCH, PROFILE, KB = "riscv", "ds3100-riscv", 64
BLOCKS = KB * 1024 // 1024
PER_READ = readpredict.RFS_MAXDATA // 1024          # blocks a READ brings

pytestmark = pytest.mark.slow


@pytest.fixture
def riscv():
    m = machines.get(ARCH)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel} missing: run `make ARCH={ARCH}`")


def read_both_ways(tmp_path, proto, name):
    """The local and the remote reads of 64 KB files on one pair: (the
    RESULT lines, the client's rfsstat -a -s counts over the remote read:
    its calls, and the server's disk reads)."""
    with Pair(ARCH, profiles.load(PROFILE), tmp_path, test_image=True,
              names=(name + "-{node}.log", name + "-{node}.hw.log")) as p:
        fileread.make_files(p.b, "b", KB, TIMEOUT)
        fileread.make_files(p.a, "a", KB, TIMEOUT)
        lines = p.a.run(fileread.read_bench("local", KB).command_line, timeout=300).lines
        serve(p, TIMEOUT)
        set_up(p, (mount_step(proto, p.address("b")),), TIMEOUT)
        before = rfsstat(p.a.run("rfsstat -a -s", timeout=TIMEOUT).lines)
        lines += p.a.run(fileread.read_bench(proto, KB).command_line, timeout=300).lines
        after = rfsstat(p.a.run("rfsstat -a -s", timeout=TIMEOUT).lines)
    return [x for x in lines if x.startswith("RESULT")], \
        {k: after[k] - before.get(k, 0) for k in after}


def per_block(results, case, where):
    r = results[readpredict.case_name(case, where, KB)]
    assert r.iters == BLOCKS and r.count("size") == KB * 1024
    return r.ns_per_op


@pytest.mark.parametrize("proto", ["nfs", "sprite"])
def test_remote_read_comes_from_the_servers_disk_8_kb_a_call(tmp_path, riscv, proto):
    lines, stats = read_both_ways(tmp_path, proto, "one")
    results = {r.case: r for r in map(parse_line, lines)}
    assert len(results) == 4, lines
    data = profiles.load(PROFILE).data
    link = Link.from_profile(data["link"])
    hw, disk = Hardware.from_profile(data), Disk.from_profile(data)

    # Cold on the server: both files' blocks from its disk while the client
    # read them (a server that kept them cached reads only the program's
    # blocks from its disk).  Fetched a chunk at a time: a READ per 8
    # blocks of each file, at least.
    assert stats["server_dev_reads"] >= 2 * BLOCKS
    assert stats["rpc_calls"] >= 2 * BLOCKS // PER_READ
    assert stats["rpc_retrans"] == 0
    for case in readpredict.CASES:
        remote = results[readpredict.case_name(case, proto, KB)]
        assert remote.count("dev_reads") == 0          # nothing of the client's disk
        assert results[readpredict.case_name(case, "local", KB)].count("dev_reads") >= BLOCKS

    wire = readpredict.read_call_wire_ns(link) / PER_READ
    assert wire > 0
    seq_local, seq_remote = per_block(results, "seq", "local"), per_block(results, "seq", proto)
    assert seq_remote - seq_local >= wire, (seq_local, seq_remote, wire)
    rnd_local = per_block(results, "random", "local")
    rnd_remote = per_block(results, "random", proto)
    assert rnd_remote < rnd_local, (rnd_local, rnd_remote)
    for case in readpredict.CASES:
        predicted = readpredict.remote_block_ns(hw, disk, link, case, KB * 1024)
        assert per_block(results, case, proto) >= predicted

    if proto == "nfs":
        again, _ = read_both_ways(tmp_path, proto, "two")
        assert again == lines
