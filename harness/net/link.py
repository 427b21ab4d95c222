"""A profile's [link] section in numbers: the Ethernet between two machines
of that profile (hw-models/core/link.c models it; docs/network.md gives
each profile's numbers and their sources).

    Link.from_profile(profile.data["link"]).one_way_ns(106)   # one frame, ns

What the fields are, their units, ranges and defaults (IEEE 802.3's
framing) is hw-models/core/params.def's, read through
harness/model/schema.py; profiles.py checks a [link] like any section, and
the model gets its fields like any parameter (modelargs.profile_args).  The
tests' loss and damage are [link] fields too, as overrides
(link.drop_every, link.corrupt_every); the malformed frames are the run's
(harness/net/garbage.py, pair.py).

Link.one_way_ns() is link.c's arithmetic for a frame on an idle wire, in
the same integers, so the Final Results Table's hardware share is what the
model charges (tests/unit/test_wire.py compares the two).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..model import schema

# The longest frame the wire carries without its FCS (hw-models/core/wire.h;
# tests/unit/test_wire.py checks the two agree).
WIRE_FRAME_MAX = 2048
FRAMING = ("preamble_bytes", "ifg_bytes", "fcs_bytes", "min_frame", "max_frame")


def framing(sec: dict[str, Any]) -> dict[str, int]:
    """The section's framing fields, params.def's defaults where it has none."""
    params = schema.load().section_params("link")
    return {k: sec[k] if k in sec else params[k].value(params[k].default) for k in FRAMING}


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
        f = framing(sec)
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
