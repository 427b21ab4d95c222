"""harness.guest.console against tests/unit/fake_guest.py: real processes on a real pty.

The fake guest boots, prompts and answers like the kernel's shell, and can be
told to hang, panic, exit or ignore polite signals, so the error and kill
paths run for real without QEMU.
"""

import os
import signal
import time

import pytest

from harness.guest.console import Guest, split_lines
from harness.errors import GuestExited, GuestHang, GuestPanic, HarnessError
from harness.guest.protocol import Boot, Result

from fakes import fake_argv


def gone(pid: int) -> bool:
    """True if no process `pid` exists (it was killed and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("text, lines", [
    ("a\r\nb\r\n", ["a", "b"]),
    ("a\r\r\nb\r\r\n", ["a", "b"]),
    ("a\nb", ["a", "b"]),
    ("a\r\n\r\nb\r\n", ["a", "", "b"]),
    ("", []),
])
def test_split_lines(text, lines):
    assert split_lines(text) == lines


def test_boot_and_run(fake_guest):
    g = fake_guest()
    boot = g.boot(timeout=10)
    assert boot == Boot("fake", 134217728, 100)
    assert g.state == "ready"
    out = g.run("getpid", timeout=10)
    assert out.command == "getpid"
    assert out.lines == [
        "RESULT bench=getpid case=call iters=1000 ns=350000 loop_ns=50000 insns=350000 "
        "loop_insns=50000",
        "getpid: 300 ns per call"]          # no echo, no \r, no prompt
    [r] = out.records()
    assert isinstance(r, Result) and r.ns_per_op == 300


@pytest.mark.parametrize("options", [(), ("--newline", "lf"), ("--no-echo",),
                                     ("--newline", "lf", "--no-echo")])
def test_line_endings_and_echo_variants(fake_guest, options):
    g = fake_guest(*options)
    g.boot(timeout=10)
    assert g.run("echo a b  c", timeout=10).lines == ["a b c"]
    assert g.run("echo", timeout=10).lines == [""]
    assert g.run("", timeout=10).lines == []
    assert g.run("nosuch", timeout=10).lines == ["exec nosuch failed"]


def test_crlf_through_pty_becomes_cr_cr_lf(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    g.run("echo hi", timeout=10)
    assert "hi\r\r\n" in g.transcript.text()


def test_undecodable_bytes_are_replaced(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    assert g.run("garbage", timeout=10).lines == ["bad bytes \ufffd\ufffd here"]


def test_halt_exits_cleanly(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    pid = g.pid
    g.close()
    assert g.state == "closed"
    assert g.exit_status == 0 and g.signal_status is None   # halted, not killed
    assert gone(pid)
    assert "halting" in g.transcript.text()


def test_context_manager_kills_on_error(fake_guest):
    g = fake_guest()
    with pytest.raises(RuntimeError):
        with g:
            g.boot(timeout=10)
            raise RuntimeError("harness bug")
    assert g.state == "closed" and gone(g.pid)


def test_panic_during_command(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    pid = g.pid
    with pytest.raises(GuestPanic) as e:
        g.run("panic", timeout=10)
    err = e.value
    assert err.panic == "usertrap: unexpected scause 0xf"
    assert "command 'panic'" in str(err)
    assert "kernel panic" in str(err)
    assert any("sepc=0x80001234" in t for t in err.tail)     # lines after the panic too
    assert "last console lines" in err.detail
    assert g.state == "panicked"
    with pytest.raises(HarnessError, match="guest is panicked"):
        g.run("echo hi", timeout=1)
    g.close()
    assert gone(pid)
    assert g.signal_status == signal.SIGKILL


def test_panic_during_boot(fake_guest):
    g = fake_guest("--boot", "panic")
    with pytest.raises(GuestPanic) as e:
        g.boot(timeout=10)
    assert e.value.panic == "kvminit: out of memory"
    assert e.value.during == "boot"


def test_hang_during_command_is_reported_and_killed(fake_guest):
    g = fake_guest("--stubborn")
    g.boot(timeout=10)
    pid = g.pid
    t0 = time.monotonic()
    with pytest.raises(GuestHang) as e:
        g.run("hang", timeout=0.5)
    assert 0.5 <= time.monotonic() - t0 < 5
    assert "command 'hang'" in str(e.value)
    assert "no prompt after 0.5 s" in str(e.value)
    assert e.value.seconds == 0.5
    assert g.state == "hung"
    g.close()                     # no `halt` for a hung guest: straight to SIGKILL
    assert gone(pid)
    assert g.signal_status == signal.SIGKILL


def test_hang_during_boot(fake_guest):
    g = fake_guest("--boot", "hang")
    with pytest.raises(GuestHang, match=r"during boot: no BOOT line after 0.5 s"):
        g.boot(timeout=0.5)
    assert any("fake firmware" in t for t in g.transcript.tail())


def test_slow_command_within_timeout(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    out = g.run("slow 0.3", timeout=5)
    assert out.lines == ["slept"]
    assert out.seconds >= 0.3


def test_emulator_exit_during_boot(fake_guest):
    g = fake_guest("--boot", "exit")
    with pytest.raises(GuestExited, match=r"exited \(status 3\) during boot"):
        g.boot(timeout=10)
    assert g.state == "exited"


def test_emulator_exit_during_command(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    with pytest.raises(GuestExited, match=r"status 5\) during command 'exit'"):
        g.run("exit", timeout=10)


def test_stubborn_guest_that_ignores_halt_is_sigkilled(fake_guest, tmp_path):
    pidfile = tmp_path / "pid"
    g = fake_guest("--stubborn", "--no-halt", "--pidfile", str(pidfile), halt_timeout=1.0)
    g.boot(timeout=10)
    pid = int(pidfile.read_text())
    assert pid == g.pid
    os.kill(pid, signal.SIGTERM)              # ignored, like a livelocked vCPU
    time.sleep(0.1)
    assert not gone(pid)
    t0 = time.monotonic()
    g.close()                                 # halt times out, then SIGKILL
    assert 1.0 <= time.monotonic() - t0 < 5
    assert gone(pid)
    assert g.signal_status == signal.SIGKILL


def test_kill_is_idempotent(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    g.kill()
    g.kill()
    g.close()
    assert g.state == "closed"


def test_log_file_has_transcript(fake_guest, tmp_path):
    log = tmp_path / "sub" / "console.log"
    g = fake_guest(log_path=log)
    g.boot(timeout=10)
    g.run("echo logged", timeout=10)
    g.close()
    text = log.read_text()
    assert "BOOT arch=fake" in text and "logged" in text and "halting" in text


def test_emulator_stderr_kept_off_the_console(tmp_path):
    script = tmp_path / "noisy.py"
    script.write_text(
        "import sys, os\n"
        "sys.stderr.write('emu: warning: something\\n'); sys.stderr.flush()\n"
        "os.execv(sys.executable, [sys.executable] + sys.argv[1:])\n")
    argv = fake_argv()
    log = tmp_path / "c.log"
    g = Guest([argv[0], str(script), *argv[1:]], log_path=log)
    with g:
        g.boot(timeout=10)
        assert "warning" not in g.transcript.text()
        assert "emu: warning: something" in g.emulator_stderr()
    assert "--- emulator stderr ---\nemu: warning: something" in log.read_text()


def test_missing_binary_is_a_harness_error():
    g = Guest(["/nonexistent/qemu-system-none"])
    with pytest.raises(HarnessError, match="cannot start /nonexistent/qemu-system-none"):
        g.boot(timeout=1)
    g.close()


def test_no_leftover_processes_after_many_guests(fake_guest):
    pids = []
    for opts in [(), ("--stubborn",), ("--stubborn", "--no-halt")]:
        g = fake_guest(*opts, halt_timeout=1.0)
        g.boot(timeout=10)
        pids.append(g.pid)
        g.close()
    assert all(gone(p) for p in pids)


# ---------------------------------------------------------------- a server in the foreground

def test_begin_wait_for_interrupt(fake_guest):
    """A server runs while the harness does other things: begin() returns at
    once, wait_for() finds its line, interrupt() brings the prompt back."""
    g = fake_guest()
    g.boot(timeout=10)
    g.begin("serve")
    assert g.state == "busy"
    with pytest.raises(HarnessError, match="guest is busy"):
        g.run("echo no", timeout=5)
    assert g.wait_for("serve: ready", timeout=10) == "serve: ready"
    out = g.interrupt(timeout=10)
    assert out.lines[-1] == "sh: serve killed"
    assert g.state == "ready"
    assert g.run("echo yes", timeout=10).lines == ["yes"]


def test_finish_waits_for_the_command_to_end(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    g.begin("serve 0.5")
    g.wait_for("ready", timeout=10)
    assert g.finish(timeout=10).lines[-1] == "serve: done"
    assert g.state == "ready"


def test_wait_for_times_out_as_a_hang(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    g.begin("serve")
    with pytest.raises(GuestHang, match="no 'never printed' after 0.3 s"):
        g.wait_for("never printed", timeout=0.3)


def test_begin_needs_a_ready_guest(fake_guest):
    g = fake_guest()
    g.boot(timeout=10)
    with pytest.raises(HarnessError, match="no command running"):
        g.wait_for("x", timeout=1)
    with pytest.raises(HarnessError, match="no command running"):
        g.interrupt()
    g.begin("serve")
    with pytest.raises(HarnessError, match="cannot begin"):
        g.begin("serve")
    g.close()                                  # interrupts it, halts, reaps
    assert g.state == "closed"


def test_a_late_echo_is_waited_for_once_the_guest_has_echoed(fake_guest, monkeypatch):
    """A guest that has echoed before is waited for when an echo is late
    (two machines on a loaded host took more than ECHO_TIMEOUT): the rest
    of the line is still typed a character at a time, and the echo is not
    taken for output."""
    monkeypatch.setattr(Guest, "ECHO_TIMEOUT", 0.3)
    # "echo a" is 6 characters; the second command's 2nd comes 1 s late.
    g = fake_guest("--late-echo", "8", "--late-s", "1.0")
    g.boot(timeout=10)
    assert g.run("echo a", timeout=10).lines == ["a"]
    assert g.run("echo b c", timeout=10).lines == ["b c"]
    assert g._echoes


def test_an_echo_late_before_any_came_means_no_echo(fake_guest, monkeypatch):
    """Before the first echo, a late one means a guest that does not echo:
    the rest is typed at once, and the echo of what was typed after the
    wait, when it comes, is still not taken for output."""
    monkeypatch.setattr(Guest, "ECHO_TIMEOUT", 0.3)
    g = fake_guest("--late-echo", "1", "--late-s", "1.0")
    g.boot(timeout=10)
    assert g.run("echo a b", timeout=10).lines == ["a b"]
    assert not g._echoes
