"""Where results go: one directory per run, replaced whole or not at all.

    results/riscv-none/            python3 -m harness run
    results/riscv-ds3100-before/   python3 -m harness run --profile ds3100 --tag before
        results.json   every field, derived values, model counters, provenance
        results.csv    one row per benchmark case, every field of the JSON
        report.txt     the tables as `run` printed them
        console.log    the console transcript, then the emulator's stderr
        hwmodel.log    the hardware model's records (under a model)

A run writes into NAME.partial/ beside its final place and, once every
file is written, swaps it with NAME/ in one rename (renameat2's
RENAME_EXCHANGE on Linux), then deletes the old one.  An interrupted or
failed run leaves NAME/ as it was and NAME.partial/ with what it got and a
file INCOMPLETE saying why.  The sweeps and Figure 1 write their
directories the same way.

find_run() turns what a user types (a directory, a run's name, a tag) into
a run directory.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import re
import shutil
from pathlib import Path
from types import TracebackType

from .. import ROOT
from ..errors import UsageError

RESULTS = "results.json"
PARTIAL = ".partial"
INCOMPLETE = "INCOMPLETE"
_TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


def check_tag(tag: str) -> str:
    """A tag is part of a directory name: letters, digits and . _ + -."""
    if not _TAG.fullmatch(tag) or tag.endswith(PARTIAL) or len(tag) > 64:
        raise UsageError(f"tag {tag!r}: use letters, digits and . _ + - (at most 64, "
                         f"starting with a letter or digit)")
    return tag


def run_name(arch: str, profile: str, tag: str | None = None) -> str:
    return f"{arch}-{profile}" + (f"-{check_tag(tag)}" if tag else "")


def default_root() -> Path:
    return ROOT / "results"


# ---------------------------------------------------------------- atomic directories

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step; False if the system cannot."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    return False


def replace_dir(new: Path, final: Path) -> None:
    """Put directory `new` at `final`, replacing what was there in one step
    where the system allows (else two renames, the old one kept as
    FINAL.old until the second is done)."""
    if not final.exists():
        os.rename(new, final)
        return
    if _exchange(new, final):
        shutil.rmtree(new)               # `new` now holds the old results
        return
    old = final.with_name(final.name + ".old")
    if old.exists():
        shutil.rmtree(old)
    os.rename(final, old)
    os.rename(new, final)
    shutil.rmtree(old)


class RunDir:
    """A results directory being written: `with RunDir(root, name) as d:`,
    write files to d.path(NAME); on a clean exit d.final replaces the old
    one in one step, on an exception d.partial stays, marked INCOMPLETE."""

    def __init__(self, root: Path, name: str) -> None:
        self.root = Path(root)
        self.name = name
        self.final = self.root / name
        self.partial = self.root / (name + PARTIAL)

    def __enter__(self) -> "RunDir":
        if self.partial.exists():
            shutil.rmtree(self.partial)          # an earlier interrupted attempt
        self.partial.mkdir(parents=True)
        return self

    def path(self, filename: str) -> Path:
        return self.partial / filename

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is None:
            replace_dir(self.partial, self.final)
            return
        why = "interrupted" if kind in (KeyboardInterrupt, SystemExit) else f"{exc}"
        (self.partial / INCOMPLETE).write_text(
            f"This run did not finish ({why}): what is here is partial.\n"
            f"The results of the last complete run, if any, are in {self.final}/.\n")


# ---------------------------------------------------------------- finding runs

def runs_in(root: Path) -> list[Path]:
    """The complete run directories under `root`, by name."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir()
                  if p.is_dir() and not p.name.endswith(PARTIAL) and (p / RESULTS).is_file())


def _tag_of(run: Path) -> str | None:
    try:
        return json.loads((run / RESULTS).read_text()).get("tag")
    except (OSError, ValueError, AttributeError):
        return None


def find_run(spec: str, root: Path | None = None) -> Path:
    """A run directory from a path, a run's name (riscv-none-before) or a
    tag (before); UsageError listing the runs there are if none fits, or
    the candidates if several do."""
    root = root or default_root()
    for candidate in (Path(spec), root / spec):
        if (candidate / RESULTS).is_file():
            return candidate
        if candidate.name.endswith(PARTIAL) and candidate.is_dir():
            raise UsageError(f"{candidate} is an incomplete run (see its {INCOMPLETE})")
    tagged = [r for r in runs_in(root) if _tag_of(r) == spec]
    if len(tagged) == 1:
        return tagged[0]
    if len(tagged) > 1:
        raise UsageError(f"tag {spec!r} names {len(tagged)} runs: "
                         f"{', '.join(str(r) for r in tagged)}; give the directory")
    known = [r.name for r in runs_in(root)]
    raise UsageError(f"no run {spec!r}: not a directory with a {RESULTS}, nor a run or tag "
                     f"in {root}/ (there: {', '.join(known) or 'none'})")
