"""The MIPS scale's fixed point: our VAX build of `mips` executes
mipsscale.VAX_MIPS_INSNS_PER_ITER instructions per iteration.

Every hardware model's MIPS rating is the VAX-11/780's time for the same
iterations divided by the model's (harness/bench/mipsscale.py), and the 780's time
is that many VAX instructions at 0.47 million per second.  If mips.c or the
VAX compiler changes, this test says so, and the constant (and then the
calibration, `make calibrate`) must follow.
"""

import pytest

from booting import TIMEOUT, start_guest
from harness.guest import machines, protocol
from harness.bench import mipsscale


def test_vax_mips_instructions_per_iteration():
    if not machines.get("vax").kernel_path().exists():
        pytest.fail("no VAX kernel: `make test` builds it (make ARCH=vax)")
    g = start_guest("mips-reference", "vax")
    try:
        out = g.run("mips -n 300", timeout=TIMEOUT * 4)
    finally:
        g.close()
    [r] = [x for x in out.records() if isinstance(x, protocol.Result)]
    per_iter = (r.insns - r.loop_insns) / r.iters
    # the two clock reads around each loop add a few instructions in all
    assert per_iter == pytest.approx(mipsscale.VAX_MIPS_INSNS_PER_ITER, abs=0.1), r.line
