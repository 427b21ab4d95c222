"""Jobs for the executor's tests (tests/unit/test_executor.py): module-level,
so that worker processes (spawned, or Dask's) find them by name."""

import time

from harness.errors import BenchmarkError, GuestPanic, SetupError


def square(x: int, delay: float = 0.0, say=print) -> int:
    """x squared, after `delay` seconds (to finish out of order)."""
    time.sleep(delay)
    say(f"square {x}")
    return x * x


def fail(kind: str, say=print) -> None:
    say("about to fail")
    if kind == "benchmark":
        raise BenchmarkError("'bcopy' printed no RESULT line")
    if kind == "setup":
        raise SetupError("build/mips/kernel.elf is older than its sources: run `make ARCH=mips`")
    if kind == "panic":           # its arguments are not its message: no pickling round trip
        raise GuestPanic("trap in kernel mode", "bcopy", ["tail line 1", "tail line 2"])
    if kind == "bug":
        return 1 / 0               # a bug, not a HarnessError: its traceback must come along
    raise ValueError(kind)


def sleepy(seconds: float, say=print) -> float:
    time.sleep(seconds)
    return seconds


def rendezvous(folder: str, me: str, other: str, say=print) -> str:
    """Leave a file named `me` in `folder` and wait (up to a minute) for
    the one named `other`: two of these finish only if they run at once."""
    from pathlib import Path
    Path(folder, me).touch()
    deadline = time.monotonic() + 60
    while not Path(folder, other).exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{me}: {other} never came")
        time.sleep(0.02)
    return me


def die(status: int, say=print) -> None:
    """The worker process ends at once, as if killed: no result is sent."""
    import os
    os._exit(status)
