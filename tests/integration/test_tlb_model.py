"""The TLB model (hw-models/core/tlb.c) on the real kernel.

  - its ITLB and DTLB misses agree exactly with the Python reference
    simulator (tests/hwmodel_ref.py, replay_tlb) on address traces of real
    regions, and the caches still agree with theirs with the walk's
    page-table reads in the trace, on each ISA whose walk the model knows;
    the fast paths' claims in the trace hold, and each shows there;
  - the counters reach the records and the harness's results, Chen et
    al.'s names included, and a profile without [tlb] has none of them;
  - on pc-p5, `measure memlat` misses the DTLB once per page beyond the
    DTLB's reach (entries x page size, from the profile) and never within
    half of it, and each miss costs what the profile's walk can cost;
  - on MIPS, counting the software refills changes no number.
"""

import pytest

from harness.guest import machines
from harness.model import modelargs, modellog, profiles

import hwmodel_ref
from test_hwmodel_plugin import memwalk
from test_hwmodel_plugin import run_model as _run_model

pytestmark = pytest.mark.skipif(not modelargs.PLUGIN.exists(),
                                reason="plugin missing: run `make hwmodel` (make test does)")


def run_model(name, arch, profile, commands, overrides=None, extra=(), test_image=False):
    """Boot `arch` with the model under `profile`, run `commands`; (results,
    region records): test_hwmodel_plugin's, with the ISA and profile first."""
    return _run_model(name, commands, profile, overrides, extra, arch, test_image)


def tlb(i, d, large=None, unified=False, walk_cycles=3):
    """Overrides for a walked TLB: (entries, assoc) each, large = (entries,
    assoc, page size)."""
    o = {"tlb.refill": "walk", "tlb.page_size": 4096, "tlb.replacement": "lru",
         "tlb.itlb_entries": 0 if unified else i[0], "tlb.itlb_assoc": i[1],
         "tlb.dtlb_entries": d[0], "tlb.dtlb_assoc": d[1], "tlb.walk_cycles": walk_cycles}
    # None takes out what the profile's own [tlb] may have
    o["tlb.unified"] = True if unified else None
    o.update({"tlb.large_entries": large[0], "tlb.large_assoc": large[1],
              "tlb.large_page_size": large[2]} if large else
             {"tlb.large_entries": None, "tlb.large_assoc": None, "tlb.large_page_size": None})
    return o


# Small TLBs, so that a short workload misses often, each with two ways or
# more, so that a replacement other than LRU shows (tests/mutants.toml);
# the caches of the reference simulator (no L2 there).
CACHES = {"l2.size": 0, "icache.size": 2048, "icache.line": 16, "icache.assoc": 2,
          "dcache.size": 2048, "dcache.line": 16, "dcache.assoc": 2,
          "dcache.write_policy": "write-back", "dcache.write_allocate": True,
          "dcache.write_buffer": 2}
TLBS = {
    "split": tlb((4, 2), (8, 2)),
    "split-large": tlb((4, 2), (8, 4), large=(4, 2, 4 << 20)),
    "unified": tlb((0, 1), (8, 2), unified=True),
}
# The ISAs whose page-table walk the model knows, each with its own profile.
WALK_ARCHES = {a: m.model_profile for a, m in machines.MACHINES.items() if m.tlb_refill == "walk"}
WORKLOAD = ("getpid -n 30", "bcopy -c 24K -u 0 -n 2")


def ref_tlbs(o):
    t = hwmodel_ref.Tlbs
    d = t.table(o["tlb.dtlb_entries"], o["tlb.dtlb_assoc"])
    i = d if o.get("tlb.unified") else t.table(o["tlb.itlb_entries"], o["tlb.itlb_assoc"])
    large = t.table(o["tlb.large_entries"], o["tlb.large_assoc"]) \
        if o["tlb.large_entries"] else None
    shift = (o["tlb.large_page_size"] or 1).bit_length() - 1
    return t(12, i, d, large, shift)


@pytest.mark.parametrize("arch", WALK_ARCHES)
@pytest.mark.parametrize("name", TLBS)
def test_tlb_matches_reference_simulator(name, arch, tmp_path):
    o = {**CACHES, **TLBS[name]}
    if WALK_ARCHES[arch] == "sun3":          # no caches to compare: just the TLB
        o = dict(TLBS[name])
    trace = tmp_path / "trace.txt"
    d_ways = o["tlb.dtlb_assoc"]
    walk = memwalk(CACHES, o["tlb.dtlb_entries"] // d_ways, d_ways)   # sized to the DTLB
    _, regions = run_model(f"tlb-ref-{name}", arch, WALK_ARCHES[arch], WORKLOAD + (walk,), o,
                           [f"trace={trace}", "trace_region=2"], test_image=True)
    plugin = [r for r in regions if r.id == 2]
    assert len(plugin) == 3                         # getpid's, bcopy's and memwalk's
    lines = trace.read_text().splitlines()
    ref = hwmodel_ref.replay_tlb(lines, ref_tlbs(o))
    assert len(ref) == 3
    for p, r in zip(plugin, ref):
        assert r.wrong == [], f"{name}: {len(r.wrong)} fast-path claims wrong, first: {r.wrong[0]}"
        assert (p["itlb_miss"], p["dtlb_miss"]) == (r.itlb_miss, r.dtlb_miss), name
        assert r.lookups > 0
    # tracing leaves the fast paths on: the last page's shortcut, and
    # tlb_data_quick where the TLB is split (which then answers what
    # tlb_data's own shortcut would)
    took = set().union(*(r.paths for r in ref))
    want = {("I", "last"), ("D", "last") if o.get("tlb.unified") else ("D", "quick")}
    assert want <= took, (name, sorted(want - took))
    # bcopy's 2 x 24 KB cross more pages than an 8-entry DTLB holds
    assert plugin[1]["dtlb_miss"] > 0 and plugin[1]["itlb_miss"] > 0
    if "large" in name:                             # the kernel's 4 MB pages are used
        assert any(x.split()[:2] == ["T", "D"] and x.split()[3] == "22" for x in lines) \
            or arch == "m68k"
    if "l2.size" in o:                              # the walk's reads in the caches too
        d = hwmodel_ref.Cache(2048, 16, 2, True, True)
        i = hwmodel_ref.Cache(2048, 16, 2, False, True)
        for p, r in zip(plugin, hwmodel_ref.replay(lines, i, d)):
            assert r.wrong == [], f"{name}: {r.wrong[0]}"
            assert (p["imiss"], p["dmiss"], p["dmiss_w"], p["writebacks"]) == \
                (r.imiss, r.dmiss, r.dmiss_w, r.writebacks), name


def test_counters_in_records_and_results():
    results, regions = run_model("tlb-counters", "x86", "pc-p5", ("getpid -n 200",))
    joined = modellog.join(results, regions)
    assert all(k in r.fields for r in regions for k in modellog.TLB_COUNTERS)
    c = joined[0].counters()
    ev = joined[0].events("x86")
    assert [k for k, _ in modellog.CHEN_EVENTS] == list(ev)
    assert ev["cycles"] == c["cycles"] and ev["instructions"] == c["insns"]
    assert ev["data_reads"] == c["loads"] and ev["dtlb_misses"] == c["dtlb_miss"]
    # a getpid enters and leaves the kernel: the trap path reloads %ds, %es,
    # %fs, %gs and iret loads %cs and %ss; no page of it misses the TLBs
    assert ev["segment_loads"] >= 2
    assert ev["itlb_misses"] == 0 and ev["dtlb_misses"] == 0
    # the same kernel under a profile without [tlb]: no TLB fields at all
    results, regions = run_model("tlb-none", "x86", "pc-p5", ("getpid -n 200",),
                                 {"tlb": None})
    assert not any(k in r.fields for r in regions for k in modellog.TLB_COUNTERS)
    ev = modellog.join(results, regions)[0].events("x86")
    assert ev["dtlb_misses"] is None and ev["segment_loads"] is None


def memlat(rows):
    """{size: Joined} of memlat's stride-128 cases."""
    return {j.result.extra["size"]: j for j in rows
            if j.result.bench == "memlat" and j.result.extra["stride"] == 128}


def test_memlat_misses_the_dtlb_beyond_its_reach():
    hw = profiles.load("pc-p5")
    page, entries = hw.get("tlb.page_size"), hw.get("tlb.dtlb_entries")
    reach = page * entries                          # 64 x 4 KB = 256 KB
    cmd = ("measure memlat -s 128 -n 16384",)
    with_tlb = memlat(modellog.join(*run_model("tlb-memlat", "x86", "pc-p5", cmd)))
    without = memlat(modellog.join(*run_model("tlb-memlat-none", "x86", "pc-p5", cmd,
                                             {"tlb": None})))
    per_page = 128 / page                           # the ring's loads per page, inverted
    assert min(with_tlb) <= reach // 2 and max(with_tlb) >= 2 * reach
    for size, j in with_tlb.items():
        miss = j.per_op("dtlb_miss")
        if size <= reach // 2:
            assert miss < 0.001, size
        elif size >= 2 * reach:
            # every page of the ring misses once a lap: set-associative LRU
            # with more pages per set than ways keeps none
            assert miss == pytest.approx(per_page, rel=0.01), size
            # what a miss costs: at least the fixed walk cycles; at most
            # those plus two page-table reads from memory through the L2
            extra = j.per_op("cycles") - without[size].per_op("cycles")
            cost = extra / miss
            l2 = hw.get("l2.latency_ns") * hw.get("cpu.clock_mhz") / 1000
            mem = (hw.get("memory.latency_ns") + 1000 * hw.get("l2.line")
                   / hw.get("memory.bandwidth_mbs")) * hw.get("cpu.clock_mhz") / 1000
            walk = hw.get("tlb.walk_cycles")
            assert walk <= cost <= walk + 2 * (l2 + mem), (size, cost)
    # the caches do not see the TLB: same data misses either way
    for size in with_tlb:
        assert with_tlb[size].per_op("loads") == without[size].per_op("loads")


def test_mips_counts_software_refills_and_changes_nothing():
    o = {"tlb.refill": "software", "tlb.page_size": 4096}
    cmd = ("measure memlat -s 128 -n 4096", "getpid -n 100")
    results, regions = run_model("tlb-mips", "mips", "ds3100", cmd, o)
    plain, plain_regions = run_model("tlb-mips-none", "mips", "ds3100", cmd)
    assert [r.line for r in results] == [r.line for r in plain]
    drop = set(modellog.TLB_COUNTERS)
    assert [{k: v for k, v in r.fields.items() if k not in drop} for r in regions] == \
        [r.fields for r in plain_regions]
    rows = memlat(modellog.join(results, regions))
    # The 24Kc's TLB (QEMU's, which our handler fills with tlbwi at Random)
    # has 16 entries, each an even/odd pair of pages: a one-page ring never
    # misses, a 2 MB one (512 pages) misses every other page; the chase's
    # code page is evicted only now and then, when Random picks its entry
    assert rows[4096].per_op("dtlb_miss") == 0 and rows[4096].per_op("itlb_miss") == 0
    big = rows[2 << 20]
    assert big.per_op("dtlb_miss") == pytest.approx(128 / 4096 / 2, rel=0.1)
    assert 0 <= big.timed["itlb_miss"] <= big.timed["dtlb_miss"] / 4
    getpid = [j for j in modellog.join(results, regions) if j.result.bench == "getpid"][0]
    assert getpid.per_op("dtlb_miss") < 0.05
