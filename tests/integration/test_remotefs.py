"""Remote files on two machines (kernel/port/rfs/, harness/rfs/,
docs/remote-files.md), end to end (on riscv but for
the first test):

  - create-delete on a diskless client (/ mounted from the server) under
    nfs and sprite, and on the client's own disk under sync, twice under
    the model of each ISA on the deterministic wire (its registry entry's
    pair.on_wire and model_profile: riscv's ds3100-riscv, m68k's sun3, ...):
    the same RESULT lines; nfs's 100 KB file costs the
    server 100+ disk writes per file, every one made while a call waited
    (its data written through on close, the server writing before it
    replies), and its extra time is at least what those writes cost the
    disk; sprite's costs the server none, and 5 calls a file whatever its
    size; the client's own disk is never written;
  - with every 5th frame lost each way, creating and removing 20 files
    under nfs retransmits, and the server answers the copies of calls it
    has done from its duplicate-request cache: every remove is done once
    (done twice, the second would fail with ENOENT);
  - two sprite clients (two mounts of one server on one machine, each with
    its own port, cache and state at the server): a file one wrote and
    closed, with its blocks still in its cache, is recalled from it when
    the other opens it (sequential write-sharing); a file one holds open
    for writing is not cached by either once the other opens it
    (concurrent write-sharing); the reader sees every byte either way;
  - a mount at a bad path (not absolute, not there, not a directory,
    mounted already) and a rename across a mount are refused with the
    errno that says why;
  - a server crash under each protocol (harness/rfs/crash.py): nfs loses
    nothing that was acknowledged and the client retransmits through the
    outage; sprite loses the write-backs its cache held, and the client
    reopens its files (Sprite's recovery).
"""

import pytest

from booting import TIMEOUT
from harness.guest import machines
from harness.guest.protocol import parse_line
from harness.model import profiles
from harness.net.pair import Pair, on_wire
from harness.rfs import crash, run as rfsrun

ARCH = "riscv"

pytestmark = pytest.mark.slow


# Every ISA on the deterministic wire (pair.on_wire), with the model its tests use.
ON_WIRE = [(m.arch, m.model_profile) for m in machines.MACHINES.values() if on_wire(m)]


def built(arch):
    m = machines.get(arch)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel} missing: run `make ARCH={arch}`")


@pytest.fixture
def riscv():
    built(ARCH)


def createdelete_three_ways(tmp_path, name, arch, profile):
    """createdelete -n 3 locally under sync, then under nfs and sprite on a
    diskless client: its RESULT lines."""
    built(arch)
    with Pair(arch, profiles.load(profile), tmp_path,
              names=(name + "-{node}.log", name + "-{node}.hw.log")) as p:
        rfsrun.serve(p, TIMEOUT)
        lines = []
        for cmd in ("createdelete -p sync -n 3", f"mount -t nfs {p.address('b')} /",
                    "createdelete -p nfs -n 3", "policy sprite", "createdelete -p sprite -n 3"):
            lines += p.a.run(cmd, timeout=300).lines
    return [line for line in lines if line.startswith("RESULT")]


@pytest.mark.parametrize("arch,profile", ON_WIRE, ids=[f"{a}-{p}" for a, p in ON_WIRE])
def test_nfs_create_delete_waits_for_the_servers_disk_and_runs_repeat(tmp_path, arch, profile):
    first = createdelete_three_ways(tmp_path, "one", arch, profile)
    assert createdelete_three_ways(tmp_path, "two", arch, profile) == first
    r = {x.case: x for x in map(parse_line, first)}
    assert len(r) == 9, sorted(r)
    nfs, sprite, sync = r["100k-nfs"], r["100k-sprite"], r["100k-sync"]
    per = lambda x, k: int(x.extra[k]) / x.iters                          # noqa: E731
    # nfs: the server writes every block, and the inode and bitmap with each
    # 8 KB write, before it replies; all of them synchronous
    assert per(nfs, "dev_writes") >= 100
    assert nfs.extra["sync_writes"] == nfs.extra["dev_writes"]
    assert per(nfs, "rpcs") == 16                # create, 13 writes, getattr, remove
    # sprite: nothing reaches the server's disk, and 5 calls a file
    assert per(sprite, "dev_writes") == 0 and per(sprite, "rpcs") == 5
    assert all(per(r[f"{kb}k-sprite"], "rpcs") == 5 for kb in (0, 10, 100))
    # a diskless client: its own disk untouched under both
    assert all(x.extra.get("local_writes") == 0 for x in r.values() if "-sync" not in x.case)
    # the time: nfs bound by the server's synchronous writes
    disk = profiles.load(profile).data["disk"]
    write_ns = disk["overhead_us"] * 1e3 + 1024 / (disk["transfer_mbs"] * 1e6) * 1e9
    assert nfs.ns_per_op - sprite.ns_per_op >= per(nfs, "dev_writes") * write_ns
    assert nfs.ns_per_op > 3 * sprite.ns_per_op and nfs.ns_per_op > sync.ns_per_op


def test_a_retransmitted_remove_is_done_once(tmp_path, riscv):
    with Pair(ARCH, profiles.load("none"), tmp_path, overrides={"link.drop_every": 5}) as p:
        rfsrun.serve(p, TIMEOUT)
        p.a.run(f"mount -t nfs {p.address('b')} /", timeout=TIMEOUT)
        out = p.a.run("fileset write /tmp/d 20 0 remove /tmp/d 20", timeout=300)
        client = rfsrun.rfsstat(p.a.run("rfsstat -a", timeout=TIMEOUT).lines)
        server = rfsrun.rfsstat(p.b.run("rfsstat -a", timeout=TIMEOUT).lines)
        # (one call a file: a message of 6 fragments would lose one every time)
        gone = p.a.run("fileset verify /tmp/d 20 0", timeout=300).lines
    assert out.lines == ["fileset: wrote 20 files of 0 bytes", "fileset: removed 20 files"]
    assert client["rpc_retrans"] > 0
    assert server["srv_dup_replays"] > 0          # the copies answered, not done again
    assert gone == ["fileset: verified 20 files: missing=20 short=0 bad_bytes=0"]


def test_sprite_clients_see_each_others_writes(tmp_path, riscv):
    with Pair(ARCH, profiles.load("none"), tmp_path) as p:
        rfsrun.serve(p, TIMEOUT)
        for d in ("/r1", "/r2"):
            p.a.run(f"mkdir {d}", timeout=TIMEOUT)
            p.a.run(f"mount -t sprite {p.address('b')} {d}", timeout=TIMEOUT)
        sequential = p.a.run("fileset write /r1/tmp/s 1 5000 verify /r2/tmp/s 1 5000",
                             timeout=120).lines
        recalls = rfsrun.rfsstat(p.b.run("rfsstat -a", timeout=TIMEOUT).lines)["srv_recalls"]
        concurrent = p.a.run("fileset hold /r1/tmp/c0 3000 verify /r2/tmp/c 1 3000 release",
                             timeout=120).lines
        server = rfsrun.rfsstat(p.b.run("rfsstat -a", timeout=TIMEOUT).lines)
    ok = "fileset: verified 1 files: missing=0 short=0 bad_bytes=0"
    assert sequential[-1] == ok and recalls == 1
    assert concurrent == [ok]
    assert server["srv_nocache"] == 1


def test_bad_mounts_and_cross_mount_renames_are_refused_by_errno(tmp_path, riscv):
    """mount's path must be absolute and a local directory, and free; a
    rename between a mount and the local disk is EXDEV."""
    with Pair(ARCH, profiles.load("none"), tmp_path) as p:
        rfsrun.serve(p, TIMEOUT)
        server = p.address("b")
        run = lambda cmd: p.a.run(cmd, timeout=TIMEOUT).lines            # noqa: E731
        assert run(f"mount -t nfs {server} /nosuch") == [
            f"mount: {server} on /nosuch: no such file or directory"]
        assert run(f"mount -t nfs {server} tmp") == [
            f"mount: {server} on tmp: invalid argument"]
        assert run(f"mount -t nfs {server} /bin/cat") == [
            f"mount: {server} on /bin/cat: not a directory"]
        run("mkdir /r")
        assert run(f"mount -t nfs {server} /r") == [f"mount: nfs {server} on /r"]
        assert run(f"mount -t sprite {server} /r") == [f"mount: {server} on /r: busy"]
        run("echo hi > /tmp/local")
        assert run("mv /tmp/local /r/tmp/x") == [
            "mv: /tmp/local -> /r/tmp/x: across file systems"]
        assert run("cat /tmp/local") == ["hi"]


def test_nfs_server_crash_loses_nothing_acknowledged(tmp_path, riscv):
    o = crash.scenario("nfs", tmp_path, ARCH)
    assert o.server["srv_crashes"] == 1 and o.server_blocks_lost == 0
    assert o.bytes_lost == 0 and o.held_bytes_lost == 0 and o.fsck_problems_left == 0
    assert o.client["rpc_retrans"] > 0            # it waited the outage out
    assert o.client["rfs_recoveries"] == 0        # and had nothing to tell


def test_sprite_server_crash_loses_what_its_cache_held(tmp_path, riscv):
    o = crash.scenario("sprite", tmp_path, ARCH)
    assert o.server["srv_crashes"] == 1 and o.server_blocks_lost > 0
    assert 0 < o.bytes_lost <= crash.FILES * crash.SIZE
    assert o.held_bytes_lost == 0                 # on the server's disk by then
    assert o.fsck_problems_left == 0
    assert o.client["rfs_recoveries"] == 1 and o.client["rfs_reopens"] >= 1
