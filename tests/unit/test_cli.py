"""harness.cli end to end on the fake guest (registered as `--arch fake`)."""

import json
import os
import subprocess
import sys

import pytest

from harness import cli
from harness.bench import report
from harness.guest import machines


def run_cli(capsys, *argv):
    code = cli.main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_run_writes_table_json_csv_log(fake_machine, capsys, tmp_path):
    fake_machine()
    code, out, err = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    assert code == 0, err
    assert "Table 2: Getpid kernel call time" in out
    assert "Table 5: Throughput of bcopy" in out
    assert "ours: fake, profile none" in out
    d = json.loads((tmp_path / "fake-none.json").read_text())
    assert [(r["bench"], r["case"]) for r in d["results"]][:7] == [
        ("getpid", "call"), ("cswitch", "roundtrip"), ("select", "1empty"),
        ("select", "10empty"), ("select", "10full"), ("bcopy", "cached"), ("bcopy", "uncached")]
    assert [r["bench"] for r in d["results"]][7:] == (
        ["readcache"] + ["openclose"] * 2 + ["createdelete"] * 9 + ["andrew"] * 6)
    assert d["boot"]["arch"] == "fake"
    assert d["results"][0]["derived"]["ns_per_op"] == 300.0
    assert "command" in d and "created" in d and "git_commit" in d
    assert len(report.read_csv(tmp_path / "fake-none.csv")) == 25
    assert "halting" in (tmp_path / "fake-none.log").read_text()
    assert "wrote" in err


def test_run_selected_benchmarks(fake_machine, capsys, tmp_path):
    fake_machine()
    code, out, _ = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path),
                           "--bench", "bcopy", "--bench", "getpid")
    assert code == 0
    d = json.loads((tmp_path / "fake-none.json").read_text())
    assert {r["bench"] for r in d["results"]} == {"getpid", "bcopy"}
    assert "Table 3" not in out


def test_report_reprints_the_table(fake_machine, capsys, tmp_path):
    fake_machine()
    _, out, _ = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    code, again, _ = run_cli(capsys, "report", str(tmp_path / "fake-none.json"))
    assert code == 0
    assert again == out


def test_panic_exit_code_and_one_line_message(fake_machine, capsys, tmp_path):
    fake_machine("--boot", "panic")
    code, out, err = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    assert code == 1
    last = err.strip().splitlines()[-1]
    assert last == "harness: kernel panic during boot: kvminit: out of memory"
    assert "last console lines" in err
    assert f"console log: {tmp_path / 'fake-none.log'}" in err
    assert out == ""
    assert not (tmp_path / "fake-none.json").exists()


def test_hang_exit_code(fake_machine, capsys, tmp_path):
    fake_machine("--hang-on", "cswitch")
    code, out, err = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path),
                             "--timeout", "0.5")
    assert code == 1
    assert err.strip().splitlines()[-1] == \
        "harness: guest hung during command 'cswitch': no prompt after 0.5 s"
    assert "harness: getpid: 1 result(s)" in err      # progress up to the hang
    assert out == ""


def test_check_command(fake_machine, capsys, tmp_path):
    fake_machine()
    code, out, err = run_cli(capsys, "check", "--arch", "fake", "--out", str(tmp_path),
                             "--program", "t_ok", "--program", "t_fault")
    assert code == 0, err
    assert out.splitlines()[0].split()[:2] == ["t_ok", "2"]
    code, out, err = run_cli(capsys, "check", "--arch", "fake", "--out", str(tmp_path),
                             "--program", "t_ok", "--program", "t_bad")
    assert code == 1
    assert "FAILED: FAIL name=two why=got_3_wanted_4" in out
    assert err.strip().splitlines()[-1] == "harness: 1 of 2 test programs failed: t_bad"


def test_setup_error_exit_2(capsys, monkeypatch, tmp_path):
    m = machines.MACHINES["riscv"]
    monkeypatch.setitem(machines.MACHINES, "riscv",
                        m.__class__(**{**m.__dict__, "kernel": "build/riscv/no-such.elf"}))
    code, _, err = run_cli(capsys, "run", "--out", str(tmp_path))
    assert code == 2
    assert err.strip() == ("harness: kernel image build/riscv/no-such.elf is missing: "
                           "run `make ARCH=riscv`")
    code, _, err = run_cli(capsys, "shell")
    assert code == 2 and "make ARCH=riscv" in err


def test_shell_execs_the_emulator(fake_machine, capsys, monkeypatch):
    fake_machine()
    seen = {}

    def fake_exec(path, argv):
        seen["argv"] = argv
        raise SystemExit(0)

    monkeypatch.setattr(os, "execvp", fake_exec)
    monkeypatch.setattr(os, "chdir", lambda p: None)
    with pytest.raises(SystemExit):
        cli.main(["shell", "--arch", "fake"])
    assert seen["argv"][0] == sys.executable
    assert "halt" in capsys.readouterr().err


def test_report_bad_file(capsys, tmp_path):
    code, _, err = run_cli(capsys, "report", str(tmp_path / "none.json"))
    assert code == 1 and err.startswith("harness: cannot read results file")


def test_usage_errors_exit_2(capsys):
    for argv in (["run", "--bench", "nosuch"], ["run", "--arch", "pdp11"], [], ["frobnicate"]):
        with pytest.raises(SystemExit) as e:
            cli.main(argv)
        assert e.value.code == 2
    capsys.readouterr()


def test_python_dash_m_entry_point():
    r = subprocess.run([sys.executable, "-m", "harness", "--help"], cwd=machines.ROOT,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0
    for word in ("run", "shell", "report", "check"):
        assert word in r.stdout
