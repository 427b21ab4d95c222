"""Drive a guest through its serial console on a pty: boot, run commands, stop.

    with Guest(argv, log_path="results/riscv-none.log") as guest:
        boot = guest.boot(timeout=30)            # BOOT line, then the first prompt
        out = guest.run("getpid", timeout=60)    # lines up to the next prompt
        for rec in out.records(): ...
    # leaving the block: the shell's `halt`, then SIGKILL and reap, always

What the guest prints is matched as text (UTF-8, undecodable bytes replaced).
A line may end in \\r\\n, or \\r\\r\\n after a pty's output processing: lines
are split on \\r*\\n so both work.  The prompt is `$ ` at the start of a line.

Three things end a session early, each with the last console lines attached:
`panic: ` anywhere in the output (GuestPanic), no prompt in time (GuestHang),
the emulator exiting by itself (GuestExited).  After any of them the guest is
unusable and run() refuses.  The emulator is always killed with SIGKILL in
the end, because a vCPU spinning with interrupts off ignores SIGTERM.

The emulator's own stderr (QEMU warnings) goes to a separate file, not the
pty, so it can never split a guest line or a prompt; it is attached to
errors and appended to the console log.
"""

from __future__ import annotations

import atexit
import os
import re
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable

import pexpect

from . import protocol
from ..errors import GuestExited, GuestHang, GuestPanic, HarnessError, ProtocolError

PROMPT = re.compile(r"(?:^|\n)\$ ")
PANIC = re.compile(r"panic: ")
BOOT = re.compile(r"(?:^|\n)(BOOT [^\r\n]*)\r*\n")
NEWLINE = re.compile(r"\r*\n")

TAIL_LINES = 20

# Guests still running, so a harness that dies of an unexpected exception
# does not leave an emulator behind.
_live: set["Guest"] = set()


@atexit.register
def _kill_leftovers() -> None:
    for guest in list(_live):
        guest.kill()


def split_lines(text: str) -> list[str]:
    """Split console text into lines, accepting \\n, \\r\\n and \\r\\r\\n endings."""
    lines = [line.rstrip("\r") for line in NEWLINE.split(text)]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Transcript:
    """Everything the guest printed, kept in memory and copied to a log file."""

    def __init__(self, log: IO[str] | None) -> None:
        self.parts: list[str] = []
        self.log = log

    def write(self, s: str) -> None:
        self.parts.append(s)
        if self.log is not None:
            self.log.write(s)

    def flush(self) -> None:
        if self.log is not None:
            self.log.flush()

    def text(self) -> str:
        return "".join(self.parts)

    def tail(self, n: int = TAIL_LINES) -> list[str]:
        return [line for line in split_lines(self.text()) if line.strip()][-n:]


@dataclass
class Output:
    """What one command printed, without its echo and without the next prompt."""

    command: str
    lines: list[str]
    seconds: float

    def records(self) -> list[protocol.Record]:
        return protocol.parse_lines(self.lines)


class Guest:
    """One emulator process with the guest's console on a pty."""

    def __init__(self, argv: list[str], *, log_path: str | Path | None = None,
                 line_ending: str = "\r", char_delay: float = 0.0,
                 cwd: str | Path | None = None, halt_timeout: float = 5.0,
                 stop_key: str | None = None, log_append: bool = False,
                 on_input: Callable[[int], None] | None = None) -> None:
        self.argv = list(argv)
        # Append to the log instead of starting it anew: several boots of
        # one run share its console log (harness/model/runs.py, Fresh).
        self.log_append = log_append
        # Called with the number of bytes about to be typed at the guest,
        # before they go (a two-machine run counts them: harness/net/wire.py).
        self.on_input = on_input
        # A key that makes the emulator stop the guest and say where it was
        # (SIMH: Ctrl-E prints "Simulation stopped, PC: ..."): typed when the
        # guest hangs, so the hang's report shows what it was doing.
        self.stop_key = stop_key
        self.line_ending = line_ending
        self.char_delay = char_delay
        self._echoes = True         # the guest echoes what we type (see _type_line)
        self._echoed = False        # ... and has done so at least once
        self._unechoed = ""         # what run() typed after an echo was late
        self.cwd = str(cwd) if cwd is not None else None
        self.halt_timeout = halt_timeout
        self.log_path = Path(log_path) if log_path is not None else None
        self._log: IO[str] | None = None
        self.transcript = _Transcript(None)
        self.child: pexpect.spawn | None = None
        self._stderr_path: str | None = None
        self.state = "new"          # new, booting, ready, busy, panicked, hung, exited, closed
        self.boot_record: protocol.Boot | None = None
        self.exit_status: int | None = None
        self.signal_status: int | None = None

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        if self.child is not None:
            raise HarnessError("guest already started")
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log = open(self.log_path, "a" if self.log_append else "w", encoding="utf-8")
            self.transcript.log = self._log
        fd, stderr_path = tempfile.mkstemp(prefix="harness-emulator-", suffix=".stderr")
        os.close(fd)
        self._stderr_path = stderr_path

        def stderr_to_file() -> None:
            # Runs in the child just before exec, after the pty library has
            # closed every other descriptor: so open the file by name here.
            err = os.open(stderr_path, os.O_WRONLY | os.O_APPEND)
            os.dup2(err, 2)
            os.close(err)

        try:
            self.child = pexpect.spawn(self.argv[0], self.argv[1:], cwd=self.cwd,
                                       encoding="utf-8", codec_errors="replace",
                                       echo=False, timeout=None, dimensions=(24, 200),
                                       preexec_fn=stderr_to_file)
        except (pexpect.ExceptionPexpect, OSError) as e:
            if self._log is not None:
                self._log.close()
                self._log = None
            os.unlink(stderr_path)
            self._stderr_path = None
            raise HarnessError(f"cannot start {self.argv[0]}: {e}") from None
        self.child.delayafterclose = 0
        self.child.delaybeforesend = None   # no need to pause before typing
        self.child.delayafterterminate = 0.05
        self.child.logfile_read = self.transcript
        self.state = "booting"
        _live.add(self)

    def __enter__(self) -> "Guest":
        if self.child is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def emulator_stderr(self) -> str:
        """What the emulator wrote to its stderr so far."""
        if self._stderr_path is None:
            return ""
        try:
            with open(self._stderr_path, "rb") as f:
                return f.read().decode("utf-8", errors="replace")
        except OSError:
            return ""

    def _tail(self) -> list[str]:
        """The last console lines, then the emulator's stderr if it said anything."""
        err = [f"(emulator stderr) {line}" for line in split_lines(self.emulator_stderr())
               if line.strip()]
        return self.transcript.tail() + err[-5:]

    @property
    def pid(self) -> int | None:
        return self.child.pid if self.child is not None else None

    # ------------------------------------------------------------ waiting
    def _expect(self, pattern: re.Pattern[str], during: str, waiting_for: str,
                timeout: float) -> re.Match[str]:
        """Wait for `pattern`; turn a panic, a time-out or EOF into an exception."""
        assert self.child is not None
        i = self.child.expect([pattern, PANIC, pexpect.EOF, pexpect.TIMEOUT], timeout=timeout)
        if i == 0:
            match = self.child.match
            assert isinstance(match, re.Match)
            return match
        if i == 1:
            self._raise_panic(during)
        if i == 2:
            self._reap()
            self.state = "exited"
            how = (f"signal {self.signal_status}" if self.signal_status is not None
                   else f"status {self.exit_status}")
            raise GuestExited(f"emulator exited ({how}) during {during}, "
                              f"before the {waiting_for}", self._tail())
        self.state = "hung"
        self._stop_and_report()
        raise GuestHang(during, timeout, waiting_for, self._tail())

    def _stop_and_report(self) -> None:
        """Type the stop key, if any, and give the emulator a moment to say
        where the guest was (it lands in the transcript, so in the tail)."""
        if self.stop_key is None or self.child is None or not self.child.isalive():
            return
        try:
            self.child.send(self.stop_key)
            self.child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=2)
        except (pexpect.ExceptionPexpect, OSError):
            pass

    def _raise_panic(self, during: str) -> None:
        assert self.child is not None
        self.state = "panicked"
        # The rest of the panic line, then a moment for any lines after it.
        self.child.expect([NEWLINE, pexpect.EOF, pexpect.TIMEOUT], timeout=2)
        message = str(self.child.before).strip()
        if self.child.isalive():
            self.child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=0.3)
        raise GuestPanic(message, during, self._tail())

    # ------------------------------------------------------------ commands
    def boot(self, timeout: float = 30.0) -> protocol.Boot:
        """Wait for the BOOT line and then the shell's first prompt."""
        if self.child is None:
            self.start()
        deadline = time.monotonic() + timeout
        m = self._expect(BOOT, "boot", "BOOT line", timeout)
        rec = protocol.parse_line(m.group(1))
        if not isinstance(rec, protocol.Boot):  # pragma: no cover - BOOT regex guarantees it
            raise ProtocolError(f"not a BOOT line: {m.group(1)!r}")
        self.boot_record = rec
        self._expect(PROMPT, "boot", "shell prompt", max(deadline - time.monotonic(), 0.1))
        self.state = "ready"
        return rec

    def put(self, text: str) -> None:
        """Send `text` as it is, no echo awaited (an interactive front end's
        keys).  Every byte the guest is sent goes through here."""
        assert self.child is not None
        if self.on_input is not None:
            self.on_input(len(text.encode("utf-8")))
        self.child.send(text)

    def _send(self, text: str) -> None:
        assert self.child is not None
        if self.char_delay <= 0:
            self.put(text)
            return
        for ch in text:
            self.put(ch)
            time.sleep(self.char_delay)

    # How long a typed character's echo may take before we decide the guest
    # does not echo, and type without waiting from then on; and, once it
    # has echoed, how long a late echo is waited for (two machines on the
    # wire under load took more than 2 s to echo while taking 3,000 frames,
    # and the rest of the line, typed at once, then arrived differently).
    ECHO_TIMEOUT = 2.0
    LATE_ECHO_TIMEOUT = 120.0

    def _type_line(self, command: str) -> bool:
        """Type `command` and Enter, each character only once the guest has
        echoed the one before; True if the echoes came (and were consumed).

        Why: the guest's state before a benchmark must not depend on how
        the host happened to deliver the keystrokes.  The kernel sees to
        most of it: it takes console input only while a reader waits for it
        or a job runs (kernel/port/console.c), so a key that comes early
        waits in the UART and is taken in the idle loop.  Typing one
        character at a time, each once the last was echoed, keeps at most
        one waiting there, within every UART's FIFO, and each taken by an
        interrupt of its own or with the one before, which run the same
        code in the same order (hw-models/README.md, "Is a model
        deterministic?")."""
        assert self.child is not None
        self._unechoed = ""
        if not self._echoes or self.char_delay > 0:
            self._send(command + self.line_ending)
            return False
        for i, ch in enumerate(command):
            self.put(ch)
            try:
                self.child.expect_exact(ch, timeout=self.LATE_ECHO_TIMEOUT if self._echoed
                                        else self.ECHO_TIMEOUT)
                self._echoed = True
            except pexpect.TIMEOUT:
                self._echoes = False            # a guest that does not echo
                self._unechoed = command[i:]    # its echo may still come
                self._send(command[i + 1:] + self.line_ending)
                return False
            except pexpect.EOF:
                break                           # run()'s expect reports it
        self.put(self.line_ending)
        return True

    def run(self, command: str, timeout: float = 60.0) -> Output:
        """Type `command`, return its output up to the next prompt."""
        if self.state != "ready":
            raise HarnessError(f"cannot run {command!r}: guest is {self.state}")
        start = time.monotonic()
        echoed = self._type_line(command)
        m = self._expect(PROMPT, f"command {command!r}", "prompt", timeout)
        text = str(self.child.before) if self.child else ""
        if m.group(0).startswith("\n"):
            text += "\n"                   # that newline ended the last output line
        lines = split_lines(text)
        if echoed and lines and lines[0] == "":
            lines = lines[1:]               # the echo of Enter: the rest was consumed
        elif lines and (lines[0].strip() == command.strip() or
                        (self._unechoed and lines[0].strip() == self._unechoed.strip())):
            lines = lines[1:]               # the console's echo of what we typed
        return Output(command, lines, time.monotonic() - start)

    # A server (netd) runs in the foreground while another guest talks to
    # it: begin() types its command and returns at once, wait_for() waits
    # for a line it prints, finish() waits for it to end, or interrupt()
    # stops it with Ctrl-C; both return what it printed since, up to the
    # prompt.
    def begin(self, command: str) -> None:
        """Type `command` and return without waiting for the prompt."""
        if self.state != "ready":
            raise HarnessError(f"cannot begin {command!r}: guest is {self.state}")
        self._type_line(command)
        self.state = "busy"

    def wait_for(self, pattern: str, timeout: float = 60.0) -> str:
        """Wait, while a begun command runs, for a line matching the regular
        expression `pattern`; the whole line."""
        if self.state != "busy":
            raise HarnessError(f"wait_for {pattern!r}: no command running (guest is {self.state})")
        m = self._expect(re.compile(r"(?:^|\n)([^\r\n]*" + pattern + r"[^\r\n]*)\r*\n"),
                         "a running command", repr(pattern), timeout)
        return m.group(1)

    def finish(self, timeout: float = 60.0) -> Output:
        """Wait for a begun command to end by itself; what it printed since."""
        if self.state != "busy":
            raise HarnessError(f"finish: no command running (guest is {self.state})")
        start = time.monotonic()
        self._expect(PROMPT, "a running command", "prompt", timeout)
        self.state = "ready"
        text = str(self.child.before) if self.child else ""
        return Output("", split_lines(text), time.monotonic() - start)

    def interrupt(self, timeout: float = 10.0) -> Output:
        """Ctrl-C the running command; what it printed since, up to the prompt."""
        if self.state != "busy":
            raise HarnessError(f"interrupt: no command running (guest is {self.state})")
        start = time.monotonic()
        self._send("\x03")
        self._expect(PROMPT, "Ctrl-C", "prompt", timeout)
        self.state = "ready"
        text = str(self.child.before) if self.child else ""
        return Output("^C", split_lines(text), time.monotonic() - start)

    def halt(self, timeout: float | None = None) -> bool:
        """Ask the shell to power off; True if the emulator exited in time."""
        if self.state != "ready" or self.child is None:
            return False
        self._send("halt" + self.line_ending)
        i = self.child.expect([pexpect.EOF, PANIC, pexpect.TIMEOUT],
                              timeout=self.halt_timeout if timeout is None else timeout)
        if i == 0:
            self._reap()
            self.state = "exited"
            return True
        return False

    # ------------------------------------------------------------ stopping
    def _reap(self) -> None:
        """Collect the exit status of a process that has exited or been killed."""
        assert self.child is not None
        try:
            self.child.wait()
        except pexpect.ExceptionPexpect:
            pass
        self.exit_status = self.child.exitstatus
        self.signal_status = self.child.signalstatus

    def kill(self) -> None:
        """SIGKILL the emulator (its whole process group) and reap it.  Idempotent."""
        child = self.child
        if child is None or self.state == "closed":
            return
        if child.isalive():
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            except PermissionError:  # pragma: no cover - not our group after all
                child.kill(signal.SIGKILL)
        self._reap()
        try:
            child.close(force=True)
        except pexpect.ExceptionPexpect:  # pragma: no cover
            pass
        self.state = "closed"
        _live.discard(self)
        err = self.emulator_stderr()
        if self._log is not None:
            if err:
                self._log.write("\n--- emulator stderr ---\n" + err)
            self._log.close()
            self._log = None
        if self._stderr_path is not None:
            try:
                os.unlink(self._stderr_path)
            except OSError:
                pass
            self._stderr_path = None

    def close(self) -> None:
        """Halt politely if the guest is healthy, then kill and reap, always."""
        try:
            if self.state == "busy":
                try:
                    self.interrupt()
                except (HarnessError, pexpect.ExceptionPexpect, OSError):
                    pass
            if self.state == "ready":
                try:
                    self.halt()
                except (HarnessError, pexpect.ExceptionPexpect, OSError):
                    pass
        finally:
            self.kill()
