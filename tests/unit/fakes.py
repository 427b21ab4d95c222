"""Where the fake guest lives and how to start it (shared by the unit tests)."""

import sys
from pathlib import Path

FAKE = Path(__file__).resolve().parent / "fake_guest.py"


def fake_argv(*options: str) -> list[str]:
    return [sys.executable, str(FAKE), *options]
