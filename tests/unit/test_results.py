"""The results a run leaves: its directory (written whole or not at all),
its provenance, `compare`, and every CSV the harness writes read by pandas."""

import json
import subprocess

import pandas as pd
import pytest

from harness import ROOT, __version__, cli
from harness.bench import compare, report, rundir, suite
from harness.errors import UsageError
from harness.guest import buildstamp
from harness.guest.protocol import Result, parse_line
from harness.model import figure1, modellog, sweep, sweeprows
from harness.tables import write_csv


def run_cli(capsys, *argv):
    code = cli.main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def files(d):
    return {p.name: p.read_bytes() for p in d.iterdir()}


# ---------------------------------------------------------------- the directory

def test_a_failed_run_leaves_the_last_results_intact(fake_machine, capsys, tmp_path):
    fake_machine()
    assert run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))[0] == 0
    before = files(tmp_path / "fake-none")
    fake_machine("--hang-on", "select")
    code, _, err = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path),
                           "--timeout", "0.5")
    assert code == 1
    assert files(tmp_path / "fake-none") == before          # byte for byte
    partial = tmp_path / "fake-none.partial"
    assert "guest hung during command 'select'" in (partial / "INCOMPLETE").read_text()
    assert "RESULT bench=cswitch" in (partial / "console.log").read_text()
    assert not (partial / "results.json").exists()
    assert f"are still in {tmp_path / 'fake-none'}/" in err


def test_an_interrupted_run_is_marked(fake_machine, capsys, tmp_path, monkeypatch):
    fake_machine()
    assert run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))[0] == 0
    before = files(tmp_path / "fake-none")

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(suite, "run_suite", interrupted)
    code, _, err = run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    assert code == 130 and "interrupted" in err
    assert files(tmp_path / "fake-none") == before
    assert "did not finish (interrupted)" in \
        (tmp_path / "fake-none.partial" / "INCOMPLETE").read_text()


def test_a_good_run_replaces_the_directory_whole(fake_machine, capsys, tmp_path):
    fake_machine()
    run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    (tmp_path / "fake-none" / "stale-file").write_text("from the run before")
    (tmp_path / "fake-none.partial").mkdir()                 # left by an earlier failure
    assert run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path),
                   "--bench", "getpid")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-none"]
    assert "stale-file" not in files(tmp_path / "fake-none")
    d = json.loads((tmp_path / "fake-none" / "results.json").read_text())
    assert [r["bench"] for r in d["results"]] == ["getpid"]


@pytest.mark.parametrize("exchange", [True, False])
def test_replace_dir(tmp_path, monkeypatch, exchange):
    if not exchange:
        monkeypatch.setattr(rundir, "_exchange", lambda a, b: False)
    final, new = tmp_path / "run", tmp_path / "run.partial"
    final.mkdir()
    (final / "old").write_text("old")
    new.mkdir()
    (new / "new").write_text("new")
    rundir.replace_dir(new, final)
    assert [p.name for p in tmp_path.iterdir()] == ["run"]
    assert [p.name for p in final.iterdir()] == ["new"]


def test_tags_name_directories(fake_machine, capsys, tmp_path):
    fake_machine()
    for tag in ("before", "after"):
        assert run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path),
                       "--tag", tag)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-none-after", "fake-none-before"]
    assert rundir.find_run("before", tmp_path) == tmp_path / "fake-none-before"
    assert rundir.find_run("fake-none-after", tmp_path) == tmp_path / "fake-none-after"
    with pytest.raises(UsageError, match="no run 'nosuch'.*fake-none-after, fake-none-before"):
        rundir.find_run("nosuch", tmp_path)
    with pytest.raises(UsageError, match="tag"):
        rundir.run_name("fake", "none", "../x")


# ---------------------------------------------------------------- provenance

def git(*args):
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                          text=True, check=True).stdout


def test_provenance_of_a_run(fake_machine, capsys, tmp_path):
    fake_machine()
    run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path))
    p = json.loads((tmp_path / "fake-none" / "results.json").read_text())["provenance"]
    assert p["git"]["commit"] == git("rev-parse", "HEAD").strip()
    dirty = bool(git("status", "--porcelain", "--untracked-files=normal").strip())
    assert p["git"]["dirty"] == dirty
    assert (p["git"]["diff_sha256"] is not None) == dirty
    assert p["emulator"]["version_line"] == "fake_guest 1.0"
    assert p["profile"] == {"name": "none", "file": "hw-models/profiles/none.toml", "model": False,
                            "overrides": {}, "sha256": buildstamp.sha256_file(
                                ROOT / "hw-models/profiles/none.toml")}
    assert p["harness"]["version"] == __version__
    assert p["host"]["name"] and p["created"]
    assert p["build"] is None            # the fake guest is not built by make


# ---------------------------------------------------------------- compare

LINES = [
    "RESULT bench=getpid case=call iters=1000 ns=250000 loop_ns=50000 insns=250000 loop_insns=50000",
    "RESULT bench=select case=1empty iters=10 ns=5000 loop_ns=0 insns=5000 loop_insns=0",
    "RESULT bench=select case=10full iters=10 ns=11000 loop_ns=1000 insns=11000 loop_insns=1000",
]


def record(lines, profile="none", tag=None):
    return report.RunRecord(arch="riscv", profile=profile, mips=1000.0, profile_note="",
                            results=[parse_line(x) for x in lines], tag=tag)


def test_compare_values_ratio_and_instructions():
    b_lines = [LINES[0].replace("ns=250000", "ns=270000").replace("insns=250000",
                                                                  "insns=270000"), *LINES[1:]]
    c = compare.compare(record(LINES, tag="a"), record(b_lines, tag="b"))
    getpid = c.rows[0]
    assert (getpid.a, getpid.b) == (0.2, 0.22)          # us per call
    assert getpid.ratio == pytest.approx(1.1)
    assert (getpid.insns_a, getpid.insns_b) == (200, 220)
    assert c.rows[1].ratio == 1
    text = compare.text(c)
    row = next(line for line in text.splitlines() if line.startswith("getpid"))
    assert row.split() == ["getpid", "call", "us", "0.200", "0.220", "1.1000", "200", "220", "+20.0"]


def test_compare_model_counters():
    a, b = record(LINES[:1], "ds3100"), record(LINES[:1], "ds3100")
    a.model[("getpid", "call")] = {"per_op": {"insns": 172.0, "dmiss": 0.0, "cycles": 455.0}}
    b.model[("getpid", "call")] = {"per_op": {"insns": 176.0, "dmiss": 1.0, "cycles": 470.0}}
    c = compare.compare(a, b)
    text = compare.text(c)
    assert "Hardware model counters per operation: B - A" in text
    row = text.splitlines()[-1].split()
    assert row == ["getpid", "call", "+4.00", "+1.00", "+15.0"]
    _, [csv_row] = compare.csv_table(c)
    assert csv_row["model_cycles_per_op_change"] == 15.0


def test_compare_refuses_different_suites_naming_the_cases():
    with pytest.raises(UsageError) as e:
        compare.compare(record(LINES, tag="a"), record(LINES[:1], tag="b"))
    assert "cases only A has: select 1empty, 10full" in str(e.value)
    assert "--allow-mismatch" in str(e.value)
    with pytest.raises(UsageError, match="they differ in profile none / ds3100"):
        compare.compare(record(LINES), record(LINES, "ds3100"))
    c = compare.compare(record(LINES, tag="a"), record(LINES[:1], tag="b"), allow_mismatch=True)
    assert [r.case for r in c.rows] == ["call"]
    assert "Only in A (not compared): select 1empty, 10full" in compare.text(c)


def test_compare_command_on_two_tagged_runs(fake_machine, capsys, tmp_path):
    fake_machine()
    run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path), "--tag", "a")
    fake_machine("--slower", "cswitch")
    run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path), "--tag", "b")
    code, out, err = run_cli(capsys, "compare", "--out", str(tmp_path), "a", "b")
    assert code == 0, err
    rows = {tuple(line.split()[:2]): line.split() for line in out.splitlines()
            if line.split()[:1] in (["getpid"], ["cswitch"])}
    assert rows["cswitch", "roundtrip"][5] == "2.0000"
    assert rows["getpid", "call"][5] == "1.0000"
    df = pd.read_csv(tmp_path / "compare-fake-none-a-vs-fake-none-b.csv")
    assert len(df) == 25 and df.set_index(["bench", "case"]).index.is_unique
    assert df.loc[df.bench == "cswitch", "ratio"].item() == 2.0
    # the same runs against a subset: refused, with the cases named
    run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path), "--tag", "c",
            "--bench", "getpid")
    code, _, err = run_cli(capsys, "compare", "--out", str(tmp_path), "a", "c")
    assert code == 2
    assert "cases only A has: cswitch roundtrip; select 1empty, 10empty, 10full" in err


# ---------------------------------------------------------------- pandas

def test_pandas_loads_a_runs_csv(fake_machine, capsys, tmp_path):
    fake_machine()
    run_cli(capsys, "run", "--arch", "fake", "--out", str(tmp_path), "--bench", "getpid",
            "--bench", "createdelete", "--bench", "andrew")
    df = pd.read_csv(tmp_path / "fake-none" / "results.csv")
    assert list(df.columns[:len(report.CSV_FIELDS)]) == list(report.CSV_FIELDS)
    assert df.set_index(["bench", "case"]).index.is_unique
    for col in ("iters", "ns", "dev_writes", "value", "mips_relative"):
        assert pd.api.types.is_numeric_dtype(df[col]), col
    # andrew's lines print insns=0: not counted, so missing rather than 0
    andrew = df[df.bench == "andrew"]
    assert andrew.insns.isna().all() and andrew.insns_per_op.isna().all()
    assert df.loc[df.bench == "getpid", "insns_per_op"].item() == 300
    cd = df[df.bench == "createdelete"].set_index("case")
    assert cd.loc["10k-sync", "policy"] == "sync" and cd.loc["10k-sync", "dev_writes"] == 40
    assert cd.loc["10k-sync", "dev_writes_per_op"] == 4.0


def made_up(scale):
    out = []
    for b in figure1.BENCHES:
        for case in dict.fromkeys(c.format(p=p) for c in b.cases for p in ("sync", "delayed")):
            out.append(Result(b.name, case, iters=10, ns=round(10_000 / scale), loop_ns=0,
                              insns=0, loop_insns=0, bytes=1000 if b.is_rate else 0))
    return out


def test_pandas_pivots_figure1_csv_without_duplicate_keys(tmp_path):
    measured = {profile: made_up(1 + i) for i, (_, profile) in enumerate(figure1.MACHINES)}
    write_csv(tmp_path / "figure1.csv", *figure1.csv_table(figure1.points(measured)))
    df = pd.read_csv(tmp_path / "figure1.csv")
    key = ["machine", "source", "os", "benchmark"]
    assert not df.duplicated(key).any()
    wide = df.pivot(index=["machine", "source", "os"], columns="benchmark",
                    values="mips_relative")
    assert wide.loc[("DS3100", "paper", "Ultrix 3.1"), "getpid"] == \
        pytest.approx((207 / 25) / (13 / 0.9))
    assert wide.loc[("DS3100", "paper", "Sprite"), "getpid"] == \
        pytest.approx((207 / 26) / (13 / 0.9))
    assert wide.loc[("MVAX2", "ours", "ours"), "geomean"] == pytest.approx(1.0)
    assert wide.loc[("Sun3", "ours", "ours delayed"), "createdelete"] > 0   # Sprite's row
    paper = df[df.source == "paper"]
    assert set(paper.table.dropna()) >= {"Table 2", "Table 5", "Table 10"}
    rows = paper[paper.benchmark != "geomean"]
    assert all(c.startswith(f"{m} {o}") for c, m, o in zip(rows.config, rows.machine, rows.os))


def test_pandas_loads_a_sweep_csv(tmp_path):
    rows = [sweeprows.SweepResult("memory.bandwidth_mbs", v, "bcopy", c, "MB/s", 1.0 * v,
                                  0.1 * v, 13.0, {k: 1.0 for k in modellog.COUNTERS})
            for v in (1, 2, 4) for c in ("cached", "uncached")]
    write_csv(tmp_path / "sweep.csv", *sweeprows.csv_table(rows))
    df = pd.read_csv(tmp_path / "sweep.csv")
    assert df.pivot(index="value", columns="case", values="measured").loc[4, "cached"] == 4.0
    assert [r.measured for r in sweeprows.read_csv(tmp_path / "sweep.csv")] == \
        [r.measured for r in rows]


def test_sweep_runs_the_benchmarks_in_the_order_given(monkeypatch):
    """What ran before a benchmark in the same boot moves its numbers, so a
    sweep keeps the order it was given (make sweep's, as before)."""
    seen = []

    def stop(profile, commands, *args, **kw):
        seen.extend(commands)
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep, "run_model", stop)
    with pytest.raises(KeyboardInterrupt):
        sweep.sweep("ds3100", "memory.bandwidth_mbs", [4], ["bcopy", "getpid", "andrew"])
    assert seen == ["bcopy -c 8K -u 1M -n 4", "getpid -n 20000", "andrew -p sync"]
