"""Is a hardware model bit-identical run to run?  The paper's suite under a
profile, several fresh boots, every RESULT and HWREGION line compared.

Not run by default: it is known to fail today, not always.  On 2026-11-23,
`getpid -n 100000` under ds3100, 30 boots side by side: 6 gave a result
6,785 ns (113 cycles) faster than the other 24.  Their HWREGION records
agree on every instruction, access and trap (no timer tick in the
region); the faster have 145 I-cache misses where the others have 160.  So
the I-cache holds different code when the program starts.  The likeliest
cause, not yet shown: which kernel path took the typed command (the
console interrupt while the idle guest waited in WFI, or while it ran a
timer tick, which with sleep=off is most of its idle host time) depends on
host timing.  It is not where QEMU cuts
translated blocks: with -accel tcg,one-insn-per-tb=on 2 of 12 boots still
differ by the same 6,785 ns; with no I-cache (icache.size = 0) 30 of 30
agree.  hw-models/README.md ("Is a model deterministic?") says more.  Run
it with the number of boots and, if wanted, the profile:

    HWMODEL_DETERMINISM=5 python3 -m pytest -q tests/integration/test_model_determinism.py
    HWMODEL_DETERMINISM=5 HWMODEL_DETERMINISM_PROFILE=sun3 python3 -m pytest -q ...

The boots run two at a time (harness/model/executor.py), about 15 s each
under ds3100 on this project's machine (40 s when it is busy).
"""

import os

import pytest

from harness.bench import suite
from harness.guest import machines
from harness.model import hwmodel
from harness.model.executor import Job, LocalPool, run_jobs
from harness.model.runs import run_model

RUNS = int(os.environ.get("HWMODEL_DETERMINISM", "0") or 0)
PROFILE = os.environ.get("HWMODEL_DETERMINISM_PROFILE", "ds3100")

pytestmark = pytest.mark.skipif(
    RUNS < 2, reason="known to fail today (the I-cache's contents at a program's start "
    "depend on host timing): HWMODEL_DETERMINISM=5 runs it, see its docstring")


def suite_lines(profile: str, say=print) -> list[str]:
    """One boot: the suite's RESULT lines, then the model's HWREGION lines."""
    commands = [suite.BY_NAME[b].command_line for b in suite.SUITE]
    run = run_model(profile, commands, tag="determinism", timeout=600)
    return [r.line for r in run.results] + [r.line for r in run.regions]


def test_every_line_is_the_same_in_every_boot():
    hw = hwmodel.load_profile(PROFILE)
    if not hwmodel.PLUGIN.exists() or not machines.get(hw.isa).kernel_path().exists():
        pytest.skip(f"run `make hwmodel ARCH={hw.isa}` first")
    boots = run_jobs([Job(f"{PROFILE} boot {i}", suite_lines, (PROFILE,)) for i in range(RUNS)],
                     LocalPool(2), lambda s: None)
    first = boots[0]
    assert len([x for x in first if x.startswith("RESULT")]) >= len(suite.SUITE)
    assert any(x.startswith("HWREGION") for x in first)
    differ = []
    for i, lines in enumerate(boots[1:], 1):
        if lines != first:
            pairs = [(a, b) for a, b in zip(first, lines) if a != b]
            differ.append(f"boot {i}: {len(pairs)} lines differ from boot 0, first:\n"
                          f"  {pairs[0][0] if pairs else len(first)}\n"
                          f"  {pairs[0][1] if pairs else len(lines)}")
    assert not differ, f"{len(differ)} of {RUNS - 1} boots differ from the first:\n" + \
        "\n".join(differ)
