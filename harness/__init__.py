"""The host side of the project: boot a guest, run the paper's benchmarks,
time them with the hardware models, print the paper's tables.

Three subpackages: `guest` (the emulated machines and their console),
`bench` (the benchmarks, the paper's numbers, the report) and `model` (the
hardware models and the commands that use them); `cli` is the command line.
docs/harness.md lists every module and what it does.
"""

from pathlib import Path

__version__ = "0.1"

# The repository: where the build, the profiles and the results are.
ROOT = Path(__file__).resolve().parent.parent


def rel(path: Path | str) -> str:
    """`path` as messages name it: relative to the repository if inside it."""
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return str(path)
