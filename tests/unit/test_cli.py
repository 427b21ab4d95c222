"""harness.cli end to end on the fake guest (registered as `--arch fake`),
and the command registry's rules for options."""

import dataclasses
import json
import os
import subprocess
import sys

import pytest

from harness import ROOT, __version__, cli
from harness.bench import report
from harness.guest import machines
from harness.model import profiles


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
    run = tmp_path / "fake-none"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-none"]      # nothing partial
    assert sorted(p.name for p in run.iterdir()) == [
        "console.log", "report.txt", "results.csv", "results.json"]
    d = json.loads((run / "results.json").read_text())
    assert [(r["bench"], r["case"]) for r in d["results"]][:7] == [
        ("getpid", "call"), ("cswitch", "roundtrip"), ("select", "1empty"),
        ("select", "10empty"), ("select", "10full"), ("bcopy", "cached"), ("bcopy", "uncached")]
    assert [r["bench"] for r in d["results"]][7:] == (
        ["readcache"] + ["openclose"] * 2 + ["createdelete"] * 9 + ["andrew"] * 6)
    assert d["boot"]["arch"] == "fake"
    assert d["results"][0]["derived"]["ns_per_op"] == 300.0
    assert d["provenance"]["git"]["commit"] and d["provenance"]["created"]
    assert d["tag"] is None and d["run"] == "fake-none"
    assert len(report.read_csv(run / "results.csv")) == 25
    assert "halting" in (run / "console.log").read_text()
    assert (run / "report.txt").read_text() == out
    assert f"wrote {run}/" in err


def test_run_selected_benchmarks(fake_machine, capsys, tmp_path):
    fake_machine()
    code, out, _ = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path),
                           "--bench", "bcopy", "--bench", "getpid")
    assert code == 0
    d = json.loads((tmp_path / "fake-none" / "results.json").read_text())
    assert {r["bench"] for r in d["results"]} == {"getpid", "bcopy"}
    assert "Table 3" not in out


def test_report_reprints_the_table(fake_machine, capsys, tmp_path):
    fake_machine()
    _, out, _ = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    for spec in (str(tmp_path / "fake-none"), str(tmp_path / "fake-none" / "results.json")):
        code, again, _ = run_cli(capsys, "report", spec)
        assert code == 0
        assert again == out
    code, again, _ = run_cli(capsys, "report", "--out", str(tmp_path), "fake-none")
    assert (code, again) == (0, out)


def test_panic_exit_code_and_one_line_message(fake_machine, capsys, tmp_path):
    fake_machine("--boot", "panic")
    code, out, err = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    assert code == 1
    last = err.strip().splitlines()[-1]
    assert last == "harness: kernel panic during boot: kvminit: out of memory"
    assert "last console lines" in err
    assert f"console log: {tmp_path / 'fake-none.partial' / 'console.log'}" in err
    assert out == ""
    assert not (tmp_path / "fake-none").exists()
    assert "kernel panic" in (tmp_path / "fake-none.partial" / "INCOMPLETE").read_text()


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
                        dataclasses.replace(m, image="build/riscv/no-such.elf"))
    code, _, err = run_cli(capsys, "run", "--out", str(tmp_path))
    assert code == 2
    assert err.strip() == ("harness: kernel image build/riscv/no-such.elf is missing: "
                           "run `make ARCH=riscv`")
    code, _, err = run_cli(capsys, "shell")
    assert code == 2 and "make ARCH=riscv" in err


def test_shell_runs_the_emulator_and_shows_its_stderr_after(fake_machine, capsys, monkeypatch,
                                                            tmp_path):
    """The emulator's own messages go to a file, not onto the guest's
    console lines, and are shown (and kept) once it exits."""
    fake_machine()
    seen = {}

    class FakePopen:
        def __init__(self, argv, stderr, preexec_fn):
            seen["argv"] = argv
            stderr.write(b"emu: warning: icount sleep disabled and no active timers\n")

        def wait(self):
            return 0

    monkeypatch.setattr(cli.subprocess, "Popen", FakePopen)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "chdir", lambda p: None)
    assert cli.main(["shell", "--arch", "fake"]) == 0
    assert seen["argv"][0] == sys.executable
    err = capsys.readouterr().err
    assert "halt" in err
    assert err.index("halt") < err.index("harness: (emulator) emu: warning: icount")
    kept = tmp_path / "results" / "fake-none-shell.stderr"
    assert "icount sleep disabled" in kept.read_text()


def test_report_bad_file(capsys, tmp_path):
    code, _, err = run_cli(capsys, "report", str(tmp_path / "none.json"))
    assert code == 2 and err.startswith("harness: no run ")
    (tmp_path / "bad.json").write_text("{}")
    code, _, err = run_cli(capsys, "report", str(tmp_path / "bad.json"))
    assert code == 1 and "not a results file of this harness" in err


def test_usage_errors_exit_2(capsys):
    for argv in (["run", "--bench", "nosuch"], ["run", "--arch", "pdp11"], [], ["frobnicate"]):
        with pytest.raises(SystemExit) as e:
            cli.main(argv)
        assert e.value.code == 2
    capsys.readouterr()


def test_python_dash_m_entry_point():
    r = subprocess.run([sys.executable, "-m", "harness", "--help"], cwd=ROOT,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0
    for c in cli.COMMANDS:
        assert c.name in r.stdout
    assert "exit status: 0 all went well; 1 the guest or a benchmark failed; 2" in \
        r.stdout.replace("\n", " ")


def usage_error(capsys, *argv):
    """(exit status, stderr) of a command line argparse refuses."""
    with pytest.raises(SystemExit) as e:
        cli.main(list(argv))
    return e.value.code, capsys.readouterr().err


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"python3 -m harness {__version__} (commit ")
    assert report.FORMAT in out


@pytest.mark.parametrize("command", [c.name for c in cli.COMMANDS])
def test_every_command_lists_its_choices(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    flags = {o.flag for c in cli.COMMANDS if c.name == command for o in c.options}
    if "--arch" in flags:
        assert "--arch ISA the ISA to boot: " + ", ".join(machines.names()) in text
    if "--profile" in flags:
        assert ", ".join(profiles.model_names()) in text.replace("none, ", "")
    assert "exit status" in text


@pytest.mark.parametrize("argv, words", [
    (["run", "--arch", "pdp11"], ["--arch", "invalid choice: 'pdp11'", "'riscv'", "'vax'"]),
    (["check", "--profile", "nosuch"], ["--profile", "invalid choice: 'nosuch'", "'ds3100'"]),
    (["shell", "--arch", "pdp11"], ["--arch", "invalid choice"]),
    (["run", "--bench", "nosuch"], ["--bench", "invalid choice: 'nosuch'", "'andrew'"]),
    (["sweep", "--profile", "none"], ["--profile", "invalid choice: 'none'", "'ds3100'"]),
    (["sweep"], ["required: --profile"]),
    (["attribute", "--profile", "ds3100", "--bench", "lat_fs"], ["invalid choice: 'lat_fs'"]),
    (["sweep", "--profile", "ds3100", "--bench", "nosuch"],
     ["invalid choice: 'nosuch'", "'andrew'", "'mips'"]),
    (["run", "--tag", "a/b"], ["--tag", "use letters, digits"]),
    (["run", "--tag", "x.partial"], ["--tag"]),
    (["attribute", "--profile", "ds3100", "--bench", "bcopy", "--case", "foo"],
     ["--case: invalid choice for bcopy: 'foo'", "cached, uncached"]),
    (["attribute", "--profile", "ds3100", "--case", "call", "--region", "2"],
     ["--case or --region, not both"]),
    (["overhead", "--profile", "ds3100", "--repeat", "0"], ["--repeat", "not a whole number"]),
    (["calibrate", "--profile", "none"], ["invalid choice: 'none'"]),
    (["crashtest", "--workload", "nosuch"],
     ["--workload", "invalid choice: 'nosuch'", "'metadata'", "'rename'"]),
    (["crashtest", "--policy", "lazy"], ["--policy", "invalid choice: 'lazy'", "'delayed'"]),
    (["figure1", "-j", "0"], ["-j/--jobs", "'0' is not a number of workers >= 1"]),
    (["sweep", "--profile", "ds3100", "--jobs", "two"], ["'two' is not a number of workers"]),
    (["run", "--arch", "riscv", "--profile", "sun3"],
     ["profile sun3 models a m68k machine, not riscv: use --arch m68k"]),
])
def test_bad_values_are_named_with_the_choices(capsys, argv, words):
    code, err = usage_error(capsys, *argv)
    assert code == 2
    for w in words:
        assert w in err, (w, err)


@pytest.mark.parametrize("argv, words", [
    (["figure1", "-j", "2", "--scheduler", "tcp://head:8786"], "give -j (local workers) or "
     "--scheduler (a Dask cluster), not both"),
    (["sweep", "--profile", "ds3100", "--param2", "dcache.size"],
     "a grid sweep needs both --param2 and --values2"),
    (["overhead", "--profile", "mvax2", "--floor"],
     "vax: the floor is the QEMU plugin interface's cost"),
    (["overhead", "--profile", "ds3100", "--no-share-core"],
     "--no-share-core is about two machines: only with --lockstep"),
    (["sweep", "--profile", "ds3100", "--param", "dcache.size", "--values", "4096",
      "--param2", "dcache.size", "--values2", "8192"], "vary two different fields"),
])
def test_runs_that_cannot_be_done_as_asked_are_refused_before_booting(capsys, tmp_path, argv,
                                                                      words):
    assert cli.main(argv + ["--out", str(tmp_path)]) == 2
    assert words in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []              # nothing written, not even partly


def test_arch_defaults_to_the_profiles(fake_machine, monkeypatch):
    """--arch: the profile's ISA unless given; riscv for profile none."""
    seen = {}

    def handler(args):
        seen.update(arch=args.arch, profile=args.profile)
        return 0

    monkeypatch.setattr(cli, "COMMANDS", tuple(
        dataclasses.replace(c, handler=handler) if c.name == "shell" else c
        for c in cli.COMMANDS))
    assert cli.main(["shell", "--profile", "sun3"]) == 0
    assert seen == {"arch": "m68k", "profile": "sun3"}
    assert cli.main(["shell"]) == 0
    assert seen == {"arch": "riscv", "profile": "none"}
    assert cli.main(["shell", "--arch", "x86"]) == 0
    assert seen == {"arch": "x86", "profile": "none"}


def test_machines_lists_the_registry(capsys):
    assert cli.main(["machines"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == machines.names()
    assert "qemu-system-riscv32" in lines[1] and "qemu-plugin" in lines[1]
