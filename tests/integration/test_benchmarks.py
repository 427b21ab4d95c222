"""The benchmark suite on the real kernels: every case measured, values sane.

Under profile none (-icount shift=0) guest time is one nanosecond per
instruction, so each case's net time is its net instruction count: the cost
checks below are in instructions on every ISA.  Where user mode can count
instructions itself (RISC-V's instret), the two must agree.
"""

import pytest

from harness.bench import suite
from harness.guest import machines

# The ISAs whose user mode counts instructions (the registry's counts_insns:
# riscv reads instret; on vax the clock is our SIMH's instruction count);
# the others report insns=0: "unknown".
COUNTS_INSTRUCTIONS = {a for a, m in machines.MACHINES.items() if m.counts_insns}


@pytest.mark.parametrize("bench", suite.BENCHMARKS, ids=lambda b: b.name)
def test_each_case_measured(bench_runs, bench, arch):
    run = bench_runs[bench.name]
    assert [r.case for r in run.results] == list(bench.cases)
    for r in run.results:
        assert r.bench == bench.name
        assert r.iters > 0
        # A loop shorter than one step of the guest's clock may read 0
        # (SPARC's sun4m counter steps 500 ns), but some case's does not.
        assert r.ns > r.loop_ns >= 0
        if arch in COUNTS_INSTRUCTIONS:
            assert r.insns > r.loop_insns > 0
        else:
            assert r.insns == r.loop_insns == 0
    assert any(r.loop_ns > 0 for r in run.results)


# Only on the ISAs whose user mode counts instructions (x86 and m68k have
# no counter to compare with: their counts come from the hardware model,
# tests/integration/test_hwmodel_plugin.py).
@pytest.mark.parametrize("arch", sorted(COUNTS_INSTRUCTIONS), indirect=True, scope="session")
@pytest.mark.parametrize("bench", suite.BENCHMARKS, ids=lambda b: b.name)
def test_time_is_instructions(bench_runs, bench, arch):
    for r in bench_runs[bench.name].results:
        net_insns = r.insns - r.loop_insns
        # the clock and the counter are read a few instructions apart
        assert abs(r.net_ns - net_insns) <= max(400, net_insns // 1000), r.line


def test_getpid_cost(bench_runs):
    [r] = bench_runs["getpid"].results
    assert 20 <= r.ns_per_op <= 2000             # instructions, under -icount
    assert r.iters >= 1000


def test_cswitch_costs_more_than_getpid(bench_runs):
    [g] = bench_runs["getpid"].results
    [c] = bench_runs["cswitch"].results
    # a round trip is two switches, two reads and two writes
    assert c.ns_per_op > 4 * g.ns_per_op


def test_select_cases(bench_runs):
    by = {r.case: r for r in bench_runs["select"].results}
    assert set(by) == {"1empty", "10empty", "10full"}
    assert by["10empty"].ns_per_op > by["1empty"].ns_per_op
    [g] = bench_runs["getpid"].results
    assert by["1empty"].ns_per_op > g.ns_per_op


def test_bcopy_cases(bench_runs):
    by = {r.case: r for r in bench_runs["bcopy"].results}
    assert set(by) == {"cached", "uncached"}
    assert 0 < by["cached"].bytes < by["uncached"].bytes
    for r in by.values():
        assert r.mb_per_s is not None and r.mb_per_s > 0
        # a copy loop moves at least a byte every 8 instructions, at most 64 per instruction
        assert 1 / 8 <= r.bytes * r.iters / r.net_ns <= 64
