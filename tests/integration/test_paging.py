"""Demand paging (kernel/port/paging.c) on every ISA: the mode is chosen at
run time and reads back; under it a fresh heap page is served on first
touch, counted and zero-filled (measure pagefault, t_regs's page_fault
check); a system call into a page not touched yet works and a bad pointer
still gets EFAULT (t_efault); a fault outside the process's pages still
kills it (t_fault); the stack grows a page at a time (t_deep); and the mode
goes back to eager, the default, where sbrk maps pages before they are used
and no fault happens."""

import re

from booting import TIMEOUT
from harness.bench import checks
from harness.guest import protocol

PAGING = re.compile(r"paging=(eager|demand) faults=(\d+)$")


def _paging(guest, mode):
    """Set the mode with `policy -paging`; (mode it reports, faults since boot)."""
    lines = guest.run(f"policy -paging {mode}", timeout=TIMEOUT).lines
    said = [m for line in lines if (m := PAGING.match(line))]
    assert len(said) == 1, lines
    return said[0].group(1), int(said[0].group(2))


def _pagefault(guest, pages):
    out = guest.run(f"measure pagefault -n {pages}", timeout=TIMEOUT)
    results = [r for r in out.records() if isinstance(r, protocol.Result)]
    assert len(results) == 1, out.lines
    return results[0]


def test_demand_paging_serves_counts_and_kills(test_guest, arch):
    g = test_guest
    try:
        mode, before = _paging(g, "demand")
        assert mode == "demand"

        # Every fresh page touched once is one fault, counted for the
        # process and system-wide; the service time is real.
        r = _pagefault(g, 32)
        assert r.bench == "pagefault" and r.case == "write" and r.iters == 32
        assert r.extra["faults"] == 32, r
        assert r.ns > r.loop_ns >= 0             # (>= : SPARC's clock steps 500 ns)
        mode, after = _paging(g, "demand")
        assert after - before >= 32 + 16          # the timed round and the warm-up

        # Registers survive a served fault; the page is zeros but the store.
        run = checks.run_check(g, "t_regs", timeout=TIMEOUT)
        assert run.problems() == [], "\n".join(run.lines[-20:])
        assert "t_regs.page_fault" in {t.name for t in run.passes}

        # System calls into untouched heap pages work, bad pointers still fail,
        # and a fault outside the process's pages still kills it, under demand.
        for program in ("t_efault", "t_fault"):
            run = checks.run_check(g, program, timeout=TIMEOUT)
            assert run.problems() == [], "\n".join(run.lines[-20:])
            assert run.summary is not None and run.summary.failed == 0
        assert run.killed and {k.why for k in run.killed} >= {"load_fault", "store_fault"}
        efault = checks.run_check(g, "t_efault", timeout=TIMEOUT)
        assert {"t_efault.read_into_fresh_heap", "t_efault.write_from_fresh_heap"} <= \
            {t.name for t in efault.passes}

        # The stack grows on demand: t_deep's 100 frames, its fork and its
        # switches run past the stack's top page, the one exec maps.  (Not
        # on SPARC, whose stack is mapped whole: its window traps cannot
        # take a fault; there t_deep touches no page not mapped.)
        _, before = _paging(g, "demand")
        run = checks.run_check(g, "t_deep", timeout=TIMEOUT)
        assert run.problems() == [] and run.summary.failed == 0, "\n".join(run.lines[-20:])
        _, after = _paging(g, "demand")
        if arch == "sparc":
            assert after == before
        else:
            assert after > before
    finally:
        mode, _ = _paging(g, "eager")
    assert mode == "eager"
    assert g.run("echo alive", timeout=TIMEOUT).lines == ["alive"]


def test_eager_is_the_default_and_maps_before_use(boot):
    """A fresh boot pages eagerly: t_regs's check switches demand paging on
    for itself, so under eager paging a program's heap takes no fault."""
    g = boot()
    mode, faults = _paging(g, "eager")            # sets what it already is
    assert (mode, faults) == ("eager", 0)
    run = checks.run_check(g, "t_efault", timeout=TIMEOUT)
    assert run.summary is not None and run.summary.failed == 0
    assert _paging(g, "eager") == ("eager", 0)   # its heap pages were all mapped


def test_page_allocation_policy_is_selectable_and_reads_back(boot):
    """`policy -pages` sets the page-allocation policy (kernel/port/kalloc.c)
    for the pages allocated from then on and says which one it replaced: a
    fresh boot allocates from the free list's head; what was set is what
    the next change reports it replaced."""
    g = boot()
    said = lambda cmd: [l for l in g.run(cmd, timeout=TIMEOUT).lines     # noqa: E731
                        if l.startswith("pages=")]
    assert said("policy -pages random") == ["pages=random was=list"]
    assert said("policy -pages coloured") == ["pages=coloured was=random"]
    assert said("policy -pages list") == ["pages=list was=coloured"]
    assert g.run("policy -pages striped", timeout=TIMEOUT).lines[0].startswith("usage: policy")
