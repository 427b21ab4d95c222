"""One machine of a two-machine run, again, by itself: its peer is the
recording of the frames it took (Pair(record=True); hw-models/core/replay.h).

    with Pair(arch, hw, logdir, record=True) as pair:
        ... the run ...
    with Alone(arch, hw, logdir, "a", pair.recording("a")) as alone:
        alone.guest.run(the same command as a ran)

The model hands its guest each recorded frame where the pair's did, so
the machine executes the same instructions and prints the same results,
with nobody to keep in step with: no waiting, no other emulator.  The
same commands must be typed as in the pair (a frame never goes in before
the console characters the guest had taken by then).  For a server,
wait_taken() says when it has taken the whole recording and gone idle.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..errors import HarnessError, SetupError
from ..guest.console import Guest
from ..model import profiles
from .pair import NODES, Pair


class Alone(Pair):
    """Node `node` of a Pair, alone, its peer `recording`."""

    def __init__(self, arch: str, hw: profiles.Profile, logdir: Path, node: str,
                 recording: Path, names: tuple[str, str] = ("alone-{node}.log",
                                                            "alone-{node}.hw.log"),
                 **pair_args: Any) -> None:
        if node not in NODES:
            raise SetupError(f"node {node!r}: a pair's nodes are {', '.join(NODES)}")
        if not Path(recording).is_file():
            raise SetupError(f"{recording}: no recording (Pair(record=True) writes one)")
        super().__init__(arch, hw, logdir, names=names, **pair_args)
        self.nodes = (node,)
        self.node = node
        self.replay = Path(recording)

    @property
    def guest(self) -> Guest:
        return self.guests[self.node]

    def wait_taken(self, frames: int, timeout: float = 600.0) -> None:
        """Wait until the machine has taken `frames` frames (the pair's
        count: its HWNET rx_frames, less any garbage) and idles."""
        assert self.wire is not None
        index = NODES[self.node][0]
        deadline = time.monotonic() + timeout
        while not (self.wire.frames_taken(index) >= frames and self.wire.idle(index)):
            if self.guest.child is None or not self.guest.child.isalive():
                raise HarnessError(f"node {self.node} alone: its emulator stopped after "
                                   f"{self.wire.frames_taken(index)} of {frames} frames")
            if time.monotonic() > deadline:
                raise HarnessError(f"node {self.node} alone: {self.wire.frames_taken(index)} "
                                   f"of {frames} frames taken after {timeout:.0f} s")
            time.sleep(0.01)
