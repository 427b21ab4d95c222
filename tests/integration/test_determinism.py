"""-icount makes runs bit-identical: two fresh boots print the same RESULT lines.

cswitch is the sensitive one: it runs long enough to meet the 100 Hz timer
three times, and where the tick lands depends on the timer's phase at exec,
which typing the command in one piece used to move (a third of the runs
differed by 514 instructions on RISC-V: harness/guest/console.py, _type_line).
Typed a key at a time, 2 boots in 12 still differed under load: the RISC-V
`time` counter steps every 100 instructions, and where a program started in
that step still depended on the host; exec now starts it at a fixed phase
(kernel/arch/riscv/clockalign.S, as MIPS's), and 12 of 12 agree."""

import re
import subprocess
import sys

import pytest

from booting import TIMEOUT
from harness import ROOT
from harness.bench import suite
from harness.guest import machines


@pytest.mark.slow
def test_two_boots_identical_results(boot):
    lines = []
    for _ in range(2):
        g = boot()
        runs = suite.run_suite(g, [suite.BY_NAME["getpid"], suite.BY_NAME["cswitch"],
                                   suite.BY_NAME["bcopy"]], timeout=TIMEOUT)
        lines.append([r.line for r in suite.all_results(runs)])
        g.close()
    assert len(lines[0]) == 4
    assert lines[0] == lines[1]


# The ISAs whose console is the 16550 (kernel/dev/ns16550.c in their arch.mk).
NS16550_ISAS = sorted(p.parent.name for p in (ROOT / "kernel" / "arch").glob("*/arch.mk")
                      if "kernel/dev/ns16550.c" in p.read_text())
IIR = 2                     # the 16550's interrupt identification register
IIR_FIFOS_ON = 0xc0         # its two top bits: the FIFOs are enabled


@pytest.mark.parametrize("arch", NS16550_ISAS)
def test_console_uart_fifo_off(arch):
    """QEMU's 16550 with its FIFO on sets a receive timeout on the virtual
    clock for each byte typed, from a reading whose value the host's timing
    decides; its deadline then cuts a block short at a point that differs
    from run to run, and moved mips/ds3100's remote results by a few cycles
    (docs/remote-files.md, "mips: one region a few cycles off").  So the
    kernel leaves the FIFOs off: IIR's top bits read 0 after boot (0xc1
    with them on)."""
    if not machines.get(arch).kernel_path().exists():
        pytest.fail(f"build/{arch}/kernel.elf missing: `make test` builds every ISA first")
    argv = [sys.executable, "-m", "harness", "gdb", "--arch", arch, "--program", "getpid",
            "--", "-batch", "-ex", "stop-in getpid sys_exit", "-ex", "guest getpid -n 1",
            "-ex", "continue", "-ex", f"p/x uart_reg_read({IIR})"]
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    m = re.search(r"^\$1 = (0x[0-9a-f]+)$", out, re.M)
    assert m, out
    assert int(m.group(1), 16) & IIR_FIFOS_ON == 0, out
