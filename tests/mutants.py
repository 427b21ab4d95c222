"""Mutants that must die: does each test catch the fault it is there for?

    python3 tests/mutants.py [--only NAME,NAME] [--no-baseline] [--keep]
    make mutants                                  (the same, all of them)

For each mutant in tests/mutants.toml (its header says the fields): copy
the tree (build/ included, so that make rebuilds only what the mutant
touches) to a scratch directory, change the one file, build what the
mutant names, run its tests there, and count it killed if they fail,
survived if they pass.  Every mutant starts from a fresh copy of the real
tree.  Before the mutants, the baseline: the same builds and tests on the
unchanged copy must pass, or a kill would prove nothing.  A mutant whose
build fails, or whose tests cannot run (pytest's exit status other than
0 or 1), is an error, not a kill.  With `each = true`, every test that the
selection collects must fail; the ones that pass are named.

Prints one line per mutant and a summary; exit status 0 only if every
mutant was killed.  Takes a while (about a minute per mutant, most of it
the tests' boots): it runs one build or one pytest at a time, under nice.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "tests" / "mutants.toml"
FIELDS = {"name": str, "what": str, "file": str, "old": str, "new": str, "build": list,
          "tests": list}
# Not copied: the repository, results, logs of model runs and tests, caches.
SKIP_DIRS = {".git", "__pycache__", ".pytest_cache"}
SKIP_PATHS = ("results", "build/mutants")
SKIP_BUILD = {"model-runs", "test-logs"}          # build/<isa>/...


@dataclass
class Mutant:
    name: str
    what: str
    file: str
    old: str
    new: str
    build: list[str]
    tests: list[str]
    each: bool = False


@dataclass
class Outcome:
    verdict: str                        # killed, survived, error
    detail: str
    seconds: float


def load(path: Path = LIST) -> list[Mutant]:
    """The list, each entry checked: clear errors naming the field."""
    data = tomllib.loads(path.read_text())
    out = []
    for i, m in enumerate(data.get("mutant", [])):
        where = f"{path.name}: mutant {i + 1} ({m.get('name', '?')})"
        for k, t in FIELDS.items():
            if not isinstance(m.get(k), t):
                raise SystemExit(f"{where}: field {k!r} missing or not a {t.__name__}")
        unknown = set(m) - set(FIELDS) - {"each"}
        if unknown:
            raise SystemExit(f"{where}: unknown field {sorted(unknown)[0]!r}")
        if any("vax" in b for b in m["build"]):
            raise SystemExit(f"{where}: field 'build' names the VAX (shared SIMH cache)")
        text = (ROOT / m["file"]).read_text() if (ROOT / m["file"]).is_file() else None
        if text is None:
            raise SystemExit(f"{where}: field 'file': {m['file']} does not exist")
        if text.count(m["old"]) != 1:
            raise SystemExit(f"{where}: field 'old' is found {text.count(m['old'])} times "
                             f"in {m['file']}, not once: the list needs updating")
        out.append(Mutant(**m))
    names = [m.name for m in out]
    if len(set(names)) != len(names):
        raise SystemExit(f"{path.name}: two mutants share a name")
    return out


def _skipped(rel: Path) -> bool:
    parts = rel.parts
    return bool(SKIP_DIRS & set(parts)) or any(str(rel) == p for p in SKIP_PATHS) or \
        (len(parts) >= 3 and parts[0] == "build" and parts[2] in SKIP_BUILD)


def sync(scratch: Path) -> None:
    """Make scratch a copy of the real tree, build/ and the files' dates
    too: a file is copied when its size or date differs, and what the
    tree does not have is removed."""
    have = set()
    for dirpath, dirnames, filenames in os.walk(ROOT):
        d = Path(dirpath)
        rel_dir = d.relative_to(ROOT)
        dirnames[:] = [n for n in dirnames if not _skipped(rel_dir / n)]
        (scratch / rel_dir).mkdir(parents=True, exist_ok=True)
        have.add(rel_dir)
        for n in filenames:
            rel = rel_dir / n
            src, dst = d / n, scratch / rel
            have.add(rel)
            if src.is_symlink():
                raise SystemExit(f"mutants: {rel} is a symbolic link, which sync() does not copy")
            if not src.is_file():
                continue
            st = src.stat()
            try:
                dt = dst.stat()
                if dt.st_size == st.st_size and dt.st_mtime_ns == st.st_mtime_ns:
                    continue
            except FileNotFoundError:
                pass
            shutil.copy2(src, dst)
    for dirpath, dirnames, filenames in os.walk(scratch, topdown=False):
        d = Path(dirpath)
        rel_dir = d.relative_to(scratch)
        for n in filenames:
            if rel_dir / n not in have and not _skipped(rel_dir / n):
                (d / n).unlink()
        if rel_dir not in have and not _skipped(rel_dir) and not any(d.iterdir()):
            d.rmdir()


def run(cmd: list[str], cwd: Path, log: Path) -> int:
    with log.open("a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        return subprocess.run(["nice"] + cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT).returncode


def build_and_test(m: Mutant, scratch: Path, log: Path) -> tuple[str, str]:
    """Build what m names and run its tests in scratch: (verdict for a
    mutant, detail)."""
    for target in m.build:
        if run(["make", *target.split()], scratch, log) != 0:
            return "error", f"make {target} failed (see {log})"
    junit = scratch / "mutant-junit.xml"
    rc = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
              f"--junitxml={junit}", *m.tests], scratch, log)
    if rc not in (0, 1):
        return "error", f"pytest exit status {rc} (see {log})"
    cases = ET.parse(junit).getroot().iter("testcase")
    outcome = {f"{c.get('classname')}::{c.get('name')}":
               "failed" if c.find("failure") is not None or c.find("error") is not None else
               "skipped" if c.find("skipped") is not None else "passed" for c in cases}
    failed = [t for t, o in outcome.items() if o == "failed"]
    passed = [t for t, o in outcome.items() if o == "passed"]
    if not failed:
        return "survived", f"{len(passed)} tests passed, {len(outcome) - len(passed)} skipped"
    if m.each and passed:
        short = [t.rsplit("::", 1)[-1] for t in passed]
        return "survived", f"{len(failed)} of {len(outcome)} failed; passed: {', '.join(short)}"
    return "killed", f"{len(failed)} of {len(outcome)} tests failed"


def mutate(m: Mutant, scratch: Path) -> None:
    path = scratch / m.file
    path.write_text(path.read_text().replace(m.old, m.new, 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated names from tests/mutants.toml")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the unchanged tree's run (only when it is known to pass)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args(argv)
    mutants = load()
    if args.only:
        want = args.only.split(",")
        unknown = [w for w in want if w not in {m.name for m in mutants}]
        if unknown:
            raise SystemExit(f"--only: no mutant named {unknown[0]!r}")
        mutants = [m for m in mutants if m.name in want]
    scratch = Path(tempfile.mkdtemp(prefix="ousterhout-mutants-"))
    log_dir = ROOT / "build" / "mutants"
    shutil.rmtree(log_dir, ignore_errors=True)
    log_dir.mkdir(parents=True)
    results: list[tuple[Mutant, Outcome]] = []
    try:
        if not args.no_baseline:        # each selection of tests, unchanged, must pass
            t0 = time.monotonic()
            sync(scratch)
            seen = set()
            for m in mutants:
                if tuple(m.tests) in seen:
                    continue
                seen.add(tuple(m.tests))
                base = Mutant("baseline", "no change", "", "", "", m.build, m.tests)
                verdict, detail = build_and_test(base, scratch, log_dir / "baseline.log")
                if verdict != "survived" or detail.startswith("0 tests passed"):
                    print(f"baseline: {m.name}'s tests do not pass unchanged: {detail}")
                    return 2
            print(f"baseline: every mutant's tests pass on the unchanged tree "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
        for m in mutants:
            t0 = time.monotonic()
            sync(scratch)
            mutate(m, scratch)
            verdict, detail = build_and_test(m, scratch, log_dir / f"{m.name}.log")
            o = Outcome(verdict, detail, time.monotonic() - t0)
            results.append((m, o))
            print(f"{m.name:22} {o.verdict:9} {o.seconds:5.0f} s  {m.what}: {o.detail}",
                  flush=True)
    finally:
        if args.keep:
            print(f"scratch tree kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    killed = sum(o.verdict == "killed" for _, o in results)
    print(f"mutants: {len(results)}, killed {killed}, "
          f"survived {sum(o.verdict == 'survived' for _, o in results)}, "
          f"errors {sum(o.verdict == 'error' for _, o in results)}")
    return 0 if killed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
