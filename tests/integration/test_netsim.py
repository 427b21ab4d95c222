"""Two machines on the modelled Ethernet (harness/net/, hw-models/core/wire.c,
docs/network.md): the deterministic link, end to end.

  - on every board the wire has a front end for (pair.on_wire: the
    registry's cards and back ends), `run --suite net` twice under the
    ISA's own profile (its model_profile: ds3100-riscv, pc-p5, sun3, ds3100, sun4, mvax2): the
    same RESULT lines and the same HWREGION records, every case measured,
    none below its predicted hardware share;
  - on riscv, with every 7th frame lost, a 512 KB TCP transfer delivers every byte
    in order (the server checks each), the sender retransmits, and two
    runs print the same RESULT and HWREGION records;
  - on every such board, 10,000 malformed frames delivered by the link's
    garbage mode to each machine: each is counted under the counter its
    kind names, and the machines answer afterwards;
  - a LANCE (mips) given frames faster than its ring takes them drops
    some itself (rx_missed, its CSR112): every frame is still accounted
    for, so the model's idling goes on, and the machines answer;
  - each machine of a run, again alone on the frames it took
    (harness/net/alone.py): the client prints the same RESULT lines, and
    both take and send the same frames.
"""

import re
import shutil
import time

import pytest

from booting import TIMEOUT, logs
from harness.guest import machines
from harness.errors import SetupError
from harness.model import profiles
from harness.net import garbage
from harness.net import run as netrun
from harness.net.alone import Alone
from harness.net.pair import Pair, on_wire

ARCH = "riscv"
# A board whose card drops frames itself when its ring is full (the
# LANCE: QEMU's virtio-net keeps them instead).
LANCE_ARCH = "mips"
# Every board with a wire front end, from the registry.
WIRE_ARCHS = [a for a in machines.names() if on_wire(machines.get(a))]

pytestmark = pytest.mark.slow


def need(arch):
    m = machines.get(arch)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel_path()} missing: run `make ARCH={arch}`")


@pytest.fixture
def built():
    need(ARCH)


def hwregions(path):
    return [line for line in path.read_text().splitlines() if line.startswith("HWREGION")]


def test_the_wire_archs_come_from_the_registry():
    assert "riscv" in WIRE_ARCHS and "vax" in WIRE_ARCHS, WIRE_ARCHS


@pytest.mark.parametrize("arch", WIRE_ARCHS)
def test_suite_net_is_deterministic(tmp_path, arch):
    need(arch)
    profile = machines.get(arch).model_profile
    runs = [netrun.run_net(arch, profile, tmp_path / f"run{i}", None, None,
                           lambda s: None) for i in (1, 2)]
    (dir1, rec1, _), (dir2, rec2, _) = runs
    assert [r.line for r in rec1.results] == [r.line for r in rec2.results]
    assert {r.case for r in rec1.results} == set(netrun.table.CASES)
    assert hwregions(dir1 / "hwmodel-a.log") == hwregions(dir2 / "hwmodel-a.log")
    assert len(hwregions(dir1 / "hwmodel-a.log")) == 2 * len(netrun.table.CASES)
    rows = rec1.meta["final_table"]
    for row in rows:
        if row["kind"] != "~":
            assert row["measured_ns"] >= row["hardware_ns"], row
    # The bulk's hardware share is an estimate ("~": the segments back to
    # back on the wire), and no transfer is faster than the wire (netbench
    # makes its data before it times: made in the loop and subtracted, a
    # fast sender once read 5.08 ms per 8 KB against the wire's 6.90).
    row = next(r for r in rows if r["key"] == "net/tcp-bulk")
    assert row["measured_ns"] >= row["hardware_ns"], row
    # Every frame the card sent was there when the driver had told it to
    # send (net_tx_nothing: a card that sends later, from QEMU's main loop,
    # as virtio-net without tx=sync or with an ioeventfd does), and none
    # waited in QEMU's queue for room in the card.
    for node in ("a", "b"):
        log = (dir1 / f"hwmodel-{node}.log").read_text()
        assert "HWWARN" not in log, [w for w in log.splitlines() if "HWWARN" in w]
        assert all(" rx_queued=0" in line for line in log.splitlines()
                   if line.startswith("HWNETHOLD"))
        # The lockstep's waits came to an end by a ring, not by the futex's
        # second: an idle node's stale want and a console question asked
        # while the peer looked once left 1-5 such sleeps a run on four
        # boards, and none on a quiet host now.  Under a full `make test`
        # a VAX node once slept one out (170,365 sleeps that run against
        # some 2,000 on a quiet host; not explained): one is let pass.
        host = [line for line in log.splitlines() if line.startswith("HWNETHOST")]
        timeouts = [int(line.split(" timeouts=")[1].split()[0]) for line in host]
        assert timeouts and max(timeouts) <= 1, host
    # both machines' provenance, and the wire's own account
    assert set(rec1.provenance["nodes"]) == {"a", "b"}
    assert rec1.meta["wire"]["a"]["tx_frames"] == rec1.meta["wire"]["b"]["rx_frames"]
    assert rec1.meta["wire"]["a"]["delivered"] == rec1.meta["wire"]["a"]["tx_frames"]


def bulk_with_loss(tmp_path, name):
    """512 KB through a link that loses every 7th frame: (RESULT line, the
    server's check, the client's retransmissions, frames the link lost)."""
    with Pair(ARCH, profiles.load("none"), tmp_path,
              names=(name + "-{node}.log", name + "-{node}.hw.log"),
              overrides={"link.drop_every": 7}) as p:
        p.b.begin("netd")
        p.b.wait_for("netd: ready", timeout=TIMEOUT)
        out = p.a.run(f"netbench -n 64 -c tcp-bulk {p.address('b')}", timeout=600)
        sink = p.b.wait_for(r"netd: sink bytes=524288 ", timeout=TIMEOUT)
        p.b.interrupt(timeout=TIMEOUT)
        stats = netrun.netstat(p.a.run("netstat -a", timeout=TIMEOUT).lines)
    result = next(line for line in out.lines if line.startswith("RESULT"))
    lost = netrun.read_hwnet(tmp_path / f"{name}-a.hw.log")["dropped"]
    return result, sink, stats["tcp_retransmits"], lost


def test_loss_every_byte_in_order_and_the_same_retransmissions(tmp_path, built):
    """Two runs transfer alike: the same RESULT, the same server's check,
    the same HWREGION records of the client (its timed transfer: a
    retransmission more or less would move them).  The retransmissions
    and lost frames counted at the end are not compared: they include the
    close's segments, still on their way when netstat is typed, at a
    moment the host picks (two runs once read 104 and 105)."""
    runs = []
    for name in ("loss1", "loss2"):
        result, sink, retransmits, lost = bulk_with_loss(tmp_path, name)
        assert "wrong=0" in result and sink.endswith("wrong=0"), (result, sink)
        assert lost > 0 and retransmits > 0, (name, retransmits, lost)
        runs.append((result, sink, hwregions(tmp_path / f"{name}-a.hw.log")))
    assert runs[0][2], "no HWREGION records"
    assert runs[1] == runs[0]


# How long a machine may take to count every garbage frame, in host seconds:
# the frames come as fast as the host runs the two machines, so a busy host
# (x86, three busy loops beside it) took a minute for the whole test.
GARBAGE_WAIT_S = 300


def counted_stats(g, enough, wait_s: float = GARBAGE_WAIT_S) -> dict[str, int]:
    """`netstat -a` on guest g until enough(stats) holds or wait_s host
    seconds have passed; the last stats.  A count of polls was not enough:
    600 netstats on a busy host ended with 9,967 of x86's 10,000 frames in,
    every kind short alike (the cause of the "miscount" once marked xfail)."""
    deadline = time.monotonic() + wait_s
    while True:
        stats = netrun.netstat(g.run("netstat -a", timeout=TIMEOUT).lines)
        if enough(stats) or time.monotonic() > deadline:
            return stats
        time.sleep(0.2)


@pytest.mark.parametrize("arch", WIRE_ARCHS)
def test_garbage_is_counted_and_the_machines_go_on(tmp_path, arch):
    """10,000 frames each wrong in one way, on every board's own card:
    each reaches the kernel and is counted once under its reason (the
    wire holds the CPU while a frame goes in, so every frame is accounted
    for, exactly), and both machines answer afterwards."""
    need(arch)
    n = 10_000
    with Pair(arch, profiles.load("none"), tmp_path,
              names=("garbage-{node}.log", "garbage-{node}.hw.log"),
              flood=garbage.Schedule(n, every_ns=200_000, start_ns=1_000_000_000)) as p:
        # The frames come in modelled time from 1 s on: the idle machines
        # take them as fast as the host runs them.
        for node in ("a", "b"):
            g = p.guests[node]
            kinds = p.garbage[node].kinds
            # Until every frame is counted under its reason, not only taken
            # from the card: a LANCE board's frames wait for the kernel's
            # net process, and netstat is typed at the host's moment.
            stats = counted_stats(g, lambda st: st["rx_frames"] >= n and
                                  sum(st[c] for c in kinds) >= n)
            assert stats["rx_frames"] == n, (node, stats["rx_frames"])
            assert sum(kinds.values()) == n
            for counter, count in kinds.items():
                assert stats[counter] == count, (node, counter, stats[counter], count)
            assert stats["rx_nobuf"] == 0
        p.b.begin("netd")
        p.b.wait_for("netd: ready", timeout=TIMEOUT)
        out = p.a.run(f"netbench -n 20 -c udp-rtt -c tcp-rtt {p.address('b')}", timeout=120)
        assert len([line for line in out.lines if line.startswith("RESULT")]) == 2, out.lines
    for node in ("a", "b"):
        assert netrun.read_hwnet(tmp_path / f"garbage-{node}.hw.log")["garbage"] == n


@pytest.mark.parametrize("arch", ["sparc"])
def test_a_machine_halted_while_frames_come_powers_off_with_its_records(tmp_path, arch):
    """Frames keep coming for a machine as it powers off (the garbage
    mode's, one every 200 us for 20 s of modelled time): it powers off,
    and its model writes its records.  The kernel's arch_halt() takes the
    machine off the wire (net.c's halt_cb): in the full suite a sparc
    node given a frame after it asked QEMU to power off waited 10 s for a
    card QEMU had stopped serving, and its model died without its records
    (and a riscv node outlived the harness's 5 s).  This test has not
    caught that race (it passed with the hook removed too: QEMU's main
    loop usually reads the frame before it stops); it checks the
    ordinary case, on the board where the race was seen."""
    need(arch)
    with Pair(arch, profiles.load("none"), tmp_path,
              names=("halt-{node}.log", "halt-{node}.hw.log"),
              flood=garbage.Schedule(100_000, every_ns=200_000, start_ns=1_000_000_000)) as p:
        stats = counted_stats(p.a, lambda st: st["rx_frames"] >= 1000)
        assert 1000 <= stats["rx_frames"] < 100_000, stats
        assert p.a.halt(timeout=60), "node a did not power off"
    hwnet = netrun.read_hwnet(tmp_path / "halt-a.hw.log")
    assert stats["rx_frames"] <= hwnet["garbage"] < 100_000, hwnet


def test_frames_the_card_drops_itself_are_accounted(tmp_path):
    """3,000 frames 100 ns apart: more than the LANCE's 32 descriptors
    between two interrupts.  The kernel counts each frame once, under the
    stack's counters, rx_nobuf, rx_errors or rx_missed (sched_idle's sum,
    which the model compares with the frames it put in: without rx_missed
    the machine hangs), and both machines answer afterwards."""
    need(LANCE_ARCH)
    n = 3000
    with Pair(LANCE_ARCH, profiles.load("none"), tmp_path,
              flood=garbage.Schedule(n, every_ns=100, start_ns=1_000_000_000)) as p:
        def taken(st):
            return st["rx_frames"] + st["rx_nobuf"] + st["rx_errors"] + st["rx_missed"]
        for node in ("a", "b"):
            stats = counted_stats(p.guests[node], lambda st: taken(st) >= n)
            assert taken(stats) == n, (node, stats)
            assert stats["rx_missed"] > 0, (node, stats)
        p.b.begin("netd")
        p.b.wait_for("netd: ready", timeout=TIMEOUT)
        out = p.a.run(f"netbench -n 20 -c udp-rtt {p.address('b')}", timeout=120)
        assert len([line for line in out.lines if line.startswith("RESULT")]) == 1, out.lines


def test_the_wire_needs_the_patched_qemu(tmp_path, built, monkeypatch):
    """The pair runs the wire's QEMU (scripts/qemu-wire.sh), and its
    provenance says so; Debian's QEMU, which cannot take a frame into the
    card from the vCPU's thread, is refused by the model by name."""
    m = machines.wire_emulator(machines.get(ARCH))
    exe = m.emulator.locate()
    assert exe and exe != shutil.which(m.emulator.binary), exe     # not Debian's
    assert "qemu-wire.sh" in m.emulator_version(), m.emulator_version()
    monkeypatch.setattr(machines, "wire_emulator", lambda m: m)
    with pytest.raises(Exception) as e:
        with Pair(ARCH, profiles.load("none"), tmp_path):
            pass
    log = "".join(p.read_text(errors="replace") for p in tmp_path.glob("*.log"))
    assert "needs the project's QEMU" in str(e.value) + log, (str(e.value), log[-2000:])


def _main_thread_switches(pid):
    status = open(f"/proc/{pid}/task/{pid}/status").read()
    return int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", status, re.M).group(1))


def test_the_host_side_of_a_round_trip(tmp_path, built):
    """Host scheduling only (docs/network.md, "What lockstep costs"): a
    round trip's frames cross the wire without QEMU's main loop (the
    patch's plugin-fed card: the guest's every new receive buffer woke it
    once, about a wake a frame), and the idle machine's thread is pinned
    to its waker's core (wire.c, "Sharing a core")."""
    with Pair(ARCH, profiles.load("none"), tmp_path) as pair:
        pair.b.begin("netd")
        pair.b.wait_for("netd: ready", timeout=TIMEOUT)
        before = {n: _main_thread_switches(pair.guests[n].pid) for n in "ab"}
        pair.a.run(f"netbench -n 100 {pair.address('b')}", timeout=TIMEOUT)
        woke = {n: _main_thread_switches(pair.guests[n].pid) - before[n] for n in "ab"}
        pair.b.interrupt()
    for n in "ab":
        log = pair.hw_log(n).read_text()
        rx = int(re.search(r"^HWNET .* rx_frames=(\d+)", log, re.M).group(1))
        assert rx > 1000 and woke[n] < rx / 10, (n, rx, woke)
    pins = [int(re.search(r"^HWNETHOST .* pins=(\d+)", pair.hw_log(n).read_text(), re.M).group(1))
            for n in "ab"]
    assert sum(pins) >= 1, pins


def test_programs_follow_one_another_on_the_wires_qemu(tmp_path, built):
    """The patch's shortcut for stores to a page of translated code
    (qemu-wire.patch, tb_invalidate_phys_range_fast) still invalidates
    what a store touches: a program loaded into the pages of the one
    before it runs its own code.  (With the shortcut skipping every page
    that has code, the second echo died: fetch_fault at pc 0.)"""
    with Pair(ARCH, profiles.load("none"), tmp_path) as pair:
        for i in range(4):
            assert pair.a.run(f"echo word{i}", timeout=TIMEOUT).lines == [f"word{i}"]
            listing = pair.a.run("ls /", timeout=TIMEOUT).lines
            assert "bin/" in listing and not any("killed" in x for x in listing), listing


def _hwnet(path):
    line = next(x for x in path.read_text().splitlines() if x.startswith("HWNET "))
    return dict(w.split("=", 1) for w in line.split()[1:])


def test_each_machine_again_alone(tmp_path, built):
    """A pair's run under the DS3100 model with every 9th frame lost
    (timers, retransmissions: where each frame went in matters), then each
    machine alone on the frames it took (hw-models/core/replay.h): the
    client's RESULT lines are the same, both machines take and send the
    same frames, and neither waits for a peer, though the client's command
    is typed otherwise (at once).  (A frame let in before the console
    characters it followed in the pair gave the server other frames to
    send: tests/mutants.toml, replay-before-typing.)"""
    hw = profiles.load("ds3100-riscv")
    lossy = {"link.drop_every": 9}
    # (the stream's cases: a datagram or echo lost is not sent again)
    command = "netbench -c tcp-rtt -c tcp-bulk -c tcp-connect -n 20 " + Pair.address("b")
    with Pair(ARCH, hw, tmp_path, overrides=lossy, record=True) as pair:
        pair.b.begin("netd")
        pair.b.wait_for("netd: ready", timeout=TIMEOUT)
        results = [x for x in pair.a.run(command, timeout=TIMEOUT).lines if x.startswith("RESULT")]
        pair.b.interrupt()
    assert len(results) == 3, results
    pair_net = {n: _hwnet(pair.hw_log(n)) for n in "ab"}
    assert int(pair_net["a"]["dropped"]) > 0, pair_net["a"]
    for node in "ab":
        alone = Alone(ARCH, hw, tmp_path, node, pair.recording(node), overrides=lossy)
        with alone:
            if node == "a":
                # The line typed at once, not a character after each echo:
                # the console wakes the client other times than in the pair
                # (its frames are anchored at its first frame sent).
                alone.guest._echoes = False
                out = alone.guest.run(command, timeout=TIMEOUT).lines
                assert [x for x in out if x.startswith("RESULT")] == results
            else:
                alone.guest.begin("netd")
                alone.guest.wait_for("netd: ready", timeout=TIMEOUT)
                alone.wait_taken(int(pair_net["b"]["rx_frames"]), timeout=TIMEOUT)
                alone.guest.interrupt()
        net = _hwnet(alone.hw_log(node))
        for key in ("tx_frames", "tx_bytes", "dropped", "rx_frames", "rx_bytes", "joined_ns"):
            assert net[key] == pair_net[node][key], (node, key, net, pair_net[node])
        host = alone.hw_log(node).read_text()
        assert re.search(r"^HWNETHOST .* wakes=[01] ", host, re.M), host[-500:]


def test_refusals():
    """A profile with no [link], or a bad [link] value, is refused by name
    before anything boots."""
    bare = profiles.load("ds3100-riscv", {"link": None})
    with pytest.raises(SetupError, match=r"no \[link\] section"):
        Pair(ARCH, bare, logs(ARCH))
    with pytest.raises(SetupError, match=r"\[link\] drop_every = -1"):
        Pair(ARCH, profiles.load("none"), logs(ARCH), overrides={"link.drop_every": -1})
    with pytest.raises(SetupError, match="garbage every_ns"):
        Pair(ARCH, profiles.load("none"), logs(ARCH), flood=garbage.Schedule(10, 0))
