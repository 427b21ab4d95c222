"""A made-up parameter, one line added to hw-models/core/params.def in a
copy of the tree: the plugin built there by the Makefile's own rule takes
it from the harness, checks its range and writes it back in its HWMODEL
line, and the harness checks a profile's value of it, naming the field.
(The unit side: tests/unit/test_params_schema.py; pytest needs the two
files' names to differ.)
"""

import shutil
import subprocess

import pytest

from booting import TIMEOUT, logs
from harness import ROOT
from harness.errors import SetupError
from harness.guest import machines
from harness.model import modelargs, profiles, runs, schema
from scratch import scratch_tree

pytestmark = pytest.mark.skipif(not modelargs.PLUGIN.exists(),
                                reason="plugin missing: run `make hwmodel` (make test does)")

LINE = ('PARAM("cpu.made_up", F64, IN(1, 10), OPT, NOFIELD, "cycles", "",\n'
        '      "a parameter made up by the tests")\n')
PLUGIN_H = "build/hw-models/include/qemu-plugin.h"


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The copy, with the line, and its plugin built."""
    tree = scratch_tree(tmp_path_factory.mktemp("tree"))
    with open(tree / "hw-models/core/params.def", "a") as f:
        f.write("\n" + LINE)
    (tree / PLUGIN_H).parent.mkdir(parents=True)
    shutil.copy(ROOT / PLUGIN_H, tree / PLUGIN_H)        # newer than its fetch script
    r = subprocess.run(["make", "--no-print-directory", "build/hw-models/libhwmodel.so"],
                       cwd=tree, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return tree


@pytest.fixture
def made_up(tree, monkeypatch):
    monkeypatch.setattr(schema, "PARAMS_DEF", tree / "hw-models/core/params.def")
    monkeypatch.setattr(modelargs, "PLUGIN", tree / "build/hw-models/libhwmodel.so")
    return tree


def profile(tree, value):
    text = (profiles.PROFILE_DIR / "ds3100-riscv.toml").read_text()
    path = tree / "t.toml"
    path.write_text(text.replace("trap_extra = ", f"made_up = {value}\ntrap_extra = ", 1))
    return profiles.load("t", path=path)


def test_a_made_up_parameter_reaches_the_plugin(made_up):
    m = machines.get("riscv")
    if not m.kernel_path().exists():
        pytest.skip("run `make ARCH=riscv`")
    hw = profile(made_up, 7.5)
    log, hw_log = logs("riscv") / "made-up.log", logs("riscv") / "made-up.hw.log"
    with runs.start(m, hw, log, hw_log) as g:
        g.boot(timeout=m.boot_timeout)
        g.run("getpid -n 10", timeout=TIMEOUT)
    head = next(x for x in hw_log.read_text().splitlines() if x.startswith("HWMODEL "))
    fields = dict(w.split("=", 1) for w in head.split()[1:])
    assert fields["cpu.made_up"] == "7.5"
    assert fields["memory.bandwidth_mbs"] == "%g" % hw.get("memory.bandwidth_mbs")
    # every profile parameter is in the line, by its name, once
    assert [k for k in fields if "." in k] == list(schema.load().params)


def test_a_bad_value_is_refused_by_the_harness_and_by_the_plugin(made_up):
    with pytest.raises(SetupError, match=r"\[cpu\] made_up = 11 must be a number from 1 to 10"):
        profile(made_up, 11)
    m = machines.get("riscv")
    if not m.kernel_path().exists():
        pytest.skip("run `make ARCH=riscv`")
    # past the harness: the plugin checks the range itself
    argv = runs.argv(m, profile(made_up, 2), made_up / "bad.hw.log", ["cpu.made_up=11"])
    r = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL)
    assert r.returncode != 0
    assert "hwmodel: bad value for cpu.made_up: 11 must be from 1 to 10" in r.stderr
