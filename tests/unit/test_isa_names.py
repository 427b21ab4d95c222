"""No ISA is named outside the places that belong to it.

A new ISA is one folder and a few files of its own (docs/porting.md); the
rest of the tree asks the registry (harness/guest/machines.py) or the build
(the ISA's arch.mk) and names no ISA, so that nothing else needs an edit
when one is added.  This test reads every file of code and fails on an ISA's
name anywhere else, saying where.

What is a name.  Each registry entry's arch (e.g. riscv), its name in the
model's log (model_isa) and its QEMU target (riscv32, from
qemu-system-riscv32), lowercase as the code spells them, standing alone:
not part of a longer identifier or word (isa_mips, mips_rating, riscv64,
x86_64), though leading and trailing underscores still count (__mips__, a
compiler's ISA macro).  A profile's name (ds3100-riscv) is a name of its
own and does not count: the profile's `isa` says which ISA it models.

What is code.  Every file in the tree (tracked, or new and not ignored) but
Markdown and docs/, which hold prose and recorded data (the labs'
baselines); in code, comments and Python docstrings are prose too and are
left out.  String literals are code: a message that names an ISA takes the
name from the registry.

Where an ISA's names may appear (ISA: its arch):

  kernel/arch/ISA/            the kernel port: its arch.mk, boot code, drivers
  guests/lib/arch/ISA/        its part of the guests' C library
  guests/tests/ISA/           test programs of its own
  hw-models/qemu/isa_ISA.c    its decoder for the QEMU plugin, which names
                              its QEMU target (qemu_isa.h)
  hw-models/simh/             the model inside SIMH: for the ISAs whose
                              registry entry runs SIMH
  scripts/ISA-*.sh            scripts that build its own toolchain or emulator
  tools/gdb/ISA.gdb           gdb's commands for its kernel
  hw-models/profiles/*.toml   the line `isa = "ISA"`: which ISA a machine is
  harness/guest/machines.py   its registry entry (the MACHINES table), and
                              DEFAULT_ARCH (make reads it too)

tests/ may name ISAs: a test of one ISA's behaviour states its expectations
literally, so that it fails when the registry is wrong.  But not in a list:
a list, tuple, set or dict whose elements (keys) include two ISA names is a
hand-written list of ISAs, and a test that covers several takes them from
the registry instead (machines.names(), or a property of the entries), so
that a new entry is covered too.  (A test file that is not Python may not
name two ISAs on one line.)

One ISA name is also a word of the project's own: mips is the MIPS rating (a
profile's field `mips`) and the benchmark named after it (guests/bin/mips.c).
For such a name (an ISA name that is a guest program's or a profile field's
name too) only what can mean nothing but the ISA counts: the name beside
`arch` or `isa` (ARCH=mips, kernel/arch/mips, isa == "mips",
TLB_ISAS = ("mips",)), a path component (build/mips/), a compiler's macro
(__mips__), or beside another ISA's name.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
import tomllib
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest

from harness import ROOT
from harness.guest import machines


# ---------------------------------------------------------------- the names

def isa_names() -> dict[str, str]:
    """{a name: the arch it names}: arch, model_isa and QEMU target of each entry."""
    out = {}
    for arch, m in machines.MACHINES.items():
        out[arch] = out[m.model_isa] = arch
        if isinstance(m.emulator, machines.Qemu):
            out[m.emulator.target] = arch
    return out


def other_words(root: Path = ROOT) -> set[str]:
    """The project's own words: guest programs and profile fields."""
    words = {p.stem for p in (root / "guests" / "bin").glob("*.c")}
    for p in (root / "hw-models" / "profiles").glob("*.toml"):
        for key, value in tomllib.loads(p.read_text()).items():
            words.add(key)
            if isinstance(value, dict):
                words.update(value)
    return words


def profile_names(root: Path = ROOT) -> list[str]:
    return sorted((p.stem for p in (root / "hw-models" / "profiles").glob("*.toml")),
                  key=len, reverse=True)


def allowed(arch: str) -> list[str]:
    """Where `arch`'s names may appear: fnmatch patterns of paths."""
    m = machines.get(arch)
    places = [f"kernel/arch/{arch}/*", f"guests/lib/arch/{arch}/*", f"guests/tests/{arch}/*",
              f"hw-models/qemu/isa_{m.model_isa}.c", f"scripts/{arch}-*.sh",
              f"tools/gdb/{arch}.gdb"]
    if isinstance(m.emulator, machines.Simh):
        places.append("hw-models/simh/*")
    return places


REGISTRY = "harness/guest/machines.py"
PROFILES = "hw-models/profiles/*.toml"


# ---------------------------------------------------------------- code, not prose

def _blank(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> None:
    """Replace the text from (row, col) to (row, col), rows from 1, by spaces."""
    (r0, c0), (r1, c1) = start, end
    for r in range(r0, r1 + 1):
        line = lines[r - 1]
        a = c0 if r == r0 else 0
        b = c1 if r == r1 else len(line)
        lines[r - 1] = line[:a] + " " * (b - a) + line[b:]


def python_code(text: str) -> list[str]:
    """The lines with comments and docstrings blanked."""
    lines = text.split("\n")
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            _blank(lines, tok.start, tok.end)
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            d = body[0].value
            _blank(lines, (d.lineno, d.col_offset), (d.end_lineno, d.end_col_offset))
    return lines


def c_code(text: str) -> list[str]:
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return [re.sub(r"//.*", "", line) for line in text.split("\n")]


def hash_code(text: str) -> list[str]:
    """Make, shell, TOML, gdb: `#` at the start of a line or after a space begins a comment."""
    return [re.sub(r"(^|\s)#.*", "", line) for line in text.split("\n")]


def nasm_code(text: str) -> list[str]:
    return [re.sub(r";.*", "", line) for line in text.split("\n")]


def code_lines(path: str, text: str) -> list[str]:
    name = path.rsplit("/", 1)[-1]
    if name.endswith(".py"):
        return python_code(text)
    if name.endswith((".c", ".h", ".S", ".ld")):
        return c_code(text)
    if name.endswith(".asm"):
        return nasm_code(text)
    if name.endswith((".mk", ".sh", ".toml", ".gdb", ".cfg")) or "." not in name:
        return hash_code(text)               # Makefile, .ci/run, ...
    return text.split("\n")


def code_files(root: Path = ROOT) -> list[str]:
    """Tracked files and new ones not ignored, but prose and binaries."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=root, capture_output=True, text=True, check=True).stdout.split()
    return [p for p in out if not p.endswith(".md") and not p.startswith("docs/")
            and (root / p).is_file() and b"\0" not in (root / p).read_bytes()[:4096]]


# ---------------------------------------------------------------- the check

@dataclass(frozen=True)
class Use:
    path: str
    line: int
    name: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.name!r} in {self.text.strip()!r}"


class Checker:
    def __init__(self, root: Path = ROOT):
        self.names = isa_names()
        self.ambiguous = set(self.names) & other_words(root)
        alternation = "|".join(sorted(self.names, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![A-Za-z0-9_])_*({alternation})_*(?![A-Za-z0-9_])")
        self.profiles = re.compile(
            r"(?<![\w-])(" + "|".join(map(re.escape, profile_names(root))) + r")(?![\w-])")
        near = r"(?:\w*_)?(?i:arch(?:es)?|isas?)\b"
        others = "|".join(n for n in self.names if n not in self.ambiguous)
        self.context = {
            w: re.compile(rf"\b{near}\W{{1,8}}_*{w}\b|\b{w}\W{{1,8}}{near}|/{w}/|__{w}|"
                          rf"\b(?:{others})\W{{1,6}}{w}\b|\b{w}\W{{1,6}}(?:{others})\b")
            for w in self.ambiguous}
        self.allowed = {a: allowed(a) for a in machines.names()}

    def names_in(self, line: str) -> list[str]:
        """The ISA names a line of code uses, once each."""
        line = self.profiles.sub(lambda m: " " * len(m.group(0)), line)
        found = []
        for m in self.pattern.finditer(line):
            name = m.group(1)
            if name in self.ambiguous and not self.context[name].search(line):
                continue
            if name not in found:
                found.append(name)
        return found

    def registry_lines(self, text: str) -> set[int]:
        """The registry's own lines: the MACHINES table and DEFAULT_ARCH."""
        out: set[int] = set()
        for node in ast.parse(text).body:
            targets = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)])
                       if isinstance(t, ast.Name)]
            if {"MACHINES", "DEFAULT_ARCH"} & set(targets):
                out.update(range(node.lineno, node.end_lineno + 1))
        return out

    def check_file(self, path: str, text: str) -> list[Use]:
        lines = code_lines(path, text)
        mine = self.registry_lines(text) if path == REGISTRY else set()
        uses = []
        for i, line in enumerate(lines, 1):
            names = self.names_in(line)
            if not names or i in mine:
                continue
            if fnmatch(path, PROFILES) and re.match(r"\s*isa\s*=", line):
                continue
            if path.startswith("tests/"):
                if not path.endswith(".py") and len({self.names[n] for n in names}) > 1:
                    uses.append(Use(path, i, ", ".join(names), text.split("\n")[i - 1]))
                continue
            for name in names:
                if not any(fnmatch(path, p) for p in self.allowed[self.names[name]]):
                    uses.append(Use(path, i, name, text.split("\n")[i - 1]))
        if path.startswith("tests/") and path.endswith(".py"):
            uses += self.lists_in(path, text)
        return uses

    def lists_in(self, path: str, text: str) -> list[Use]:
        """Literal collections of two ISAs or more, in a Python file."""
        uses = []
        for node in ast.walk(ast.parse(text)):
            elts = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
            if not isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) or not elts:
                continue
            names = [e.value for e in elts if isinstance(e, ast.Constant)
                     and isinstance(e.value, str) and e.value in self.names]
            archs = {self.names[n] for n in names}
            if len(archs - self.ambiguous) >= 1 and len(archs) >= 2:
                uses.append(Use(path, node.lineno, ", ".join(names),
                                text.split("\n")[node.lineno - 1]))
        return uses

    def check_tree(self, root: Path = ROOT) -> list[Use]:
        uses = []
        for path in code_files(root):
            uses += self.check_file(path, (root / path).read_text(errors="replace"))
        return uses


@pytest.fixture(scope="module")
def checker():
    return Checker()


def test_no_isa_is_named_outside_its_places(checker):
    uses = checker.check_tree()
    assert not uses, "an ISA named outside its places (tests/unit/test_isa_names.py):\n" + \
        "\n".join(map(str, uses))


# ---------------------------------------------------------------- the check can fail

def an_isa(kind=None) -> str:
    """An ISA of the registry (that runs under `kind` of emulator, if given)."""
    return next(a for a, m in machines.MACHINES.items()
                if kind is None or isinstance(m.emulator, kind))


def test_the_names_come_from_the_registry(checker):
    for arch, m in machines.MACHINES.items():
        assert checker.names[arch] == arch and checker.names[m.model_isa] == arch
        if isinstance(m.emulator, machines.Qemu):
            assert checker.names[m.emulator.target] == arch


def test_a_planted_name_is_found(checker):
    a, b = machines.names()[:2]
    bad = {
        "harness/bench/x.py": f'if arch == "{a}":\n    pass\n',
        "Makefile": f"calibrate:\n\tfor a in {a} {b}; do $(MAKE) all ARCH=$$a; done\n",
        "hw-models/qemu/plugin.c": f'static const char *t = "{checker_target(a)}";\n',
        "kernel/port/x.c": f"#ifdef __{a}__\nint x;\n#endif\n",
        f"kernel/arch/{b}/x.c": f'const char *n = "{a}";\n',
        "tests/unit/test_x.py": f'ARCHES = ("{a}", "{b}")\n',
    }
    for path, text in bad.items():
        assert checker.check_file(path, text), path


def checker_target(arch: str) -> str:
    m = machines.get(arch)
    return m.emulator.target if isinstance(m.emulator, machines.Qemu) else arch


def test_prose_and_the_places_of_its_own_are_not_uses(checker):
    a = an_isa(machines.Qemu)
    profile = machines.get(a).model_profile
    fine = {
        "harness/bench/x.py": f'"""Runs on {a}."""\nx = 1   # {a} only\n'
                              f'p = "{profile}"\n',
        "kernel/port/x.c": f"/* {a}: the example */\nint x;   // {a}\n",
        f"kernel/arch/{a}/x.c": f'const char *n = "{a}";\n',
        f"hw-models/qemu/isa_{machines.get(a).model_isa}.c":
            f'QEMU_TARGET("{checker_target(a)}", isa);\n',
        "hw-models/profiles/x.toml": f'isa = "{a}"\n',
        "tests/unit/test_x.py": f'machines.get("{a}")\n',
        "Makefile": "GUEST_BINS := sh getpid mips\n",
    }
    for path, text in fine.items():
        assert not checker.check_file(path, text), (path, checker.check_file(path, text))


def test_a_word_that_is_also_an_isa_counts_only_as_the_isa(checker):
    if not checker.ambiguous:
        pytest.skip("no ISA name is also a word of the project's")
    w = sorted(checker.ambiguous)[0]
    for text in (f'r = run.result("{w}", "integer")\n', f'hw.data["{w}"]\n',
                 f'{w} = 13\n', f'BENCH = ("bcopy", "{w}")\n'):
        assert not checker.check_file("harness/x.py", text), text
    other = next(n for n in checker.names if n not in checker.ambiguous)
    for text in (f'profile.get("isa") == "{w}"\n', f'TLB_ISAS = ("{w}",)\n',
                 f'p = "build/{w}/kernel.elf"\n', f'argv = "--arch {w}"\n',
                 f'x = ("{w}", "{other}")\n'):
        assert checker.check_file("harness/x.py", text), text
    assert checker.check_file("kernel/port/x.c", f"#if __{w}__\nint x;\n#endif\n")
