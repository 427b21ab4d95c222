"""The hardware model's fast paths against its general path.

Every shortcut the model takes for speed (hw-models/core/model.h, "The fast
paths": the plugin's short path for an access, the memory system's quick
cases, the I-cache's block records and region generations, the TLB's
last-page and most-recently-used checks, QEMU's physical addresses kept per
page) must give exactly what the general path gives.  fast=false
(hw-models/core/params.def) turns every one off; here the same workloads
run both ways on every ISA the QEMU plugin runs, under profiles made to
stress the model (small caches of one, two and four ways, write-back and
write-through, with and without write-allocate, a small write buffer or
none, an L2 of either policy, memory alone, small TLBs), and every RESULT
and HWREGION line (every counter of every region) must be the same.  With
fast=false the trace names no fast path: none ran.

The VAX's SIMH front end has no fast path of its own (it calls hw_data and
hw_ifetch for every access; hw-models/simh/vax_model.c), so it is not here.
"""

import pytest

from booting import MODEL_ARCHES
from harness.guest import machines
from harness.model import modelargs

from test_hwmodel_plugin import memwalk, profile_of, run_model

pytestmark = pytest.mark.skipif(not modelargs.PLUGIN.exists(),
                                reason="plugin missing: run `make hwmodel` (make test does)")

QEMU_ARCHES = tuple(a for a in MODEL_ARCHES if machines.get(a).model == "qemu-plugin")
# Those whose TLB the model walks (so its trace has TLB lookups too).
WALKED = tuple(a for a in QEMU_ARCHES if machines.get(a).tlb_refill == "walk")


def caches(ic, dc, wbuf, l2=None, unified=False):
    """Overrides: (size, line, assoc) I-cache, (size, line, assoc,
    write_back, allocate) D-cache (or both, unified), wbuf entries, and an
    L2 as (size, line, assoc, write_back, allocate) or none."""
    o = {"icache.size": 0 if unified else ic[0], "icache.line": ic[1], "icache.assoc": ic[2],
         "dcache.size": dc[0], "dcache.line": dc[1], "dcache.assoc": dc[2],
         "dcache.write_policy": "write-back" if dc[3] else "write-through",
         "dcache.write_allocate": dc[4], "dcache.unified": unified,
         "dcache.write_buffer": wbuf, "l2.size": 0}
    if l2:
        o.update({"l2.size": l2[0], "l2.line": l2[1], "l2.assoc": l2[2], "l2.latency_ns": 40,
                  "l2.write_policy": "write-back" if l2[3] else "write-through",
                  "l2.write_allocate": l2[4]})
    return o


def tlb(i, d, large=None, unified=False):
    """A small walked TLB: (entries, assoc) each, large = (entries, assoc)."""
    o = {"tlb.refill": "walk", "tlb.page_size": 4096, "tlb.replacement": "lru",
         "tlb.itlb_entries": 0 if unified else i[0], "tlb.itlb_assoc": i[1],
         "tlb.dtlb_entries": d[0], "tlb.dtlb_assoc": d[1], "tlb.walk_cycles": 3,
         "tlb.unified": True if unified else None, "tlb.large_entries": None,
         "tlb.large_assoc": None, "tlb.large_page_size": None}
    if large:
        o.update({"tlb.large_entries": large[0], "tlb.large_assoc": large[1],
                  "tlb.large_page_size": 4 << 20})
    return o


# Each profile's caches, and the TLB it has where the ISA's walk is known
# (x86, riscv, m68k); on MIPS the refills are counted (the kernel's
# handler), and SPARC has no TLB model.
STRESS = {
    # direct-mapped: memsys_ifetch_block's own path, no-allocate stores,
    # a write buffer of one
    "dm-wb-noalloc": (caches((256, 16, 1), (512, 8, 1, True, False), 1), tlb((4, 2), (8, 2))),
    # two ways, a write-back L2 behind (next_write's shortcut), no buffer
    "2way-wb-l2wb": (caches((1024, 16, 2), (1024, 16, 2, True, True), 0,
                           l2=(8192, 32, 2, True, True)), tlb((4, 2), (8, 4), large=(4, 2))),
    # four ways, write-through with allocate, a write-through L2
    "4way-wt-l2wt": (caches((512, 8, 4), (2048, 16, 4, False, True), 2,
                           l2=(4096, 32, 1, False, False)), tlb((0, 1), (8, 2), unified=True)),
    # write-through without allocate, unified
    "unified-wt-noalloc": (caches((0, 32, 1), (2048, 32, 2, False, False), 2, unified=True),
                           tlb((8, 2), (16, 4))),
    # memory alone: mem_cb_direct
    "memory": (caches((0, 16, 1), (0, 16, 1, False, False), 0), tlb((4, 1), (4, 2))),
}


def overrides(name, arch):
    o, walked = STRESS[name]
    refill = machines.get(arch).tlb_refill
    if refill == "walk":
        return {**o, **walked}
    if refill == "software":
        return {**o, "tlb": None, "tlb.refill": "software", "tlb.page_size": 4096}
    return {**o, "tlb": None}


def workload(o):
    """A little of everything: system calls, context switches, copies, the
    file system's disk requests, and memwalk sized to the D-cache."""
    walk = memwalk(o) if o["dcache.size"] else "memwalk -l 16 -w 1024 -a 2 -n 3"
    return ("getpid -n 200", "cswitch -n 20", "bcopy -c 2K -u 16K -n 2",
            "createdelete -p sync -n 3", walk)


@pytest.mark.parametrize("arch", QEMU_ARCHES)
@pytest.mark.parametrize("name", STRESS)
def test_fast_paths_change_nothing(name, arch):
    o = overrides(name, arch)
    runs = {fast: run_model(f"fast-{name}-{fast}", workload(o), profile_of(arch), o,
                            [modelargs.arg("fast", fast)], arch, test_image=True)
            for fast in (True, False)}
    (fast_results, fast_regions), (slow_results, slow_regions) = runs[True], runs[False]
    assert len(fast_results) >= 5 and len(fast_regions) >= 10
    assert [r.line for r in slow_results] == [r.line for r in fast_results], name
    for slow, fast in zip(slow_regions, fast_regions):
        assert slow.line == fast.line, name
    assert len(slow_regions) == len(fast_regions)


@pytest.mark.parametrize("arch", WALKED)
def test_fast_false_takes_no_fast_path(arch, tmp_path):
    """With fast=false no access in the trace names a fast path (with
    fast=true many do: test_hwmodel_plugin.py, test_tlb_model.py).  (Apart
    from the comparison above: the traced region starts with empty caches,
    which changes its numbers.)"""
    o = overrides("2way-wb-l2wb", arch)
    trace = tmp_path / "trace.txt"
    run_model("fast-none", ("getpid -n 50", "bcopy -c 2K -u 0 -n 1"), profile_of(arch), o,
              [modelargs.arg("fast", False), f"trace={trace}", "trace_region=2"], arch)
    lines = trace.read_text().splitlines()
    named = [x for x in lines if len(x.split()) > (4 if x.startswith("T ") else 3)]
    assert len(lines) > 1000 and any(x.startswith("T D") for x in lines)
    assert named == [], named[:3]
