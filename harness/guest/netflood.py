"""Malformed frames for a guest's network card, from the host.

    counts = flood(pair.socket_path(CLIENT), mac(CLIENT), 10_000)

Each frame is wrong in one way, and `counts` says how many of each kind
went: the kind is the name of the kernel's counter that must count it
(struct netstat, kernel/include/abi.h), so a test can check that every
frame was dropped, under the right reason, once.  The frames go as
datagrams to the socket the guest's QEMU takes its frames from
(netpair.py); the kinds take turns, with lengths, addresses and bytes from
a seeded generator, so a flood is the same every time.

    python3 -m harness.guest.netflood SOCKET MAC [COUNT]
"""

from __future__ import annotations

import random
import re
import socket
import struct
import sys
from collections import Counter
from pathlib import Path

from .. import ROOT

ETH_MAX = 1514          # the longest Ethernet frame, without its FCS
OVERSIZE_MAX = 1600     # oversized frames up to this: the guest's NIC takes
                        # longer ones (kernel/port/net/net.h, NBUF_RXMAX)
OUR_IP = 0x0A000063     # 10.0.0.99: nobody's
BROADCAST = b"\xff" * 6
NETBENCH_H = ROOT / "guests" / "include" / "netbench.h"


def netbench_port(name: str) -> int:
    """A port netd and netbench agree on (NET_PORT_<name>, netbench.h)."""
    m = re.search(rf"^#define\s+NET_PORT_{name}\s+(\d+)", NETBENCH_H.read_text(), re.M)
    if m is None:
        raise KeyError(f"NET_PORT_{name} is not in {NETBENCH_H}")
    return int(m.group(1))


def _mac(text: str) -> bytes:
    return bytes(int(b, 16) for b in text.split(":"))


def _sum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def _ip(dst_ip: int, proto: int, payload: bytes, *, version: int = 4, ihl: int = 5,
        total: int | None = None, frag: int = 0x4000, good_sum: bool = True) -> bytes:
    total = 20 + len(payload) if total is None else total
    h = struct.pack("!BBHHHBBH4s4s", version << 4 | ihl, 0, total, 1, frag, 64, proto, 0,
                    OUR_IP.to_bytes(4, "big"), dst_ip.to_bytes(4, "big"))
    s = _sum(h)
    if not good_sum:
        s ^= 0x5A5A
    return h[:10] + struct.pack("!H", s) + h[12:] + payload


def _pseudo(dst_ip: int, proto: int, seg: bytes) -> bytes:
    return OUR_IP.to_bytes(4, "big") + dst_ip.to_bytes(4, "big") + struct.pack("!BBH", 0, proto,
                                                                                len(seg))


class Frames:
    """The malformed frames for a station with Ethernet address `mac` (and
    the IPv4 address the kernel makes of it: 10.0.0.<last byte>)."""

    def __init__(self, mac: str, seed: int = 23) -> None:
        self.dst = _mac(mac)
        self.ip = 0x0A000000 | self.dst[5]
        self.rng = random.Random(seed)
        self.src = bytes([0x52, 0x54, 0x00, 0x00, 0x00, 0x63])
        self.kinds = [k for k in dir(self) if k.startswith("k_")]

    def _bytes(self, n: int) -> bytes:
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def _eth(self, type_: int, payload: bytes, dst: bytes | None = None) -> bytes:
        return (dst or self.dst) + self.src + struct.pack("!H", type_) + payload

    # Each k_<counter>: a frame that counter must count.
    def k_eth_runt(self) -> bytes:
        return self._bytes(self.rng.randint(1, 13))

    def k_eth_oversize(self) -> bytes:
        return self._eth(0x0800, self._bytes(self.rng.randint(ETH_MAX + 1, OVERSIZE_MAX) - 14))

    def k_eth_not_mine(self) -> bytes:
        dst = bytes([self.rng.choice([0x02, 0x01, 0x33])]) + self._bytes(5)   # unicast or multicast
        if dst == self.dst:
            dst = b"\x02" + dst[1:]
        return self._eth(0x0800, self._bytes(self.rng.randint(20, 200)), dst)

    def k_eth_unknown_type(self) -> bytes:
        return self._eth(self.rng.choice([0x86DD, 0x8100, 0x1234, 0x0000]), self._bytes(50))

    def k_arp_bad(self) -> bytes:
        if self.rng.random() < 0.5:
            body = self._bytes(self.rng.randint(0, 27))                       # truncated
        else:
            body = struct.pack("!HHBBH", 2, 0x0800, 6, 4, 1) + self._bytes(20)  # not Ethernet
        return self._eth(0x0806, body, BROADCAST)

    def k_ip_bad_header(self) -> bytes:
        good = _ip(self.ip, 17, self._bytes(30))
        how = self.rng.randint(0, 3)
        if how == 0:
            data = _ip(self.ip, 17, self._bytes(30), version=6)
        elif how == 1:
            data = _ip(self.ip, 17, self._bytes(30), ihl=3)
        elif how == 2:
            data = _ip(self.ip, 17, self._bytes(30), total=len(good) + 40)   # longer than the frame
        else:
            data = good[:self.rng.randint(1, 19)]                            # not even a header
        return self._eth(0x0800, data)

    def k_ip_bad_checksum(self) -> bytes:
        return self._eth(0x0800, _ip(self.ip, 17, self._bytes(30), good_sum=False))

    def k_ip_fragment(self) -> bytes:
        frag = self.rng.choice([0x2000, 0x0010, 0x2020])                    # MF, an offset
        return self._eth(0x0800, _ip(self.ip, 17, self._bytes(30), frag=frag))

    def k_ip_not_mine(self) -> bytes:
        return self._eth(0x0800, _ip(0x0A00004D, 17, self._bytes(30)))      # 10.0.0.77

    def k_ip_unknown_proto(self) -> bytes:
        return self._eth(0x0800, _ip(self.ip, self.rng.choice([2, 47, 89, 255]), self._bytes(30)))

    def k_udp_bad(self) -> bytes:
        data = self._bytes(20)
        if self.rng.random() < 0.5:                                          # length past the end
            seg = struct.pack("!HHHH", 1234, 7, 8 + len(data) + 10, 0) + data
        else:                                                                # wrong checksum
            seg = struct.pack("!HHHH", 1234, 7, 8 + len(data), 0) + data
            s = _sum(_pseudo(self.ip, 17, seg) + seg) ^ 0x1111
            seg = seg[:6] + struct.pack("!H", s or 1) + seg[8:]
        return self._eth(0x0800, _ip(self.ip, 17, seg))

    def k_tcp_bad(self) -> bytes:
        seg = struct.pack("!HHIIBBHHH", 1234, 7, 1, 0, 5 << 4, 0x02, 4096, 0, 0)
        if self.rng.random() < 0.5:
            seg = seg[:12] + bytes([3 << 4]) + seg[13:]                       # header too short
        else:
            s = _sum(_pseudo(self.ip, 6, seg) + seg) ^ 0x2222
            seg = seg[:16] + struct.pack("!H", s) + seg[18:]
        return self._eth(0x0800, _ip(self.ip, 6, seg))

    def k_icmp_bad(self) -> bytes:
        if self.rng.random() < 0.5:
            msg = self._bytes(self.rng.randint(0, 7))                        # too short
        else:
            msg = struct.pack("!BBHHH", 8, 0, 0x1357, 1, 1) + self._bytes(20)  # wrong checksum
        return self._eth(0x0800, _ip(self.ip, 1, msg))

    def udp(self, port: int) -> bytes:
        """A good datagram, to `port`: no counter counts it as malformed."""
        data = self._bytes(64)
        seg = struct.pack("!HHHH", 4321, port, 8 + len(data), 0) + data
        s = _sum(_pseudo(self.ip, 17, seg) + seg) or 0xFFFF
        return self._eth(0x0800, _ip(self.ip, 17, seg[:6] + struct.pack("!H", s) + seg[8:]))

    def frames(self, count: int):
        """(kind, frame) count times, the kinds taking turns."""
        for i in range(count):
            kind = self.kinds[i % len(self.kinds)]
            yield kind[2:], getattr(self, kind)()


def flood(path: Path | str, mac: str, count: int = 10_000, seed: int = 23) -> Counter:
    """Send `count` malformed frames to the QEMU taking frames at `path`;
    how many of each kind (by the counter that must count them)."""
    sent: Counter = Counter()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        for kind, frame in Frames(mac, seed).frames(count):
            s.sendto(frame, str(path))
            sent[kind] += 1
    return sent


def flood_udp(path: Path | str, mac: str, ports: range, count: int, seed: int = 23) -> None:
    """Send `count` good UDP datagrams to the ports in turn."""
    frames = Frames(mac, seed)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        for i in range(count):
            s.sendto(frames.udp(ports[i % len(ports)]), str(path))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: python3 -m harness.guest.netflood SOCKET MAC [COUNT]")
    for k, n in sorted(flood(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4
                             else 10_000).items()):
        print(f"{k}={n}")
