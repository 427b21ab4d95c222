"""The grader: `python3 -m harness grade --lab N` (`make grade LAB=N`).

For one lab (labs.py) it

  1. builds the kernel and programs for every ISA the lab uses (`make all`,
     and the QEMU plugin), a failed build failing everything on that ISA;
  0. before anything is built or booted, reads the student's predictions
     (docs/labs/predictions/labN.toml): a mistyped key or a value that is
     not a number stops it there, naming the line;
  2. checks correctness: boots each ISA with no model and runs the test
     programs (t_regs among them: every register survives a system call,
     an interrupt, fork and a context switch), then the lab's own checks;
     a check that cannot run because the student's part is missing (lab
     4's policy) fails; a lab's checks of two machines (lab 6: a stream
     through a link that loses and damages frames; lab 7: a file server's
     crash, which may report what an unsafe server lost without failing:
     PAIR_CHECKS) run on each ISA whose card the registry puts on the wire.  The first panic, kill of the shell or hang on an
     ISA fails that check and stops the ISA's other checks and its
     measurements (each is marked FAILED, "not run", and says why); after
     a hang anywhere, the other ISAs' checks get SHORT_TIMEOUT instead of
     the usual limit, so that a change that hangs every guest is reported
     in minutes, not in hours.  A check without a SUMMARY line shows the
     console's last "kernel: killed" or panic line and the log's path;
  3. measures: boots each of the lab's profiles with its hardware model
     (two machines for a benchmark on the wire, or on a diskless client:
     lab 7) and runs the lab's benchmarks, side by side through the executor
     (harness/model/executor.py: -j N, --scheduler) when given one: the
     models are deterministic, so the values are the same either way;
  4. prints each measured value beside the unmodified kernel's, from
     docs/labs/baseline/labN.json, and beside the student's predictions,
     if docs/labs/predictions/labN.toml has any;
  5. scores: a point per passed check, and the goals' points for the
     improvement measured, but only when every correctness check passed:
     a kernel that fails one earns no improvement points ("correctness
     failed"; its speed is shown as information only), so a broken kernel
     always scores below the unmodified one, which passes every check;
  6. says whether the numbers moved on a kernel the baseline measured: when
     the kernel, the model and the profile are the very ones the baseline
     was made from (their hashes in its provenance), a value that differs
     from it is a stale baseline, a check that fails saying so; with the
     student's change in, a change is what is being graded.

It passes (exit status 0) when every correctness check passed, whatever
the improvement: the unmodified kernel passes, and scores no improvement
points.  It writes everything to OUT/grade-labN.json.  With
--write-baseline, and only on a clean tree whose checks all passed, it
writes the measured values as the lab's new baseline.
"""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from .. import ROOT
from ..bench import checks, provenance
from ..errors import GuestError, GuestHang, HarnessError, UsageError
from ..guest import machines
from ..guest.console import Guest
from ..guest.protocol import Result
from ..model import profiles, runs
from ..model.executor import Executor, Job, run_jobs
from ..net import measure as netmeasure
from ..net import run as netrun
from ..net.pair import Pair, on_wire
from ..rfs import measure as rfsmeasure
from ..tables import format_table
from . import labs, rfschecks
from .labs import Lab

BASELINE_DIR = ROOT / "docs" / "labs" / "baseline"
PREDICTION_DIR = ROOT / "docs" / "labs" / "predictions"
# A measured value within this fraction of the baseline is "the same".  Not
# for run-to-run noise: the QEMU models repeat exactly (hw-models/README.md,
# "Is a model deterministic?"; the VAX 8800 in SIMH may still differ by a
# few cache misses).  But any change to the kernel moves its code, and with
# it the cache conflicts of every benchmark, a little either way.
SAME = 0.005
DEFAULT_POLICY = "ordered"
# The limit for each check on an ISA after a guest hung on another: the
# slowest test program takes under 10 s of host time on a loaded machine
# (the VAX's t_fs; 6.7 s the slowest at a load average of 20); the usual
# limit (checks.DEFAULT_TIMEOUT) allows for a CI machine many times slower.
# At 30 s, lab 3 with a copy that hangs every ISA took 294 s to grade; at
# 20 s it stays well under five minutes.
SHORT_TIMEOUT = 20.0
# A measurement of two machines (lab 6's round trips under the DECstation's
# model: under 10 s of host time on an idle machine; a change that loses
# datagrams leaves netbench waiting for ever).
PAIR_TIMEOUT = 300.0


def baseline_path(lab: Lab) -> Path:
    return BASELINE_DIR / f"lab{lab.number}.json"


def prediction_path(lab: Lab) -> Path:
    return PREDICTION_DIR / f"lab{lab.number}.toml"


def baseline_command(lab: Lab) -> str:
    return f"make grade LAB={lab.number} BASELINE=1"


# ------------------------------------------------------------------ records


@dataclass
class Check:
    """One correctness check: a build, a test program on an ISA, a lab's own check."""

    name: str
    arch: str
    status: str = "ok"          # ok or FAILED
    detail: str = ""
    seconds: float = 0.0
    points: int = 1
    # "hung", "crashed", "lost its shell": the guest is gone, and the
    # ISA's remaining checks are not run
    lost: str = ""
    # Failed because the part the student adds is not there yet (lab 4's
    # policy): the unmodified kernel's baseline may still be written.
    missing_part: bool = False

    @property
    def ok(self) -> bool:
        return self.status != "FAILED"


@dataclass
class GoalResult:
    text: str
    points: int
    earned: float
    change: float | None        # the best relative change measured; None: not measured
    target: float
    key: str | None             # which value it was


@dataclass
class Grade:
    lab: Lab
    checks: list[Check] = field(default_factory=list)
    values: dict[str, float] = field(default_factory=dict)
    not_measured: dict[str, str] = field(default_factory=dict)    # key or profile: why
    baseline: dict = field(default_factory=dict)
    predictions: dict[str, float] = field(default_factory=dict)
    goals: list[GoalResult] = field(default_factory=list)
    policy: str = DEFAULT_POLICY
    # What produced each profile's numbers (harness/bench/provenance.py).
    provenance: dict[str, dict] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return all(c.ok for c in self.checks)

    # Why the numbers differ from the baseline's, or whether they may
    # (baseline_note): "" when there is no baseline.
    baseline_note: str = ""

    @property
    def correctness(self) -> tuple[int, int]:
        return sum(c.points for c in self.checks if c.ok), sum(c.points for c in self.checks)

    @property
    def improvement(self) -> tuple[float, int]:
        """(points earned, points possible): none earned while a
        correctness check fails."""
        possible = sum(g.points for g in self.goals)
        if not self.passed:
            return 0.0, possible
        return sum(g.earned for g in self.goals), possible


# ------------------------------------------------------------------ building

Builder = Callable[[list[str]], tuple[bool, str]]


def make(args: list[str]) -> tuple[bool, str]:
    """Run `make ARGS` at the top of the tree: (succeeded, its output)."""
    p = subprocess.run(["make", "-s", *args], cwd=ROOT, capture_output=True, text=True)
    return p.returncode == 0, p.stdout + p.stderr


def _tail(text: str, n: int = 12) -> str:
    lines = [x for x in text.splitlines() if x.strip()]
    return "\n".join(lines[-n:])


# ------------------------------------------------------------------ the lab's own checks

class Context:
    """What a lab's own check may need: the student's policy's name."""

    def __init__(self, policy: str) -> None:
        self.policy = policy
        self.policy_exists: bool | None = None


def _fsck_problems(guest: Guest) -> list[str]:
    out = guest.run("fsck", timeout=60)
    said = [x for x in out.lines if x.startswith("fsck:")]
    if not said or not said[-1].rstrip().endswith(" 0 problems"):
        return ["fsck: " + ("; ".join(out.lines[-4:]) or "no output")]
    return []


def readcache_then_fsck(guest: Guest, ctx: Context) -> list[str] | None:
    """The file cache's data reaches user memory intact: readcache checks
    what it reads (misses=0), and the file system is consistent after."""
    out = guest.run("readcache -n 1", timeout=120)
    results = [r for r in out.records() if getattr(r, "bench", None) == "readcache"]
    problems = []
    if not results:
        problems.append("readcache printed no RESULT: " + "; ".join(out.lines[-3:]))
    return problems + _fsck_problems(guest)


def policy_t_fs_fsck(guest: Guest, ctx: Context) -> list[str] | None:
    """Under the student's policy: t_fs passes, createdelete runs, fsck
    finds nothing wrong.  A kernel without the policy fails it: that is
    the lab's part that is missing."""
    out = guest.run(f"policy {ctx.policy}", timeout=30)
    if any("usage" in x for x in out.lines):
        ctx.policy_exists = False
        return [f"no write policy {ctx.policy!r} in this kernel: `policy {ctx.policy}` "
                f"printed {'; '.join(out.lines[-2:])!r} (lab 4 asks you to add it; if you "
                f"named it otherwise: make grade LAB=4 POLICY=NAME)"]
    ctx.policy_exists = True
    problems = []
    if not any(f"policy={ctx.policy}" in x for x in out.lines):
        problems.append(f"`policy {ctx.policy}` did not set it: " + "; ".join(out.lines[-2:]))
    run = checks.run_check(guest, "t_fs", timeout=180)
    problems += [f"t_fs under {ctx.policy}: {p}" for p in run.problems()]
    out = guest.run(f"createdelete -p {ctx.policy} -n 2", timeout=180)
    if not any(getattr(r, "bench", None) == "createdelete" for r in out.records()):
        problems.append(f"createdelete -p {ctx.policy} printed no RESULT: "
                        + "; ".join(out.lines[-3:]))
    problems += _fsck_problems(guest)
    guest.run("policy sync", timeout=60)
    return problems


GUEST_CHECKS: dict[str, Callable[[Guest, Context], list[str] | None]] = {
    "readcache_then_fsck": readcache_then_fsck,
    "policy_t_fs_fsck": policy_t_fs_fsck,
}


# Lab 6: a stream through a link that loses every LOSS_EVERY-th frame and
# flips a bit of every DAMAGE_EVERY-th (coprime: both happen, apart).
LOSS_EVERY = 7
DAMAGE_EVERY = 5
LOSS_BLOCKS = 32                # of netbench's 8 KB: 256 KB through the sink
LOSS_COMMAND = f"netbench -n {LOSS_BLOCKS} -c tcp-rtt -c tcp-bulk"


def stream_under_loss(arch: str, log_dir: Path, timeout: float) -> list[str]:
    """Two machines of `arch` (no model: time is instructions) on a link
    that loses every 7th frame: TCP round trips complete, and a bulk
    transfer reaches the server's sink whole and in order (netd checks
    every byte), the link lost frames and the client retransmitted."""
    want = LOSS_BLOCKS * 8192
    problems: list[str] = []
    names = (f"{arch}-loss-{{node}}.log", f"{arch}-loss-{{node}}.hw.log")
    with Pair(arch, profiles.load("none"), log_dir, names=names,
              overrides={"link.drop_every": LOSS_EVERY,
                         "link.corrupt_every": DAMAGE_EVERY}) as p:
        p.b.begin("netd")
        p.b.wait_for(netrun.SERVER_READY, timeout=timeout)
        out = p.a.run(f"{LOSS_COMMAND} {p.address('b')}", timeout=timeout)
        got = {r.case: r for r in out.records() if isinstance(r, Result) and r.bench == "net"}
        for case in ("tcp-rtt", "tcp-bulk"):
            if case not in got:
                problems.append(f"`{LOSS_COMMAND}` printed no {case} RESULT: "
                                + "; ".join(out.lines[-2:]))
        if "tcp-bulk" in got and "wrong=0" not in got["tcp-bulk"].line.split():
            problems.append(f"the bulk transfer's bytes were wrong: {got['tcp-bulk'].line}")
        if "tcp-bulk" in got:
            # the warm-up's block first, then the transfer's
            for _ in range(2):
                sink = p.b.wait_for(r"netd: sink bytes=\d+ wrong=\d+", timeout=timeout)
            if sink.split()[-2:] != [f"bytes={want}", "wrong=0"]:
                problems.append(f"the server's sink: {sink.strip()!r}, not bytes={want} "
                                f"wrong=0")
        p.b.interrupt(timeout=timeout)
        said = p.a.run("netstat -a", timeout=timeout).lines
        # from the counters' first line: on m68k the command's echo has come
        # back split, its tail ('tat -a') left as the output's first line
        first = next((i for i, x in enumerate(said) if x.startswith("net nic=")), 0)
        stats = netrun.netstat(said[first:])
    # The link's own count, where the model wrote its HWNET record at the
    # end (the m68k's model has not, when the harness stopped it)
    lost = netrun.read_hwnet(p.hw_log("a")).get("dropped")
    if lost == 0:
        problems.append(f"the link lost none of the client's frames: loss was not tested "
                        f"({p.hw_log('a')})")
    elif not stats.get("tcp_retransmits"):
        problems.append(f"the client counted no retransmission (netstat tcp_retransmits) "
                        f"on a link that loses every {LOSS_EVERY}th frame")
    return problems


# Each returns its problems (a failure's reasons); it may say more when it
# passes (rfschecks.Findings' notes: what an unsafe server lost, lab 7).
PAIR_CHECKS: dict[str, Callable[[str, Path, float], list[str]]] = {
    "stream_under_loss": stream_under_loss,
    "nfs_server_crash": rfschecks.nfs_server_crash,
    "async_server_crash": rfschecks.async_server_crash,
}


# ------------------------------------------------------------------ the grader


class Grader:
    """Grades labs; one instance may grade several, and then builds each
    ISA, runs each test program and each measurement only once."""

    def __init__(self, build: bool = True, builder: Builder | None = None,
                 arches: list[str] | None = None, policy: str = DEFAULT_POLICY,
                 say: Callable[[str], None] = print, log_dir: Path | None = None,
                 predictions: Path | None = None, ex: Executor | None = None) -> None:
        self.build = build
        # Runs the measurements' boots side by side (-j, --scheduler); None:
        # one after another.  Each is a fresh emulator, and the models are
        # deterministic, so the values are the same either way.
        self.ex = ex
        self.predictions = predictions
        self.builder = builder or make
        self.only_arches = arches
        self.policy = policy
        self.say = say
        self.log_dir = log_dir or ROOT / "build" / "grade"
        self._built: dict[str, Check] = {}
        self._checked: dict[tuple[str, str], Check] = {}
        self._runs: dict[tuple[str, tuple[str, ...]], runs.ModelRun | str] = {}
        self._seconds: dict[tuple[str, tuple[str, ...]], float] = {}
        self._hung = ""             # the first ISA a guest hung on
        self._said_short = False

    # ---- what to do

    def _arches(self, wanted: list[str]) -> list[str]:
        if self.only_arches is None:
            return wanted
        return [a for a in wanted if a in self.only_arches]

    def _profiles(self, lab: Lab) -> list[str]:
        keep = self._arches(lab.measure_arches())
        return [p for p in lab.profiles() if profiles.load(p).isa in keep]

    def grade(self, lab: Lab) -> Grade:
        g = Grade(lab, policy=self.policy)
        # The predictions first: a typo must not wait for the builds.
        g.predictions = load_predictions(lab, self.policy, self.predictions)
        ctx = Context(self.policy)
        check_arches = self._arches(lab.check_arches())
        measure_profiles = self._profiles(lab)
        all_arches = list(dict.fromkeys(
            check_arches + [profiles.load(p).isa for p in measure_profiles]))
        self.say(f"== Lab {lab.number}: {lab.title} ({lab.handout}) ==")
        # ISA -> why its checks and measurements are not run
        broken: dict[str, str] = {}
        if self.build:
            for arch in all_arches:
                c = self._build(arch, lab)
                g.checks.append(c)
                if not c.ok:
                    broken[arch] = "not run: the build failed"
        for arch in check_arches:
            g.checks += self._correctness(lab, arch, ctx, broken)
            if lab.pair_checks and on_wire(machines.get(arch)):
                g.checks += self._pairs(lab, arch, broken)
        self._measure(lab, g, measure_profiles, broken, ctx)
        g.baseline = load_baseline(lab)
        g.goals = score_goals(lab, g.values, g.baseline.get("values", {}), self.policy)
        check_baseline(g)
        return g

    # ---- steps

    def _build(self, arch: str, lab: Lab) -> Check:
        if arch in self._built:
            return self._built[arch]
        t = time.monotonic()
        targets = ["all", f"ARCH={arch}"]
        m = machines.get(arch)
        if m.model == "qemu-plugin" and any(
                profiles.load(p).isa == arch for p in lab.profiles()):
            targets.insert(1, "hwmodel")
        ok, text = self.builder(targets)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        (self.log_dir / f"build-{arch}.log").write_text(text)
        c = Check(f"build ({' '.join(['make', *targets])})", arch,
                  "ok" if ok else "FAILED", "" if ok else _tail(text), time.monotonic() - t)
        self._report(c)
        self._built[arch] = c
        return c

    def _timeout(self) -> float:
        """A check's limit: the usual one, or SHORT_TIMEOUT once a guest hung."""
        return SHORT_TIMEOUT if self._hung else checks.DEFAULT_TIMEOUT

    def _correctness(self, lab: Lab, arch: str, ctx: Context,
                     broken: dict[str, str]) -> list[Check]:
        out: list[Check] = []
        names = [*lab.programs, *lab.guest_checks]
        if arch in broken:
            for name in names:
                c = Check(name, arch, "FAILED", broken[arch])
                self._report(c)
                out.append(c)
            return out
        if self._hung and not self._said_short:
            self.say(f"(a guest hung on {self._hung}: each check now has {SHORT_TIMEOUT:g} s, "
                     f"not {checks.DEFAULT_TIMEOUT:g})")
            self._said_short = True
        session = _Session(arch, self.log_dir / f"{arch}-check.log")
        try:
            for name in names:
                if arch in broken:          # a guest hung or crashed: stop here
                    c = Check(name, arch, "FAILED", broken[arch])
                elif name in lab.programs:
                    if (arch, name) not in self._checked:
                        self._checked[(arch, name)] = self._program(session, arch, name)
                    c = self._checked[(arch, name)]
                else:
                    c = self._guest_check(session, arch, name, ctx)
                self._report(c)
                out.append(c)
                if c.lost and arch not in broken:
                    broken[arch] = (f"not run: the guest {c.lost} in {name} on {arch}, "
                                    f"so the ISA's other checks and measurements were "
                                    f"stopped")
                    if c.lost == "hung" and not self._hung:
                        self._hung = arch
        finally:
            session.close()
        return out

    def _program(self, session: "_Session", arch: str, name: str) -> Check:
        t = time.monotonic()
        try:
            run = checks.run_check(session.guest(), name, timeout=self._timeout())
        except GuestError as e:
            log = session.current_log()
            session.lost()
            return Check(name, arch, "FAILED", f"{_one_line(e)}\nconsole log: {log}",
                         time.monotonic() - t, lost=_how_lost(e))
        except HarnessError as e:
            session.lost()
            return Check(name, arch, "FAILED", _one_line(e), time.monotonic() - t)
        problems = run.problems()
        detail = "; ".join(problems[:3])
        lost = ""
        if run.summary is None:
            # It did not finish: say what the console said last, and where it is.
            said = last_trouble(run.lines, session.current_log())
            detail += f"\n{said or 'no kernel: killed or panic line'}; " \
                      f"console log: {session.current_log()}"
            if said and "name=sh " in said:
                lost = "lost its shell"
        return Check(name, arch, "FAILED" if problems else "ok", detail,
                     time.monotonic() - t, lost=lost)

    def _guest_check(self, session: "_Session", arch: str, name: str, ctx: Context) -> Check:
        t = time.monotonic()
        try:
            problems = GUEST_CHECKS[name](session.guest(), ctx)
        except GuestError as e:
            log = session.current_log()
            session.lost()
            return Check(name, arch, "FAILED", f"{_one_line(e)}\nconsole log: {log}",
                         time.monotonic() - t, lost=_how_lost(e))
        except HarnessError as e:
            session.lost()
            return Check(name, arch, "FAILED", _one_line(e), time.monotonic() - t)
        problems = problems or []
        return Check(name, arch, "FAILED" if problems else "ok", "; ".join(problems[:3]),
                     time.monotonic() - t, missing_part=ctx.policy_exists is False)

    def _pairs(self, lab: Lab, arch: str, broken: dict[str, str]) -> list[Check]:
        """The lab's checks of two machines of `arch` on one wire."""
        out = []
        for name in lab.pair_checks:
            t = time.monotonic()
            if arch in broken:
                c = Check(name, arch, "FAILED", broken[arch])
            else:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                try:
                    problems = PAIR_CHECKS[name](arch, self.log_dir, self._timeout())
                    said = problems[:3] or getattr(problems, "notes", [])
                    c = Check(name, arch, "FAILED" if problems else "ok",
                              "; ".join(said), time.monotonic() - t,
                              points=0 if getattr(problems, "not_run", False) else 1)
                except GuestError as e:
                    c = Check(name, arch, "FAILED", f"{_one_line(e)}\nconsole logs: "
                              f"{self.log_dir}/{arch}-*-a.log, -b.log",
                              time.monotonic() - t, lost=_how_lost(e))
                except HarnessError as e:
                    c = Check(name, arch, "FAILED", _one_line(e), time.monotonic() - t)
                if c.lost and arch not in broken:
                    broken[arch] = (f"not run: a guest {c.lost} in {name} on {arch}")
                    if c.lost == "hung" and not self._hung:
                        self._hung = arch
            self._report(c)
            out.append(c)
        return out

    @staticmethod
    def _groups(lab: Lab, profile: str) -> list[list[labs.Measure]]:
        """The profile's measurements, one boot per group.  The student's
        policy (lab 4) boots on its own, so that its absence or its failure
        cannot cost the other measurements; so does each diskless client
        (lab 7), whose cases another protocol or server prints too."""
        measures = [m for m in lab.measures if m.profile == profile]
        local = [m for m in measures if not m.remote]
        return [group for group in ([m for m in local if "{policy}" not in m.command],
                                    [m for m in local if "{policy}" in m.command],
                                    *([m] for m in measures if m.remote)) if group]

    def _prefetch(self, lab: Lab, profiles_: list[str], broken: dict[str, str],
                  ctx: Context) -> None:
        """Boot every measurement _measure will ask for at once, through the
        executor, when there is one and more than one boot to do."""
        wanted = []
        for profile in profiles_:
            if profiles.load(profile).isa in broken:
                continue
            for group in self._groups(lab, profile):
                if "{policy}" in group[0].command and ctx.policy_exists is False:
                    continue
                key = (profile, tuple(m.line(self.policy) for m in group))
                if key not in self._runs and key not in wanted:
                    wanted.append(key)
        if self.ex is None or len(wanted) < 2:
            return
        jobs = [Job(f"{p}: {' ; '.join(c)}", measure_run, (p, c)) for p, c in wanted]
        for key, (run, seconds) in zip(wanted, run_jobs(jobs, self.ex, self.say,
                                                         what="measurements")):
            self._runs[key], self._seconds[key] = run, seconds

    def _measure(self, lab: Lab, g: Grade, profiles_: list[str], broken: dict[str, str],
                 ctx: Context) -> None:
        self._prefetch(lab, profiles_, broken, ctx)
        for profile in profiles_:
            arch = profiles.load(profile).isa
            for group in self._groups(lab, profile):
                commands = tuple(m.line(self.policy) for m in group)
                name = f"measure {profile}: {' ; '.join(commands)}"
                if arch in broken:
                    c = Check(name, arch, "FAILED", broken[arch])
                    self._report(c)
                    g.checks.append(c)
                    continue
                optional = group[0].student
                if "{policy}" in group[0].command and ctx.policy_exists is False:
                    for m in group:
                        for k in m.keys(self.policy):
                            g.not_measured[k] = m.missing(self.policy)
                    continue
                run = self._run(profile, commands)
                seconds = self._seconds[(profile, commands)]
                if isinstance(run, str):
                    if optional and "usage:" in run:
                        for m in group:
                            for k in m.keys(self.policy):
                                g.not_measured[k] = m.missing(self.policy)
                        continue
                    c = Check(name, arch, "FAILED", run, seconds)
                else:
                    c = Check(name, arch, seconds=seconds)
                    g.provenance.setdefault(profile, run.provenance)
                    problems = read_values(group, run, self.policy, g.values)
                    if problems:
                        c.status, c.detail = "FAILED", "; ".join(problems[:3])
                self._report(c)
                g.checks.append(c)

    def _run(self, profile: str, commands: tuple[str, ...]) -> runs.ModelRun | str:
        key = (profile, commands)
        if key not in self._runs:
            self._runs[key], self._seconds[key] = measure_run(profile, commands)
        return self._runs[key]

    def _report(self, c: Check) -> None:
        what = f"{c.arch:6} {c.name}"
        status = c.status if c.status != "ok" else "ok"
        line = f"{what} {'.' * max(2, 44 - len(what))} {status} ({c.seconds:.1f} s)"
        if c.detail:
            line += "\n       " + c.detail.replace("\n", "\n       ")
        self.say(line)


def measure_run(profile: str, commands: tuple[str, ...],
                say: Callable[[str], None] | None = None) -> tuple[runs.ModelRun | str, float]:
    """One measurement's boot (an executor job): the run, or why it failed
    in one line; and the host seconds it took."""
    t = time.monotonic()
    try:
        run: runs.ModelRun | str = _model_run(profile, commands)
    except HarnessError as e:
        run = _one_line(e)
    return run, time.monotonic() - t


def _model_run(profile: str, commands: tuple[str, ...]) -> runs.ModelRun:
    """The commands of one machine on one fresh boot each (runs.run_model);
    a benchmark of two machines on a pair of its own (harness/net/
    measure.py), and one on a diskless client (labs.Measure.line: harness/
    rfs/measure.py), the client's records read as one machine's."""
    remote = [c for c in commands if labs.remote_of(c)]
    pair = [c for c in commands if c not in remote and labs.Measure(profile, c, (), ()).pair]
    one = [c for c in commands if c not in pair and c not in remote]
    made = [runs.run_model(profile, one, tag="grade")] if one else []
    made += [netmeasure.run_pair(profile, c, tag="grade", timeout=PAIR_TIMEOUT)
             for c in pair]
    for c in remote:
        command, proto, server = labs.remote_of(c)
        made.append(rfsmeasure.run_remote(profile, proto, command, server, tag="grade",
                                          timeout=PAIR_TIMEOUT))
    if len(made) == 1:
        return made[0]
    first = made[0]
    return runs.ModelRun(first.profile, [r for m in made for r in m.results],
                         [r for m in made for r in m.regions],
                         [j for m in made for j in m.joined], first.log,
                         {k: v for m in made for k, v in m.outputs.items()}, first.provenance)


class _Session:
    """One ISA booted with no model, booted again after a panic or hang."""

    def __init__(self, arch: str, log: Path) -> None:
        self.arch = arch
        self.log = log
        self._guest: Guest | None = None
        self.boots = 0

    def guest(self) -> Guest:
        if self._guest is None:
            m = machines.get(self.arch)
            self.boots += 1
            log = self.log if self.boots == 1 else self.log.with_suffix(f".{self.boots}.log")
            g = runs.start(m, profiles.load("none"), log)
            g.__enter__()
            try:
                g.boot(timeout=m.boot_timeout)
            except BaseException:
                g.close()
                raise
            self._guest = g
        return self._guest

    def current_log(self) -> Path:
        """The console log of the guest booted last (or about to be)."""
        n = max(self.boots, 1)
        return self.log if n == 1 else self.log.with_suffix(f".{n}.log")

    def lost(self) -> None:
        """The guest panicked, hung or exited: the next check boots a new one."""
        self.close()

    def close(self) -> None:
        if self._guest is not None:
            self._guest.close()
            self._guest = None


def _how_lost(e: GuestError) -> str:
    return "hung" if isinstance(e, GuestHang) else "crashed"


# What the console says when a program or the kernel died: `kernel: killed
# ...` (the kernel killed a process) and `panic: ...`.
TROUBLE = ("kernel: killed", "panic: ")


def last_trouble(lines: list[str], log: Path | None = None) -> str:
    """The last "kernel: killed" or panic line of a check's output, or of
    its console log (a line printed after the prompt came back): "" if none."""
    for source in (lines, _log_lines(log)):
        for line in reversed(source):
            if any(t in line for t in TROUBLE):
                return line.strip()
    return ""


def _log_lines(log: Path | None) -> list[str]:
    try:
        return log.read_text(errors="replace").splitlines() if log else []
    except OSError:
        return []


def _one_line(e: Exception) -> str:
    text = str(e)
    detail = getattr(e, "detail", "")
    if detail:
        text += "\n" + _tail(detail, 6)
    return text


# ------------------------------------------------------------------ values


def read_values(group: list[labs.Measure], run: runs.ModelRun, policy: str,
                into: dict[str, float]) -> list[str]:
    """Put the measured values of `group` into `into`; the problems found."""
    problems = []
    for m in group:
        for case in m.cases:
            case = case.format(policy=policy)
            j = next((j for j in run.joined
                      if j.result.bench == m.bench and j.result.case == case), None)
            if j is None:
                problems.append(f"{m.command.format(policy=policy)} printed no case {case!r}")
                continue
            for metric in m.metrics:
                into[labs.key(m.profile, m.bench, case + m.label, metric)] = \
                    labs.METRICS[metric].read(j)
    return problems


def load_baseline(lab: Lab) -> dict:
    path = baseline_path(lab)
    if not path.exists():
        return {}
    return json.loads(path.read_text())


def load_predictions(lab: Lab, policy: str = DEFAULT_POLICY,
                     path: Path | None = None) -> dict[str, float]:
    """The student's predictions: KEY = NUMBER lines in a TOML file; a key
    that names no measurement of the lab is refused (a typo would
    otherwise go unnoticed)."""
    path = path or prediction_path(lab)
    if not path.exists():
        return {}
    text = path.read_text()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = _error_line(text, str(e))
        raise UsageError(f"{path}: {e}" + (f": {line.strip()!r} (each uncommented line must "
                                            f"be \"KEY\" = NUMBER)" if line else "")) from None
    keys = lab.keys(policy)
    out = {}
    for k, v in data.items():
        if k not in keys:
            near = difflib.get_close_matches(k, keys, n=1)
            raise UsageError(f"{path}: {k!r} is not a measurement of lab {lab.number}"
                             + (f" (did you mean {near[0]!r}?)" if near else
                                " (they are listed, commented out, in "
                                f"prediction_template's file: {prediction_path(lab)})"))
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise UsageError(f"{path}: {k!r} must be a number, not {v!r}")
        out[k] = float(v)
    return out


def _error_line(text: str, message: str) -> str:
    """The line a TOML error names ("... (at line 12, column 3)"), if any."""
    m = re.search(r"at line (\d+)", message)
    lines = text.splitlines()
    if m and 0 < int(m.group(1)) <= len(lines):
        return lines[int(m.group(1)) - 1]
    return ""


def prediction_template(lab: Lab) -> str:
    """docs/labs/predictions/labN.toml as shipped: every measured value's
    key, commented out, for the student to fill in."""
    lines = [f"# Lab {lab.number}: {lab.title} ({lab.handout}): your predictions.",
             "#",
             "# Write each number down BEFORE you measure it: uncomment its line and put",
             f"# your value after the `=`.  `make grade LAB={lab.number}` prints it beside the",
             "# measured value and how far off it was.  Every value is per operation",
             "# (per call, per round trip, per file), the benchmark's empty loop",
             "# subtracted, except MB/s; the units are the README's (docs/labs/README.md).",
             "# The keys are \"PROFILE BENCHMARK CASE METRIC\"; a key the grader does not",
             "# measure is refused, so a typo cannot hide."]
    if lab.uses_policy:
        lines += ["#",
                  f"# Your policy's lines say `{DEFAULT_POLICY}`; if you named it otherwise "
                  "(make grade",
                  "# LAB=4 POLICY=NAME), write NAME there instead."]
    current = None
    for m in lab.measures:
        for k in m.keys(DEFAULT_POLICY):
            head = k.rsplit(" ", 1)[0]
            if head != current:
                lines.append("")
                current = head
            lines.append(f'# "{k}" =')
    return "\n".join(lines) + "\n"


def _made_from(prov: dict | None) -> tuple:
    """What a profile's numbers depend on, from its provenance: the hashes
    of the kernel's sources, of the model plugin's, of the profile, and the
    emulator's version (not the images': a kernel built in another
    directory differs in its debugging information only)."""
    prov = prov or {}
    return ((prov.get("build") or {}).get("sources_sha256"),
            (prov.get("hwmodel_plugin") or {}).get("sources_sha256"),
            (prov.get("profile") or {}).get("sha256"),
            (prov.get("emulator") or {}).get("version"))


def check_baseline(g: Grade) -> None:
    """Whether the numbers may differ from the baseline's.  Where a
    profile's kernel, model and profile are the ones the baseline measured,
    they must not: a check that fails naming the stale baseline and the
    command that makes it again.  Where the kernel differs (the student's
    change), a note says that the change column is the change's."""
    base_prov = g.baseline.get("provenance") or {}
    base_values = g.baseline.get("values", {})
    if not g.baseline:
        g.baseline_note = ""
        return
    same, changed = [], []
    for profile, prov in g.provenance.items():
        then = base_prov.get(profile)
        if then is not None and _made_from(prov) == _made_from(then) and None not in \
                _made_from(prov)[0:1]:
            same.append(profile)
        else:
            changed.append(profile)
    for profile in same:
        moved = {k: (base_values[k], v) for k, v in g.values.items()
                 if k.startswith(profile + " ") and k in base_values
                 and abs(v - base_values[k]) > SAME * abs(base_values[k])}
        c = Check(f"baseline: {profile} unchanged kernel, unchanged numbers",
                  profiles.load(profile).isa, points=0)
        if moved:
            k, (then, now) = next(iter(moved.items()))
            c.status = "FAILED"
            c.detail = (f"docs/labs/baseline/lab{g.lab.number}.json is stale: this kernel, "
                        f"model and profile are the ones it measured, yet {len(moved)} "
                        f"value(s) moved, e.g. {k!r}: {fmt(then)} then, {fmt(now)} now "
                        f"(a teacher makes it again: `{baseline_command(g.lab)}` on a clean "
                        f"tree)")
        g.checks.append(c)
    if changed:
        g.baseline_note = (f"your kernel (or model) differs from the one the baseline "
                           f"measured on {', '.join(changed)}: the change column is your "
                           f"change's effect")
    elif not same:                  # nothing measured (a check failed first)
        g.baseline_note = ""
    else:
        g.baseline_note = ("the kernel, model and profiles are the ones the baseline "
                           "measured: every value must equal it")


def change(now: float, base: float) -> float | None:
    if base == 0:
        return 0.0 if now == 0 else None
    return (now - base) / base


def score_goals(lab: Lab, values: dict[str, float], baseline: dict[str, float],
                policy: str) -> list[GoalResult]:
    out = []
    for goal in lab.goals:
        best: tuple[float, str] | None = None
        for k in goal.keys:
            k = k.format(policy=policy)
            ref = baseline.get(goal.against or k)
            if k not in values or ref is None:
                continue
            ch = change(values[k], ref)
            if ch is None:
                continue
            if best is None or ch / goal.change > best[0] / goal.change:
                best = (ch, k)
        if best is None:
            out.append(GoalResult(goal.text, goal.points, 0.0, None, goal.change, None))
            continue
        fraction = min(1.0, max(0.0, best[0] / goal.change))
        if abs(best[0]) < SAME:
            fraction = 0.0
        out.append(GoalResult(goal.text, goal.points, round(goal.points * fraction, 1),
                              best[0], goal.change, best[1]))
    return out


# ------------------------------------------------------------------ output


def fmt(v: float) -> str:
    a = abs(v)
    if a >= 1000:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:#.3g}"                  # 1.00, not 1


def off_by(predicted: float, measured: float, unit: str) -> str:
    """How far a prediction was off: relative to the measured value, or,
    where either is 0 (a relative error of -100% or infinity says nothing),
    the difference in the metric's unit."""
    if predicted == 0 or measured == 0:
        if predicted == measured:
            return "exact"
        return f"{'+' if predicted > measured else '-'}{fmt(abs(predicted - measured))} {unit}"
    return _pct(change(predicted, measured))


def _pct(ch: float | None) -> str:
    if ch is None:
        return "-"
    if abs(ch) < SAME:
        return "same"
    return f"{100 * ch:+.1f}%"


def format_grade(g: Grade) -> str:
    lab = g.lab
    lines = []
    base_values = g.baseline.get("values", {})
    if g.baseline:
        lines.append(f"Measured, per operation, beside the unmodified kernel's "
                     f"(docs/labs/baseline/lab{lab.number}.json: commit "
                     f"{str(g.baseline.get('commit'))[:10]}, {g.baseline.get('created', '?')[:10]}):")
    else:
        lines.append(f"Measured, per operation (no baseline yet: `{baseline_command(lab)}` "
                     f"on the unmodified tree makes one):")
    rows = [("profile", "benchmark", "metric", "baseline", "now", "change")]
    if g.predictions:
        rows[0] += ("predicted", "off by")
    for k in lab.keys(g.policy):
        profile, bench, case, metric = k.split(" ")
        base = base_values.get(k)
        if k not in g.values:
            continue
        now = g.values.get(k)
        row = (profile, f"{bench} {case}", metric, fmt(base) if base is not None else "-",
               fmt(now) if now is not None else "-",
               _pct(change(now, base)) if now is not None and base is not None else "-")
        if g.predictions:
            p = g.predictions.get(k)
            off = off_by(p, now, labs.METRICS[metric].unit) if p is not None and \
                now is not None else ""
            row += (fmt(p) if p is not None else "", off)
        rows.append(row)
    lines += format_table(None, rows, left=3, indent="  ")
    if g.baseline_note:
        lines.append(f"  ({g.baseline_note})")
    said = set()
    for k, why in g.not_measured.items():
        profile, bench, case, _ = k.split(" ")
        note = f"  not measured: {bench} {case} on {profile}: {why}"
        if (profile, why) not in said:
            lines.append(note if len(g.not_measured) == 1 else
                         f"  not measured: {sum(1 for x in g.not_measured if x.startswith(profile + ' '))} "
                         f"values on {profile}: {why}")
            said.add((profile, why))
    if g.goals:
        lines.append("Goals:" if g.passed else
                     "Goals (correctness failed: the changes are information only, "
                     "worth no points):")
        for gr in g.goals:
            got = ("not measured, or no baseline" if gr.change is None else
                   f"{_pct(gr.change)} ({gr.key.split(' ')[0]})")
            earned = gr.earned if g.passed else 0
            lines.append(f"  {gr.text}: {got}, target {100 * gr.target:+.0f}%: "
                         f"{earned:g}/{gr.points}")
    ok, total = g.correctness
    earned, possible = g.improvement
    verdict = "passed" if g.passed else "FAILED"
    failed = [c for c in g.checks if not c.ok]
    if failed:
        verdict += ": " + ", ".join(f"{c.name} on {c.arch}" for c in failed[:5]) + \
            (" ..." if len(failed) > 5 else "")
    parts = [f"correctness {ok}/{total} ({verdict})"]
    if possible and not g.passed:
        parts.append(f"improvement 0/{possible}: correctness failed, no performance "
                     f"credit")
    elif possible:
        improved = "no improvement over the baseline" if earned == 0 else "improvement"
        parts.append(f"{improved} {earned:g}/{possible}")
    lines.append(f"Lab {lab.number} score: {ok + earned:g}/{total + possible}: "
                 + "; ".join(parts))
    return "\n".join(lines) + "\n"


def to_json(g: Grade) -> dict:
    git = provenance.git_state()
    return {
        "lab": g.lab.number, "title": g.lab.title, "passed": g.passed,
        "correctness": list(g.correctness), "improvement": list(g.improvement),
        "checks": [asdict(c) for c in g.checks],
        "values": g.values, "not_measured": g.not_measured,
        "baseline": {"commit": g.baseline.get("commit"), "values": g.baseline.get("values", {})},
        "predictions": g.predictions, "policy": g.policy,
        "goals": [asdict(x) for x in g.goals],
        "git": git, "created": provenance.now_utc(),
        "provenance": g.provenance,
    }


def code_changed(root: Path = ROOT) -> bool:
    """Whether tracked files other than the labs' own (docs/labs/: the
    baselines being written, a teacher's predictions) differ from the
    commit: a baseline is the numbers of a commit's kernel."""
    try:
        p = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                            "--untracked-files=no", "--", ".", ":(exclude)docs/labs"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return True
    return p.returncode != 0 or bool(p.stdout.strip())


def write_baseline(g: Grade, force: bool = False) -> Path:
    """Write the measured values as the lab's baseline: only on a clean
    tree (the unmodified kernel), all ISAs checked and passed."""
    git = provenance.git_state()
    commit = git["commit"]
    dirty = code_changed()
    if dirty and not force:
        raise HarnessError("the tree has uncommitted changes: a baseline is the unmodified "
                           "kernel's numbers (commit or stash first, or --force)")
    if not all(c.ok or c.missing_part or c.points == 0 for c in g.checks):
        raise HarnessError("correctness checks failed: no baseline written")
    wanted = g.lab.keys(g.policy, student=False)
    missing = [k for k in wanted if k not in g.values]
    if missing:
        raise HarnessError(f"not every value was measured (e.g. {missing[0]!r}): "
                           "grade every ISA to write a baseline")
    values = {k: g.values[k] for k in wanted}
    data = {
        "lab": g.lab.number, "title": g.lab.title,
        "made_by": baseline_command(g.lab),
        "commit": commit, "dirty": dirty, "created": provenance.now_utc(),
        "profiles": {p: profiles.load(p).isa for p in g.lab.profiles()},
        "values": values,
        "provenance": g.provenance,
    }
    path = baseline_path(g.lab)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    return path
