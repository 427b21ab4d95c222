"""`python3 -m harness run` and `report` as a user runs them, on the real kernel."""

import json
import subprocess
import sys

import pytest

from harness import ROOT


@pytest.mark.slow
def test_run_and_report(tmp_path):
    run = subprocess.run([sys.executable, "-m", "harness", "run", "--arch", "riscv",
                          "--profile", "none", "--out", str(tmp_path), "--bench", "getpid",
                          "--bench", "select", "--timeout", "30"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Table 2: Getpid kernel call time" in run.stdout
    assert "Table 4: Time for select kernel call" in run.stdout
    assert "ours: riscv, profile none" in run.stdout
    d = json.loads((tmp_path / "riscv-none.json").read_text())
    assert d["arch"] == "riscv" and d["profile"] == "none"
    assert d["qemu_version"] and int(d["qemu_version"].split(".")[0]) >= 10
    assert [r["case"] for r in d["results"]] == ["call", "1empty", "10empty", "10full"]
    assert (tmp_path / "riscv-none.csv").exists()
    log = (tmp_path / "riscv-none.log").read_text()
    assert "BOOT arch=riscv" in log

    again = subprocess.run([sys.executable, "-m", "harness", "report",
                            str(tmp_path / "riscv-none.json")],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0
    assert again.stdout == run.stdout


@pytest.mark.slow
def test_overhead_command(tmp_path):
    """`overhead` boots without and with the model and compares them: the
    numbers are host timings (not checked here), the guest's work is not."""
    r = subprocess.run([sys.executable, "-m", "harness", "overhead", "--profile", "ds3100",
                        "--bench", "getpid", "--repeat", "1", "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "hwmodel-overhead-ds3100.txt").read_text()
    assert text == r.stdout
    assert text.startswith("Hardware model overhead on mips: profile ds3100 vs none")
    [row] = [line.split() for line in text.splitlines() if line.startswith("getpid ")]
    minsns, none_s, model_s = float(row[1]), float(row[2]), float(row[4])
    # getpid's default run: 100000 calls of ~190 instructions, and its empty loop
    assert 10 < minsns < 100 and none_s > 0 and model_s > 0
