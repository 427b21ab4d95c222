"""Figure 1's arithmetic (harness/model/figure1.py), on made-up results: the
measuring is the suite's, tested elsewhere."""

import pytest

from harness.bench import paper
from harness.model import figure1
from harness.errors import HarnessError
from harness.guest.protocol import Result


def results(scale: float, delayed: float = 1.0) -> list[Result]:
    """A result for every case the figure uses: times 1000 ns / scale per
    operation, rates 1 byte per ns * scale (so `scale` times faster); the
    `delayed` policy's cases `delayed` times faster again."""
    out = []
    for b in figure1.BENCHES:
        for case in dict.fromkeys(c.format(p=p) for c in b.cases for p in paper.OS_POLICY_NAMES):
            scale_here = scale * (delayed if case.endswith("-delayed") else 1.0)
            if b.is_rate:
                out.append(Result(b.name, case, iters=10, ns=round(10_000 / scale_here),
                                  loop_ns=0, insns=0, loop_insns=0, bytes=1000))
            else:
                out.append(Result(b.name, case, iters=10, ns=round(10_000 / scale_here),
                                  loop_ns=0, insns=0, loop_insns=0))
    return out


def test_paper_reference_machine_is_one_everywhere():
    speeds = figure1.paper_speeds("MVAX2")
    assert set(speeds) == {b.name for b in figure1.BENCHES}
    assert all(v == pytest.approx(1.0) for vs in speeds.values() for v in vs)


def test_paper_speeds_follow_the_papers_rule():
    # Table 2: DS3100 Ultrix getpid 25 us, MVAX2 207 us, 13 vs 0.9 MIPS
    ds = figure1.paper_speeds("DS3100")
    assert (207 / 25) / (13 / 0.9) in [pytest.approx(v) for v in ds["getpid"]]
    # Table 5 is a rate: 20 MB/s vs 3.3 MB/s uncached on the M2000
    assert figure1.paper_speeds("M2000")["bcopy"] == [pytest.approx((20 / 3.3) / (20 / 0.9))]
    # Tables 7, 9, 10: local rows only (the DS3100 has two local Andrew rows)
    assert len(ds["andrew"]) == 2


def test_a_machine_as_fast_as_its_mips_is_one():
    # 2x the MVAX2's MIPS (1.8) and 2x as fast on everything: 1.0
    pts = figure1.points({"mvax2": results(1.0), "sun3": results(2.0)})
    sun3 = next(p for p in pts if p.machine == "Sun3")
    assert sun3.mips == paper.TABLE1["Sun3"].mips
    assert all(v == pytest.approx(1.0, rel=1e-3) for v in sun3.ours.values())
    assert sun3.ours_mean == pytest.approx(1.0, rel=1e-3)
    # a machine 6.67x the MVAX2's MIPS but only 2x as fast: 0.3
    pts = figure1.points({"mvax2": results(1.0), "vax8800": results(2.0)})
    assert next(p for p in pts if p.machine == "8800").ours_mean == \
        pytest.approx(2 / (6 / 0.9), rel=1e-3)


def test_andrew_adds_its_phases():
    b = next(b for b in figure1.BENCHES if b.name == "andrew")
    assert figure1.our_value(b, results(1.0), "sync") == pytest.approx(2.0)   # 1 us + 1 us


def test_each_paper_row_meets_ours_under_its_oss_policy():
    # delayed 4x faster than sync: Sprite's rows (delayed) are compared with it
    pts = {p.machine: p for p in figure1.points({
        "mvax2": results(1.0, delayed=4.0), "sun3": results(2.0, delayed=4.0),
        "ds3100": results(13 / 0.9, delayed=4.0), "vax8800": results(6 / 0.9, delayed=4.0)})}
    sun3, ds, vax = pts["Sun3"], pts["DS3100"], pts["8800"]
    # the Sun-3's only Andrew and create-delete rows are Sprite's: delayed
    assert sun3.policies == ["delayed"]
    assert sun3.ours["createdelete"] == pytest.approx(4.0, rel=1e-3)
    assert sun3.ours["getpid"] == pytest.approx(1.0, rel=1e-3)
    # the 8800 ran Ultrix (sync), as the reference did
    assert vax.policies == ["sync"] and vax.ours["createdelete"] == pytest.approx(1.0, rel=1e-3)
    # the DECstation ran both: one value each, their geometric mean counts
    assert set(ds.policies) == {"sync", "delayed"}
    assert ds.ours["andrew"] == pytest.approx(2.0, rel=1e-3)
    rows = [r for r in figure1.csv_rows([ds]) if r["source"] == "ours"
            and r["benchmark"] == "createdelete"]
    assert {r["policy"]: round(r["mips_relative"], 2) for r in rows} == {"sync": 1.0,
                                                                         "delayed": 4.0}
    paper_rows = [r for r in figure1.csv_rows([sun3]) if r["source"] == "paper"
                  and r["benchmark"] == "createdelete"]
    assert {r["os"]: r["policy"] for r in paper_rows} == {"Sprite": "delayed"}
    assert "delayed" in figure1.text([sun3]).splitlines()[3]


def test_the_os_to_policy_mapping_is_one_and_total():
    from harness.bench import report
    assert paper.os_policy("Sprite") == "delayed"
    for name in ("Ultrix 3.1", "SunOS 4.0", "RISC/os 4.0", "UNIX"):
        assert paper.os_policy(name) == "sync"
    with pytest.raises(ValueError, match="no write policy"):
        paper.os_policy("VMS")
    assert not hasattr(report, "os_policy")       # one home: paper.py


def test_reference_is_required_and_missing_cases_are_named():
    with pytest.raises(HarnessError, match="reference machine"):
        figure1.points({"sun3": results(1.0)})
    partial = [r for r in results(1.0) if r.bench != "readcache"]
    with pytest.raises(HarnessError, match="no RESULT for readcache 1mb"):
        figure1.points({"mvax2": partial})


def test_geomean():
    assert figure1.geomean([1.0, 4.0]) == pytest.approx(2.0)
