"""The shared file of a two-machine run (hw-models/core/wire.h), on the
harness's side: it makes the file, and counts the console characters it
writes to each machine, so that an idle machine wakes for them.

    with Wire() as w:              # /dev/shm/ousterhout-wire-PID-N, removed at the end
        args = w.model_args(node)  # wire=PATH wire_node=N for that node's model
        w.typed(node, 1)           # before writing one character to its console

The layout numbers are wire.h's; tests/unit/test_wire.py compares them
with what the C compiler makes of the header, so the two cannot drift.

Why the characters are counted: a machine that idles is held by its model
until something happens in modelled time (a frame, its next deadline).  A
character typed at its console is not in modelled time, so the model must
be told it is coming (wire.c, wire_idle: it then lets the machine wait for
it in the emulator, and learns at the kernel's console_intr() that it came).
"""

from __future__ import annotations

import ctypes
import itertools
import mmap
import os
import struct
from pathlib import Path

# wire.h
MAGIC = b"ousterhout-wire\0"
VERSION = 1
NODES = 2
RING = 256
FRAME_MAX = 2048
HEADER = 64                     # offsetof(struct wire_shm, node)
FRAME_SIZE = 8 + 4 + 4 + FRAME_MAX
NODE_SIZE = 256 + RING * FRAME_SIZE
FILE_SIZE = HEADER + NODES * NODE_SIZE
BELL = 64                       # offsetof(struct wire_node, bell)
INPUT = 72                      # offsetof(struct wire_node, input)
SLEEPING = 36                   # offsetof(struct wire_node, sleeping)
TAIL = 192                      # offsetof(struct wire_node, tail)
SLEEP_IDLE = 2

SHM_DIR = Path("/dev/shm")
_SYS_FUTEX = {"x86_64": 202, "aarch64": 98}.get(os.uname().machine)
_FUTEX_WAKE = 1
_counter = itertools.count()


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:                         # pragma: no cover
        return None


class Wire:
    """One shared file for two machines."""

    def __init__(self, directory: Path = SHM_DIR) -> None:
        self.path = directory / f"ousterhout-wire-{os.getpid()}-{next(_counter)}"
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.ftruncate(fd, FILE_SIZE)
            self._map = mmap.mmap(fd, FILE_SIZE)
        finally:
            os.close(fd)
        self._map[0:HEADER] = MAGIC + struct.pack("<4I", VERSION, NODES, RING, FRAME_MAX) + \
            bytes(HEADER - 32)
        self._written = [0] * NODES
        self._libc = _libc()

    def __enter__(self) -> "Wire":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def model_args(self, node: int) -> list[str]:
        return [f"wire={self.path}", f"wire_node={node}"]

    def _node(self, node: int) -> int:
        return HEADER + node * NODE_SIZE

    def typed(self, node: int, n: int = 1) -> None:
        """n more characters are about to go to node's console: count them,
        then ring its bell (it may be idle, waiting for anything)."""
        self._written[node] += n
        base = self._node(node)
        struct.pack_into("<Q", self._map, base + INPUT, self._written[node])
        bell = base + BELL
        value = struct.unpack_from("<I", self._map, bell)[0]
        struct.pack_into("<I", self._map, bell, (value + 1) & 0xFFFFFFFF)
        self._wake(bell)

    def frames_taken(self, node: int) -> int:
        """The frames node has handed its guest (its ring's tail; replaying,
        the recording's frames)."""
        return struct.unpack_from("<Q", self._map, self._node(node) + TAIL)[0]

    def idle(self, node: int) -> bool:
        """Whether node waits, idle, for something to happen."""
        return struct.unpack_from("<I", self._map, self._node(node) + SLEEPING)[0] == SLEEP_IDLE

    def _wake(self, offset: int) -> None:
        if self._libc is None or _SYS_FUTEX is None:
            return                          # the model looks again within a second
        addr = ctypes.addressof(ctypes.c_char.from_buffer(self._map, offset))
        self._libc.syscall(_SYS_FUTEX, ctypes.c_void_p(addr), _FUTEX_WAKE, 1, None, None, 0)

    def close(self) -> None:
        if getattr(self, "_map", None) is not None:
            try:
                self._map.close()
            except BufferError:             # a ctypes view still alive: let the GC do it
                pass
            self._map = None
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
