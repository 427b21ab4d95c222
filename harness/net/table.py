"""The network suite's Final Results Table (docs/measure.md's form): for
each of netbench's cases, the hardware's share predicted from the profile's
[link] alone (the NICs, the wire and the cable: harness/net/link.py, the
model's own arithmetic), the measured time, and the software as their
difference.

The frames each case puts on the wire, with netbench's 64-byte messages
(guests/bin/netbench.c) and our stack's headers (Ethernet 14, IPv4 20,
UDP 8, TCP 20, ICMP 8: kernel/port/net/net.h):

  udp-rtt      a 106-byte frame each way: = 2 one-way times
  icmp-rtt     the far kernel's own echo, 98 bytes each way: = 2 one-way times
  tcp-rtt      118 bytes each way, the acknowledgements riding on the data:
               >= 2 one-way times (a stack that acknowledges apart sends more)
  tcp-bulk     8 KB a block in full segments of 1460 bytes, back to back on
               one wire: ~ 8192 / 1460 frames of 1514 bytes and their gaps
               (the acknowledgements go the other way, on the other wire)
  tcp-connect  SYN, SYN-ACK, ACK, and the server's FIN before the client's
               read returns: >= 4 one-way times of a minimum frame
"""

from __future__ import annotations

from typing import Any

from ..bench.finaltable import FinalRow
from ..guest.protocol import Result
from .link import Link

ETH, IP, UDP, TCP, ICMP = 14, 20, 8, 20, 8
MSG = 64                                # netbench's messages
MSS = 1500 - IP - TCP                   # a full segment's payload

CASES = ("udp-rtt", "tcp-rtt", "icmp-rtt", "tcp-bulk", "tcp-connect")

# Under the table: what its hardware column is (harness/bench/runrecord.py).
NOTE = ("hardware: the NICs, the wire and the cable, from the profile's [link] alone "
        "(harness/net/table.py: link.c's arithmetic); no mark = what the model charges for "
        "these frames on an idle wire, >= a lower bound, ~ an estimate")


def predictions(link: Link) -> dict[str, tuple[str, str, str, float, str]]:
    """case -> (operation, source, kind, hardware ns per iteration, basis)."""
    udp, tcp, icmp = ETH + IP + UDP + MSG, ETH + IP + TCP + MSG, ETH + IP + MSG
    seg = ETH + IP + TCP + MSS
    per_block = 8192 / MSS * link.stream_ns(seg)
    return {
        "udp-rtt": ("round trip, 64 bytes over UDP, user to user", "002 3a", "=",
                    2 * link.one_way_ns(udp), f"2 frames of {udp} B: NICs, wire, cable"),
        "tcp-rtt": ("round trip, 64 bytes over TCP, user to user", "002 3a", ">=",
                    2 * link.one_way_ns(tcp), f"2 frames of {tcp} B"),
        "icmp-rtt": ("round trip, 64-byte ICMP echo (the far kernel answers)", "002 3a", "=",
                     2 * link.one_way_ns(icmp), f"2 frames of {icmp} B"),
        "tcp-bulk": ("bulk transfer over TCP, per 8 KB", "002 3b", "~", per_block,
                     f"{8192 / MSS:.2f} frames of {seg} B back to back: the wire's "
                     f"{MSS * 1e3 / link.stream_ns(seg):.3f} MB/s"),
        "tcp-connect": ("connection setup and teardown", "002 3c", ">=",
                        4 * link.one_way_ns(0), "SYN, SYN-ACK, ACK, FIN: minimum frames"),
    }


def rows(results: list[Result], link_sec: dict[str, Any]) -> list[FinalRow]:
    pred = predictions(Link.from_profile(link_sec))
    by_case = {r.case: r for r in results if r.bench == "net"}
    out = []
    for case in CASES:
        operation, source, kind, hw_ns, basis = pred[case]
        r = by_case.get(case)
        measured = None if r is None or not r.iters else (r.ns - r.loop_ns) / r.iters
        out.append(FinalRow(f"net/{case}", operation, source, kind, float(hw_ns), measured,
                            basis))
    return out
