"""Two guests on one wire (harness/guest/netpair.py): the network works.

Functions, not timing (the wire here is a plain QEMU socket netdev, not
yet the deterministic link): UDP echo; every byte of a 1 MB TCP transfer
arrives, in order (the server checks each); TCP and ICMP round trips and
connection setup and teardown complete; t_net passes on a machine with a
network card; a flood that empties
the packet-buffer pool is dropped and counted (rx_nobuf), and the machine
recovers; a peer that dies gives the other side ETIMEDOUT, not a hang.

The 10,000 malformed frames are test_netsim.py's, on the modelled wire,
where every frame goes in while the CPU is held.  Here the CPU runs while
QEMU's main loop writes a descriptor, which the LANCE driver must allow
for: read once, a frame finished between two looks was counted as an
error, and the flood below accounted for 1,999 of its 2,000 frames (8 of
40 sparc runs beside three busy loops; 0 of 40 since lance.c looks
again).

Runs on each ISA whose board has a network card driver (the registry's
`nic`), whose kernel is built.
"""

import re
import time

import pytest

from booting import TIMEOUT, logs, start_guest
from harness.bench import checks
from harness.guest import machines, netflood
from harness.guest.netpair import CLIENT, SERVER, NetPair, addr, mac

NET_ARCHES = tuple(a for a, m in machines.MACHINES.items() if m.nic)
HOLD = 20                          # netd -hold: UDP ports nobody reads

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=NET_ARCHES)
def arch(request):
    m = machines.get(request.param)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel} missing: run `make ARCH={request.param}`")
    return request.param


def start_netd(pair: NetPair, args: str = "") -> None:
    pair.server.begin(f"netd {args}".strip())
    pair.server.wait_for("netd: ready", timeout=TIMEOUT)


NETD = f"-hold {HOLD}"


@pytest.fixture(scope="module")
def pair(arch):
    """A server running `netd -hold HOLD` and a client, for the module."""
    with NetPair(arch, logs(arch), "net") as p:
        start_netd(p, NETD)
        yield p


def server_netstat(pair: NetPair) -> dict[str, int]:
    """The server's counters: netd runs in the foreground there, so stop
    it for netstat, then start it again."""
    pair.server.interrupt()
    stats = netstat(pair.server)
    start_netd(pair, NETD)
    return stats


def netstat(guest) -> dict[str, int]:
    lines = guest.run("netstat -a", timeout=TIMEOUT).lines
    assert lines and lines[0].startswith("net nic=1 "), lines
    return {k: int(v) for k, v in (line.split("=") for line in lines[1:])}


def results(out) -> dict[str, object]:
    return {r.case: r for r in out.records() if hasattr(r, "case")}


def test_udp_echo(pair):
    before = netstat(pair.client)
    out = pair.client.run(f"netbench -n 200 -c udp-rtt {addr(SERVER)}", timeout=TIMEOUT)
    r = results(out)["udp-rtt"]
    assert r.iters == 200 and r.ns > r.loop_ns, out.lines
    after = netstat(pair.client)
    assert after["udp_in"] - before["udp_in"] == 210        # the warm-up's 10 too
    assert after["udp_out"] - before["udp_out"] == 210


def test_tcp_bulk_1mb_in_order(pair):
    out = pair.client.run(f"netbench -n 128 -c tcp-bulk {addr(SERVER)}", timeout=120)
    r = results(out)["tcp-bulk"]
    assert r.iters * r.bytes == 1 << 20, out.lines
    assert re.search(r"\bwrong=0\b", " ".join(out.lines)), out.lines
    # The server checked every byte against the pattern, in order.
    assert pair.server.wait_for(r"netd: sink bytes=1048576 ", timeout=TIMEOUT).endswith(
        "wrong=0")


def test_round_trips_and_connections(pair):
    out = pair.client.run(f"netbench -n 50 -c tcp-rtt -c icmp-rtt -c tcp-connect "
                          f"{addr(SERVER)}", timeout=120)
    got = results(out)
    assert set(got) == {"tcp-rtt", "icmp-rtt", "tcp-connect"}, out.lines
    assert all(r.iters == 50 for r in got.values())
    server = server_netstat(pair)
    assert server["icmp_echo_replies"] >= 60                # the kernel answered, not netd
    assert server["tcp_accepts"] >= 60


def test_t_net_with_a_nic(pair):
    run = checks.run_check(pair.client, "t_net", timeout=TIMEOUT)
    assert run.problems() == [], "\n".join(run.lines[-20:])


def test_flood_that_empties_the_pool(pair):
    """Good datagrams to ports nobody reads fill their queues and empty the
    server's pool: the card's frames are then dropped for want of buffers,
    and counted; once netd exits and its queues are freed, the server
    answers again."""
    before = server_netstat(pair)
    first = netflood.netbench_port("HOLD")
    netflood.flood_udp(pair.socket_path(SERVER), mac(SERVER), range(first, first + HOLD), 2000)
    time.sleep(1)
    after = server_netstat(pair)        # netd's queues go, and their buffers
    assert after["rx_nobuf"] > before["rx_nobuf"]
    # Every datagram was taken from the card, or dropped there for want of
    # a buffer (by the driver, rx_nobuf, or by a card that counts its own
    # misses, rx_missed: the LANCE), and counted.
    got = {k: after[k] - before[k] for k in ("rx_nobuf", "rx_missed", "udp_in")}
    assert sum(got.values()) == 2000, got
    out = pair.client.run(f"netbench -n 20 -c udp-rtt -c tcp-rtt {addr(SERVER)}",
                          timeout=TIMEOUT)
    assert set(results(out)) == {"udp-rtt", "tcp-rtt"}, out.lines


def test_no_card_no_network(arch):
    """Booted as every other run boots it (no card on the command line,
    or, on the sun4m board, whose LANCE is always there, no `ether` boot
    argument; on the VAX an XQ SIMH has not attached), the kernel finds no
    card and starts no network: no pool taken, as before the drivers."""
    g = start_guest("net-nocard", arch)
    try:
        line = g.run("netstat", timeout=TIMEOUT).lines[0]
    finally:
        g.close()
    assert line.startswith("net nic=0 ") and line.endswith(" nbufs=0 free=0"), line


def test_a_dead_peer_times_out(arch):
    """The server's machine dies in the middle of a transfer: the client's
    send fails with ETIMEDOUT after TCP's retries (about 10 s), it does
    not hang."""
    with NetPair(arch, logs(arch), "net-dies") as p:
        start_netd(p)
        p.client.begin(f"netbench -n 100000 -c tcp-bulk {addr(SERVER)}")
        time.sleep(1)
        p.server.kill()
        line = p.client.wait_for(r"netbench: tcp-bulk: ", timeout=60)
        assert "connection timed out" in line
        assert netstat_after_prompt(p.client)["tcp_timeouts"] == 1


def netstat_after_prompt(guest) -> dict[str, int]:
    guest.finish(timeout=TIMEOUT)
    return netstat(guest)
