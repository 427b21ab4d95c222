"""The docs name only what exists: files, make targets and variables,
harness commands and options.

The docs are README.md, docs/**/*.md and hw-models/README.md.  In each,
the checked text is every `code span`, every code block (fenced, or
indented four spaces) and every link target.  The rules, kept simple:

1. A path is a token of checked text that ends in a known extension
   (.c .h .S .py .md .toml ...) or in '/', or that contains a '/' after a
   first part naming a top-level entry of the tree (`tools/fsck`).  A
   token with a '/' must start with a lowercase letter, a digit, '.', '<'
   or '_' (MB/s, I/O, Sun-3/75 are not paths; entry/exit or p/x, whose
   first part is no top-level entry, are not either).  A path must exist,
   relative to the repository, to the doc's directory or to a top-level
   directory (harness.md's layout names the harness's files by their
   paths under harness/); a name
   without '/' may be anywhere in the tree (`regions.c`).  `<isa>` and an
   all-capitals placeholder (NAME, labN) stand for any name.  Not checked:
   absolute paths and ~/ (the guest's file system, the host's), URLs, and
   the EXCEPTIONS below, each with its reason, and in one doc the paths
   HISTORY lets it name as where something was.
2. A link target must exist relative to the doc's directory, as a reader
   following it would find it (anchors are not checked).
3. `make WORD ...` (in a code span, or at the start of a code block's
   line, up to a '#', ';', '|' or '&&', words split as a shell would): each
   lowercase WORD must be a target of the Makefile, and each VAR=value a
   variable the Makefile or an arch.mk reads ($(VAR), VAR ?= ...).
4. `python3 -m harness COMMAND ...`: COMMAND must be one of the harness's
   commands and each --option (or -j) one that command takes, up to a
   `--` (what follows goes to another program).

test_code_headers_name_existing_paths applies rule 1 to the comment that
opens each code file (its header), for tokens with a '/' that end in a
known extension or in '/': a header names the files its reader goes to
next, and they move.  There, a path may also be relative to any directory
above the file (a header in hw-models/core/ names the plugin by its path
under hw-models/).

Each rule is checked against a planted mistake below, so that it can fail.
"""

from __future__ import annotations

import glob
import re
import shlex
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from harness import cli

ROOT = Path(__file__).resolve().parents[2]

EXTENSIONS = ("c", "h", "S", "py", "md", "toml", "json", "csv", "png", "svg", "txt", "log",
              "mk", "sh", "gdb", "patch", "asm", "ld", "cfg", "iso", "so", "img", "elf")

# What a doc may name that is not in a fresh checkout, and why.
EXCEPTIONS = {
    "results/": "written by runs (make run, make figure1, ...)",
    "OUT/": "a command's --out directory, results/ by default: written by runs",
    "build/": "written by make",
    "results.json": "a run writes it into its results directory",
    "results.csv": "a run writes it into its results directory",
    "report.txt": "a run writes it into its results directory",
    "console.log": "a run writes it into its results directory",
    "hwmodel.log": "a run under a model writes it into its results directory",
    "final.csv": "a measure-suite run writes it into its results directory",
    "sweep.csv": "make sweep writes it into results/sweep-*/",
    "sweep.json": "make sweep writes it into results/sweep-*/",
    "sweep.png": "make sweep writes it into results/sweep-*/",
    "sweep.svg": "make sweep writes it into results/sweep-*/",
    "heatmap-BENCH.png": "a grid sweep writes it into results/sweep-*/",
    "figure1.csv": "make figure1 writes it into results/figure1/",
    "figure1.txt": "make figure1 writes it into results/figure1/",
    "figure1.json": "make figure1 writes it into results/figure1/",
    "figure1.svg": "make figure1 writes it into results/figure1/",
    "crashtest.txt": "make crashtest writes it into results/crashtest/",
    "crashtest.json": "make crashtest writes it into results/crashtest/",
    "risk-delayed.png": "make crashtest writes it into results/crashtest/",
    "build-stamp.json": "make writes it into build/<arch>/",
    "kernel.asm": "make writes it into build/<arch>/",
    "kernel.elf": "make writes it into build/<arch>/",
    "<name>.partial/": "an unfinished run's directory, under results/",
    "qemu-plugin.h": "QEMU's header, fetched into build/ by scripts/fetch-qemu-plugin-h.sh",
    "libhwmodel.so": "make hwmodel builds it into build/hw-models/",
    "libfloor.so": "make hwmodel builds it into build/hw-models/",
    "fs.img": "make builds it into build/<arch>/",
    "trace.txt": "a file name the reader chooses (trace=FILE)",
    "vax_defs.h": "SIMH's source, not ours: scripts/vax-simh.sh fetches it",
    "scp.c": "SIMH's source, not ours: vax-model.patch changes it",
    "sim_ether.c": "SIMH's source, not ours: vax-model.patch changes it",
    "sys.h": "Plan 9's, named as an example",
    "systab.h": "Plan 9's, named as an example",
}


# Paths one doc may name as history (where a file was), and why; any other
# doc naming them fails.
HISTORY = {
    "docs/porting.md": {
        "boot/<isa>/": "where the boot code was when the MIPS and SPARC ports were made",
        "hw-models/plugin/": "the plugin's folder when the MIPS and SPARC ports were made",
        "hw-models/plugin/hwmodel.c": "the plugin's source then, now hw-models/qemu/plugin.c",
        "hw-models/plugin/model.h": "the model's header then, now hw-models/core/isa.h",
        "hwmodel.c": "hw-models/plugin/hwmodel.c, named again in the same row",
        "harness/model/hwmodel.py": "the harness's model module when the ports were made; "
                                    "now profiles.py, modelargs.py, modellog.py and "
                                    "bench/counters.py",
    },
}


# ---------------------------------------------------------------- the tree

@lru_cache(maxsize=None)
def tracked() -> tuple[str, ...]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return tuple(p for p in out.split("\n") if p and (ROOT / p).exists())


@lru_cache(maxsize=None)
def names() -> frozenset[str]:
    """Every file's and directory's own name in the tree."""
    out = set()
    for p in tracked():
        parts = p.split("/")
        out.update(parts)
    return frozenset(out)


def docs() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             ROOT / "hw-models" / "README.md"]
    return [p for p in found if p.is_file()]


@lru_cache(maxsize=None)
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text()
    out = set()
    for m in re.finditer(r"^([A-Za-z0-9_. -]+?)\s*::?(?!=)", text, re.M):
        out.update(m.group(1).split())
    return frozenset(out)


@lru_cache(maxsize=None)
def make_text() -> str:
    return "\n".join(p.read_text() for p in [ROOT / "Makefile",
                                             *sorted(ROOT.glob("kernel/arch/*/arch.mk"))])


def make_reads(var: str) -> bool:
    v = re.escape(var)
    return bool(re.search(rf"\$[({{]{v}\b|^\s*{v}\s*[?:+]?=|\borigin {v}\b", make_text(), re.M))


@lru_cache(maxsize=None)
def harness_parsers() -> dict:
    return cli.build_parser()[1]


# ---------------------------------------------------------------- reading a doc

SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def checked_text(md: str) -> tuple[list[str], list[str], list[str]]:
    """(the pieces of checked text: code blocks' lines and code spans;
    the link targets; the pieces that may hold commands: code spans, and
    the code lines that start with one, after an optional `$ ` prompt)."""
    pieces: list[str] = []
    prose: list[str] = []
    lines = md.split("\n")
    fenced = False
    prev_blank = True
    in_indented = False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            pieces.append(line)
            continue
        if line.startswith("    ") and (prev_blank or in_indented) and line.strip():
            in_indented = True
            pieces.append(line)
        else:
            if line.strip():
                in_indented = False
            prose.append(line)
        prev_blank = not line.strip()
    text = "\n".join(prose)
    spans = [m.group(2) for m in SPAN.finditer(text)]
    links = [m.group(1) for m in LINK.finditer(text)]
    lines = "\n".join(pieces).replace("\\\n", " ").split("\n")   # continued lines joined
    runs = [ln for ln in lines if re.match(r"\s*(\$\s+)?(make|python3 -m harness)\b", ln)]
    return pieces + spans, links, spans + runs


PATH = re.compile(r"(?<![\w/.<>*~\\#-])([A-Za-z0-9_.<>*~\\-]+(?:/[A-Za-z0-9_.<>*\\-]*)+"
                  r"|[A-Za-z0-9_<>*\\-][A-Za-z0-9_.<>*\\-]*\.(?:" + "|".join(EXTENSIONS) +
                  r"))(?![\w<>*-])")


@lru_cache(maxsize=None)
def top_level() -> frozenset[str]:
    return frozenset(p.split("/")[0] for p in tracked())


def path_tokens(piece: str) -> list[str]:
    piece = re.sub(r"<[^<>\n]* [^<>\n]*>", "<x>", piece)     # <hash of those sources>
    out = []
    for m in PATH.finditer(piece):
        t = m.group(1).replace("\\", "").rstrip(".")
        if "/" in t:
            if not re.match(r"[a-z0-9_.<]", t):
                continue                # MB/s, I/O, RISC/os, Sun-3/75: not paths
            ends = t.endswith("/") or re.search(r"\.(" + "|".join(EXTENSIONS) + r")$", t)
            if not ends and t.split("/")[0] not in top_level():
                continue                # entry/exit, p/x, mthi/mtlo
        out.append(t)
    return out


def excepted(t: str) -> bool:
    exceptions = set(EXCEPTIONS)
    if t.startswith(("/", "~", "$")) or "://" in t:
        return True
    if "/" in t and t.split("/")[0] + "/" in exceptions:
        return True
    return t in exceptions


def exists(t: str, base: Path, anywhere: bool = True, also: tuple[Path, ...] = ()) -> bool:
    if anywhere:
        also = (*also, *(ROOT / d for d in top_level() if (ROOT / d).is_dir()))
    candidates = [t, re.sub(r"<[^>]*>", "*", t)]
    candidates.append(re.sub(r"[A-Z][A-Z0-9_]*", "*", candidates[1]))
    for c in candidates:
        c = c.rstrip("/") or "."
        for d in (ROOT, base, *also):
            if glob.glob(str(d / c)):
                return True
        if anywhere and "/" not in c and any(glob.fnmatch.fnmatchcase(n, c) for n in names()):
            return True
    return False


def commands(piece: str, word: str) -> list[list[str]]:
    """Each `word ...` command in a piece of checked text, as its words,
    up to a comment or the next command."""
    out = []
    for m in re.finditer(rf"(?<![\w/.-]){re.escape(word)}(?![\w.-])", piece):
        rest = re.split(r"\s#|;|\||&&|`|\)", piece[m.end():])[0]
        try:
            words = shlex.split(rest)
        except ValueError:              # an unbalanced quote: split on spaces
            words = rest.split()
        out.append(words[:words.index("--")] if "--" in words else words)
    return out


def problems(md: str, where: Path) -> list[str]:
    """What one doc names that does not exist, one line each."""
    base = where.parent
    history = HISTORY.get(str(where.relative_to(ROOT)) if where.is_relative_to(ROOT) else "", {})
    out = []
    pieces, links, runs = checked_text(md)
    for piece in pieces:
        for t in path_tokens(piece):
            if not excepted(t) and t not in history and not exists(t, base):
                out.append(f"no such file or directory: {t}")
    for piece in runs:
        for words in commands(piece, "make"):
            for w in words:
                if "=" in w:
                    var = w.split("=", 1)[0]
                    if re.fullmatch(r"[A-Z][A-Z0-9_]*", var) and not make_reads(var):
                        out.append(f"the Makefile reads no variable {var} (make ... {w})")
                elif re.fullmatch(r"[a-z][a-z0-9-]*", w) and w not in make_targets():
                    out.append(f"the Makefile has no target {w!r} (make {' '.join(words)})")
        for words in commands(piece, "python3 -m harness"):
            if not words or words[0].startswith("-") or not re.fullmatch(r"[a-z0-9]+", words[0]):
                continue
            sub = harness_parsers().get(words[0])
            if sub is None:
                out.append(f"the harness has no command {words[0]!r}")
                continue
            for w in words[1:]:
                flag = w.split("=", 1)[0].rstrip(",.")
                if re.fullmatch(r"--?[a-z][a-z0-9-]*", flag) and \
                        flag not in sub._option_string_actions:
                    out.append(f"`python3 -m harness {words[0]}` has no option {flag}")
    for link in links:
        target = link.split("#", 1)[0]
        if not target or "://" in link or link.startswith("mailto:"):
            continue
        if not (base / target).exists():
            out.append(f"link to a missing file: {link}")
    return out


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("doc", docs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_name_only_what_exists(doc):
    assert problems(doc.read_text(), doc) == []


def test_a_missing_file_is_caught():
    doc = ROOT / "docs" / "harness.md"
    assert problems("Read `docs/no-such-guide.md` and [this](no-such.md).", doc) == [
        "no such file or directory: docs/no-such-guide.md", "link to a missing file: no-such.md"]
    assert problems("    kernel/arch/<isa>/no_such.c   what it does\n", doc) == [
        "no such file or directory: kernel/arch/<isa>/no_such.c"]
    # and what exists passes, placeholders and all
    assert problems("`kernel/arch/<isa>/arch.mk`, `hw-models/profiles/NAME.toml`, "
                    "`regions.c`, [the harness](harness.md)", doc) == []


def test_a_missing_make_target_or_variable_is_caught():
    doc = ROOT / "README.md"
    assert problems("    make figure9 ARCH=riscv     # the figure\n", doc) == [
        "the Makefile has no target 'figure9' (make figure9 ARCH=riscv)"]
    assert problems("Run `make run ARCHITECTURE=x86`.", doc) == [
        "the Makefile reads no variable ARCHITECTURE (make ... ARCHITECTURE=x86)"]
    assert problems("`make run ARCH=x86 PROFILE=pc-p5 SUITE=measure`, `make grade LAB=1`", doc) == []


def test_a_missing_harness_command_or_option_is_caught():
    doc = ROOT / "README.md"
    assert problems("`python3 -m harness figure9`", doc) == ["the harness has no command 'figure9'"]
    assert problems("    python3 -m harness sweep --profile ds3100 --parm cpu.cpi\n", doc) == [
        "`python3 -m harness sweep` has no option --parm"]
    assert problems("`python3 -m harness overhead --profile sun3 --floor -j 2`", doc) == [
        "`python3 -m harness overhead` has no option -j"]


def test_history_is_allowed_only_where_it_is_told():
    assert problems("(then also `boot/<isa>/`)", ROOT / "docs" / "porting.md") == []
    assert problems("(then also `boot/<isa>/`)", ROOT / "README.md") == [
        "no such file or directory: boot/<isa>/"]


def test_exceptions_are_only_for_what_runs_and_builds_make():
    doc = ROOT / "README.md"
    assert problems("`results/riscv-none/results.json`, `build/riscv/kernel.elf`, "
                    "`~/.cache/ousterhout/`, `/bin/sh`", doc) == []
    assert problems("`resultz/riscv-none/results.json`", doc) == [
        "no such file or directory: resultz/riscv-none/results.json"]


# ---------------------------------------------------------------- code headers

CODE = re.compile(r"(\.(c|h|S|py|sh|mk|ld|gdb|asm)|/Makefile|^Makefile)$")


def header(text: str, python: bool) -> str:
    """The comment a file opens with: a docstring, or the first run of
    comment lines (after a #! line)."""
    lines = text.split("\n")
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    if python:
        m = re.match(r'\s*(?:#[^\n]*\n)*\s*("""|\'\'\')(.*?)\1', "\n".join(lines), re.S)
        if m:
            return m.group(2)
    out = []
    for line in lines:
        s = line.strip()
        if s.startswith(("#", "//", "/*", "*", ";")) or (out and not s and not out[-1].endswith("*/")):
            out.append(s)
            if s.endswith("*/"):
                break
        else:
            break
    return "\n".join(out)


def header_problems(path: str, text: str) -> list[str]:
    here = ROOT / path
    above = tuple(here.parents)
    out = []
    for t in path_tokens(header(text, path.endswith(".py"))):
        if "/" not in t or not re.search(r"(\.(" + "|".join(EXTENSIONS) + r")|/)$", t):
            continue
        if excepted(t) or t.startswith(("OUT/", "DIR/")):
            continue
        if not exists(t, here.parent, anywhere=False, also=above):
            out.append(f"{path}: its header names {t}, which does not exist")
    return out


def test_code_headers_name_existing_paths():
    found = []
    for p in tracked():
        if CODE.search(p):
            found += header_problems(p, (ROOT / p).read_text(errors="replace"))
    assert found == []


def test_a_header_naming_a_moved_file_is_caught():
    text = '"""The profiles (harness/hwmodel.py reads them; hw-models/profiles/)."""\n'
    assert header_problems("harness/model/example.py", text) == [
        "harness/model/example.py: its header names harness/hwmodel.py, which does not exist"]
    c = "/*\n * plugin.c: see qemu/plugin.c and core/model.h.\n */\nint x;\n"
    assert header_problems("hw-models/qemu/example.c", c) == []
