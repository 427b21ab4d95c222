"""`shell --nodes 2` (make shell NODES=2): both machines' consoles on one
terminal, a prefix per line.

    a| $ netstat                 every line node a prints starts "a| ",
    b| netd: ready               node b's "b| "
    b: netd                      a line you type starting "a: " or "b: " goes
    a: netbench 10.0.0.1         to that node, and the next lines too;
    netstat                      a line without one goes to the last named
                                 (a at first)

Ctrl-C goes to the node you last typed at (as ^C at its console);
`halt` at a node powers it off; the shell ends when both have stopped,
or at Ctrl-D (both are then powered off).  Every character goes through
the guests' typing (harness/guest/console.py), so the wire counts it and
an idle machine wakes for it.  The consoles' full transcripts are kept in
results/ARCH-PROFILE-shell-{a,b}.log.
"""

from __future__ import annotations

import os
import select
import signal
import sys
from typing import Any

import pexpect

from ..guest.console import PROMPT, Guest
from .pair import NODES, Pair

PREFIX = "{node}| "


class Printer:
    """Interleave two consoles' output, one prefix per line."""

    def __init__(self, out: Any = None) -> None:
        self.out = out or sys.stdout
        self.open_line: str | None = None        # the node whose line is unfinished

    def write(self, node: str, text: str) -> None:
        text = text.replace("\r", "")
        for piece in text.splitlines(keepends=True):
            if self.open_line not in (None, node):
                self.out.write("\n")             # the other node's line is cut here
                self.open_line = None
            if self.open_line is None:
                self.out.write(PREFIX.format(node=node))
            self.out.write(piece)
            self.open_line = None if piece.endswith("\n") else node
        self.out.flush()


def route(line: str, current: str) -> tuple[str, str]:
    """(the node a typed line goes to, what to type there)."""
    head, sep, rest = line.partition(":")
    if sep and head.strip() in NODES:
        return head.strip(), rest.lstrip()
    return current, line


def interact(pair: Pair, stdin: Any = None, printer: Printer | None = None) -> None:
    stdin = stdin or sys.stdin
    printer = printer or Printer()
    current = "a"
    live: dict[str, Guest] = dict(pair.guests)

    def on_sigint(signum: int, frame: object) -> None:
        g = live.get(current)
        if g is not None:
            g.put("\x03")

    old = signal.signal(signal.SIGINT, on_sigint)
    typed = b""                                  # read, not yet a whole line
    # Lines for a node that has not shown its first prompt wait: a byte a
    # booting kernel throws away would be counted as on its way for ever.
    held: dict[str, list[str]] = {n: [] for n in live}
    booted: dict[str, str] = {n: "" for n in live}

    def send(node: str, text: str) -> None:
        if held.get(node) is not None:
            held[node].append(text)
        else:
            live[node].put(text + pair.machine.line_ending)
    try:
        while live:
            fds = {g.child.child_fd: n for n, g in live.items() if g.child is not None}
            try:
                ready, _, _ = select.select(list(fds) + [stdin.fileno()], [], [], 0.5)
            except InterruptedError:
                continue
            for fd in ready:
                if fd == stdin.fileno():
                    got = os.read(fd, 4096)
                    if not got:                      # Ctrl-D: power both off
                        return
                    typed += got
                    while b"\n" in typed:
                        line, typed = typed.split(b"\n", 1)
                        current, text = route(line.decode("utf-8", "replace"), current)
                        if current not in live:
                            printer.write(current, "(powered off)\n")
                        else:
                            send(current, text)
                    continue
                node = fds[fd]
                g = live[node]
                try:
                    text = g.child.read_nonblocking(4096, timeout=0)
                    printer.write(node, text)
                    if held.get(node) is not None:
                        booted[node] = (booted[node] + text)[-200:]
                        if PROMPT.search(booted[node]):
                            waiting, held[node] = held[node], None
                            for t in waiting:
                                send(node, t)
                except (pexpect.EOF, OSError):
                    printer.write(node, "(powered off)\n")
                    g.kill()
                    del live[node]
                except pexpect.TIMEOUT:
                    pass
    finally:
        signal.signal(signal.SIGINT, old)


def run_shell(arch: str, hw: Any, logdir: Any, say: Any) -> int:
    name = f"{arch}-{hw.name}-shell"
    pair = Pair(arch, hw, logdir, names=(name + "-{node}.log", name + "-{node}.hw.log"))
    say(f"harness: two machines, a (client, {pair.address('a')}) and b (server, "
        f"{pair.address('b')}): type `a: CMD` or `b: CMD` to choose where lines go; "
        f"Ctrl-C to the last one named; Ctrl-D or `halt` at both to leave")
    try:
        pair.start()
        for g in pair.guests.values():
            g.state = "ready"                        # interact() reads their output itself
        interact(pair)
    finally:
        pair.close()                                 # `halt` at each still running
    return 0
