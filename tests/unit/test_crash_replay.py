"""The crash test's replay and classification (harness/crashtest/) on small
synthetic images: an image made by tools/mkfs, a file created in it by
hand (its data block, the bitmap, its inode, the directory entry), and
write logs that put those blocks on the disk in a safe order, in unsafe
ones, or with acknowledgements and cache-only changes, as the hardware
model's writelog= would record them.  tools/fsck (kernel/port/fsck.c) does
the checking, as in `make crashtest`.
"""

from __future__ import annotations

import struct
import subprocess

import pytest

from harness.crashtest import fsread, replay, wlog
from harness.crashtest.wlog import Record
from harness.errors import SetupError
from harness.guest.fsformat import BSIZE, DINODE, DIRENT, IPB, NADDRS, ROOTINO

PAYLOAD = b"acknowledged data\n" * 100          # 1800 bytes: two blocks


@pytest.fixture
def world(host_tools, tmp_path):
    """(image path, fsck, {role: final block contents by number}) for the
    creation of /tmp/x holding PAYLOAD."""
    tree = tmp_path / "tree"
    (tree / "tmp").mkdir(parents=True)
    (tree / "bin").mkdir()
    (tree / "bin" / "hello").write_bytes(b"hello\n")
    img = tmp_path / "fs.img"
    subprocess.run([host_tools / "mkfs", "-n", "512", "-i", "64", img, tree], check=True,
                   capture_output=True)
    disk = replay.initial_disk(img)
    before = bytes(disk)
    im = fsread.Image(disk)
    tmp = next(i for i in range(1, im.ninodes) if fsread.files(disk).get("/tmp", 0) is None
               and _name_of(im, i) == "tmp")
    inum = next(i for i in range(2, im.ninodes) if im.inode(i)[0] == 0)
    bmap = disk[im.bmapstart * BSIZE:(im.bmapstart + 1) * BSIZE]
    free = [b for b in range(im.datastart, im.nblocks) if not bmap[b // 8] >> (b % 8) & 1][:2]
    for b in free:                                   # the bitmap
        disk[im.bmapstart * BSIZE + b // 8] |= 1 << (b % 8)
    for k, b in enumerate(free):                     # the data
        disk[b * BSIZE:(b + 1) * BSIZE] = PAYLOAD[k * BSIZE:(k + 1) * BSIZE].ljust(BSIZE, b"\0")
    _, _, tsize, taddrs = im.inode(tmp)              # the inode, and tmp's size
    struct.pack_into("<" + DINODE.format, disk, _ioff(im, inum), 1, 1, len(PAYLOAD), *free,
                     *[0] * (NADDRS - len(free)))
    struct.pack_into("<I", disk, _ioff(im, tmp) + 4, tsize + DIRENT.size)
    struct.pack_into("<" + DIRENT.format, disk, taddrs[0] * BSIZE + tsize, inum, b"x")   # the entry
    changed = {b: bytes(disk[b * BSIZE:(b + 1) * BSIZE]) for b in range(im.nblocks)
               if disk[b * BSIZE:(b + 1) * BSIZE] != before[b * BSIZE:(b + 1) * BSIZE]}
    roles = {"data0": free[0], "data1": free[1], "bitmap": im.bmapstart,
             "inode": _ioff(im, inum) // BSIZE, "dir": taddrs[0]}
    assert _ioff(im, inum) // BSIZE == _ioff(im, tmp) // BSIZE     # one inode block
    assert set(changed) == set(roles.values())
    f = replay.Fsck(host_tools / "fsck")
    yield img, f, {r: (b, changed[b]) for r, b in roles.items()}
    f.close()


def _ioff(im: fsread.Image, i: int) -> int:
    return (im.inodestart + i // IPB) * BSIZE + (i % IPB) * DINODE.size


def _name_of(im: fsread.Image, i: int) -> str:
    root = im.read(ROOTINO)
    for off in range(0, len(root), DIRENT.size):
        n, name = struct.unpack_from("<" + DIRENT.format, root, off)
        if n == i:
            return name.split(b"\0")[0].decode()
    return ""


def log(blocks: dict, order: list[str], kind: str = "W") -> list[Record]:
    return [Record(kind, blocks[r][0], 1000 * k, blocks[r][1]) for k, r in enumerate(order)]


SAFE = ["data0", "data1", "bitmap", "inode", "dir"]


def verdicts(img, f, records, reorder=False) -> list[str]:
    points, _, _ = replay.replay(img, BSIZE, records, f, reorder=reorder)
    return [p.verdict for p in points]


def test_safe_order_is_never_inconsistent(world):
    img, f, blocks = world
    v = verdicts(img, f, log(blocks, SAFE))
    assert len(v) == 6                               # before any write, after each
    assert "inconsistent" not in v
    assert v[0] == v[-1] == "consistent"
    assert v[3] == "leaks"                           # bitmap written, inode not yet


def test_a_write_dropped_out_of_order_is_inconsistent(world):
    """The bitmap written last: the inode and entry point at blocks marked free."""
    img, f, blocks = world
    points, _, _ = replay.replay(img, BSIZE, log(blocks, ["data0", "data1", "inode", "dir",
                                                         "bitmap"]), f, reorder=False)
    bad = [p for p in points if p.verdict == "inconsistent"]
    assert [p.writes for p in bad] == [3, 4]
    assert "in use but marked free" in bad[0].check.first
    assert all(p.check.left == 0 for p in bad)       # fsck -y makes them clean


def test_inode_before_data_loses_acknowledged_data(world):
    """The inode (and entry) on the disk before the data: consistent, but the
    file holds zeros where acknowledged bytes were."""
    img, f, blocks = world
    records = log(blocks, SAFE, "D") + [Record("A", 0, 1)] + \
        log(blocks, ["bitmap", "inode", "dir", "data0", "data1"])
    points, _, _ = replay.replay(img, BSIZE, records, f, reorder=False)
    assert points[3].verdict == "consistent"
    assert points[3].lost == len(PAYLOAD)            # zeros instead of the text
    assert points[4].lost == len(PAYLOAD) - BSIZE
    assert points[5].lost == 0


def test_acknowledged_data_lost_until_written(world):
    """Delayed: every change acknowledged in the cache, then written."""
    img, f, blocks = world
    records = log(blocks, SAFE, "D") + [Record("A", 0, 9000)] + log(blocks, SAFE)
    points, _, _ = replay.replay(img, BSIZE, records, f, reorder=False)
    assert points[0].lost == len(PAYLOAD)
    assert points[0].lost_paths == [("/tmp/x", len(PAYLOAD))]
    assert points[-1].lost == 0
    # after data0, data1 and the bitmap, but before the inode: still lost
    assert points[3].lost == len(PAYLOAD)
    # nothing acknowledged: nothing lost, whatever the disk holds
    unacked = log(blocks, SAFE, "D") + log(blocks, SAFE)
    assert all(p.lost == 0 for p in replay.replay(img, BSIZE, unacked, f, reorder=False)[0])


def test_reordering_a_batch_drops_each_write_once(world):
    img, f, blocks = world
    records = log(blocks, SAFE)
    points, n_prefix, n_reorder = replay.replay(img, BSIZE, records, f, reorder=True)
    assert (n_prefix, n_reorder) == (6, 5)
    re = {p.dropped: p for p in points if p.kind == "reorder"}
    assert set(re) == {b for b, _ in blocks.values()}
    assert re[blocks["bitmap"][0]].verdict == "inconsistent"
    assert re[blocks["dir"][0]].verdict == "leaks"
    assert re[blocks["data0"][0]].verdict == "consistent"
    # no reordering when the policy orders its writes
    assert replay.replay(img, BSIZE, records, f, reorder=False)[2] == 0


def test_risk_over_time(world):
    img, f, blocks = world
    records = log(blocks, SAFE, "D") + [Record("A", 0, 5)] + log(blocks, SAFE) + \
        [Record("A", 0, 7)]
    assert replay.risk_over_time(img, BSIZE, records) == [(5, len(PAYLOAD)), (7, 0)]


def test_sampling_keeps_the_ends():
    assert replay._sample(5, 10) == [0, 1, 2, 3, 4]
    s = replay._sample(1000, 7)
    assert s[0] == 0 and s[-1] == 999 and len(s) == 7


def test_wlog_round_trip_and_errors():
    recs = [Record("W", 7, 1, b"a" * BSIZE), Record("A", 0, 2), Record("D", 3, 4, b"b" * BSIZE)]
    assert wlog.parse(wlog.encode(BSIZE, recs)) == (BSIZE, recs)
    with pytest.raises(SetupError, match="not a write log"):
        wlog.parse(b"junk")
    with pytest.raises(SetupError, match="cut short|bad record"):
        wlog.parse(wlog.encode(BSIZE, recs)[:-10])


def test_lost_counts_bytes_and_missing_paths():
    want = {"/tmp": None, "/tmp/a": b"abcd", "/tmp/d": None, "/tmp/e": b""}
    got = {"/tmp": None, "/tmp/a": b"abXd"}
    total, per = fsread.lost(want, got)
    assert total == 1
    assert per == [("/tmp/a", 1), ("/tmp/d", 0), ("/tmp/e", 0)]
    assert fsread.lost(want, {"/tmp": None, "/tmp/a": b"ab"})[0] == 2


def test_what_a_call_in_progress_changes_is_not_lost():
    acked = {"/tmp": None, "/tmp/gone": b"xxxx", "/tmp/w": b"old!", "/tmp/keep": b"data"}
    crashed = {"/tmp": None, "/tmp/w": b"new!"}
    # without the calls in progress: everything differing counts
    assert fsread.lost(acked, crashed)[0] == 4 + 3 + 4
    # /tmp/gone was being removed and /tmp/w rewritten when the power failed
    intended = {"/tmp": None, "/tmp/w": b"new!", "/tmp/keep": b"data"}
    total, per = fsread.lost(acked, crashed, intended)
    assert total == 4 and per == [("/tmp/keep", 4)]


def test_rename_judge_holds_the_name_once_a_whole_version_was_there():
    from harness.crashtest import names
    w = names.Watch("/tmp/r/f", frozenset({b"old version", b"new version"}))
    judge = names.Judge(w)
    assert judge({}) == ""                                  # not written yet
    assert judge({"/tmp/r/f": b"old"}) == ""                # the first one half written
    assert judge({"/tmp/r/f": b"old version"}) == names.WHOLE
    assert judge({"/tmp/r/f": b"new version"}) == names.WHOLE
    assert judge({"/tmp/r/f": b"new ver"}) == names.PARTIAL
    assert judge({"/tmp/r/f.new": b"new version"}) == names.MISSING
    assert judge({"/tmp/r/f": None}) == names.MISSING      # a directory is no file


def test_rename_versions_come_from_the_image(world):
    from harness.crashtest import names
    img, _, _ = world
    w = names.watch(replay.initial_disk(img), "/tmp/x", [["/bin/hello"], ["/bin/hello"] * 2])
    assert w.versions == {b"hello\n", b"hello\nhello\n"}
    with pytest.raises(ValueError, match="/bin/nothing"):
        names.watch(replay.initial_disk(img), "/tmp/x", [["/bin/nothing"]])
