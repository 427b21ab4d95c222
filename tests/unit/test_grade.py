"""The grader (harness/course/grade.py) and the labs (labs.py), without an
emulator: correctness checks on the fake guest, scoring, baselines and
predictions as data.  tests/integration/test_grade_real.py grades a real lab."""

import json
from pathlib import Path

import pytest

from harness import ROOT, cli
from harness.course import grade, labs, rfschecks
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


def test_a_panic_fails_its_check_and_stops_the_isas_other_checks(fake_machine, tmp_path):
    fake_machine()
    said = []
    g = grader(tmp_path, said=said).grade(fake_lab("t_ok", "panic", "t_ok2"))
    by_name = {c.name: c for c in g.checks}
    assert by_name["t_ok"].status == "ok"
    assert by_name["panic"].status == "FAILED" and "panic" in by_name["panic"].detail
    assert "console log: " in by_name["panic"].detail
    # not run, and it says why (the fake guest would have said `exec failed`)
    assert by_name["t_ok2"].status == "FAILED"
    assert by_name["t_ok2"].detail.startswith("not run: the guest crashed in panic on fake")
    assert not g.passed


def test_after_a_hang_the_checks_get_a_short_limit(fake_machine, tmp_path, monkeypatch):
    fake_machine()
    monkeypatch.setattr(grade.checks, "DEFAULT_TIMEOUT", 3.0)
    monkeypatch.setattr(grade, "SHORT_TIMEOUT", 1.0)
    said = []
    gr = grader(tmp_path, said=said)
    g = gr.grade(fake_lab("hang", "t_ok"))
    hung = next(c for c in g.checks if c.name == "hang")
    assert hung.lost == "hung" and "no prompt after 3 s" in hung.detail
    assert next(c for c in g.checks if c.name == "t_ok").detail.startswith(
        "not run: the guest hung in hang on fake")
    assert gr._timeout() == 1.0                 # the next ISA's checks
    gr._checked.clear()
    gr.grade(fake_lab("t_ok"))
    assert any("a guest hung on fake: each check now has 1 s, not 3" in m for m in said)


def test_a_check_that_lost_its_shell_shows_the_kill_line_and_the_log(fake_machine, tmp_path):
    fake_machine()
    g = grader(tmp_path).grade(fake_lab("t_shellkill"))
    c = next(c for c in g.checks if c.name == "t_shellkill")
    assert c.status == "FAILED" and c.lost == "lost its shell"
    assert "no SUMMARY line" in c.detail
    assert "kernel: killed pid=3 name=sh why=load_fault" in c.detail
    assert f"console log: {tmp_path / 'fake-check.log'}" in c.detail
    text = grade.format_grade(g)
    assert "t_shellkill on fake" in text


def test_lab4_without_the_students_policy_fails(fake_machine, tmp_path):
    fake_machine()
    g = grader(tmp_path).grade(fake_lab("t_ok", guest_checks=("policy_t_fs_fsck",)))
    c = next(c for c in g.checks if c.name == "policy_t_fs_fsck")
    assert c.status == "FAILED" and c.missing_part
    assert "no write policy 'ordered' in this kernel" in c.detail
    assert not g.passed and g.correctness == (2, 3)
    assert "FAILED: policy_t_fs_fsck on fake" in grade.format_grade(g)


def test_pair_checks_run_only_on_an_isa_on_the_wire_and_count(fake_machine, tmp_path,
                                                                 monkeypatch):
    """Lab 6's checks of two machines: run after the ISA's programs where
    the registry puts its card on the wire (harness/net/pair.py: on_wire), a
    point each, their problems failing the lab; a hang is reported as one."""
    fake_machine()
    ran = []

    def fine(arch, log_dir, timeout):
        ran.append(arch)
        return []

    def lossy(arch, log_dir, timeout):
        return ["the server's sink: 'netd: sink bytes=262144 wrong=11', not bytes=262144 "
                "wrong=0"]

    def hangs(arch, log_dir, timeout):
        raise grade.GuestHang("netbench", 3, "prompt")

    lab = Lab(99, "a fake lab", "docs/labs/README.md", "none", measures=(),
              programs=("t_ok",), arches=("fake",), pair_checks=("fine",))
    monkeypatch.setitem(grade.PAIR_CHECKS, "fine", fine)
    monkeypatch.setitem(grade.PAIR_CHECKS, "lossy", lossy)
    monkeypatch.setitem(grade.PAIR_CHECKS, "hangs", hangs)
    monkeypatch.setattr(grade, "on_wire", lambda machine: False)
    g = grader(tmp_path).grade(lab)
    assert ran == [] and g.passed and "fine" not in {c.name for c in g.checks}
    monkeypatch.setattr(grade, "on_wire", lambda machine: True)
    g = grader(tmp_path).grade(lab)
    assert ran == ["fake"] and g.passed and g.correctness == (3, 3)
    g = grader(tmp_path).grade(Lab(99, "a fake lab", "docs/labs/README.md", "none",
                                   measures=(), programs=("t_ok",), arches=("fake",),
                                   pair_checks=("lossy", "hangs", "fine")))
    by_name = {c.name: c for c in g.checks}
    assert not g.passed and "wrong=11" in by_name["lossy"].detail
    assert by_name["hangs"].lost == "hung" and "no prompt" in by_name["hangs"].detail
    assert by_name["fine"].detail.startswith("not run: a guest hung in hangs on fake")
    assert "lossy on fake" in grade.format_grade(g)


def test_lab6_measures_two_machines_under_the_benchmarks_own_name():
    m = labs.LAB6.measures[0]
    assert m.bench == "net" and m.pair and m.command.startswith("netbench ")
    assert labs.LAB1.measures[0].bench == "getpid" and not labs.LAB1.measures[0].pair
    assert "ds3100-riscv net udp-rtt idle_us" in labs.LAB6.keys("ordered")
    assert labs.LAB6.pair_checks == ("stream_under_loss",)
    assert set(labs.LAB6.pair_checks) <= set(grade.PAIR_CHECKS)


def test_a_bad_prediction_is_refused_before_anything_is_built(fake_machine, monkeypatch,
                                                              tmp_path, capsys):
    fake_machine()
    monkeypatch.setitem(labs.LABS, 99, fake_lab("t_ok"))
    built = []
    monkeypatch.setattr(grade, "make", lambda targets: built.append(targets) or (True, ""))
    bad = tmp_path / "p.toml"
    bad.write_text('"ds3100 getpid call cycle" = 300\n')
    assert cli.main(["grade", "--lab", "1", "--predictions", str(bad),
                     "--out", str(tmp_path)]) == 2
    assert "did you mean 'ds3100 getpid call cycles'" in capsys.readouterr().err
    assert built == [] and not (tmp_path / "grade-lab1.json").exists()


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


def lab2_grade(values: dict, failed: bool = False) -> grade.Grade:
    g = grade.Grade(labs.LAB2, values=values)
    g.checks = [grade.Check("t_ok", "riscv"), grade.Check("t_regs", "riscv")]
    if failed:
        g.checks[1].status, g.checks[1].detail = "FAILED", "FAIL name=t4 why=clobbered"
    g.baseline = grade.load_baseline(labs.LAB2)
    g.goals = grade.score_goals(labs.LAB2, g.values, g.baseline["values"], "ordered")
    return g


def test_no_performance_credit_while_correctness_fails():
    base = grade.load_baseline(labs.LAB2)["values"]
    faster = {k: (v * 0.5 if k.endswith(" cycles") else v) for k, v in base.items()}
    good, broken, unmodified = lab2_grade(faster), lab2_grade(faster, True), lab2_grade(base)
    assert good.improvement[0] == 30                 # half the cycles: every goal met
    assert broken.improvement == (0.0, 30)           # the same speed, a check failed
    text = grade.format_grade(broken)
    assert "correctness failed" in text and "improvement 0/30" in text
    assert "-50.0%" in text                          # the speed, as information
    score = lambda g: sum(g.correctness[:1]) + g.improvement[0]   # noqa: E731
    assert score(broken) < score(unmodified) < score(good)


def test_a_prediction_of_zero_is_off_by_a_difference_not_a_percentage():
    assert grade.off_by(0.0, 0.0149, "us") == "-0.0149 us"
    assert grade.off_by(2.0, 0.0, "traps") == "+2.00 traps"
    assert grade.off_by(0.0, 0.0, "traps") == "exact"
    assert grade.off_by(110.0, 100.0, "insns") == "+10.0%"
    g = lab2_grade({"ds3100 getpid call us": 0.0149})
    g.predictions = {"ds3100 getpid call us": 0.0}
    assert "-100" not in grade.format_grade(g)


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
    # The student's file is only read, as the grader reads it: filled in or
    # not, it must parse, with keys of the lab's (a student's predictions
    # must never break the project's tests).
    grade.load_predictions(lab)
    for g in lab.goals:
        for k in g.keys:
            assert k in lab.keys("{policy}") or k.format(policy="ordered") in lab.keys("ordered")


@pytest.mark.parametrize("lab", list(labs.LABS.values()), ids=lambda lab: f"lab{lab.number}")
def test_the_prediction_template_lists_every_measured_value(lab, tmp_path):
    text = grade.prediction_template(lab)
    keys = [line.split('"')[1] for line in text.splitlines() if line.startswith('# "')]
    assert keys == lab.keys(grade.DEFAULT_POLICY)
    # every line filled in: the grader takes it
    p = tmp_path / "filled.toml"
    p.write_text("".join(f'"{k}" = {i}\n' for i, k in enumerate(keys)))
    assert len(grade.load_predictions(lab, path=p)) == len(keys)


def test_predictions_are_read_and_typos_refused(tmp_path):
    lab = labs.LAB1
    p = tmp_path / "lab1.toml"
    p.write_text('"mvax2 getpid call insns" = 60\n')
    assert grade.load_predictions(lab, path=p) == {"mvax2 getpid call insns": 60.0}
    p.write_text('"mvax2 getpid call insn" = 60\n')
    with pytest.raises(HarnessError, match="not a measurement of lab 1 "
                       "\\(did you mean 'mvax2 getpid call insns'\\?\\)"):
        grade.load_predictions(lab, path=p)
    p.write_text('# a comment\n"mvax2 getpid call insns" =\n')
    with pytest.raises(HarnessError, match="line 2.*must be \"KEY\" = NUMBER"):
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
    assert "no lab '9' (the labs: 1, 2, 3, 4, 5, 6, 7)" in capsys.readouterr().err


def test_no_baseline_note_when_nothing_was_measured():
    """A kernel whose measurements did not run (a check crashed first) is
    not said to be the baseline's."""
    g = grade.Grade(labs.LAB2, baseline=grade.load_baseline(labs.LAB2))
    grade.check_baseline(g)
    assert g.baseline_note == ""
    assert not [c for c in g.checks if c.name.startswith("baseline:")]


# ------------------------------------------------------------------ lab 7


def test_lab7_measures_diskless_clients_each_on_a_pair_of_its_own():
    """Lab 7's remote measures: each on a pair booted for it (its cases are
    the same as another protocol's or server's), known by its line, the
    unsafe server's keys set apart by their label."""
    lab = labs.LAB7
    remote = [m for m in lab.measures if m.remote]
    assert remote and all(m.pair for m in remote)
    assert not any(m.pair for m in lab.measures if not m.remote)
    line = next(m for m in remote if m.server == "-async").line("ordered")
    assert line == "createdelete -p nfs -n 5 [diskless nfs client; rfsd -async]"
    assert labs.remote_of(line) == ("createdelete -p nfs -n 5", "nfs", "-async")
    assert labs.remote_of("andrew -p sprite [diskless sprite client; rfsd]") == \
        ("andrew -p sprite", "sprite", "")
    assert labs.remote_of("createdelete -p sync -n 5") is None
    keys = lab.keys("ordered")
    assert "ds3100-riscv createdelete 100k-nfs-async ms" in keys
    assert "ds3100-riscv andrew copy-sprite rpcs" in keys
    assert len(keys) == len(set(keys))
    # -async is the student's part: no baseline has it
    unmodified = lab.keys("ordered", student=False)
    assert [k for k in keys if k not in unmodified] == [k for k in keys if "-async" in k]
    assert "rfsd -async" in next(m for m in remote if m.student).missing("ordered")
    groups = grade.Grader._groups(lab, "ds3100-riscv")
    assert [len(g) for g in groups] == [4] + [1] * len(remote)
    for g in lab.goals:             # the unsafe server against the safe one's baseline
        assert g.against in unmodified and g.keys[0].replace("-async", "") == g.against


def kept(**kw) -> rfschecks.Kept:
    values = dict(server=rfschecks.SERVER, crashed=True, fsck_left=0, aged_lost=0,
                  fresh_lost=0, retransmitted=3)
    values.update(kw)
    return rfschecks.Kept(**values)


def test_lab7_a_safe_server_that_loses_acknowledged_data_fails():
    assert kept().problems(unsafe=False) == []
    lost = kept(fresh_lost=18432).problems(unsafe=False)
    assert len(lost) == 1 and "18432 bytes the server had acknowledged were lost" in lost[0]
    assert "nothing lost" in kept().note()


def test_lab7_an_unsafe_server_may_lose_its_last_writes_and_says_so():
    unsafe = kept(server=rfschecks.SERVER + " -async", fresh_lost=18432)
    assert unsafe.problems(unsafe=True) == []
    assert "lost 18432 of the 20480 bytes" in unsafe.note()
    asleep = kept(server=rfschecks.SERVER + " -async")
    assert "does -async change anything?" in asleep.note()
    # ... but not what it had 90 s to write, nor its file system
    assert "never wrote data it had acknowledged" in \
        kept(fresh_lost=20480, aged_lost=20480).problems(unsafe=True)[0]
    assert "fsck -y left 2 problems" in kept(fsck_left=2).problems(unsafe=True)[0]
    assert "did not crash" in kept(crashed=False).problems(unsafe=True)[0]


def test_a_pair_check_that_passes_may_say_what_it_found(fake_machine, tmp_path, monkeypatch):
    """Lab 7's crash of the unsafe server: what was lost is shown, and the
    check passes."""
    fake_machine()
    monkeypatch.setitem(grade.PAIR_CHECKS, "says",
                        lambda arch, log_dir, timeout: rfschecks.Findings([], ["lost 10 B"]))
    monkeypatch.setattr(grade, "on_wire", lambda machine: True)
    g = grader(tmp_path).grade(Lab(99, "a fake lab", "docs/labs/README.md", "none",
                                   measures=(), programs=("t_ok",), arches=("fake",),
                                   pair_checks=("says",)))
    c = next(c for c in g.checks if c.name == "says")
    assert g.passed and c.ok and c.detail == "lost 10 B" and c.points == 1
    # and one that cannot run before the student's part is there: no point, no failure
    monkeypatch.setitem(grade.PAIR_CHECKS, "says", lambda arch, log_dir, timeout:
                        rfschecks.Findings([], ["not run: no -async"], not_run=True))
    g = grader(tmp_path).grade(Lab(99, "a fake lab", "docs/labs/README.md", "none",
                                   measures=(), programs=("t_ok",), arches=("fake",),
                                   pair_checks=("says",)))
    c = next(c for c in g.checks if c.name == "says")
    assert g.passed and c.points == 0 and c.detail == "not run: no -async"
    assert g.correctness == (2, 2)
