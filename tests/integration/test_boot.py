"""The kernel boots under QEMU and its shell answers (docs/protocol.md)."""

import os
import signal

import pytest

from booting import TIMEOUT
from harness.guest import machines
from harness.errors import GuestHang


def test_boot_line(test_guest, arch):
    b = test_guest.boot_record
    assert b.arch == arch
    # QEMU gives it -m 128M; SIMH's MicroVAX 3900 has 64M, less the kernel
    assert 48 << 20 <= b.ram <= 128 << 20
    assert 10 <= b.hz <= 10000


def test_shell_runs_a_program(test_guest):
    assert test_guest.run("echo hello   world", timeout=TIMEOUT).lines == ["hello world"]


def test_shell_reports_unknown_program(test_guest):
    out = test_guest.run("no_such_program", timeout=TIMEOUT)
    assert out.lines == ["sh: no_such_program: not found"]
    assert test_guest.run("echo still here", timeout=TIMEOUT).lines == ["still here"]


def test_halt_powers_off(boot, arch):
    g = boot()
    pid = g.pid
    assert g.halt(timeout=10)
    assert g.exit_status == machines.get(arch).halt_status   # it exited by itself
    g.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_hang_is_detected_and_qemu_killed(boot, arch):
    # `cat` with no arguments copies the console forever: the prompt never comes.
    g = boot()
    pid = g.pid
    with pytest.raises(GuestHang, match="command 'cat'.*no prompt after 1 s") as hang:
        g.run("cat", timeout=1)
    g.close()
    if machines.get(arch).stop_key:
        # SIMH: the harness typed Ctrl-E, SIMH stopped the guest, said where
        # it was and ran the rest of its script (exit).
        assert any("Simulation stopped, PC:" in line for line in hang.value.tail)
    else:
        assert g.signal_status == signal.SIGKILL
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
