"""harness/guest/netflood.py and netpair.py's command lines, without QEMU.

The flood's frames are each wrong in the one way their kind says (the kind
is the kernel counter that must count it), and the same every time; a
good datagram is good; the pair's command lines wire each node to the
other and give it its own address.
"""

import dataclasses
import struct
from pathlib import Path

import pytest

from harness.errors import SetupError
from harness.guest import machines, netflood, netpair

MAC = "52:54:00:00:00:02"


def frames(n: int = 26, seed: int = 23):
    return list(netflood.Frames(MAC, seed).frames(n))


def test_every_kind_is_a_counter_in_abi_h():
    abi = (Path(netflood.ROOT) / "kernel" / "include" / "abi.h").read_text()
    kinds = {k[2:] for k in netflood.Frames(MAC).kinds}
    assert len(kinds) == 13
    for kind in kinds:
        assert f"X({kind})" in abi, kind


def test_the_kinds_take_turns_and_repeat():
    got = frames()
    kinds = [k for k, _ in got]
    assert kinds[:13] == kinds[13:26] and len(set(kinds)) == 13
    assert frames() == got                          # the same seed, the same frames
    assert frames(seed=24) != got


def test_lengths_and_addresses():
    for kind, f in frames(13 * 20):
        if kind == "eth_runt":
            assert 1 <= len(f) < 14
            continue
        assert len(f) >= 14
        if kind == "eth_oversize":
            assert 1514 < len(f) <= netflood.OVERSIZE_MAX
        elif kind == "eth_not_mine":
            assert f[:6] != bytes.fromhex(MAC.replace(":", ""))
        elif kind == "arp_bad":
            assert f[:6] == b"\xff" * 6 and f[12:14] == b"\x08\x06"
        else:
            assert f[:6] == bytes.fromhex(MAC.replace(":", "")), kind
            assert len(f) <= 1514


def checksum_ok(data: bytes) -> bool:
    return netflood._sum(data) == 0


def test_ip_frames_are_wrong_only_where_meant():
    for kind, f in frames(13 * 20):
        ip = f[14:]
        if kind in ("ip_bad_checksum",):
            assert not checksum_ok(ip[:20])
        elif kind in ("ip_fragment", "ip_not_mine", "ip_unknown_proto", "udp_bad", "tcp_bad",
                      "icmp_bad"):
            assert ip[0] == 0x45 and checksum_ok(ip[:20]), kind
            assert struct.unpack("!H", ip[2:4])[0] == len(ip), kind
        if kind == "ip_fragment":
            assert struct.unpack("!H", ip[6:8])[0] & 0x3FFF
        if kind == "ip_not_mine":
            assert ip[16:20] != bytes([10, 0, 0, 2])


def test_a_good_datagram_is_good():
    f = netflood.Frames(MAC).udp(1000)
    ip, seg = f[14:34], f[34:]
    assert checksum_ok(ip)
    assert struct.unpack("!HHH", seg[:6]) == (4321, 1000, len(seg))
    assert checksum_ok(netflood._pseudo(0x0A000002, 17, seg) + seg)


def test_netbench_ports():
    assert netflood.netbench_port("HOLD") == 1000
    with pytest.raises(KeyError, match="NET_PORT_NOSUCH"):
        netflood.netbench_port("NOSUCH")


WITH_NIC = [m for m in machines.MACHINES.values() if m.nic]
WITHOUT_NIC = [m for m in machines.MACHINES.values() if not m.nic]


def test_pair_command_lines_cross(tmp_path):
    m = WITH_NIC[0]
    one, two = (netpair.nic_args(m, n, tmp_path) for n in (netpair.SERVER, netpair.CLIENT))
    assert f"local.path={tmp_path}/node1.sock" in one[1]
    assert f"remote.path={tmp_path}/node2.sock" in one[1]
    assert f"local.path={tmp_path}/node2.sock" in two[1]
    assert "mac=52:54:00:00:00:01" in " ".join(one) and "mac=52:54:00:00:00:02" in " ".join(two)
    assert one[-2:] == ("-icount", "shift=0,sleep=on")
    assert netpair.addr(netpair.SERVER) == "10.0.0.1"


def test_every_nic_takes_its_frames_from_the_wire():
    """Every ISA has its card; QEMU's take their frames from the netdev
    net0 (nic_on_wire makes it), our SIMH's XQ from its dgram transport."""
    assert {m.arch for m in WITH_NIC} == set(machines.names())
    for m in WITH_NIC:
        text = " ".join(m.nic)
        assert "{mac}" in text, m.arch
        if isinstance(m.emulator, machines.Qemu):
            assert "netdev=net0" in text, m.arch
        else:
            assert "attach xq {transport}" in text, m.arch


def test_simh_pair_scripts(tmp_path, monkeypatch):
    """The VAX's card is commands in SIMH's script, before the model's line:
    each node a script of its own (named after its text), the script of a
    run without a card as it always was."""
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: name)
    simh = [m for m in machines.MACHINES.values() if isinstance(m.emulator, machines.Simh)]
    assert simh, "no machine runs on SIMH"
    m = simh[0]
    image = m.kernel_path(tmp_path)
    image.parent.mkdir(parents=True)
    image.write_bytes(b"")
    (tmp_path / "kernel" / "arch" / m.arch).mkdir(parents=True)
    (tmp_path / "kernel" / "arch" / m.arch / "arch.mk").write_text("")
    plain = m.command(root=tmp_path)
    assert plain[-1] == str(image.with_name("harness.simh"))
    assert "xq" not in image.with_name("harness.simh").read_text()
    scripts = []
    for node in (netpair.SERVER, netpair.CLIENT):
        argv = m.command(root=tmp_path, nic=netpair.nic_args(m, node, tmp_path))
        text = Path(argv[-1]).read_text()
        lines = text.splitlines()
        mac = netpair.mac(node)
        other = netpair.CLIENT if node == netpair.SERVER else netpair.SERVER
        assert f"set xq mac={mac}" in lines
        attach = (f"attach xq dgram:{netpair.socket_path(tmp_path, node)},"
                  f"{netpair.socket_path(tmp_path, other)}")
        assert attach in lines
        assert lines.index(attach) < lines.index("model %1") < lines.index("go 1000")
        scripts.append(argv[-1])
    assert len(set(scripts)) == 2 and all("harness-" in s for s in scripts)


def test_no_nic_is_a_setup_error(tmp_path):
    m = dataclasses.replace(WITH_NIC[0], nic=())
    with pytest.raises(SetupError, match="no network card driver"):
        netpair.nic_args(m, 1, tmp_path)
