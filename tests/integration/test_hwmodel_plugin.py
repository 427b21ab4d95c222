"""The hardware model (hw-models/core, driven by the QEMU plugin in
hw-models/qemu and by our SIMH for the VAX) on the real kernel.

  - the model's caches agree exactly with the Python reference simulator
    (tests/hwmodel_ref.py) on address traces of real regions, for several
    geometries and both write policies, with the fast paths on: every
    claim they make in the trace holds, and each that the geometry has
    shows there (tracing does not turn one off);
  - the time the guest prints is the time in the model's region records;
  - lower memory bandwidth never makes bcopy faster; with no cache, doubling
    the bandwidth about doubles the copy rate; a bigger cache never misses more
    on the same trace;
  - identical runs give identical counters;
  - disk requests are charged, traps counted, cycles attributed.
The checks that depend on the ISA (instruction classes, markers, the clock
mailbox, where a C function's arguments are) run on each ISA the model runs
on (booting.MODEL_ARCHES, from the harness's registry), each with the
profile its registry entry names: under QEMU with the plugin, and on the
VAX under our SIMH, which carries the same engine (hw-models/simh/);
booting.TRACING_ARCHES are those whose back end writes address traces and
attribution (all four now).  Each test boots its own emulator (about a
second each).
"""

import pytest

from booting import MODEL_ARCHES, TIMEOUT, TRACING_ARCHES, logs
from harness.guest import fsformat, machines, protocol
from harness.model import modelargs, modellog, profiles, runs

import hwmodel_ref

pytestmark = pytest.mark.skipif(not modelargs.PLUGIN.exists(),
                                reason="plugin missing: run `make hwmodel` (make test does)")


def profile_of(arch):
    """The profile the registry says the tests time `arch` with."""
    return machines.get(arch).model_profile


def start(name, arch, profile, overrides=None, extra=(), log=None, test_image=False):
    """A guest booted with the model; (Guest, its model log).  test_image:
    boot the tests' kernel, whose /bin has memwalk too (machines.test_image)."""
    m = machines.get(arch)
    if test_image:
        m = machines.test_image(m)
    if not m.kernel_path().exists():
        pytest.skip(f"{m.kernel} missing: run `make ARCH={arch}`")
    hw = profiles.load(profile, overrides)
    log = log or logs(arch) / f"{name}.hw.log"
    g = runs.start(m, hw, logs(arch) / f"{name}.log", log, list(extra))
    g.boot(timeout=m.boot_timeout)
    return g, log


def run_model(name, commands, profile=None, overrides=None, extra=(), arch="riscv",
              test_image=False):
    """Boot with the model, run `commands`; (results, region records)."""
    g, log = start(name, arch, profile or profile_of(arch), overrides, extra,
                   test_image=test_image)
    results = []
    with g:
        for c in commands:
            out = g.run(c, timeout=TIMEOUT)
            results += [r for r in out.records() if isinstance(r, protocol.Result)]
    regions, warnings = modellog.read_log(log)
    assert warnings == []
    return results, regions


def model_header(name, arch):
    """The HWMODEL line the model wrote first in run `name`'s log, as fields."""
    line = next(x for x in (logs(arch) / f"{name}.hw.log").read_text().splitlines()
                if x.startswith("HWMODEL "))
    return modellog.parse_fields(line.split()[1:], line)


WORKLOAD = ("getpid -n 30", "bcopy -c 3K -u 0 -n 2")


def geometry(ic, dc, unified=False):
    """Overrides for (size, line, assoc) I- and D-caches; dc adds (write_back,
    allocate).  No L2: the reference simulator has none."""
    o = {"l2.size": 0, "icache.size": ic[0], "icache.line": ic[1], "icache.assoc": ic[2],
         "dcache.size": dc[0], "dcache.line": dc[1], "dcache.assoc": dc[2],
         "dcache.write_policy": "write-back" if dc[3] else "write-through",
         "dcache.write_allocate": dc[4], "dcache.unified": unified, "dcache.write_buffer": 2}
    if unified:
        o["icache.size"] = 0
    return o


# Every D-cache here has two ways or more, so that every geometry can tell
# LRU from FIFO (tests/mutants.toml); direct mapping is the I-cache's in
# the first (memsys_ifetch_block's own path), and the D-cache's in
# test_fast_paths.py's profiles.
GEOMETRIES = {
    "dmi-wt-alloc": geometry((1024, 4, 1), (1024, 4, 2, False, True)),
    "2way-wb": geometry((2048, 16, 2), (2048, 16, 2, True, True)),
    "4way-wt-noalloc": geometry((512, 8, 4), (4096, 32, 4, False, False)),
    "wb-noalloc": geometry((1024, 32, 2), (1024, 32, 2, True, False)),
    "unified-wb": geometry(None or (0, 4, 1), (2048, 16, 4, True, True), unified=True),
}


def memwalk(o, tlb_sets=4, tlb_ways=2):
    """memwalk (guests/testimage/) sized to the D-cache of overrides o, and
    to a TLB of tlb_sets x tlb_ways."""
    line, ways = o["dcache.line"], o["dcache.assoc"]
    return (f"memwalk -l {line} -w {o['dcache.size'] // ways} -a {ways} "
            f"-t {tlb_sets} -u {tlb_ways} -n 3")


def fast_paths(o):
    """The fast paths' names the trace of a QEMU model with overrides o must
    show ((kind, path): hw-models/core/model.h, "the trace"): every one the
    geometry has, so that a path tracing turned off shows."""
    ic = ((o["dcache.size"], o["dcache.assoc"]) if o["dcache.unified"]
          else (o["icache.size"], o["icache.assoc"]))
    want = {("R", "hit"), ("R", "quick"), ("W", "quick"), ("I", "known"), ("I", "mru")}
    if ic[1] == 1 and not o["l2.size"]:
        want.add(("I", "dmfill"))               # memsys_ifetch_block, direct-mapped
    write_back = o["dcache.write_policy"] == "write-back"
    want.add(("W", "hit") if write_back else ("W", "mru"))
    if not o["dcache.write_allocate"]:
        want.add(("W", "nofill"))
    return want


def ref_caches(o):
    d = hwmodel_ref.Cache(o["dcache.size"], o["dcache.line"], o["dcache.assoc"],
                          o["dcache.write_policy"] == "write-back", o["dcache.write_allocate"])
    if o["dcache.unified"]:
        return d, d
    i = hwmodel_ref.Cache(o["icache.size"], o["icache.line"], o["icache.assoc"], False, True)
    return i, d


@pytest.mark.parametrize("arch", TRACING_ARCHES)
@pytest.mark.parametrize("name", GEOMETRIES)
def test_cache_matches_reference_simulator(name, arch, tmp_path):
    o = GEOMETRIES[name]
    trace = tmp_path / "trace.txt"
    _, regions = run_model(f"hw-ref-{name}", WORKLOAD + (memwalk(o),), overrides=o, arch=arch,
                           extra=[f"trace={trace}", "trace_region=2"], test_image=True)
    plugin = [r for r in regions if r.id == 2]
    assert len(plugin) == 3                         # getpid's, bcopy's and memwalk's
    ic, dc = ref_caches(o)
    ref = hwmodel_ref.replay(trace.read_text().splitlines(), ic, dc)
    assert len(ref) == 3
    for p, r in zip(plugin, ref):
        assert r.wrong == [], f"{name}: {len(r.wrong)} fast-path claims wrong, first: {r.wrong[0]}"
        got = (p["imiss"], p["dmiss"], p["dmiss_w"], p["writebacks"])
        assert got == (r.imiss, r.dmiss, r.dmiss_w, r.writebacks), name
        assert p["imiss"] > 0 and p["dmiss"] > 0
    # the geometries do exercise what they are for
    if o["dcache.write_policy"] == "write-back":
        assert plugin[2]["writebacks"] > 0
    if not o["dcache.write_allocate"]:
        assert plugin[1]["dmiss_w"] > 0
    # tracing leaves the fast paths on: each the geometry has took accesses
    if machines.get(arch).model == "qemu-plugin":
        took = set().union(*(r.paths for r in ref))
        assert fast_paths(o) <= took, (name, sorted(fast_paths(o) - took))


@pytest.mark.parametrize("arch", MODEL_ARCHES)
def test_guest_time_is_model_time_and_runs_repeat(arch):
    first, regions = run_model("hw-repeat-1", WORKLOAD, arch=arch)
    # the model took this ISA for the registry's (QEMU's plugin picks its
    # instruction classes by QEMU's target)
    assert model_header("hw-repeat-1", arch)["isa"] == machines.get(arch).model_isa
    joined = modellog.join(first, regions)           # raises unless clocks agree exactly
    assert [j.result.bench for j in joined] == ["getpid", "bcopy"]
    cycle_ns = 1000 / profiles.load(profile_of(arch)).get("cpu.clock_mhz")
    for j in joined:
        assert j.timed.clock_ns == j.result.ns and j.empty.clock_ns == j.result.loop_ns
        # marker to marker includes the clock reads: a few dozen instructions
        # more than the guest's span
        assert 0 < j.timed["ns"] - j.result.ns < 500 * cycle_ns
    # one trap per getpid, counted at the ISA's trap vector
    getpid = joined[0]
    assert getpid.timed["traps"] - getpid.empty["traps"] == getpid.result.iters
    second, regions2 = run_model("hw-repeat-2", WORKLOAD, arch=arch)
    assert [r.line for r in first] == [r.line for r in second]
    assert [r.line for r in regions] == [r.line for r in regions2]


def bcopy_rates(name, bandwidth, overrides=None, arch="riscv"):
    o = dict(overrides or {}, **{"memory.bandwidth_mbs": bandwidth})
    results, _ = run_model(name, ["bcopy -c 8K -u 64K -n 3"], overrides=o, arch=arch)
    return {r.case: r.mb_per_s for r in results}


def test_lower_bandwidth_never_makes_bcopy_faster():
    rates = [bcopy_rates(f"hw-bw-{bw}", bw) for bw in (2, 4, 8, 16, 32)]
    for case in ("cached", "uncached"):
        seq = [r[case] for r in rates]
        assert seq == sorted(seq), (case, seq)
    assert rates[-1]["uncached"] > 2 * rates[0]["uncached"]


@pytest.mark.parametrize("arch", MODEL_ARCHES)
def test_no_cache_bandwidth_doubling_doubles_copy_rate(arch):
    # (and no extra cycles per load or store: the copy loop's own time is not
    # what this measures, and on the Sun-4's profile it would be a tenth; and
    # no write cycle of its own, as the DS3100 has, which does not scale)
    no_cache = {"icache.size": 0, "dcache.size": 0, "l2.size": 0, "memory.latency_ns": 0,
                "cpu.load_extra": 0, "cpu.store_extra": 0, "cpu.dword_extra": None,
                "memory.write_ns": None}
    slow = bcopy_rates("hw-nocache-2", 2, no_cache, arch)["uncached"]
    fast = bcopy_rates("hw-nocache-4", 4, no_cache, arch)["uncached"]
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


def test_sweep_writes_its_directory(tmp_path):
    """A sweep's directory: the CSV (two values x two cases), the JSON with
    the paper's numbers and what produced each point, the PNG and the SVG."""
    import json

    import pandas as pd
    from harness.model import sweep
    d = sweep.run_sweep("ds3100", "memory.bandwidth_mbs", [4, 16], ["bcopy"],
                        out=tmp_path, say=lambda m: None)
    assert d == tmp_path / "sweep-ds3100-memory-bandwidth_mbs"
    assert sorted(p.name for p in tmp_path.iterdir()) == [d.name]       # nothing partial
    df = pd.read_csv(d / "sweep.csv")
    assert list(df.columns[:6]) == ["param", "value", "bench", "case", "unit", "measured"]
    assert len(df) == 2 * 2                             # two values x two cases
    cached = df[df.case == "cached"].set_index("value").measured
    assert cached[16] > cached[4] > 0                   # more bandwidth, a faster copy
    info = json.loads((d / "sweep.json").read_text())
    assert {(p["case"], p["value"]) for p in info["paper"]} == {("cached", 10.2), ("uncached", 5.1)}
    assert [p["profile"]["overrides"] for p in info["provenance"]] == \
        [{"memory.bandwidth_mbs": 4}, {"memory.bandwidth_mbs": 16}]
    assert (d / "sweep.png").stat().st_size > 10000
    assert (d / "sweep.svg").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("arch", TRACING_ARCHES)
def test_attribution_accounts_for_every_cycle(arch):
    """The attribution's functions add up to the region's cycles, kernel
    and user told apart.  The workload is cswitch, not getpid: lab 2's fast
    path may answer getpid without calling trap() or sys_getpid, and a
    student's correct change must not break this test; a pipe's read and
    write go the whole way (trap, sys_read, sys_write, the scheduler)."""
    from harness.model import attribute
    if not machines.get(arch).kernel_path().exists():
        pytest.skip(f"no {arch} kernel")
    costs, meta = attribute.attribute(profile_of(arch), "cswitch -n 100", arch=arch)
    # the trap vector (SIMH sees traps itself and needs no symbol: on the VAX
    # too the vector is trap_entry)
    vector = machines.get(arch).trap_symbol or "trap_entry"
    by_name = {c.name: c for c in costs}
    assert {vector, "trap", "sys_read", "sys_write", "trap_return"} <= set(by_name), sorted(by_name)
    total = sum(c.cycles for c in costs)
    assert total == pytest.approx(meta["region_cycles_per_op"], rel=0.005)
    # kernel and user told apart (on the 68040 by physical address only)
    assert by_name["sys_read"].space == "kernel" and by_name["sys_write"].space == "kernel"
    assert any(c.space == "user" and c.cycles > 0 for c in costs)
    kernel = sum(c.cycles for c in costs if c.space == "kernel")
    assert kernel > 0.7 * total
    # the user side is small: a loop around read and write
    user = total - kernel
    assert user < 0.1 * total, (user, total)
    # each process reads as often as it writes: the two system calls' own
    # instructions per operation are equal (on riscv ds3100-riscv, 40 each)
    assert by_name["sys_read"].insns == pytest.approx(by_name["sys_write"].insns, rel=0.05)
    text = attribute.format_costs(costs, meta)
    assert vector in text and "stalled" in text


def test_sparc_window_traps_are_counted():
    """SPARC's register window overflow and underflow traps are counted
    apart from the other traps.  A getpid fits in the 7 windows the
    Sun-4/280 had, so it takes none; a context switch writes every window
    to memory (swtch.S) and reads them back as the processes return, so a
    cswitch round trip takes both, and more overflows than underflows
    (a flush writes out windows nobody returns into)."""
    results, regions = run_model("hw-windows", ["getpid -n 50", "cswitch -n 500"], arch="sparc")
    getpid, cswitch = modellog.join(results, regions)
    assert getpid.per_op("wovf") == 0 and getpid.per_op("wunf") == 0
    assert getpid.per_op("traps") == 1
    ovf, unf = cswitch.per_op("wovf"), cswitch.per_op("wunf")
    assert 8 <= ovf <= 40 and 4 <= unf < ovf, (ovf, unf)
    assert "wovf" not in run_model("hw-nowindows", ["getpid -n 5"])[1][0].fields
    # The model counts the instructions QEMU's -icount does (1 ns each with
    # no model), give or take the one that traps, counted as it is tried
    # and again after the trap: a block that a window trap abandons must
    # not be counted whole (isa->traps_often).  The guest's clock steps
    # 500 ns (kernel/arch/sparc/timer.c): each of its two readings may be
    # that much short, spread over the iterations.
    from booting import start_guest
    with start_guest("hw-windows-icount", "sparc") as g:
        r = next(r for r in g.run("cswitch -n 500", timeout=TIMEOUT).records()
                 if isinstance(r, protocol.Result))
    icount = (r.ns - r.loop_ns) / r.iters
    step = 2 * 500 / r.iters
    assert abs(cswitch.per_op("insns") - icount) <= ovf + unf + 2 + step, \
        (cswitch.per_op("insns"), icount)


@pytest.mark.parametrize("arch", MODEL_ARCHES)
def test_disk_requests_are_charged(arch, tmp_path):
    """The kernel's disk_request(write, blockno, n) is found by its symbol
    and its arguments read where the ISA's calling convention puts them.
    With no seek and no rotation, every request (n = 1 block: ramdisk.c)
    costs exactly the overhead plus one block's transfer, so a misread n
    shows."""
    no_mechanics = {"disk.seek_ms": 0, "disk.rpm": 0}
    hw = profiles.load(profile_of(arch), no_mechanics)
    g, log = start("hw-disk", arch, profile_of(arch), no_mechanics,
                   log=tmp_path / "disk.hw.log")
    with g:
        g.run("mkdir /hwdisk", timeout=TIMEOUT)
        g.run("ls /", timeout=TIMEOUT)
        assert g.halt()
    total = next(line for line in log.read_text().splitlines() if line.startswith("HWTOTAL"))
    f = modellog.parse_fields(total.split()[1:], total)
    d = hw.data["disk"]
    per_request_ns = d["overhead_us"] * 1e3 + fsformat.BSIZE / d["transfer_mbs"] * 1e3
    assert f["disk"] > 0
    assert f["disk_ns"] == pytest.approx(f["disk"] * per_request_ns, rel=1e-4)


@pytest.mark.parametrize("arch", MODEL_ARCHES)
def test_each_disk_request_is_charged_once(arch):
    """The model charges as many disk requests as the kernel counts in its
    RESULT lines, no more: on SPARC disk_request() begins with a save, which
    may take a window overflow trap and run again (the model hooks the
    instruction after it, hwmodel.c)."""
    results, regions = run_model("hw-disk-once", ["createdelete -p sync -n 10"], arch=arch)
    joined = modellog.join(results, regions)
    assert joined
    for j in joined:
        counted = j.result.count("dev_writes") + j.result.count("dev_reads")
        assert j.timed["disk"] - j.empty["disk"] == counted > 0, (j.result.case, counted)


def test_attribution_of_a_named_case():
    """--case picks the case's timed region, and the RESULT line confirms it."""
    from harness.bench import suite
    from harness.model import attribute
    costs, meta = attribute.attribute("ds3100", suite.BY_NAME["select"].short_command,
                                      case="10full")
    assert meta["region"] == 6 and " case=10full " in f" {meta['result']} "
    assert sum(c.cycles for c in costs) == pytest.approx(meta["region_cycles_per_op"], rel=0.005)


def test_mips_tlb_refills_are_traps_charged_as_code():
    """MIPS has no page-table walker: a TLB miss traps to the kernel's refill
    handler (kernel/arch/mips/trapentry.S, tlb_refill), which the model counts
    as a trap and charges as the code it runs.  An uncached copy between two
    256 KB buffers touches 128 pages, 64 of the TLB's page pairs, and the TLB
    holds 16: every pass misses on each pair, while getpid's loop never
    misses.  The load or store that missed is restarted, and is the only
    instruction the model counts twice."""
    from harness.model import attribute
    if not machines.get("mips").kernel_path().exists():
        pytest.skip("no mips kernel")
    results, regions = run_model("hw-mips-tlb", ["getpid -n 50", "bcopy -c 8K -u 256K -n 4"],
                                 arch="mips")
    joined = {(j.result.bench, j.result.case): j for j in modellog.join(results, regions)}

    def per_op(j, counter):
        return (j.timed[counter] - j.empty[counter]) / j.result.iters

    assert per_op(joined["getpid", "call"], "traps") == 1      # the system call alone
    uncached = joined["bcopy", "uncached"]
    refills = per_op(uncached, "traps")                         # no system call in the loop
    assert 64 <= refills <= 80
    costs, _ = attribute.attribute("ds3100", "bcopy -c 8K -u 256K -n 4", case="uncached")
    refill = next(c for c in costs if c.name == "tlb_refill")
    assert refill.space == "kernel" and refill.exec_cycles > 0
    assert refill.insns == pytest.approx(20 * refills, rel=0.05)  # the handler's 20



def test_write_cycle_paces_writes_and_nothing_else():
    """memory.write_ns (the DS3100's slow write cycle) changes only time:
    the same accesses, misses and bytes, and both copies slower; every word
    written through to memory holds it for a write cycle, so no copy takes
    less time than its words written times write_ns."""
    def copy(write_ns):
        o = {"memory.write_ns": write_ns, "memory.bandwidth_mbs": 40}
        results, regions = run_model(f"hw-write-{write_ns}", ["bcopy -c 8K -u 64K -n 3"],
                                     profile="ds3100", overrides=o, arch="mips")
        return {j.result.case: j for j in modellog.join(results, regions)}
    fast, slow = copy(150), copy(500)
    for case in ("cached", "uncached"):
        for k in ("insns", "loads", "stores", "dmiss", "bytes_in", "bytes_out"):
            assert fast[case].per_op(k) == slow[case].per_op(k), (case, k)
        assert slow[case].result.mb_per_s < fast[case].result.mb_per_s, case
        r = slow[case].result
        ns_per_copy = (r.ns - r.loop_ns) / r.iters
        assert ns_per_copy >= slow[case].per_op("bytes_out") / 4 * 500, case


def test_a_full_write_buffer_holds_the_processor():
    """The DS3100 writes every store through its buffer to memory, one
    write cycle (write_ns) per word.  At most `entries` writes are ever
    waiting, so a region that wrote k words took at least (k - entries)
    write cycles, however few its reads.  getpid (whose trap path saves
    registers, and whose loads hit) with the slowest write cycle is paced
    by the buffer: it counts the wait (wbuf_cycles), and takes longer with
    one entry than with eight."""
    write_ns = 600                                  # the range's slowest
    timed = {}
    for entries in (1, 8):
        o = {"memory.write_ns": write_ns, "dcache.write_buffer": entries}
        _, regions = run_model(f"hw-wbuf-{entries}", ["getpid -n 100"], profile="ds3100",
                               overrides=o, arch="mips")
        [timed[entries]] = [r for r in regions if r.id == 2]
        assert timed[entries]["wbuf_cycles"] > 0 and timed[entries]["bytes_out"] // 4 > 5000
        for r in regions:
            words = r["bytes_out"] // 4
            assert r["ns"] >= (words - entries) * write_ns, (entries, r.id, words, r["ns"])
    assert timed[1]["ns"] > timed[8]["ns"]
    assert timed[1]["bytes_out"] == timed[8]["bytes_out"]


def test_sparc_doubleword_access_costs_its_extra():
    """cpu.dword_extra is charged once per ldd or std executed, and only
    there: the same instructions, and at least the window handlers' eight
    doubleword moves per overflow or underflow trap more cycles each."""
    def cswitch(extra):
        results, regions = run_model(f"hw-dword-{extra}", ["cswitch -n 20"], arch="sparc",
                                     overrides={"cpu.dword_extra": extra})
        return modellog.join(results, regions)[0]
    none, one = cswitch(0), cswitch(1)
    assert none.per_op("insns") == one.per_op("insns")
    static = [j.per_op("cycles") - j.per_op("stall_cycles") for j in (none, one)]
    dwords = static[1] - static[0]
    assert dwords >= 8 * (one.per_op("wovf") + one.per_op("wunf")), dwords
    assert dwords < one.per_op("loads") + one.per_op("stores")
