"""The Makefile's command line: choices checked before anything is built,
every declared target has a rule and a line in `make help`, and reading the
Makefile (make -n) builds nothing, not even the VAX's compiler.

Each test runs make in the repository with -n or with a target that stops
before building, so nothing here compiles or boots.
"""

import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHES = sorted(p.parent.name for p in ROOT.glob("kernel/arch/*/arch.mk"))
PROFILES = sorted({"none", *(p.stem for p in ROOT.glob("hw-models/profiles/*.toml"))})


def make(*args, env=None):
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})


def test_bad_arch_is_refused_with_the_choices():
    r = make("run", "ARCH=pdp11")
    assert r.returncode == 2
    assert "ARCH=pdp11" in r.stderr and " ".join(ARCHES) in r.stderr


def test_bad_profile_is_refused_with_the_choices():
    r = make("run", "PROFILE=nosuch")
    assert r.returncode == 2
    assert "PROFILE=nosuch" in r.stderr and " ".join(PROFILES) in r.stderr


def test_profile_of_another_isa_is_refused():
    isa = tomllib.loads((ROOT / "hw-models/profiles/ds3100.toml").read_text())["isa"]
    other = next(a for a in ARCHES if a != isa)
    r = make("check-args", f"ARCH={other}", "PROFILE=ds3100")
    assert r.returncode == 2 and f"use ARCH={isa}" in r.stderr
    assert make("check-args", f"ARCH={isa}", "PROFILE=ds3100").returncode == 0


def test_bad_benchmark_is_refused_by_the_harness_with_the_choices():
    r = make("check-args", "ARCH=riscv", "BENCH=getpid,nosuch")
    assert r.returncode == 2
    assert "'nosuch'" in r.stderr and "'getpid'" in r.stderr and "'cswitch'" in r.stderr
    assert make("check-args", "ARCH=riscv", "BENCH=getpid,select").returncode == 0


def test_bench_goes_to_the_harness():
    r = make("-n", "run", "ARCH=riscv", "BENCH=getpid,select")
    assert re.search(r"harness run --arch riscv --profile none --bench getpid --bench select",
                     r.stdout), r.stdout


def test_every_declared_target_has_a_rule_and_a_help_line():
    text = (ROOT / "Makefile").read_text()
    phony = re.search(r"^\.PHONY:((?:.*\\\n)*.*)$", text, re.M).group(1)
    phony = set(phony.replace("\\\n", " ").split())
    rules = set(re.findall(r"^([a-z][a-z0-9-]*):", text, re.M))
    assert phony - {"FORCE"} <= rules, phony - rules
    help_text = make("help").stdout
    listed = set(re.findall(r"^  ([a-z][a-z0-9-]*) ", help_text, re.M))
    # every command but the internal check-args (FORCE has no help line)
    assert listed == phony - {"FORCE", "check-args"}, listed ^ (phony - {"FORCE", "check-args"})


def test_clean_keeps_results_and_distclean_removes_them():
    assert make("-n", "clean").stdout.split() == ["rm", "-rf", "build"]
    assert "rm -rf results" in make("-n", "distclean").stdout


@pytest.mark.skipif("vax" not in ARCHES, reason="no VAX port")
def test_make_n_builds_no_compiler(tmp_path):
    """With no VAX compiler in the cache, `make -n ARCH=vax` says it would
    build one and builds nothing."""
    r = make("-n", "all", "ARCH=vax", f"BUILD={tmp_path}/build",
             env={"OUSTERHOUT_CACHE": str(tmp_path / "cache")})
    assert r.returncode == 0, r.stderr
    assert "scripts/vax-toolchain.sh" in r.stdout
    assert list(tmp_path.iterdir()) == []


def test_runs_side_by_side_and_grids_go_to_the_harness():
    r = make("-n", "sweep", "J=2", "SWEEP_PARAM2=dcache.size", "SWEEP_VALUES2=1024,2048")
    assert re.search(r"--param2 dcache.size --values2 1024,2048 -j 2\b", r.stdout), r.stdout
    r = make("-n", "-j2", "sweep")                       # make's own -j, as J=
    assert re.search(r"--bench mips \\\s+-j 2\b", r.stdout), r.stdout
    r = make("-n", "sweep", "SCHEDULER=tcp://head:8786")
    assert "--scheduler tcp://head:8786" in r.stdout and " -j " not in r.stdout
