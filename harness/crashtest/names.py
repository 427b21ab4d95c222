"""The rename workload's promise, checked at each crash point: the name that
the workload keeps replacing (a new version written beside it, then renamed
over it: the classic way to replace a file in one step) must, on the crashed
disk, name one whole version of the file, old or new, never nothing and
never a file half written.

Which versions are whole is known before the run: each is the
concatenation of some of the Andrew sources in the image's /src, as the
workload's `cat` makes it (run.RENAME_VERSIONS).  The name is held to its
promise from the first crash point on whose disk it holds a whole version
(under sync: once `cat` closed the first version), in the order the points
are replayed: before that, the first version is still being written and
may be missing or short.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import fsread

WHOLE, MISSING, PARTIAL = "whole", "missing", "partial"


@dataclass(frozen=True)
class Watch:
    path: str                       # the name the workload replaces
    versions: frozenset[bytes]      # every whole version it may hold


def watch(initial: bytes | bytearray, path: str, recipe: list[list[str]]) -> Watch:
    """The versions a recipe (each version: the source files it joins)
    makes from the files of the initial image."""
    tree = fsread.files(initial)
    versions = []
    for parts in recipe:
        missing = [p for p in parts if not isinstance(tree.get(p), bytes)]
        if missing:
            raise ValueError(f"rename workload: {missing[0]} is not a file in the image")
        versions.append(b"".join(tree[p] for p in parts))
    return Watch(path, frozenset(versions))


class Judge:
    """Judges a run's crash points in replay order (see above)."""

    def __init__(self, w: Watch) -> None:
        self.w = w
        self.promised = False

    def __call__(self, got: dict[str, bytes | None]) -> str:
        """"" while the name is not promised yet; else WHOLE, MISSING or PARTIAL."""
        have = got.get(self.w.path)
        whole = isinstance(have, bytes) and have in self.w.versions
        self.promised = self.promised or whole
        if not self.promised:
            return ""
        if whole:
            return WHOLE
        return PARTIAL if isinstance(have, bytes) else MISSING
