"""The generated blocks of a Markdown file: find them, rewrite them.

A block is everything between a line `<!-- docs: NAME -->` and the next
line `<!-- /docs -->`; NAME says which table goes there (tables.py).  The
two marker lines stay; what is between them is replaced whole, so a hand
edit inside a block is lost at the next `make docs` (the markers say so to
anyone reading the file's source, and the rendered page does not show
them).  Blocks do not nest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

BEGIN = re.compile(r"^<!-- docs: ([a-z0-9-]+) -->\s*$")
END = "<!-- /docs -->"


@dataclass(frozen=True)
class Block:
    name: str
    begin: int          # index of the begin marker's line
    end: int            # index of the end marker's line


def find(text: str, where: str) -> list[Block]:
    """The blocks of a file's text, in order; UsageError naming the file
    and line of a marker that is malformed, unclosed or nested."""
    lines = text.split("\n")
    out: list[Block] = []
    open_at: tuple[str, int] | None = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        m = BEGIN.match(stripped)
        if m:
            if open_at:
                raise UsageError(f"{where}:{i + 1}: a docs block begins inside the block "
                                 f"'{open_at[0]}' begun at line {open_at[1] + 1}")
            open_at = (m.group(1), i)
        elif stripped == END:
            if not open_at:
                raise UsageError(f"{where}:{i + 1}: {END} without a block to end")
            out.append(Block(open_at[0], open_at[1], i))
            open_at = None
        elif stripped.startswith("<!-- docs"):
            raise UsageError(f"{where}:{i + 1}: not a docs marker: {stripped!r} "
                             f"(a block is <!-- docs: NAME --> ... {END})")
    if open_at:
        raise UsageError(f"{where}:{open_at[1] + 1}: the block '{open_at[0]}' has no {END}")
    return out


def rewrite(text: str, where: str, render) -> str:
    """The text with every block's content replaced by render(name), a
    string of whole lines without the markers."""
    lines = text.split("\n")
    out: list[str] = []
    last = 0
    for b in find(text, where):
        out.extend(lines[last:b.begin + 1])
        out.extend(render(b.name).rstrip("\n").split("\n"))
        last = b.end
    out.extend(lines[last:])
    return "\n".join(out)


def files(root: Path) -> list[Path]:
    """The Markdown files `make docs` rewrites: README.md, docs/**/*.md,
    hw-models/README.md (the same set the docs test checks)."""
    found = [root / "README.md", *sorted((root / "docs").rglob("*.md")),
             root / "hw-models" / "README.md"]
    return [p for p in found if p.is_file()]
