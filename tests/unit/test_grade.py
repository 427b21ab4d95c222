"""The grader (harness/course/grade.py) and the labs (labs.py), without an
emulator: correctness checks on the fake guest, scoring, baselines and
predictions as data.  tests/integration/test_grade_real.py grades a real lab."""

import json
from pathlib import Path

import pytest

from harness import ROOT, cli
from harness.course import grade, labs
from harness.course.labs import Goal, Lab, Measure, key
from harness.errors import HarnessError


def fake_lab(*programs: str, guest_checks: tuple[str, ...] = ()) -> Lab:
    return Lab(99, "a fake lab", "docs/labs/README.md", "none", measures=(),
               programs=programs, arches=("fake",), guest_checks=guest_checks)


def grader(tmp_path, build_ok: bool = True, said: list | None = None) -> grade.Grader:
    def builder(targets):
        return build_ok, "" if build_ok else "kernel/port/sched.c:12: error: expected ';'\n"
    return grade.Grader(builder=builder, say=(said.append if said is not None else
                                              lambda m: None), log_dir=tmp_path)


# ------------------------------------------------------------------ correctness


def test_passing_checks_pass_and_score_a_point_each(fake_machine, tmp_path):
    fake_machine()
    g = grader(tmp_path).grade(fake_lab("t_ok", "t_fault"))
    assert g.passed
    assert [(c.name.split()[0], c.status) for c in g.checks] == [
        ("build", "ok"), ("t_ok", "ok"), ("t_fault", "ok")]
    assert g.correctness == (3, 3)
    text = grade.format_grade(g)
    assert "Lab 99 score: 3/3: correctness 3/3 (passed)" in text


def test_a_failing_check_fails_the_lab_and_is_named(fake_machine, tmp_path):
    fake_machine()
    said = []
    g = grader(tmp_path, said=said).grade(fake_lab("t_ok", "t_bad"))
    assert not g.passed
    bad = [c for c in g.checks if not c.ok]
    assert [c.name for c in bad] == ["t_bad"]
    assert "FAIL name=two why=got_3_wanted_4" in bad[0].detail
    assert g.correctness == (2, 3)
    assert "FAILED: t_bad on fake" in grade.format_grade(g)
    assert any("t_bad" in line and "FAILED" in line for line in said)


def test_a_broken_build_fails_every_check_on_that_isa(fake_machine, tmp_path):
    fake_machine()
    g = grader(tmp_path, build_ok=False).grade(fake_lab("t_ok"))
    assert not g.passed
    assert [(c.name.split()[0], c.status) for c in g.checks] == [
        ("build", "FAILED"), ("t_ok", "FAILED")]
    assert "expected ';'" in g.checks[0].detail
    assert g.checks[1].detail == "not run: the build failed"
    assert (tmp_path / "build-fake.log").read_text().startswith("kernel/port/sched.c")


def test_a_panic_fails_its_check_and_the_next_boots_again(fake_machine, tmp_path):
    fake_machine()
    g = grader(tmp_path).grade(fake_lab("panic", "t_ok"))
    by_name = {c.name: c for c in g.checks}
    assert by_name["panic"].status == "FAILED" and "panic" in by_name["panic"].detail
    assert by_name["t_ok"].status == "ok"
    assert not g.passed


def test_checks_run_once_for_several_labs(fake_machine, tmp_path):
    fake_machine()
    gr = grader(tmp_path)
    gr.grade(fake_lab("t_ok"))
    builds = []
    gr.builder = lambda targets: builds.append(targets) or (True, "")
    g = gr.grade(fake_lab("t_ok"))
    assert builds == [] and g.passed           # the build and the check were remembered


# ------------------------------------------------------------------ scoring

BASE = {"m getpid call cycles": 400.0, "m readcache 1mb MB/s": 4.0, "v getpid call cycles": 1000.0,
        "m createdelete 0k-sync ms": 80.0}


def scored(goal: Goal, values: dict, policy: str = "ordered") -> grade.GoalResult:
    lab = Lab(98, "scoring", "docs/labs/README.md", "none", measures=(), goals=(goal,))
    return grade.score_goals(lab, values, BASE, policy)[0]


def test_fewer_cycles_earn_points_in_proportion():
    goal = Goal("a quarter fewer", ("m getpid call cycles",), -0.25, 20)
    assert scored(goal, {"m getpid call cycles": 300.0}).earned == 20       # -25%: all
    assert scored(goal, {"m getpid call cycles": 350.0}).earned == 10       # -12.5%: half
    assert scored(goal, {"m getpid call cycles": 200.0}).earned == 20       # more: capped
    assert scored(goal, {"m getpid call cycles": 450.0}).earned == 0        # slower: none
    assert scored(goal, {"m getpid call cycles": 399.0}).earned == 0        # within noise


def test_more_bandwidth_and_the_best_of_several_machines():
    goal = Goal("a tenth more", ("m readcache 1mb MB/s",), 0.10, 10)
    assert scored(goal, {"m readcache 1mb MB/s": 4.4}).earned == 10
    either = Goal("either", ("m getpid call cycles", "v getpid call cycles"), -0.5, 10)
    r = scored(either, {"m getpid call cycles": 380.0, "v getpid call cycles": 600.0})
    assert r.key == "v getpid call cycles" and r.earned == 8.0


def test_a_policy_is_scored_against_sync():
    goal = Goal("half of sync", ("m createdelete 0k-{policy} ms",), -0.5, 15,
                against="m createdelete 0k-sync ms")
    assert scored(goal, {"m createdelete 0k-mylog ms": 40.0}, "mylog").earned == 15
    missing = scored(goal, {}, "mylog")
    assert missing.change is None and missing.earned == 0


def test_the_unmodified_kernel_reports_no_improvement(fake_machine, tmp_path):
    g = grade.Grade(labs.LAB2, values=dict(json.loads(
        grade.baseline_path(labs.LAB2).read_text())["values"]))
    g.baseline = grade.load_baseline(labs.LAB2)
    g.goals = grade.score_goals(labs.LAB2, g.values, g.baseline["values"], "ordered")
    text = grade.format_grade(g)
    assert "no improvement over the baseline 0/30" in text
    assert "+" not in "".join(x.split()[-1] for x in text.splitlines() if "getpid call" in x)


# ------------------------------------------------------------------ labs as data


@pytest.mark.parametrize("lab", list(labs.LABS.values()), ids=lambda lab: f"lab{lab.number}")
def test_each_lab_has_its_handout_baseline_and_prediction_file(lab):
    assert (ROOT / lab.handout).exists()
    for p in lab.profiles():
        assert (ROOT / "hw-models" / "profiles" / f"{p}.toml").exists()
    base = grade.load_baseline(lab)
    assert set(base["values"]) == set(lab.keys("ordered", student=False)), \
        f"docs/labs/baseline/lab{lab.number}.json is stale: `{grade.baseline_command(lab)}`"
    assert grade.prediction_path(lab).read_text() == grade.prediction_template(lab), \
        f"docs/labs/predictions/lab{lab.number}.toml is not grade.prediction_template()'s"
    assert grade.load_predictions(lab) == {}          # shipped with nothing filled in
    for g in lab.goals:
        for k in g.keys:
            assert k in lab.keys("{policy}") or k.format(policy="ordered") in lab.keys("ordered")


def test_predictions_are_read_and_typos_refused(tmp_path):
    lab = labs.LAB1
    p = tmp_path / "lab1.toml"
    p.write_text('"mvax2 getpid call insns" = 60\n')
    assert grade.load_predictions(lab, path=p) == {"mvax2 getpid call insns": 60.0}
    p.write_text('"mvax2 getpid call insn" = 60\n')
    with pytest.raises(HarnessError, match="not a measurement of lab 1"):
        grade.load_predictions(lab, path=p)
    p.write_text('"mvax2 getpid call insns" = "sixty"\n')
    with pytest.raises(HarnessError, match="must be a number"):
        grade.load_predictions(lab, path=p)


def test_a_baseline_needs_a_clean_tree_and_passing_checks(monkeypatch, tmp_path):
    from harness.bench import provenance
    g = grade.Grade(labs.LAB1, values={k: 1.0 for k in labs.LAB1.keys("ordered")})
    monkeypatch.setattr(provenance, "git_state", lambda: {"commit": "abc", "dirty": True})
    monkeypatch.setattr(grade, "code_changed", lambda: True)
    with pytest.raises(HarnessError, match="uncommitted changes"):
        grade.write_baseline(g)
    monkeypatch.setattr(grade, "code_changed", lambda: False)
    g.checks.append(grade.Check("t_regs", "riscv", "FAILED"))
    with pytest.raises(HarnessError, match="correctness checks failed"):
        grade.write_baseline(g)
    g.checks.clear()
    del g.values["mvax2 getpid call us"]
    with pytest.raises(HarnessError, match="not every value"):
        grade.write_baseline(g)


def test_measure_keys_name_profile_benchmark_case_metric():
    m = Measure("ds3100", "createdelete -p {policy} -n 10", ("0k-{policy}",), ("ms",))
    assert m.student and m.keys("mylog") == ["ds3100 createdelete 0k-mylog ms"]
    assert key("a", "b", "c", "d") == "a b c d"


# ------------------------------------------------------------------ the command line


def test_grade_command_exit_status_follows_correctness(fake_machine, monkeypatch, capsys,
                                                       tmp_path):
    fake_machine()
    monkeypatch.setitem(labs.LABS, 99, fake_lab("t_ok"))
    monkeypatch.setattr(grade, "make", lambda targets: (True, ""))
    assert cli.main(["grade", "--lab", "99", "--out", str(tmp_path)]) == 0
    assert "Lab 99 score: 2/2" in capsys.readouterr().out
    assert json.loads((tmp_path / "grade-lab99.json").read_text())["passed"] is True
    monkeypatch.setitem(labs.LABS, 99, fake_lab("t_bad"))
    assert cli.main(["grade", "--lab", "99", "--out", str(tmp_path)]) == 1
    monkeypatch.setattr(grade, "make", lambda targets: (False, "error\n"))
    monkeypatch.setitem(labs.LABS, 99, fake_lab("t_ok"))
    assert cli.main(["grade", "--lab", "99", "--out", str(tmp_path)]) == 1
    assert "build" in capsys.readouterr().out


def test_grade_refuses_an_unknown_lab(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["grade", "--lab", "9"])
    assert e.value.code == 2
    assert "no lab '9' (the labs: 1, 2, 3, 4, 5)" in capsys.readouterr().err
