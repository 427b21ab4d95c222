"""The file system and the paper's file benchmarks on the real kernels.

- each file benchmark runs under each write policy, and fsck finds the file
  system consistent after every one;
- createdelete shows the paper's Table 10 effect: under `sync` every file
  costs synchronous disk writes, under `delayed` none reach the disk;
- with a disk latency model set, those writes cost time too;
- readcache reads only from the cache, and the Andrew benchmark compiles;
- the file benchmarks print the same numbers on two fresh boots.
"""

import re

import pytest

from booting import TIMEOUT, start_guest
from harness.bench import suite
from harness.guest.protocol import Result, parse_lines

FSCK = re.compile(r"fsck: (\d+) files, (\d+) directories, (\d+) blocks used, (\d+) free, "
                  r"(\d+) problems$")
POLICY = re.compile(r"policy=(\w+) age_ms=(\d+) cache=(\d+) cache_max=(\d+) disk=([\d,]+)$")


def results(lines: list[str]) -> dict[str, Result]:
    return {r.case: r for r in parse_lines(lines) if isinstance(r, Result)}


def fsck(guest) -> tuple[int, ...]:
    """Run fsck in the guest; assert the file system is consistent."""
    out = guest.run("fsck", timeout=TIMEOUT)
    found = [FSCK.match(line) for line in out.lines]
    m = next((x for x in found if x), None)
    assert m, f"no fsck summary in {out.lines}"
    assert int(m.group(5)) == 0, "\n".join(out.lines)
    return tuple(int(x) for x in m.groups())


def policy(guest, *args: str) -> re.Match:
    out = guest.run(" ".join(("policy",) + args), timeout=TIMEOUT)
    m = POLICY.match(out.lines[-1]) if out.lines else None
    assert m, f"policy printed {out.lines}"
    return m


@pytest.fixture(scope="session")
def fs_guest(arch):
    g = start_guest("filesystem-session", arch)
    yield g
    g.close()


@pytest.mark.parametrize("pol", suite.POLICIES)
def test_file_benchmarks_leave_the_fs_consistent(fs_guest, pol):
    free_before = fsck(fs_guest)[3]
    assert policy(fs_guest, pol).group(1) == pol
    for cmd in ("readcache", "openclose", f"createdelete -p {pol}", f"andrew -p {pol}"):
        out = fs_guest.run(cmd, timeout=TIMEOUT)
        got = results(out.lines)
        assert got, f"{cmd} printed no RESULT: {out.lines[-5:]}"
        for r in got.values():
            assert r.ns > r.loop_ns, r.line
        fsck(fs_guest)
    # Every benchmark cleans up after itself: no block is left in use.
    assert fsck(fs_guest)[3] == free_before
    policy(fs_guest, "sync")


def test_createdelete_sync_writes_what_delayed_does_not(bench_runs):
    """Table 10: UNIX's create and delete wait for the disk; Sprite's do not."""
    by = {r.case: r for r in bench_runs["createdelete"].results}
    for kb in (0, 10, 100):
        sync, delayed, wt = (by[f"{kb}k-{p}"] for p in suite.POLICIES)
        assert sync.extra["policy"] == "sync" and delayed.extra["policy"] == "delayed"
        per_file = sync.extra["dev_writes"] / sync.iters
        assert per_file >= 4 + kb, sync.line      # inode, directory, data on close, delete
        assert sync.extra["sync_writes"] == sync.extra["dev_writes"]
        assert delayed.extra["dev_writes"] == 0, delayed.line
        assert wt.extra["dev_writes"] >= sync.extra["dev_writes"] * wt.iters // sync.iters


def test_readcache_hits_the_cache(bench_runs):
    [r] = bench_runs["readcache"].results
    assert r.case == "1mb" and r.bytes == 16384
    assert r.bytes * r.iters >= 4 << 20           # several passes over the file
    assert r.extra["misses"] == 0 and r.extra["dev_reads"] == 0, r.line
    assert r.mb_per_s > 0


def test_openclose_longer_path_costs_more(bench_runs):
    by = {r.case: r for r in bench_runs["openclose"].results}
    assert by["/a/b/c/foo"].ns_per_op > by["foo"].ns_per_op > 0


def test_andrew_phases(bench_runs):
    by = {r.case: r for r in bench_runs["andrew"].results}
    for pol in suite.POLICIES:
        copy, compile_ = by[f"copy-{pol}"], by[f"compile-{pol}"]
        assert copy.extra["files"] >= 40 and copy.extra["kbytes"] >= 200
        # compiling is mostly computing, as in the paper
        assert compile_.net_ns > 5 * copy.net_ns
    assert int(by["copy-delayed"].extra["dev_writes"]) == 0
    assert int(by["copy-sync"].extra["sync_writes"]) > 0


def test_disk_model_makes_sync_writes_cost_time(fs_guest):
    """With 0.1 ms per disk request, a create-delete under sync waits for its
    writes (4 or more per file); under delayed it does not.  (Small: the
    VAX's idle loop executes instructions, so a waiting guest is not free
    to simulate there.)"""
    try:
        assert policy(fs_guest, "-disk", "100000", "0", "0", "0").group(5) == "100000,0,0,0"
        sync = results(fs_guest.run("createdelete -p sync -n 3", timeout=TIMEOUT).lines)
        delayed = results(fs_guest.run("createdelete -p delayed -n 3", timeout=TIMEOUT).lines)
    finally:
        policy(fs_guest, "sync", "-disk", "0", "0", "0", "0")
    assert sync["0k-sync"].ms_per_op >= 0.4
    assert delayed["0k-delayed"].ms_per_op < 0.1
    assert sync["100k-sync"].ms_per_op > 10             # 100 data blocks on close
    fsck(fs_guest)


def test_cache_size_and_policy_are_settable(fs_guest):
    m = policy(fs_guest, "delayed", "-age", "5000", "-cache", "512")
    assert (m.group(1), m.group(2), m.group(3)) == ("delayed", "5000", "512")
    m = policy(fs_guest, "sync", "-age", "30000", "-cache", m.group(4))
    assert m.group(1) == "sync" and m.group(3) == m.group(4)
    out = fs_guest.run("policy -cache 1", timeout=TIMEOUT)
    assert "invalid argument" in " ".join(out.lines)


@pytest.mark.slow
def test_file_benchmarks_identical_on_two_boots(boot):
    lines = []
    for _ in range(2):
        g = boot()
        out = []
        for cmd in ("readcache", "openclose", "createdelete", "andrew -p sync"):
            out += [r.line for r in parse_lines(g.run(cmd, timeout=TIMEOUT).lines)
                    if isinstance(r, Result)]
        lines.append(out)
        g.close()
    assert len(lines[0]) == 1 + 2 + 9 + 2
    assert lines[0] == lines[1]
