"""Shared pytest setup: markers, and the repository root on sys.path.

tests/unit/ runs without QEMU (a fake guest stands in for it);
tests/integration/ boots the real kernel and is marked `integration`.
Select with `-m "not integration"` or `-m "not slow"`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_configure(config):
    config.addinivalue_line("markers", "integration: boots the real kernel under QEMU")
    config.addinivalue_line("markers", "slow: takes more than a few seconds (extra boots)")
