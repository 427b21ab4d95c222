"""The functions a lab handout tells the student to annotate exist where
`make attribute` looks for them: each `make attribute ... FUNCTION="f g"`
in docs/labs/*.md names functions of the built kernel's listing (or of the
benchmark program), on the ISA its profile runs on.  A label inside a
function (usercopy_begin, which lab 3 once named) is not one: attribute
lists it under the function's own name (arch_copyin), and would refuse it.

No boot: the listings `make test` built are read (tests/unit/test_labs_docs.py
runs the rest of each command the handouts show)."""

import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

from harness.errors import UsageError
from harness.model import attribute

ROOT = Path(__file__).resolve().parents[2]


def attribute_commands() -> list[tuple[str, str]]:
    out = []
    for doc in sorted((ROOT / "docs" / "labs").glob("*.md")):
        for line in doc.read_text().splitlines():
            line = line.strip().split("  #")[0]
            if line.startswith("make attribute ") and "FUNCTION=" in line:
                out.append((doc.name, line))
    return out


def objdump(arch: str) -> str:
    r = subprocess.run(["make", "-s", f"ARCH={arch}", "--eval", "print-objdump: ; @echo $(OBJDUMP)",
                        "print-objdump"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    return r.stdout.strip()


@pytest.mark.parametrize("doc,command", attribute_commands(),
                         ids=[f"{d}: {c}" for d, c in attribute_commands()])
def test_each_handout_function_is_in_the_listing(doc, command):
    args = dict(w.split("=", 1) for w in shlex.split(command)[2:])
    isa = tomllib.loads((ROOT / "hw-models" / "profiles" / f"{args['PROFILE']}.toml")
                        .read_text())["isa"]
    if not (ROOT / "build" / isa / "kernel.elf").exists():
        pytest.skip(f"no {isa} kernel built")
    attribute.check_functions(isa, args.get("BENCH", "getpid"), args["FUNCTION"].split(),
                              objdump(isa))


def test_a_label_inside_a_function_is_refused():
    isa = tomllib.loads((ROOT / "hw-models/profiles/ds3100.toml").read_text())["isa"]
    if not (ROOT / "build" / isa / "kernel.elf").exists():
        pytest.skip(f"no {isa} kernel built")
    with pytest.raises(UsageError, match="--function usercopy_begin: no function"):
        attribute.check_functions(isa, "readcache", ["arch_copyin", "usercopy_begin"],
                                  objdump(isa))
