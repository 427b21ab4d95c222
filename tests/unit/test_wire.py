"""The modelled Ethernet's core without an emulator: hw-models/core/link.c
and wire.c compiled for the host with tests/host/wire_host.c, under the
sanitizers.

  - the link's arithmetic, values asserted in C (serialisation, padding,
    the gap, NIC latencies, lookahead, loss, damage, the queue's limit);
  - the horizon rules, one node against a peer played by hand;
  - two simulated machines playing ping-pong through a real shared file,
    each in its own process: their traces (every frame's send and arrival
    time) are the same with and without random host delays;
  - the harness's copies of the file's layout (harness/net/wire.py) and of
    the link's arithmetic (harness/net/link.py) agree with the C.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from harness.errors import SetupError
from harness.model import modelargs, profiles
from harness.net import garbage, link, wire

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wire_host(tmp_path_factory):
    cc = shutil.which(os.environ.get("HOSTCC", "gcc"))
    if cc is None:
        pytest.skip("no host C compiler")
    out = tmp_path_factory.mktemp("wire_host") / "wire_host"
    flags = ["-O1", "-g", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", "-std=gnu11",
             "-Ihw-models/core"]
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    src = ["tests/host/wire_host.c", "hw-models/core/link.c", "hw-models/core/wire.c",
           "hw-models/core/replay.c", "-lm", "-lpthread"]
    r = subprocess.run([cc, *flags, *sanitize, "-o", out, *src], cwd=ROOT, capture_output=True,
                       text=True)
    if r.returncode != 0 and "sanitize" in r.stderr:
        r = subprocess.run([cc, *flags, "-o", out, *src], cwd=ROOT, capture_output=True,
                           text=True)
    assert r.returncode == 0, r.stderr
    return out


def _checks(out: str) -> tuple[list[str], list[str]]:
    lines = out.splitlines()
    return [x for x in lines if x.startswith("ok ")], [x for x in lines if x.startswith("FAIL")]


def test_link_arithmetic(wire_host):
    r = subprocess.run([wire_host, "link"], capture_output=True, text=True, timeout=60)
    oks, fails = _checks(r.stdout)
    assert r.returncode == 0 and not fails, r.stdout + r.stderr
    assert len(oks) >= 20 and r.stdout.splitlines()[-1] == "done 0 failed"


def test_horizon_rules(wire_host, tmp_path):
    r = subprocess.run([wire_host, "rules", tmp_path / "wire"], capture_output=True, text=True,
                       timeout=60)
    oks, fails = _checks(r.stdout)
    assert r.returncode == 0 and not fails, r.stdout + r.stderr
    names = {x.split()[1] for x in oks}
    for want in ("check_injects_due", "idle_frame_at", "idle_deadline_why", "input_ack_at",
                 "horizon_pending", "peer_done"):
        assert want in names


def _pingpong(wire_host, tmp_path, seeds: tuple[int, int],
              share: bool = False, record: bool = False) -> tuple[str, str]:
    path = tmp_path / f"pp-{seeds[0]}"
    subprocess.run([wire_host, "file", path], check=True)
    procs = [subprocess.Popen([wire_host, "node", path, str(n), str(seeds[n]),
                               *(["share"] if share else []),
                               *([f"record={tmp_path}/rec-{n}"] if record else [])],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n in (0, 1)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (o, e) in zip(procs, outs):
        assert p.returncode == 0, o[-2000:] + e[-2000:]
    return outs[0][0], outs[1][0]


def _traces(out: str) -> str:
    return "\n".join(x for x in out.splitlines() if not x.startswith("host "))


def test_two_nodes_are_deterministic(wire_host, tmp_path):
    """The same traces with no host delays and with two sets of random ones
    (a horizon 4L wide fails this, and so does a check point that waits
    only until the horizon passes its time less a quantum: frames then go
    in where the host's timing put them)."""
    calm = _pingpong(wire_host, tmp_path, (0, 0))
    # No node slept out the futex's second: every wake it waited for came
    # (an idle node once kept the want of its deadline after finding a
    # frame to wait for, and both slept until the timeout).
    for n, out in enumerate(calm):
        assert f"host node={n} timeouts=0" in out, out[-300:]
    # Booted off the wire (node 0 for 300 us of work and its stalls, node 1
    # for 120 us), both join at node 0's first idle; node 1's clock jumps
    # there, and node 0's frame sent while booting never reached the wire.
    joined = [re.search(r"joined node=\d at=(\d+) woke=(\d+) unjoined=(\d+)", out).groups()
              for out in calm]
    assert joined[0][0] == joined[1][0] and int(joined[0][0]) > 300000, joined
    assert int(joined[1][1]) >= int(joined[1][0]), joined
    assert (joined[0][2], joined[1][2]) == ("1", "0"), joined
    assert "tx node=0 id=255 at=" in calm[0].partition("\njoined ")[0]    # sent, dropped
    assert calm[0].count("\nrx ") >= 300 and calm[1].count("tx node=1 id=254") == 300
    # most notices went in while node 0 worked, at check points and between
    assert calm[0].count("inject node=0 id=254") >= 200
    assert "deadline node=0" in calm[0] and "deadline node=1" in calm[1]
    for seeds in ((7, 21), (99, 5)):
        assert _pingpong(wire_host, tmp_path, seeds) == calm
    # Sharing a core (wire.c): host scheduling only, the same traces; a
    # node pinned its idle peer to its own core as it woke it.
    shared = _pingpong(wire_host, tmp_path, (3, 11), share=True)
    assert [_traces(o) for o in shared] == [_traces(o) for o in calm]
    pins = [int(re.search(r"host node=\d timeouts=\d+ pins=(\d+)", o).group(1)) for o in shared]
    assert sum(pins) >= 1, shared[0][-300:]
    assert all("pins=0" in o for o in calm)
    # A frame that found the wire free arrives exactly one_way() after it
    # was sent (the simulation's link: 2 us, 3 us NICs, 500 ns cable).
    first_tx = int(next(x for x in calm[0].partition("\njoined ")[2].splitlines()
                        if x.startswith("tx ")).split("at=")[1])
    first_rx = int(next(x for x in calm[1].splitlines() if x.startswith("rx ")).split("at=")[1])
    ether = link.Link(10, 500, 2000, 3000, **{"preamble": 8, "ifg": 12, "fcs": 4,
                                             "min_frame": 64, "max_frame": 1518})
    assert first_rx - first_tx == ether.one_way_ns(60)


def test_one_node_replayed_alone(wire_host, tmp_path):
    """A node that recorded the frames it took (wire_record=) is run again
    alone, its peer the recording (wire_replay=; hw-models/core/replay.h):
    it takes every frame at the same time and makes the same trace, with
    host delays or without, and never waits (no peer: no sleep, no wake)."""
    live = _pingpong(wire_host, tmp_path, (5, 17), record=True)
    for n in (0, 1):
        alone_file = tmp_path / f"alone-{n}"
        subprocess.run([wire_host, "file", alone_file], check=True)
        r = subprocess.run([wire_host, "node", alone_file, str(n), str(n * 13),
                            f"replay={tmp_path}/rec-{n}"],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert _traces(r.stdout) == _traces(live[n])
        assert _traces(r.stdout).count("\nrx ") >= 300
    # Node 1 joined first in the pair and went on from node 0's time: alone,
    # it still does (the recording's join), or every time would differ.
    assert re.search(r"joined node=1 at=(\d+)", live[1]).group(1) == \
        re.search(r"joined node=0 at=(\d+)", live[0]).group(1)


def test_characters_typed_at_both_at_once(wire_host, tmp_path):
    """Both machines idle, a character on its way to each: each asks the
    other where it is, and each answers while it waits for its own answer
    (else both wait for ever).  The one behind moves to the other's time
    - L + 1."""
    with wire.Wire(tmp_path) as w:
        w.typed(0)
        w.typed(1)
        procs = [subprocess.Popen([wire_host, "typed", w.path, str(n), str(t)],
                                  stdout=subprocess.PIPE, text=True)
                 for n, t in ((0, 1000000), (1, 3000000))]
        outs = [p.communicate(timeout=30)[0] for p in procs]
    L = 57600
    assert outs[0].strip() == f"woke={3000000 - L + 1} why=2", outs
    assert outs[1].strip() == "woke=3000000 why=2", outs


def test_layout_matches_the_header(wire_host):
    out = subprocess.run([wire_host, "layout"], capture_output=True, text=True,
                         check=True).stdout
    c = dict(line.split("=", 1) for line in out.splitlines())
    assert c["MAGIC"].encode() + b"\0" == wire.MAGIC
    assert int(c["VERSION"]) == wire.VERSION and int(c["NODES"]) == wire.NODES
    assert int(c["RING"]) == wire.RING and int(c["FRAME_MAX"]) == wire.FRAME_MAX
    assert int(c["FRAME_MAX"]) == link.WIRE_FRAME_MAX
    for key in ("HEADER", "NODE_SIZE", "FILE_SIZE", "BELL", "INPUT", "SLEEPING", "TAIL"):
        assert int(c[key]) == getattr(wire, key), key


@pytest.mark.parametrize("mbps,tx,rx,lat", [(10, 0, 0, 0), (10, 5000, 4000, 1000),
                                            (3, 1234.5, 0, 77), (100, 800, 800, 500)])
def test_python_arithmetic_matches_the_model(wire_host, mbps, tx, rx, lat):
    lengths = [0, 14, 60, 61, 98, 106, 118, 1514]
    out = subprocess.run([wire_host, "oneway", str(mbps), str(tx), str(rx), str(lat),
                          *map(str, lengths)], capture_output=True, text=True, check=True).stdout
    got = {int(a): int(b) for a, b in (line.split() for line in out.splitlines())}
    L = link.Link(mbps, lat, tx, rx, 8, 12, 4, 64, 1518)
    assert got == {n: L.one_way_ns(n) for n in lengths}


def test_wire_file_and_input(tmp_path):
    with wire.Wire(tmp_path) as w:
        assert w.path.stat().st_size == wire.FILE_SIZE
        data = w.path.read_bytes()
        assert data[:16] == wire.MAGIC
        w.typed(1, 3)
        w.typed(1)
        base = wire.HEADER + wire.NODE_SIZE
        data = w.path.read_bytes()
        assert int.from_bytes(data[base + wire.INPUT:base + wire.INPUT + 8], "little") == 4
        assert int.from_bytes(data[base + wire.BELL:base + wire.BELL + 4], "little") == 2
        assert w.model_args(1) == [f"wire={w.path}", "wire_node=1"]
    assert not w.path.exists()


@pytest.mark.parametrize("change,word", [
    ({"link.bandwidth_mbps": 0}, "bandwidth_mbps"), ({"link.latency_ns": -1}, "latency_ns"),
    ({"link.nic_tx_ns": 2e6}, "nic_tx_ns"), ({"link.nic_dma": 1}, "nic_dma"),
    ({"link.colour": "red"}, "colour"), ({"link.min_frame": 10}, "min_frame"),
    ({"link.max_frame": 9000}, "max_frame"), ({"link.max_frame": 30}, "max_frame"),
    ({"link.drop_every": -2}, "drop_every"), ({"link.nic_rx_ns": None}, "nic_rx_ns is missing")])
def test_link_section_refusals(change, word):
    """A bad [link] value is refused by name, as any profile field is
    (params.def's range, profiles.py's rules between the fields)."""
    with pytest.raises(SetupError, match=re.escape(word)) as e:
        profiles.load("ds3100", change)
    assert "[link]" in str(e.value)


def test_link_section_to_the_model():
    """The [link]'s fields reach the model under params.def's names, the
    framing's defaults where the profile gives none; garbage schedules are
    checked by name too."""
    p = profiles.load("ds3100-riscv")
    args = modelargs.profile_args(p)
    assert "link.bandwidth_mbps=10" in args and "link.nic_dma=false" in args
    assert not any(a.startswith("link.min_frame=") for a in args)     # the model's default
    assert link.framing(p.data["link"])["min_frame"] == 64
    assert link.Link.from_profile(p.data["link"]).lookahead_ns == 5000 + 57600 + 1000 + 5000
    assert garbage.Schedule(5, 0).problem() == "garbage every_ns = 0 must be > 0"
    assert "seed" in garbage.Schedule(5, 10, seed=-1).problem()


def test_which_boards_go_on_the_wire():
    """pair.on_wire: a card the kernel drives and a front end that can hand
    it frames at their times; Pair refuses the others by name.  QEMU's
    boards run on the wire's patched QEMU (the same board, another
    binary), SIMH as it is."""
    import dataclasses

    from harness.guest import machines
    from harness.net import pair
    vax, riscv = machines.get("vax"), machines.get("riscv")
    assert pair.on_wire(vax) and pair.on_wire(riscv)
    assert not pair.on_wire(dataclasses.replace(vax, nic=()))
    assert not pair.on_wire(dataclasses.replace(riscv, nic=()))
    assert not pair.on_wire(dataclasses.replace(riscv, model=None))
    wired = machines.wire_emulator(riscv)
    assert wired.emulator.build_script == machines.WIRE_QEMU_SCRIPT
    assert wired.emulator.binary == riscv.emulator.binary
    assert wired.emulator.board == riscv.emulator.board
    assert riscv.emulator.build_script == ""            # one machine: Debian's QEMU
    assert machines.wire_emulator(vax) is vax
    targets = machines.wire_qemu_targets()
    assert "riscv32" in targets and "sparc" in targets and "vax" not in targets
    none = profiles.load("none")
    for arch in machines.names():
        if not pair.on_wire(machines.get(arch)):
            with pytest.raises(SetupError, match="network card|front end"):
                pair.Pair(arch, none, ROOT / "build" / "unused")
