"""`make docs`: the tables of results in the docs, made again from results files.

    python3 -m harness docs                 # run what is missing, then rewrite
    python3 -m harness docs --from-results  # only rewrite, from results/ as it is

Every table of measured numbers in README.md, docs/**/*.md and
hw-models/README.md sits in a block `<!-- docs: NAME -->` ...
`<!-- /docs -->` (blocks.py), and NAME is one of tables.py's tables, which
says which results files it reads and which command writes each.  The plots the
docs show are copied from the runs that drew them (tables.IMAGES).  Without
--from-results a missing file is made first by its command (`make run
...`, `make figure1`, `make sweep ...`: each builds what it needs); a
profile's [calibration] section is never remade here, since `make
calibrate` rewrites the profiles themselves.  Then every block is
rewritten, with a line under the table saying which files, which commit,
clean or not, and which date its numbers come from.  Nothing else in a
file changes, and the same results give the same files.
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import Callable

from .. import ROOT
from ..errors import HarnessError, UsageError
from . import blocks, sources, tables


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def render(table: tables.Table, results: Path, root: Path) -> str:
    """A block's new content: the table, a blank line, the stamp."""
    paths = [s.where(results, root) for s in table.sources]
    loaded = [sources.load(p, s.command) for p, s in zip(paths, table.sources)]
    lines = table.render(*loaded)
    # named as the reader's checkout has them: results/..., whichever --out was read
    names = [s.path if s.in_tree else f"{results.name}/{s.path}" for s in table.sources]
    stamp = sources.stamp(list(dict.fromkeys(names)), loaded, [s.command for s in table.sources])
    return "\n".join([*lines, "", stamp])


def make_missing(needed: list[sources.Source], results: Path, root: Path,
                 say: Callable[[str], None]) -> list[str]:
    """Run the command of every results file needed and lacking (once
    each, in order); the commands run."""
    ran: list[str] = []
    for s in needed:
        if s.in_tree or s.where(results, root).is_file() or s.command in ran:
            continue
        say(f"docs: {_display(s.where(results, root), root)} is missing: {s.command}")
        status = subprocess.run(shlex.split(s.command), cwd=root).returncode
        if status != 0:
            raise HarnessError(f"docs: `{s.command}` failed (exit status {status})")
        ran.append(s.command)
    return ran


def generate(root: Path = ROOT, results: Path | None = None, from_results: bool = False,
             files: list[Path] | None = None, say: Callable[[str], None] = print,
             known: dict[str, tables.Table] | None = None,
             images: tuple[tuple[sources.Source, str], ...] | None = None) -> list[Path]:
    """Rewrite every block of the docs, and copy the plots they show from
    the runs that drew them (tables.IMAGES); the files that changed."""
    results = results or root / "results"
    known = known if known is not None else tables.tables()
    files = files if files is not None else blocks.files(root)
    found: list[tuple[Path, str, list[blocks.Block]]] = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        bs = blocks.find(text, _display(f, root))
        for b in bs:
            if b.name not in known:
                raise UsageError(f"{_display(f, root)}:{b.begin + 1}: no table named "
                                 f"{b.name!r} (tables: {', '.join(known)})")
        found.append((f, text, bs))
    needed = list({b.name: known[b.name] for _, _, bs in found for b in bs}.values())
    images = [(src, root / copy) for src, copy in (tables.IMAGES if images is None else images)]
    if not from_results:
        make_missing([s for t in needed for s in t.sources] + [src for src, _ in images],
                     results, root, say)
    cache: dict[str, str] = {}

    def content(name: str) -> str:
        if name not in cache:
            cache[name] = render(known[name], results, root)
        return cache[name]

    # every table and plot first, so that a missing file changes no file at all
    new = {f: blocks.rewrite(text, _display(f, root), content) for f, text, bs in found if bs}
    plots = {copy: _read_bytes(src.where(results, root), src.command) for src, copy in images}
    changed = []
    for f, text, bs in found:
        if not bs:
            continue
        if new[f] != text:
            f.write_text(new[f], encoding="utf-8")
            changed.append(f)
        say(f"docs: {_display(f, root)}: {len(bs)} table(s)"
            + ("" if new[f] != text else ", unchanged"))
    for copy, data in plots.items():
        if not copy.is_file() or copy.read_bytes() != data:
            copy.write_bytes(data)
            changed.append(copy)
            say(f"docs: {_display(copy, root)}: copied from the run's")
    return changed


def _read_bytes(path: Path, command: str) -> bytes:
    if not path.is_file():
        raise sources.MissingResults(path, command)
    return path.read_bytes()

