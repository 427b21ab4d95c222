"""The guest's console inside gdb (sourced by tools/gdb/common.gdb).

`make gdb` starts QEMU with the guest's serial console on a Unix socket
and gdb in the foreground, so one terminal serves both:

    (gdb) guest-console SOCKET LOG   connect (make gdb does it): from then on
                                     what the guest prints appears here, and
                                     is kept in LOG
    (gdb) guest getpid -n 3          type a line at the guest's shell
    (gdb) continue                   ... which it reads once it runs again

A line is typed when the shell is at its prompt ("$ "): one given
earlier (before the kernel has booted, or while a program runs) waits
for the next prompt, since the kernel's console driver throws away
what arrives before it is ready.
"""

import os
import socket
import threading
from collections import deque

import gdb

PROMPT = b"$ "


class _Console:
    def __init__(self) -> None:
        self.sock = None
        self.log = None
        self.lock = threading.Lock()
        self.waiting = deque()          # lines to type at the next prompts
        self.at_prompt = False
        self.tail = b""

    def connect(self, path: str, log: str) -> None:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        self.sock = s
        self.log = open(log, "ab", buffering=0)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        # Straight to the terminal's file descriptor: gdb's own output
        # streams belong to its main thread.
        while True:
            try:
                data = self.sock.recv(4096)
            except OSError:
                return
            if not data:
                return
            self.log.write(data)
            with self.lock:
                self.tail = (self.tail + data)[-2:]
                self.at_prompt = self.tail == PROMPT
                self._type_waiting()
            try:
                os.write(1, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
            except OSError:
                return

    def send(self, text: str) -> None:
        if self.sock is None:
            raise gdb.GdbError("no guest console: `guest-console SOCKET LOG` first "
                               "(make gdb does it)")
        with self.lock:
            self.waiting.append(text.encode() + b"\r")
            self._type_waiting()

    def _type_waiting(self) -> None:
        if self.at_prompt and self.waiting:
            self.sock.sendall(self.waiting.popleft())
            self.at_prompt = False


CONSOLE = _Console()


class GuestConsole(gdb.Command):
    """guest-console SOCKET LOG: show the guest's console here, keep it in LOG."""

    def __init__(self) -> None:
        super().__init__("guest-console", gdb.COMMAND_USER)

    def invoke(self, arg: str, from_tty: bool) -> None:
        words = gdb.string_to_argv(arg)
        if len(words) != 2:
            raise gdb.GdbError("usage: guest-console SOCKET LOG")
        CONSOLE.connect(words[0], words[1])


class Guest(gdb.Command):
    """guest LINE: type LINE (and Enter) at the guest's console; the guest
    reads it when it runs (`continue`)."""

    def __init__(self) -> None:
        super().__init__("guest", gdb.COMMAND_USER)

    def invoke(self, arg: str, from_tty: bool) -> None:
        CONSOLE.send(arg)


GuestConsole()
Guest()
