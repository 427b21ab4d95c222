"""docs/porting.md against the tree: what a new ISA needs, file by file.

- Every path its first table lists exists for every ISA of the registry that
  needs it ("every ISA"; "QEMU" or "SIMH": the ISAs that emulator runs;
  "optional" rows are not checked), with <isa> the ISA's name.
- Every file that all the kernel ports have, and every file that all the
  guest library's per-ISA parts have, is in the table: a file a new port
  cannot do without is never left out of the list.
- Every shared file the MIPS and SPARC ports' commits (the ones the page
  names) touched is in its last table, by its name then or now (needs the
  git history: skipped in a shallow clone).
"""

import re
import subprocess
from fnmatch import fnmatch

import pytest

from harness import ROOT
from harness.guest import machines

DOC = ROOT / "docs" / "porting.md"


def section(title: str) -> str:
    text = DOC.read_text()
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def rows() -> list[tuple[str, str]]:
    """(path pattern, who needs it) of the first table."""
    out = re.findall(r"^\| `([^`]+)` \| ([a-zA-Z ]+) \|", section("The files of the ISA's own"),
                     re.M)
    assert out, "docs/porting.md: no table of files"
    return out


def needs(who: str, m: machines.Machine) -> bool:
    return {"every ISA": True, "QEMU": isinstance(m.emulator, machines.Qemu),
            "SIMH": isinstance(m.emulator, machines.Simh), "optional": False}[who]


def test_the_table_says_who_needs_each_file():
    for path, who in rows():
        assert who in ("every ISA", "QEMU", "SIMH", "optional"), (path, who)


@pytest.mark.parametrize("arch", machines.names())
def test_each_listed_path_exists_for_every_isa_that_needs_it(arch):
    m = machines.get(arch)
    for pattern, who in rows():
        if needs(who, m):
            path = pattern.replace("<isa>", arch)
            assert list(ROOT.glob(path.rstrip("/"))), f"docs/porting.md lists {pattern}: no {path}"


@pytest.mark.parametrize("folder", ["kernel/arch", "guests/lib/arch"])
def test_every_file_all_the_ports_have_is_listed(folder):
    patterns = [p for p, who in rows() if who == "every ISA"]
    common = None
    for arch in machines.names():
        files = {p.name.replace(arch, "<isa>") for p in (ROOT / folder / arch).iterdir()}
        common = files if common is None else common & files
    for name in sorted(common or ()):
        path = f"{folder}/<isa>/{name}"
        assert any(fnmatch(path, p) for p in patterns), f"docs/porting.md does not list {path}"


def _git(*args: str) -> str | None:
    r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def test_what_the_ports_touched_is_in_the_last_table():
    text = section("What the MIPS and SPARC ports touched, and what is left")
    commits = re.findall(r"`([0-9a-f]{7,40})`", text.split("|", 1)[0])
    assert len(commits) >= 10, commits
    if any(_git("cat-file", "-e", f"{c}^{{commit}}") is None for c in commits):
        pytest.skip("the ports' commits are not in this clone's history (shallow?)")
    # the ISA's own places, with the names they had then
    own = [p.replace("<isa>", "*") for p, _ in rows()] + \
        ["boot/*", "hw-models/plugin/isa_*.c", "kernel/arch/*", "guests/lib/arch/*", "guests/tests/*"]
    for c in commits:
        for path in _git("show", "--format=", "--name-only", c).split():
            if path.endswith(".md") or path.startswith("docs/") or \
                    any(fnmatch(path, p) or fnmatch(path, p.rstrip("/") + "/*") for p in own):
                continue
            named = re.findall(r"`([^`]+)`", text)
            assert any(fnmatch(path, n) for n in named), \
                f"docs/porting.md: {c} touched {path}, which its last table does not name"
