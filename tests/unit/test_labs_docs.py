"""The lab handouts (docs/labs/*.md) match the code: every name they give a
student to look for exists, and every command they show runs.

tests/unit/test_docs.py checks what every doc names (files, make targets
and variables, harness commands and options).  A handout also names the
kernel's functions, structures and macros, and shows commands to type:

1. Each code span that is a C name (`trap_entry`, `trap()`, `policies[]`,
   `struct trapframe`, `W_META`) is defined in the kernel, the guests'
   programs or their library: a function, a label, a variable, a type or a
   macro of that name.  NOT_CODE lists the spans that look like C names
   and are something else (an instruction, a register, a metric, a
   profile's field), each with what it is.
2. Each command a handout shows (a code block's line, or a code span,
   starting with `make` or `python3 -m harness`, without a placeholder
   such as N, P or [CASE=C]) runs here as far as it can without a build:
   make reads it (`make -n`: its target and variables exist), and the
   harness command make would run checks it with --check-only, which
   refuses a bad benchmark, case, lab, policy, profile value or
   prediction by name.  A command that cannot run so is marked in the
   handout with a comment `# example` on its line.  The functions a
   `make attribute ... FUNCTION=...` shows are looked up in the built
   kernel's listing by tests/integration/test_labs_handouts.py, as
   `make attribute` looks them up.
3. The table of profiles in docs/labs/README.md says on which of our ISAs
   each machine runs, as the profiles' `isa` lines do.

The commands run in a copy of the tree whose prediction files are the
templates: a student's own predictions are theirs to get wrong (the
grader says so), and never fail this test.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest

import test_docs
from harness.course import grade, labs
from scratch import scratch_tree

ROOT = Path(__file__).resolve().parents[2]
HANDOUTS = sorted((ROOT / "docs" / "labs").glob("*.md"))

# Code spans that look like C names but are not the kernel's, and what
# each is.
NOT_CODE = {
    # instructions and registers the handouts name
    "sw": "a RISC-V and MIPS instruction", "lw": "a RISC-V and MIPS instruction",
    "rei": "a VAX instruction", "pushr": "a VAX instruction", "ret": "an instruction",
    "ecall": "a RISC-V instruction", "calls": "a VAX instruction",
    "sp": "a register", "a7": "a RISC-V register", "sepc": "a RISC-V register",
    "scause": "a RISC-V register", "stvec": "a RISC-V register",
    # the grader's metrics and the profiles' fields (harness/course/labs.py, hw-models)
    **{m: "a metric of the grader (harness/course/labs.py, METRICS)" for m in labs.METRICS},
    "cpi": "a profile field (hw-models/profiles/*.toml)",
    "trap_extra": "a profile field", "mul_extra": "a profile field",
    "div_extra": "a profile field", "bandwidth_mbs": "a profile field",
    "latency_ns": "a profile field", "write_ns": "a profile field", "isa": "a profile's line",
    "traps": "a metric", "stores": "a metric", "loads": "a metric",
    # the guest's programs and shell commands, the write policies, words
    "sync": "a write policy", "delayed": "a write policy", "writethrough": "a write policy",
    "ordered": "lab 4's default policy name (grade.DEFAULT_POLICY)",
    "policy": "the guest program guests/bin/policy.c",
    "fsck": "a guest program", "select": "a benchmark", "cswitch": "a benchmark",
    "readcache": "a benchmark", "create": "a word of the paper's",
    "quit": "a gdb command", "cont": "a gdb command", "dprintf": "a gdb command", "break": "a gdb command",
    "step": "a gdb command", "ps": "a guest shell command", "kill": "a guest shell command",
    "wait": "a system call the handouts name by its user-level name",
    "close": "a system call", "unlink": "a system call", "fork": "a system call",
    "nobreak": "a SIMH command's word", "stubs": "the VAX kernel's system-call "
    "vectors, a section the attribution lists by that name",
    "indirect": "the attribution's name for the indirect-block code",
    "copy_out": "the paper's word for a copy to user space",
    "calls $1, trap": "VAX assembly",
    "LAB2": "harness/course/labs.py", "LAB3": "harness/course/labs.py",
    "LAB4": "harness/course/labs.py", "LAB5": "harness/course/labs.py",
    "LAB6": "harness/course/labs.py", "LAB7": "harness/course/labs.py",
    "stream_under_loss": "lab 6's check of two machines (harness/course/grade.py)",
    "nfs_server_crash": "lab 7's check of two machines (harness/course/rfschecks.py)",
    "async_server_crash": "lab 7's check of two machines (harness/course/rfschecks.py)",
    "CATEGORIES": "the round trip's categories (harness/net/roundtrip.py)",
}

C_NAME = re.compile(r"^(?:(struct|enum) )?([A-Za-z_][A-Za-z0-9_]*)(\(\)|\[\])?$")


@lru_cache(maxsize=None)
def code_text() -> str:
    """The kernel's, the guests' and the tools' C and assembly, in one text."""
    files = [p for d in ("kernel", "guests", "tools")
             for p in (ROOT / d).rglob("*") if p.suffix in (".c", ".h", ".S")]
    return "\n".join(p.read_text(errors="replace") for p in files)


def defined(name: str, kind: str | None) -> bool:
    """Whether the C name is defined: a function or variable (the name
    followed by `(` or `[` or `=` or `;` after a type), a label, a macro,
    a struct or enum, a typedef."""
    text = code_text()
    n = re.escape(name)
    if kind:
        return re.search(rf"\b{kind}\s+{n}\s*\{{", text) is not None
    patterns = (rf"^[A-Za-z_][\w \t\*]*\b{n}\s*\(", rf"^{n}:", rf"#define\s+{n}\b",
                rf"\b{n}\s*(\[[^\]]*\])?\s*(=|;)", rf"^\s*{n}\s*[,=]", rf"ENTRY\({n}\)",
                rf"\.globl\s+(\w+,\s*)*{n}\b")
    return any(re.search(p, text, re.M) for p in patterns)


def spans(md: str) -> list[str]:
    return [m.group(2) for m in test_docs.SPAN.finditer(
        "\n".join(ln for ln in md.split("\n") if not ln.startswith("    ")))]


def name_problems(md: str) -> list[str]:
    out = []
    for s in dict.fromkeys(spans(md)):
        m = C_NAME.match(s)
        if not m or s in NOT_CODE or m.group(2) in NOT_CODE:
            continue
        kind, name = m.group(1), m.group(2)
        if "/" in s or "." in s or re.fullmatch(r"t_\w+", name) or \
                (ROOT / "guests" / "bin" / f"{name}.c").exists() or \
                (ROOT / "hw-models" / "profiles" / f"{name}.toml").exists():
            continue                    # files, programs, profiles: test_docs checks those
        if not defined(name, kind):
            out.append(f"`{s}` is defined nowhere in kernel/, guests/ or tools/")
    return out


@pytest.mark.parametrize("doc", HANDOUTS, ids=lambda p: p.name)
def test_handouts_name_only_code_that_exists(doc):
    assert name_problems(doc.read_text()) == []


def test_a_renamed_function_is_caught():
    assert name_problems("look at `trap_entry` and `usercopy_start()`\n") == [
        "`usercopy_start()` is defined nowhere in kernel/, guests/ or tools/"]
    assert name_problems("`struct trapframe` and `struct nosuchthing`\n") == [
        "`struct nosuchthing` is defined nowhere in kernel/, guests/ or tools/"]


# ---------------------------------------------------------------- commands

PLACEHOLDER = re.compile(r"(=|\s)(N|P|B|C|A|NAME|name|yourname|\.\.\.)(\s|$)|\[|\]")


def shown_commands(md: str) -> list[tuple[str, bool]]:
    """(command, marked as an example) for each command the doc shows that
    has no placeholder."""
    _, _, runs = test_docs.checked_text(md)
    out = []
    for piece in runs:
        piece = piece.strip()
        example = bool(re.search(r"#\s*example\b", piece))
        command = re.split(r"\s+#", piece)[0].strip()
        if not re.match(r"(make|python3 -m harness)\b", command) or PLACEHOLDER.search(command):
            continue
        out.append((command, example))
    return out


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """The tree, unbuilt, with the prediction files as shipped."""
    t = scratch_tree(tmp_path_factory.mktemp("handouts"))
    for lab in labs.LABS.values():
        (t / grade.prediction_path(lab).relative_to(ROOT)).write_text(
            grade.prediction_template(lab))
    return t


def harness_line(tree: Path, command: str) -> list[str] | None:
    """The harness command line `command` runs (make's, via make -n), or
    None for a make target that runs no harness command of its own."""
    words = shlex.split(command)
    if words[0] == "python3":
        return words[3:]
    r = subprocess.run(["make", "--no-print-directory", "-n", *words[1:]], cwd=tree,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"{command}: {r.stderr}"
    lines = [ln for ln in r.stdout.replace("\\\n", " ").split("\n")
             if " -m harness " in ln and "--check-only" not in ln
             and "buildstamp" not in ln]
    if not lines:
        return None
    return shlex.split(lines[-1].split(" -m harness ", 1)[1])


# Make targets that run no harness command (make -n shows all they do).
NOT_HARNESS = {"test": "pytest, the project's tests: CI runs it"}


def command_problems(tree: Path, command: str) -> list[str]:
    words = shlex.split(command)
    line = harness_line(tree, command)
    if line is None:
        return [] if words[0] == "make" and words[1] in NOT_HARNESS else \
            [f"{command}: runs no harness command; mark it `# example`"]
    r = subprocess.run(["python3", "-m", "harness", "--check-only", *line], cwd=tree,
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        return [f"{command}: {r.stderr.strip().splitlines()[-1]}"]
    return []


def all_shown() -> list[tuple[str, str, bool]]:
    return [(doc.name, c, ex) for doc in HANDOUTS for c, ex in shown_commands(doc.read_text())]


@pytest.mark.parametrize("doc,command,example", all_shown(),
                         ids=[f"{d}: {c}" for d, c, _ in all_shown()])
def test_every_command_a_handout_shows_runs(tree, doc, command, example):
    if example:
        return                          # shown as an example: not run, and it says so
    assert command_problems(tree, command) == []


def test_a_command_that_cannot_run_is_caught(tree):
    assert command_problems(tree, "make grade LAB=2") == []
    assert "no lab '8'" in command_problems(tree, "make grade LAB=8")[0]
    assert "invalid choice for readcache: 'cached'" in command_problems(
        tree, "make attribute PROFILE=ds3100 BENCH=readcache CASE=cached")[0]
    assert "-bench" in " ".join(command_problems(
        tree, "python3 -m harness run --profile ds3100 -bench andrew"))
    assert shown_commands("    make grade LAB=1   # example: not run\n") == \
        [("make grade LAB=1", True)]
    assert shown_commands("`make grade LAB=N`\n") == []


# ---------------------------------------------------------------- profiles

def isa_word(text: str) -> str:
    """An ISA as a handout writes it (RISC-V, SPARC, m68k), as the registry does."""
    return text.strip().lower().replace("-", "")


def profile_table_problems(md: str) -> list[str]:
    out = []
    for line in md.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([\w-]+)`", cells[0])
        isas = [isa_word(re.split(r"\s*\(", w)[0]) for w in cells[2].split(",")]
        if len(names) != len(isas):
            out.append(f"{line}: {len(names)} profiles, {len(isas)} ISAs")
            continue
        for name, isa in zip(names, isas):
            path = ROOT / "hw-models" / "profiles" / f"{name}.toml"
            real = tomllib.loads(path.read_text())["isa"] if path.exists() else None
            if real != isa:
                out.append(f"`{name}` runs on {real}, the table says {isa}")
    return out


def test_the_labs_profile_table_matches_the_profiles():
    md = (ROOT / "docs" / "labs" / "README.md").read_text()
    assert "| profile | machine | runs our kernel for |" in md
    assert profile_table_problems(md) == []
    assert profile_table_problems("| `sun4` | Sun-4 | RISC-V |\n") == [
        "`sun4` runs on sparc, the table says riscv"]
