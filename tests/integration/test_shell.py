"""The guest shell through the real emulator and its console pty, on every ISA:
Ctrl-C, redirection, pipelines, background jobs, clear errors; and `harness
shell` (what `make shell` runs) keeping the emulator's messages off the
guest's lines.

Ctrl-C is the byte 0x03 typed at the console: the kernel's console driver
kills the foreground process group (kernel/port/console.c), the job the
shell is waiting for, and the shell says so and prompts again.
"""

import io
import sys
import time

import pexpect
import pytest

from booting import TIMEOUT
from harness import ROOT
from harness.guest import machines
from harness.guest.console import PROMPT, Guest, split_lines

CTRL_C = "\x03"
FOREVER = "2000000000"          # getpid -n FOREVER: hours of system calls


def start(g: Guest, command: str) -> None:
    """Type `command` and Enter, each character after its echo, without
    waiting for the prompt (the command keeps running)."""
    assert g.child is not None
    for ch in command:
        g.child.send(ch)
        g.child.expect_exact(ch, timeout=TIMEOUT)
    g.child.send(g.line_ending)


def interrupt(g: Guest) -> list[str]:
    """Type Ctrl-C until the prompt comes back; return the lines before it.

    The job becomes the foreground group a moment after Enter (the shell
    forks first): a Ctrl-C typed before that kills nothing, so try again
    rather than depend on the host's timing."""
    assert g.child is not None
    before = ""
    for _ in range(5):
        g.child.send(CTRL_C)
        if g.child.expect([PROMPT, pexpect.TIMEOUT], timeout=5) == 0:
            return split_lines(before + str(g.child.before))
        before += str(g.child.before)
    raise AssertionError("no prompt after five Ctrl-Cs:\n" + "\n".join(g.transcript.tail()))


def run(g: Guest, command: str) -> list[str]:
    return g.run(command, timeout=TIMEOUT).lines


def test_ctrl_c_stops_a_running_program(test_guest):
    """getpid -n FOREVER makes system calls for hours; Ctrl-C ends it, the
    shell reports it and is still there."""
    start(test_guest, f"getpid -n {FOREVER}")
    time.sleep(0.5)
    lines = interrupt(test_guest)
    assert "^C" in lines
    assert lines[-1] == "sh: getpid killed"
    assert not any(line.startswith("RESULT") for line in lines), "getpid finished instead"
    assert run(test_guest, "echo still here") == ["still here"]


def test_ctrl_c_stops_a_whole_pipeline(test_guest):
    """Both programs of `cat | cat`, blocked reading, are killed; what the
    pipeline printed first shows both were running in the foreground."""
    start(test_guest, "cat | cat")
    start(test_guest, "through two cats")     # consumes the console's echo of it
    test_guest.child.expect(r"\nthrough two cats\r*\n", timeout=TIMEOUT)
    lines = interrupt(test_guest)
    assert lines.count("sh: cat killed") == 2, lines
    assert run(test_guest, "echo alive") == ["alive"]


def test_ctrl_c_at_the_prompt_discards_the_line(test_guest):
    g = test_guest
    for ch in "echo discarded":
        g.child.send(ch)
        g.child.expect_exact(ch, timeout=TIMEOUT)
    lines = interrupt(g)
    assert lines[-1] == "^C"
    assert run(g, "echo kept") == ["kept"]


def test_background_job_runs_without_the_shell_waiting(test_guest):
    lines = run(test_guest, "echo in the background > /tmp/bgjob &")
    assert len(lines) == 1 and lines[0].startswith("[") and lines[0].endswith("]"), lines
    pid = lines[0][1:-1]
    out = run(test_guest, "cat /tmp/bgjob")
    # The shell reaps the background job while it waits for cat.
    assert sorted(out) == sorted([f"[{pid}] done, status 0", "in the background"]), out
    run(test_guest, "rm /tmp/bgjob")


def test_redirection_writes_reads_and_appends(test_guest):
    g = test_guest
    assert run(g, "echo hello world > /tmp/redir") == []
    assert run(g, "cat /tmp/redir") == ["hello world"]
    assert run(g, "cat < /tmp/redir") == ["hello world"]
    assert run(g, "echo shorter > /tmp/redir") == []          # > empties the file first
    assert run(g, "cat /tmp/redir") == ["shorter"]
    assert run(g, "echo more >> /tmp/redir") == []
    assert run(g, "echo again>>/tmp/redir") == []             # no blanks needed
    assert run(g, "cat /tmp/redir") == ["shorter", "more", "again"]
    assert run(g, "echo new >> /tmp/redir-new") == []          # >> creates
    assert run(g, "cat</tmp/redir-new") == ["new"]
    assert run(g, "cat < /tmp/redir > /tmp/redir-copy") == []
    assert run(g, "cat /tmp/redir-copy") == ["shorter", "more", "again"]
    run(g, "rm /tmp/redir /tmp/redir-new /tmp/redir-copy")


def test_pipelines(test_guest):
    g = test_guest
    assert run(g, "echo a b c | cat") == ["a b c"]
    assert run(g, "echo x|cat|cat|cat") == ["x"]
    assert run(g, "ls / | cat") == run(g, "ls /")
    assert sorted(run(g, "ls /bin | cat")) == sorted(run(g, "ls /bin"))
    assert run(g, "echo piped into a file | cat > /tmp/pipe-out") == []
    assert run(g, "cat < /tmp/pipe-out | cat") == ["piped into a file"]
    run(g, "rm /tmp/pipe-out")


@pytest.mark.parametrize("command, message", [
    ("cat < /nosuch", "sh: cannot read /nosuch: no such file or directory"),
    ("echo x > /bin", "sh: cannot write /bin: is a directory"),
    ("echo x > /nosuchdir/f", "sh: cannot write /nosuchdir/f: no such file or directory"),
    ("echo x >", "sh: syntax error: no file name after >"),
    ("cat <", "sh: syntax error: no file name after <"),
    ("echo x > a > b", "sh: syntax error: two output redirections for one program"),
    ("| cat", "sh: syntax error: no program before |"),
    ("echo x |", "sh: syntax error: no program after |"),
    ("echo x & y", "sh: syntax error: & must end the line"),
    ("nosuchprogram | cat", "sh: nosuchprogram: not found"),
    ("cd / > /tmp/x", "sh: cd is built in: it cannot be redirected or put in the background"),
])
def test_bad_redirections_and_pipelines_say_why(test_guest, command, message):
    assert run(test_guest, command) == [message]
    assert run(test_guest, "echo ok") == ["ok"]


def test_harness_shell_keeps_the_emulator_off_the_prompt_line(arch):
    """`make shell` runs `python3 -m harness shell`: the guest's console on
    the terminal, the emulator's own messages after it exits.  QEMU warns
    "icount sleep disabled and no active timers" when the guest first idles,
    at its first prompt (on the machines whose registry entry says
    idle_warning): that warning must not split the prompt line, and must
    still be shown."""
    m = machines.get(arch)
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "harness", "shell", "--arch", arch],
                          cwd=str(ROOT), encoding="utf-8", codec_errors="replace",
                          timeout=m.boot_timeout, dimensions=(24, 200))
    child.logfile_read = log
    try:
        child.expect(PROMPT)
        time.sleep(0.5)                    # the guest idles at its prompt
        for ch in "echo hi":
            child.send(ch)
            child.expect_exact(ch, timeout=TIMEOUT)
        child.send(m.line_ending)
        child.expect(r"\nhi\r*\n\$ ", timeout=TIMEOUT)
        child.send("halt" + m.line_ending)
        child.expect(pexpect.EOF, timeout=TIMEOUT)
    finally:
        child.close(force=True)
    session, _, after = log.getvalue().partition("kernel: halt")
    lines = split_lines(session)
    assert "$ echo hi" in lines, lines
    assert "warning" not in session
    if m.idle_warning:
        assert "harness: (emulator) " in after and "icount sleep disabled" in after, after
