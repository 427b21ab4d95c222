"""The hardware model (hw-models/plugin/) on the real kernel.

  - the plugin's caches agree exactly with the Python reference simulator
    (tests/hwmodel_ref.py) on address traces of real regions, for several
    geometries and both write policies;
  - the time the guest prints is the time in the plugin's region records;
  - lower memory bandwidth never makes bcopy faster; with no cache, doubling
    the bandwidth about doubles the copy rate; a bigger cache never misses more
    on the same trace;
  - identical runs give identical counters.
Each test boots its own QEMU with the plugin (about a second each).
"""

import pytest

from booting import KERNEL, LOGS, MACHINE, TIMEOUT
from harness import hwmodel, profiles, protocol
from harness.console import Guest

import hwmodel_ref

pytestmark = pytest.mark.skipif(not hwmodel.PLUGIN.exists(),
                                reason="plugin missing: run `make hwmodel` (make test does)")


def run_model(name, commands, profile="ds3100", overrides=None, extra=()):
    """Boot with the model, run `commands`; (results, region records)."""
    hw = hwmodel.load_profile(profile, overrides)
    log = LOGS / f"{name}.hw.log"
    argv = MACHINE.command(profiles.get("none")) + \
        hwmodel.emulator_args(hw, "riscv", KERNEL, log, list(extra))
    results = []
    with Guest(argv, log_path=LOGS / f"{name}.log", line_ending=MACHINE.line_ending,
               char_delay=MACHINE.char_delay, cwd=MACHINE.kernel_path().parent) as g:
        g.boot(timeout=MACHINE.boot_timeout)
        for c in commands:
            out = g.run(c, timeout=TIMEOUT)
            results += [r for r in out.records() if isinstance(r, protocol.Result)]
    regions, warnings = hwmodel.read_log(log)
    assert warnings == []
    return results, regions


WORKLOAD = ("getpid -n 30", "bcopy -c 3K -u 0 -n 2")


def geometry(ic, dc, unified=False):
    """Overrides for (size, line, assoc) I- and D-caches; dc adds (write_back, allocate)."""
    o = {"icache.size": ic[0], "icache.line": ic[1], "icache.assoc": ic[2],
         "dcache.size": dc[0], "dcache.line": dc[1], "dcache.assoc": dc[2],
         "dcache.write_policy": "write-back" if dc[3] else "write-through",
         "dcache.write_allocate": dc[4], "dcache.unified": unified, "dcache.write_buffer": 2}
    if unified:
        o["icache.size"] = 0
    return o


GEOMETRIES = {
    "dm-wt-alloc": geometry((1024, 4, 1), (1024, 4, 1, False, True)),
    "2way-wb": geometry((2048, 16, 2), (2048, 16, 2, True, True)),
    "4way-wt-noalloc": geometry((512, 8, 4), (4096, 32, 4, False, False)),
    "wb-noalloc": geometry((1024, 32, 2), (1024, 32, 2, True, False)),
    "unified-wb": geometry(None or (0, 4, 1), (2048, 16, 4, True, True), unified=True),
}


def ref_caches(o):
    d = hwmodel_ref.Cache(o["dcache.size"], o["dcache.line"], o["dcache.assoc"],
                          o["dcache.write_policy"] == "write-back", o["dcache.write_allocate"])
    if o["dcache.unified"]:
        return d, d
    i = hwmodel_ref.Cache(o["icache.size"], o["icache.line"], o["icache.assoc"], False, True)
    return i, d


@pytest.mark.parametrize("name", GEOMETRIES)
def test_cache_matches_reference_simulator(name, tmp_path):
    o = GEOMETRIES[name]
    trace = tmp_path / "trace.txt"
    _, regions = run_model(f"hw-ref-{name}", WORKLOAD, overrides=o,
                           extra=[f"trace={trace}", "trace_region=2"])
    plugin = [r for r in regions if r.id == 2]
    assert len(plugin) == 2                         # getpid's and bcopy's timed loops
    ic, dc = ref_caches(o)
    ref = hwmodel_ref.replay(trace.read_text().splitlines(), ic, dc)
    assert len(ref) == 2
    for p, r in zip(plugin, ref):
        got = (p["imiss"], p["dmiss"], p["dmiss_w"], p["writebacks"])
        assert got == (r.imiss, r.dmiss, r.dmiss_w, r.writebacks), name
        assert p["imiss"] > 0 and p["dmiss"] > 0
    # the geometries do exercise what they are for
    if o["dcache.write_policy"] == "write-back" and o["dcache.write_allocate"]:
        assert plugin[1]["writebacks"] > 0
    if not o["dcache.write_allocate"]:
        assert plugin[1]["dmiss_w"] > 0


def test_guest_time_is_model_time_and_runs_repeat():
    first, regions = run_model("hw-repeat-1", WORKLOAD)
    joined = hwmodel.join(first, regions)           # raises unless clocks agree exactly
    assert [j.result.bench for j in joined] == ["getpid", "bcopy"]
    for j in joined:
        assert j.timed.clock_ns == j.result.ns and j.empty.clock_ns == j.result.loop_ns
        assert j.timed["traps"] >= (30 if j.result.bench == "getpid" else 0)
        # marker to marker includes the clock reads; it is just above the guest's span
        assert 0 < j.timed["ns"] - j.result.ns < 20000
    second, regions2 = run_model("hw-repeat-2", WORKLOAD)
    assert [r.line for r in first] == [r.line for r in second]
    assert [r.line for r in regions] == [r.line for r in regions2]


def bcopy_rates(name, bandwidth, overrides=None):
    o = dict(overrides or {}, **{"memory.bandwidth_mbs": bandwidth})
    results, _ = run_model(name, ["bcopy -c 8K -u 64K -n 3"], overrides=o)
    return {r.case: r.mb_per_s for r in results}


def test_lower_bandwidth_never_makes_bcopy_faster():
    rates = [bcopy_rates(f"hw-bw-{bw}", bw) for bw in (2, 4, 8, 16, 32)]
    for case in ("cached", "uncached"):
        seq = [r[case] for r in rates]
        assert seq == sorted(seq), (case, seq)
    assert rates[-1]["uncached"] > 2 * rates[0]["uncached"]


def test_no_cache_bandwidth_doubling_doubles_copy_rate():
    no_cache = {"icache.size": 0, "dcache.size": 0, "memory.latency_ns": 0}
    slow = bcopy_rates("hw-nocache-2", 2, no_cache)["uncached"]
    fast = bcopy_rates("hw-nocache-4", 4, no_cache)["uncached"]
    assert 1.8 < fast / slow <= 2.0


def test_bigger_cache_never_misses_more(tmp_path):
    trace = tmp_path / "trace.txt"
    o = GEOMETRIES["2way-wb"]
    run_model("hw-bigger", WORKLOAD, overrides=o, extra=[f"trace={trace}", "trace_region=2"])
    lines = trace.read_text().splitlines()
    for wb, alloc in ((True, True), (False, False)):
        misses = []
        for size in (512, 1024, 2048, 4096, 8192, 65536):
            dc = hwmodel_ref.Cache(size, 16, 2, wb, alloc)
            misses.append(sum(c.dmiss for c in hwmodel_ref.replay(lines, None, dc)))
        assert misses == sorted(misses, reverse=True), misses
        assert misses[0] > misses[-1]


def test_sweep_writes_csv_and_png(tmp_path):
    from harness import sweep
    csv_path, png_path = sweep.run_sweep("ds3100", "memory.bandwidth_mbs", [4, 16],
                                         ["bcopy"], out=tmp_path / "s", say=lambda m: None)
    rows = csv_path.read_text().splitlines()
    assert rows[0].startswith("param,value,bench,case,unit,measured")
    assert len(rows) == 1 + 2 * 2                     # two values x two cases
    assert png_path.stat().st_size > 10000


def test_attribution_accounts_for_every_cycle():
    from harness import attribute
    costs, meta = attribute.attribute("ds3100", "getpid -n 200")
    names = {c.name for c in costs}
    assert {"trap_entry", "trap", "sys_getpid", "trap_return", "getpid"} <= names
    total = sum(c.cycles for c in costs)
    assert total == pytest.approx(meta["region_cycles_per_op"], rel=0.005)
    kernel = sum(c.cycles for c in costs if c.space == "kernel")
    assert kernel > 0.8 * total
    # a getpid is one trap: the trap vector's first instruction runs once per call
    assert next(c for c in costs if c.name == "sys_getpid").insns == pytest.approx(4, abs=1)
    text = attribute.format_costs(costs, meta)
    assert "trap_entry" in text and "stalled" in text


def test_disk_requests_are_charged(tmp_path):
    """The kernel's disk_request() is found by its symbol; each request costs
    at least the profile's overhead plus the transfer of one block."""
    hw = hwmodel.load_profile("ds3100")
    log = tmp_path / "disk.hw.log"
    argv = MACHINE.command(profiles.get("none")) + hwmodel.emulator_args(hw, "riscv", KERNEL, log)
    assert any(a.startswith("disk_pc=") for a in argv[-1].split(","))
    with Guest(argv, log_path=LOGS / "hw-disk.log", line_ending=MACHINE.line_ending,
               char_delay=MACHINE.char_delay, cwd=MACHINE.kernel_path().parent) as g:
        g.boot(timeout=MACHINE.boot_timeout)
        g.run("mkdir /hwdisk", timeout=TIMEOUT)
        g.run("ls /", timeout=TIMEOUT)
        assert g.halt()
    total = next(line for line in log.read_text().splitlines() if line.startswith("HWTOTAL"))
    f = hwmodel.parse_fields(total.split()[1:], total)
    d = hw.data["disk"]
    per_request_ns = d["overhead_us"] * 1e3 + hwmodel.block_size() / d["transfer_mbs"] * 1e3
    assert f["disk"] > 0
    assert f["disk_ns"] >= f["disk"] * per_request_ns * 0.999
