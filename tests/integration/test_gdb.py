"""`make gdb` as a student uses it (docs/debugging.md), run in gdb's batch mode.

On every ISA that runs under QEMU the session of docs/debugging.md must
work: a breakpoint in the kernel that stops only in the program `getpid`,
the guest's console typed at from inside gdb, and the commands of
tools/gdb/common.gdb (`ps`).  On RISC-V the test also stops in the trap
entry and checks what the hardware says about the trap: scause 8 (an
ecall from user mode) at the ecall in getpid's system-call stub.
"""

import subprocess
import sys

import pytest

from harness import ROOT
from harness.guest import machines

# The VAX runs under SIMH, which has its own debugger instead (debug.py).
QEMU_ISAS = [a for a in machines.names() if isinstance(machines.get(a).emulator, machines.Qemu)]


def gdb_session(arch: str, *commands: str) -> str:
    argv = [sys.executable, "-m", "harness", "gdb", "--arch", arch, "--program", "getpid",
            "--", "-batch"]
    for c in commands:
        argv += ["-ex", c]
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    return out


@pytest.mark.parametrize("arch", QEMU_ISAS)
def test_gdb_stops_in_the_system_call_of_one_program(arch):
    if not machines.get(arch).kernel_path().exists():
        pytest.fail(f"build/{arch}/kernel.elf missing: `make test` builds every ISA first")
    # sys_exit, not sys_getpid: lab 2's fast path may answer getpid without
    # calling sys_getpid, and a student's correct change must not break this
    out = gdb_session(arch, "stop-in getpid sys_exit", "guest getpid -n 3", "continue",
                      "p curproc->pid", "ps")
    assert "Breakpoint 1, sys_exit" in out, out
    # The shell is pid 1 and the flusher 2, so the program is pid 3 and the
    # only running process; `ps` walks the kernel's process table.
    assert "$1 = 3" in out, out
    lines = [ln.split() for ln in out.splitlines()]
    assert ["3", "RUNNING", "getpid"] in lines, out
    assert any(ln[:1] == ["1"] and ln[2:3] == ["sh"] and ln[1] in ("RUNNABLE", "SLEEPING")
               for ln in lines if len(ln) >= 3), out


def test_gdb_riscv_trap_entry_sees_the_ecall():
    out = gdb_session("riscv", "stop-in getpid trap_entry", "guest getpid -n 3", "continue",
                      "p/x $scause", "x/2i $sepc - 4")
    assert "Breakpoint 1, trap_entry" in out, out
    assert "$1 = 0x8" in out, out                     # ecall from U-mode
    assert "<getpid+4>:\tecall" in out, out           # sepc is the stub's ecall
