"""The network's measurements on a real pair (harness/net/measure.py,
roundtrip.py, the sweep over a [link] field): on riscv under ds3100-riscv.

  - one UDP round trip attributed on the client: the parts (the client's
    categories, the wire and NICs, the server's unoverlapped work) add up
    to the region's time, and to the RESULT's within a microsecond; the
    wire's part is the link model's; the client spent time in the protocol,
    the driver, the copies and the trap path;
  - a sweep of the link's bit rate over two values: each network case at
    each, with the hardware's share, which scales with the bit rate, and
    a round trip that is longer on the slower wire by at least the wire's
    difference.
"""

import json

import pytest

from harness.guest import machines
from harness.model import sweep
from harness.net import roundtrip

ARCH = "riscv"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def built():
    m = machines.get(ARCH)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel} missing: run `make ARCH={ARCH}`")


def test_a_round_trips_parts_add_up_to_the_measured_time():
    rt = roundtrip.measure_case("ds3100-riscv", "udp-rtt", arch=ARCH, iters=50)
    parts = {p.name: p for p in rt.parts}
    assert rt.total_ns == pytest.approx(rt.region_ns, abs=1.0)        # to the ns
    assert abs(rt.total_ns - rt.measured_ns) < 1000                    # the empty loop
    # two frames of 106 bytes at 10 Mb/s, 5 us in each NIC, 1 us of cable
    assert parts["wire and NICs"].ns == 2 * (5000 + 118 * 800 + 1000 + 5000)
    assert parts["server (idle here)"].ns > 0
    for name in ("protocol", "NIC driver", "copies", "trap and interrupt", "user"):
        assert parts[name].ns > 0, name
    assert abs(parts["unattributed"].ns) < 0.001 * rt.measured_ns
    assert rt.categories["inet_sum"] == "protocol"
    assert rt.categories["sched_idle"] == "scheduler"
    text = roundtrip.format_roundtrip(rt)
    assert "parts add up to" in text and "wire and NICs" in text


def test_a_link_sweep_moves_the_round_trip_with_the_wire(tmp_path):
    d = sweep.run_sweep("ds3100-riscv", "link.bandwidth_mbps", [2, 20], ["net"], tmp_path,
                        arch=ARCH, say=lambda s: None)
    info = json.loads((d / "sweep.json").read_text())
    rows = {(r["value"], r["case"]): r for r in info["rows"]}
    assert {c for _, c in rows} == {"udp-rtt", "tcp-rtt", "icmp-rtt", "tcp-bulk",
                                    "tcp-connect"}
    slow, fast = rows[2, "udp-rtt"], rows[20, "udp-rtt"]
    assert slow["unit"] == "us" and rows[2, "tcp-bulk"]["unit"] == "MB/s"
    # the frames' serialisation is ten times as long; the NICs and the cable are not
    wire = slow["hardware"] - fast["hardware"]
    assert wire == pytest.approx(2 * 118 * 8 * (1 / 2 - 1 / 20), rel=1e-6)   # us
    assert slow["measured"] - fast["measured"] >= wire - 0.01
    assert info["profile_value"] == 10
    assert (d / "sweep.png").stat().st_size > 10000
    assert "hardware" in (d / "sweep.csv").read_text().splitlines()[0]
