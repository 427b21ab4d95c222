"""The Makefile's command line: choices checked before anything is built,
every declared target has a rule and a line in `make help`, and reading the
Makefile (make -n) builds nothing, not even the VAX's compiler.

Each test runs make in the repository with -n or with a target that stops
before building, so nothing here compiles or boots.
"""

import os
import re
import resource
import subprocess
import time
import tomllib
from pathlib import Path

import pytest

from scratch import scratch_tree

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


# Every command that boots ds3100, given by its profile or by default
# (Figure 1's machines, calibration's, lab 2's).
BOOTS_DS3100 = [["run", "ARCH=mips", "PROFILE=ds3100"], ["figure1"], ["calibrate"],
                ["grade", "LAB=2"], ["sweep"], ["attribute", "PROFILE=ds3100"]]


def test_a_bad_profile_value_is_refused_before_anything_is_built(tmp_path):
    """check-args (every command asks it first) has the harness check the
    values of every profile the command will boot: memory.bandwidth_mbs =
    -1 is refused, naming the field, in a tree with nothing built, in under
    2 s: 0.3-0.4 s of CPU each, idle.  The test counts the CPU time of make
    and what it ran (a build would take minutes of it); the wall time on a
    loaded machine says little."""
    tree = scratch_tree(tmp_path)
    profile = tree / "hw-models/profiles/ds3100.toml"
    text = profile.read_text()
    profile.write_text(re.sub(r"^bandwidth_mbs = \S+", "bandwidth_mbs = -1", text, flags=re.M))
    for args in BOOTS_DS3100:
        t0, cpu0 = time.monotonic(), _children_cpu()
        r = subprocess.run(["make", "--no-print-directory", *args],
                           cwd=tree, capture_output=True, text=True, timeout=60)
        took, cpu = time.monotonic() - t0, _children_cpu() - cpu0
        assert r.returncode == 2, (args, r.stdout + r.stderr)
        assert "[memory] bandwidth_mbs = -1 must be a number > 0" in r.stderr, (args, r.stderr)
        assert not (tree / "build").exists(), args
        assert cpu < 2.0, f"make {' '.join(args)}: {cpu:.2f} s of CPU time ({took:.2f} s on the clock)"


@pytest.fixture(scope="module")
def unbuilt(tmp_path_factory) -> Path:
    """A copy of the tree with nothing built, and lab 2's predictions filled
    in with one key mistyped."""
    tree = scratch_tree(tmp_path_factory.mktemp("unbuilt"))
    (tree / "docs/labs/predictions/lab2.toml").write_text(
        '"ds3100 getpid call cycles" = 300\n"ds3100 getpid call cycle" = 300\n')
    return tree


# Each refused before anything is built or booted: (make's arguments, what
# the refusal says).
BAD_INPUT = [
    (["grade", "LAB=9"], "no lab '9'"),
    (["grade", "LAB=2"], "did you mean 'ds3100 getpid call cycles'"),
    (["grade", "LAB=4", "POLICY=My Policy"], "is not a policy name"),
    (["run", "BENCH=getpid,nosuch"], "invalid choice: 'nosuch'"),
    (["run", "SUITE=nosuch"], "invalid choice: 'nosuch'"),
    (["run", "TAG=a/b"], "tag 'a/b'"),
    (["attribute", "PROFILE=ds3100", "BENCH=select", "CASE=nosuch"],
     "invalid choice for select: 'nosuch'"),
    (["sweep", "SWEEP_PARAM=memory.nosuch"], "unknown field 'nosuch'"),
    (["sweep", "SWEEP_VALUES=1,-2"], "bandwidth_mbs = -2 must be a number > 0"),
    (["sweep", "SWEEP_BENCH=nosuch"], "invalid choice: 'nosuch'"),
    (["figure1", "J=0"], "'0' is not a number of workers"),
    (["calibrate", "J=two"], "'two' is not a number of workers"),
    (["crashtest", "CRASH_POINTS=0"], "0 is not a whole number >= 1"),
]


@pytest.mark.parametrize("args,says", BAD_INPUT, ids=lambda x: " ".join(x) if isinstance(x, list)
                         else "")
def test_bad_input_is_refused_in_under_2_s_before_anything_is_built(unbuilt, args, says):
    """Measured in CPU seconds of make and everything it ran (0.3-0.5 s
    each on an idle machine); a build, or `make deps`, would take more."""
    cpu0 = _children_cpu()
    r = subprocess.run(["make", "--no-print-directory", *args], cwd=unbuilt,
                       capture_output=True, text=True, timeout=60)
    cpu = _children_cpu() - cpu0
    assert r.returncode == 2, r.stdout + r.stderr
    assert says in r.stderr
    assert not (unbuilt / "build").exists()
    assert cpu < 2.0, f"{cpu:.2f} s of CPU time"


def _children_cpu() -> float:
    """User and system CPU seconds of the finished child processes."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


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
    # every command but the internal check-args and test-images (FORCE has no help line)
    internal = {"FORCE", "check-args", "test-images", "sweep-profile", "attribute-profile"}
    assert listed == phony - internal, listed ^ (phony - internal)


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
    assert re.search(r"--bench mips\s+-j 2\b", r.stdout), r.stdout
    r = make("-n", "sweep", "SCHEDULER=tcp://head:8786")
    assert "--scheduler tcp://head:8786" in r.stdout and " -j " not in r.stdout


# ---------------------------------------------------------------- each ISA's own

def arch_fact(arch, variable):
    """A variable as make reads it with ARCH=arch (its arch.mk included)."""
    r = make("-s", f"ARCH={arch}", "--eval", f"print-fact: ; @echo $({variable})", "print-fact")
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def deps_line(*args):
    """The ISAs `make -n ARGS` has scripts/install-deps.sh install for."""
    r = make("-n", *args)
    assert r.returncode == 0, r.stderr
    m = re.search(r"^scripts/install-deps.sh(.*)$", r.stdout, re.M)
    assert m, r.stdout
    return m.group(1).split()


def test_the_default_arch_is_the_registry_s():
    from harness.guest import machines
    assert make("-s", "--eval", "p: ; @echo $(ARCH)", "p").stdout.split() == \
        [machines.DEFAULT_ARCH]
    assert re.search(rf"harness run --arch {machines.DEFAULT_ARCH} ", make("-n", "run").stdout)


def test_deps_installs_for_the_isas_a_command_builds():
    for arch in ARCHES:
        assert deps_line("deps", f"ARCH={arch}") == [arch]
        assert deps_line("run", f"ARCH={arch}") == [arch]
    assert deps_line("test") == arch_fact("riscv", "TEST_ARCHES") == ARCHES
    assert deps_line("test", "TEST_ARCHES=mips") == ["mips"]
    assert deps_line("grade") == ARCHES
    isa = tomllib.loads((ROOT / "hw-models/profiles/sun4.toml").read_text())["isa"]
    assert deps_line("attribute", "PROFILE=sun4") == [isa]
    assert deps_line("figure4", "PROFILE=sun4") == [isa]
    assert deps_line("sweep", "SWEEP_PROFILE=sun4") == [isa]


def test_calibrate_and_figure1_build_the_isas_of_the_paper_s_machines():
    """PAPER_ARCHES: the ISAs of the profiles that name a paper machine,
    which covers every profile calibrate and figure1 run."""
    from harness.model import calibrate, figure1, profiles
    needed = {profiles.load(p).isa
              for p in [*calibrate.CALIBRATED, *(p for _, p in figure1.MACHINES)]}
    paper = arch_fact("riscv", "PAPER_ARCHES")
    assert needed <= set(paper)
    for target in ("calibrate", "figure1"):
        assert deps_line(target) == paper
        r = make("-n", target)
        assert f"for a in {' '.join(paper)}; do" in r.stdout, r.stdout


def test_an_isa_s_packages_are_its_own():
    """`make deps ARCH=x` (scripts/install-deps.sh x) wants x's packages and
    the common ones, none that only another ISA needs."""
    own = {a: set(arch_fact(a, "ARCH_DEPS")) for a in ARCHES}
    for arch in ARCHES:
        r = subprocess.run(["scripts/install-deps.sh", "--list", arch], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        wanted = set(r.stdout.split())
        others = set().union(*(own[a] for a in ARCHES if a != arch)) - own[arch]
        assert own[arch] <= wanted and not wanted & others, (arch, wanted & others)
    r = subprocess.run(["scripts/install-deps.sh", "--list", "pdp11"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "ARCH=pdp11: no such ISA" in r.stderr


def test_a_qemu_isa_s_packages_hold_its_emulator():
    """Where this machine has Debian's packages: the registry's emulator
    binary comes from a package in the ISA's ARCH_DEPS."""
    import shutil
    from harness.guest import machines
    if shutil.which("dpkg") is None:
        pytest.skip("not a Debian machine")
    for arch, m in machines.MACHINES.items():
        if not isinstance(m.emulator, machines.Qemu) or not m.emulator.locate():
            continue
        r = subprocess.run(["dpkg", "-S", os.path.realpath(m.emulator.locate())],
                           capture_output=True, text=True)
        if r.returncode != 0:
            continue                               # not from a package here
        package = r.stdout.split(":")[0]
        assert package in arch_fact(arch, "ARCH_DEPS"), (arch, package)


def test_iso_only_where_the_arch_makes_one(tmp_path):
    for arch in ARCHES:
        iso = arch_fact(arch, "ARCH_ISO")
        r = make("-n", "iso", f"ARCH={arch}", f"BUILD={tmp_path}/{arch}")   # as if from scratch
        if iso:
            assert r.returncode == 0 and "grub-mkrescue" in r.stdout, r.stdout + r.stderr
    r = make("iso", "ARCH=riscv")
    assert r.returncode != 0 and "ARCH=riscv has no CD image" in r.stderr
