"""`python3 -m harness run` and `report` as a user runs them, on the real kernel."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from harness import ROOT
from harness.guest import buildstamp


def harness(*argv, timeout=300):
    return subprocess.run([sys.executable, "-m", "harness", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_run_and_report(tmp_path):
    run = harness("run", "--arch", "riscv", "--profile", "none", "--out", str(tmp_path),
                  "--bench", "getpid", "--bench", "select", "--timeout", "30")
    assert run.returncode == 0, run.stderr
    assert "Table 2: Getpid kernel call time" in run.stdout
    assert "Table 4: Time for select kernel call" in run.stdout
    assert "ours: riscv, profile none" in run.stdout
    d = json.loads((tmp_path / "riscv-none" / "results.json").read_text())
    assert d["arch"] == "riscv" and d["profile"] == "none"
    assert [r["case"] for r in d["results"]] == ["call", "1empty", "10empty", "10full"]
    assert d["results"][0]["insns"] > 0                 # riscv counts instructions
    assert (tmp_path / "riscv-none" / "results.csv").exists()
    log = (tmp_path / "riscv-none" / "console.log").read_text()
    assert "BOOT arch=riscv" in log

    again = harness("report", str(tmp_path / "riscv-none"), timeout=60)
    assert again.returncode == 0
    assert again.stdout == run.stdout


def sha(path):
    return buildstamp.sha256_file(ROOT / path)


@pytest.mark.slow
def test_provenance_names_what_was_booted(tmp_path):
    """The hashes in a result file are those of the files booted: the kernel,
    the file-system image, the plugin, the emulator, the profile."""
    run = harness("run", "--profile", "ds3100-riscv", "--out", str(tmp_path), "--bench", "getpid")
    assert run.returncode == 0, run.stderr
    p = json.loads((tmp_path / "riscv-ds3100-riscv" / "results.json").read_text())["provenance"]
    assert p["build"]["images"] == {"build/riscv/kernel.elf": sha("build/riscv/kernel.elf"),
                                    "build/riscv/fs.img": sha("build/riscv/fs.img")}
    assert p["hwmodel_plugin"]["images"] == {
        "build/hw-models/libhwmodel.so": sha("build/hw-models/libhwmodel.so")}
    assert p["emulator"]["sha256"] == buildstamp.sha256_file(Path(p["emulator"]["path"]))
    assert int(p["emulator"]["version"].split(".")[0]) >= 10
    assert p["profile"]["sha256"] == sha("hw-models/profiles/ds3100-riscv.toml")
    assert any(a.startswith(str(ROOT / "build/hw-models/libhwmodel.so"))
               for a in p["emulator_command"])


@pytest.mark.slow
def test_a_stale_kernel_is_refused(tmp_path):
    """A kernel built from other sources than the tree holds (as after an
    edit reverted without a rebuild) is not booted: the command that fixes
    it is printed instead.  Simulated in a copy of the tree whose riscv
    stamp records another content for one source: changing the real
    build's stamp, even for a second, failed tests booting riscv on the
    other pytest worker."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", "results", "build", "__pycache__", ".pytest_cache"))
    shutil.copytree(ROOT / "build/riscv", tree / "build/riscv", symlinks=True,
                    ignore=shutil.ignore_patterns("test-logs", "model-runs", "gdb"))
    shutil.copytree(ROOT / "build/hw-models", tree / "build/hw-models", symlinks=True)
    stamp = tree / "build/riscv" / buildstamp.STAMP_NAME
    d = json.loads(stamp.read_bytes())
    d["sources"]["kernel/port/sysproc.c"] = "0" * 64
    stamp.write_text(json.dumps(d))
    os.utime(stamp, (0, 0))     # the build looks older than every source: make sees them
    out = tmp_path / "out"
    out.mkdir()
    run = subprocess.run([sys.executable, "-m", "harness", "run", "--out", str(out),
                          "--bench", "getpid"], cwd=tree, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        "harness: the riscv build in build/riscv/ is older than its sources "
        "(kernel/port/sysproc.c changed since it was built): run `make ARCH=riscv`")
    assert run.stdout == "" and list(out.iterdir()) == []     # nothing started


@pytest.mark.slow
def test_compare_two_real_runs(tmp_path):
    """Two runs of the same build agree exactly (profile none is
    deterministic), and compare says so; a run under another profile is
    refused unless asked for."""
    for tag in ("a", "b"):
        r = harness("run", "--out", str(tmp_path), "--bench", "getpid", "--bench", "bcopy",
                    "--tag", tag)
        assert r.returncode == 0, r.stderr
    cmp = harness("compare", "--out", str(tmp_path), "a", "b", timeout=60)
    assert cmp.returncode == 0, cmp.stderr
    assert "What differs: nothing recorded" in cmp.stdout
    df = pd.read_csv(tmp_path / "compare-riscv-none-a-vs-riscv-none-b.csv")
    assert list(df.case) == ["call", "cached", "uncached"]
    assert (df.ratio == 1.0).all() and (df.insns_per_op_change == 0).all()
    run = pd.read_csv(tmp_path / "riscv-none-a" / "results.csv")
    assert run.insns_per_op.notna().all()
    r = harness("run", "--out", str(tmp_path), "--bench", "getpid", "--profile", "ds3100-riscv",
                "--tag", "model")
    assert r.returncode == 0, r.stderr
    cmp = harness("compare", "--out", str(tmp_path), "a", "model", timeout=60)
    assert cmp.returncode == 2
    assert "they differ in profile none / ds3100-riscv" in cmp.stderr
    assert "cases only A has: bcopy cached, uncached" in cmp.stderr


@pytest.mark.slow
def test_overhead_command(tmp_path):
    """`overhead` boots without and with the model (and --floor, under the
    floor plugin) and compares them: the numbers are host timings (not
    checked here), the guest's work is: the floor plugin's empty callbacks
    must leave the guest's instructions exactly those of plain QEMU."""
    r = subprocess.run([sys.executable, "-m", "harness", "overhead", "--profile", "ds3100",
                        "--bench", "getpid", "--repeat", "1", "--floor", "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "hwmodel-overhead-ds3100.txt").read_text()
    assert text == r.stdout
    assert text.startswith("Hardware model overhead on mips: profile ds3100 vs none")
    [row] = [line.split() for line in text.splitlines() if line.startswith("getpid ")]
    minsns, none_s, model_s = float(row[1]), float(row[2]), float(row[4])
    # getpid's default run: 100000 calls of ~190 instructions, and its empty loop
    assert 10 < minsns < 100 and none_s > 0 and model_s > 0
    floor_s, floor_ratio = float(row[7]), float(row[8])
    assert floor_s > 0 and floor_ratio == pytest.approx(floor_s / none_s, abs=0.01)
    made = json.loads((tmp_path / "hwmodel-overhead-ds3100.json").read_text())
    best = made["best"]
    assert made["provenance"]["floor_plugin"] == {
        "path": "build/hw-models/libfloor.so",
        "sha256": buildstamp.sha256_file(ROOT / "build/hw-models/libfloor.so")}
    assert best["floor"]["getpid"][1] == best["none"]["getpid"][1]     # the same work
