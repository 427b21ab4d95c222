"""The MIPS scale: a model's rating on the paper's Table 1 scale
(VAX-11/780 = 1), from our integer benchmark's time.
"""

from __future__ import annotations

# "MIPS, VAX-11/780 = 1", the way Table 1 means it: a machine's rating is
# the time a VAX-11/780 takes for some work divided by the machine's time
# for it.  The work is N iterations of our integer benchmark
# (guests/bin/mips.c), the same C source on every ISA.  The 780's time for
# it: N x VAX_MIPS_INSNS_PER_ITER VAX instructions at 0.47 million VAX
# instructions per second (Emer & Clark, ISCA 1984: 10.6 cycles of 200 ns
# per instruction).  VAX_MIPS_INSNS_PER_ITER is what our VAX build of `mips`
# executes per iteration, counted under SIMH (the empty loop subtracted)
# and checked by tests/integration/test_hwmodel_plugin.py, so a change to
# mips.c or to the VAX compiler cannot silently move the scale.  With it,
# the MicroVAX II model fitted to 0.9 reads 0.9, and a RISC-V, x86 or 68k
# model is rated against the same 780 doing the same work.
VAX_780_INSNS_PER_SECOND = 0.47e6
VAX_MIPS_INSNS_PER_ITER = 534


def mips_rating(iters: int, ns: int) -> float:
    """MIPS relative to a VAX-11/780, from `mips`'s iterations and net time."""
    vax_780_seconds = iters * VAX_MIPS_INSNS_PER_ITER / VAX_780_INSNS_PER_SECOND
    return vax_780_seconds / (ns * 1e-9)
