"""A profile's [link] section: the Ethernet between two machines of that
profile (hw-models/core/link.c models it; docs/network.md gives the numbers
and their sources).

    problem = validate(profile_data["link"])     # a message naming the field, or None
    args = model_args(link)                      # link_mbps=10 ... for the model
    Link.from_profile(link).one_way_ns(106)      # the wire and the NICs, one frame

The section:

    [link]
    bandwidth_mbps = 10       # bit rate, 10^6 bit/s
    latency_ns = 1000         # propagation, first bit out to first bit in
    nic_tx_ns = 5000          # the sending NIC's own delay per frame
    nic_rx_ns = 5000          # the receiving NIC's
    nic_dma = true            # the NIC moves frames to and from main memory itself

and, where a link is not the standard's 10 Mb/s Ethernet, preamble_bytes,
ifg_bytes, fcs_bytes, min_frame and max_frame (IEEE 802.3's, ETHERNET
below, otherwise).  For tests only, given as overrides, never in a
profile's file: drop_every, corrupt_every (every Nth frame of a direction
lost, or one bit of it flipped) and garbage_frames (that many malformed
frames delivered to each machine, one every garbage_every_ns from
garbage_start_ns, made from garbage_seed: harness/net/garbage.py).

Link.one_way_ns() is link.c's arithmetic for a frame on an idle wire, in
the same integers, so the Final Results Table's hardware share is what the
model charges (tests/unit/test_wire.py compares the two).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

# IEEE 802.3 (10BASE5 and after): an 8-byte preamble with its start-of-frame
# delimiter, a 96-bit-time inter-frame gap, a 4-byte FCS, frames of 64 to
# 1518 bytes with the FCS (shorter ones padded).
ETHERNET = {"preamble_bytes": 8, "ifg_bytes": 12, "fcs_bytes": 4, "min_frame": 64,
            "max_frame": 1518}
# The longest frame the wire carries without its FCS (hw-models/core/wire.h).
WIRE_FRAME_MAX = 2048


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _pos(v: Any) -> str | None:
    return None if _num(v) and v > 0 else "must be a number > 0"


def _nonneg(v: Any) -> str | None:
    return None if _num(v) and v >= 0 else "must be a number >= 0"


def _count(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else \
        "must be a whole number >= 0"


def _poscount(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and v > 0 else \
        "must be a whole number > 0"


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


REQUIRED: dict[str, Callable[[Any], str | None]] = {
    "bandwidth_mbps": _pos, "latency_ns": _nonneg, "nic_tx_ns": _nonneg, "nic_rx_ns": _nonneg,
    "nic_dma": _bool}
FRAMING: dict[str, Callable[[Any], str | None]] = {
    "preamble_bytes": _count, "ifg_bytes": _count, "fcs_bytes": _count,
    "min_frame": _poscount, "max_frame": _poscount}
TESTS: dict[str, Callable[[Any], str | None]] = {
    "drop_every": _count, "corrupt_every": _count, "garbage_frames": _count,
    "garbage_seed": _count, "garbage_start_ns": _nonneg, "garbage_every_ns": _pos}


def validate(sec: Any) -> str | None:
    """The first thing wrong with a [link] section, naming the field."""
    if not isinstance(sec, dict):
        return "[link] must be a section"
    allowed = {**REQUIRED, **FRAMING, **TESTS}
    for key in sec:
        if key not in allowed:
            return f"[link] unknown field {key!r}"
    for key, check in REQUIRED.items():
        if key not in sec:
            return f"[link] {key} is missing"
    for key, check in allowed.items():
        if key in sec and check(sec[key]):
            return f"[link] {key} = {sec[key]!r} {check(sec[key])}"
    f = {**ETHERNET, **{k: sec[k] for k in FRAMING if k in sec}}
    if f["min_frame"] < f["fcs_bytes"] + 14:
        return (f"[link] min_frame = {f['min_frame']} is shorter than an Ethernet header "
                f"and the FCS ({f['fcs_bytes'] + 14} bytes)")
    if f["max_frame"] < f["min_frame"]:
        return f"[link] max_frame = {f['max_frame']} is shorter than min_frame ({f['min_frame']})"
    if f["max_frame"] - f["fcs_bytes"] > WIRE_FRAME_MAX:
        return (f"[link] max_frame = {f['max_frame']}: the wire carries frames of at most "
                f"{WIRE_FRAME_MAX} bytes and the FCS")
    if sec.get("garbage_frames") and "garbage_every_ns" not in sec:
        return "[link] garbage_frames needs garbage_every_ns"
    return None


def model_args(sec: dict[str, Any]) -> list[str]:
    """The model's link_* arguments (hw-models/core/options.c)."""
    f = {**ETHERNET, **{k: sec[k] for k in FRAMING if k in sec}}
    return [f"link_mbps={sec['bandwidth_mbps']}", f"link_latency_ns={sec['latency_ns']}",
            f"link_nic_tx_ns={sec['nic_tx_ns']}", f"link_nic_rx_ns={sec['nic_rx_ns']}",
            f"link_preamble={f['preamble_bytes']}", f"link_ifg={f['ifg_bytes']}",
            f"link_fcs={f['fcs_bytes']}", f"link_min_frame={f['min_frame']}",
            f"link_max_frame={f['max_frame']}",
            f"link_drop_every={sec.get('drop_every', 0)}",
            f"link_corrupt_every={sec.get('corrupt_every', 0)}",
            f"net_dma={'on' if sec['nic_dma'] else 'off'}"]


def _llround(x: float) -> int:
    """C's llround for x >= 0 (halves away from zero; Python's round() goes
    to even)."""
    return math.floor(x + 0.5)


@dataclass(frozen=True)
class Link:
    """link.c's arithmetic: ns, rounded as it rounds."""

    mbps: float
    latency_ns: float
    nic_tx_ns: float
    nic_rx_ns: float
    preamble: int
    ifg: int
    fcs: int
    min_frame: int
    max_frame: int

    @classmethod
    def from_profile(cls, sec: dict[str, Any]) -> "Link":
        f = {**ETHERNET, **{k: sec[k] for k in FRAMING if k in sec}}
        return cls(sec["bandwidth_mbps"], sec["latency_ns"], sec["nic_tx_ns"], sec["nic_rx_ns"],
                   f["preamble_bytes"], f["ifg_bytes"], f["fcs_bytes"], f["min_frame"],
                   f["max_frame"])

    @property
    def ps_per_bit(self) -> int:
        return _llround(1e6 / self.mbps)

    def bytes_ns(self, n: int) -> int:
        return (n * 8 * self.ps_per_bit + 999) // 1000

    def wire_ns(self, length: int) -> int:
        """A frame of `length` bytes without its FCS: preamble, padding, FCS."""
        return self.bytes_ns(self.preamble + max(length + self.fcs, self.min_frame))

    def one_way_ns(self, length: int) -> int:
        """Handed to one NIC -> in the other's machine, on an idle wire."""
        return (_llround(self.nic_tx_ns) + self.wire_ns(length) + _llround(self.latency_ns)
                + _llround(self.nic_rx_ns))

    @property
    def lookahead_ns(self) -> int:
        return self.one_way_ns(0)

    def stream_ns(self, length: int) -> int:
        """Back to back: the wire's time per frame, its gap included."""
        return self.wire_ns(length) + self.bytes_ns(self.ifg)
