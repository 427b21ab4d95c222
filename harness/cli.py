"""The command line: `python3 -m harness COMMAND [OPTIONS]` (docs/harness.md).

Every command is declared once, in COMMANDS: its name, one line of help,
its handler and its options.  The options several commands share (--arch,
--profile, --bench, --case, --out, --timeout) are declared once, below, with
one default each; a command may narrow an option (fewer choices, required,
repeatable), and its help then says so.  Every choice is listed in the help,
and a bad value is refused by name, with the valid choices, before anything
is built or booted.  The rules:

  --profile  none (no hardware model) unless given; the commands that only
             make sense under a model (sweep, attribute, overhead) require it;
  --arch     the profile's ISA unless given (riscv for profile none); given
             with a model of another ISA, it is refused;
  --out      the directory results go to: results/ unless given.

Exit status: 0 when all went well; 1 when the guest or a benchmark failed
(kernel panic, hang, FAIL line, missing RESULT); 2 when something must be
installed or built first, or the command line is wrong; 130 on Ctrl-C.  A
failure prints context (the last console lines) and then one line starting
"harness: ".
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from . import ROOT, __version__, docs, tables
from .bench import checks, compare, provenance, report, rundir, runrecord, suite
from .course import debug, grade, labs
from .crashtest import run as crashrun
from .errors import HarnessError, UsageError
from .guest import machines
from .model import (attribute, calibrate, executor, figure1, figure4, overhead, profiles, runs,
                    sweep, sweeprows)
from .net import roundtrip
from .net import run as netrun
from .net import table as nettable
from .net import shell as netshell
from .rfs import fileread as rfsread
from .rfs import run as rfsrun
from .rfs import crash as rfscrash
from .rfs import table8 as rfstable8
from .rfs import sweep as rfssweep

# 1 and 2 are the errors' own (errors.py: HarnessError.exit_code); argparse
# exits with 2 on a bad command line.
EXIT_OK, EXIT_INTERRUPTED = 0, 130
EXIT_STATUS = ("exit status: 0 all went well; 1 the guest or a benchmark failed; "
               "2 something must be built or installed first, or the command line "
               "is wrong; 130 interrupted")


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- options

@dataclass(frozen=True)
class Option:
    """One command-line option, declared once and used by several commands."""

    flag: str
    metavar: str
    help: str                                    # what it is, without default or choices
    default: Any = None
    default_help: str = ""                       # the default in words, if not `default`
    choices: Callable[[], list[str]] | None = None   # computed when the parser is built
    repeat: bool = False                         # may be given several times (a list)
    required: bool = False
    type: Callable[[str], Any] = str
    short: str = ""                              # e.g. -j, beside the long flag

    def but(self, **changes: Any) -> "Option":
        """The same option, narrowed for one command."""
        return dataclasses.replace(self, **changes)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        choices = self.choices() if self.choices else None
        text = self.help
        if choices:
            text += ": " + ", ".join(choices)
        notes = ["repeatable"] if self.repeat else []
        if self.required:
            notes.append("required")
        elif self.default_help or self.default is not None:
            notes.append(f"default: {self.default_help or self.default}")
        if notes:
            text += f" ({'; '.join(notes)})"
        flags = [self.short, self.flag] if self.short else [self.flag]
        parser.add_argument(*flags, metavar=self.metavar, help=text, choices=choices,
                            default=self.default, required=self.required, type=self.type,
                            action="append" if self.repeat else "store")


def _bench_names() -> list[str]:
    return list(suite.BY_NAME)


def _profile(name: str) -> str:
    """--profile's value, checked as argparse reads it: a profile whose file
    is wrong is refused here, naming the field, before anything is built
    or booted (the Makefile's check-args relies on it: `run --help` after
    the options exits 0 only if they are good).  An unknown name is left
    to `choices`, which lists the known ones."""
    if name in profiles.names():
        try:
            profiles.load(name)
        except HarnessError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return name


ARCH = Option("--arch", "ISA", "the ISA to boot", choices=machines.names,
              default_help=f"the profile's ISA; {machines.DEFAULT_ARCH} for profile none")
PROFILE = Option("--profile", "NAME", "timing profile (hw-models/profiles/NAME.toml)",
                 default="none", default_help="none: plain emulator, 1 instruction = 1 ns",
                 choices=profiles.names, type=_profile)
MODEL = PROFILE.but(help="the machine's hardware model (hw-models/profiles/NAME.toml)",
                    default=None, default_help="", required=True, choices=profiles.model_names)
BENCH = Option("--bench", "NAME", "benchmark", choices=_bench_names, repeat=True,
               default_help="the paper's eight: " + ", ".join(suite.SUITE))
CASE = Option("--case", "CASE", "a case of the benchmark, as its RESULT lines name it")
OUT = Option("--out", "DIR", "where to write the results", default="results")
TIMEOUT = Option("--timeout", "SECONDS", "host seconds allowed per program", type=float)
# The commands that boot many independent runs share one executor
# (harness/model/executor.py): local worker processes, or a Dask cluster.
def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers >= 1")
    return int(text)


JOBS = Option("--jobs", "N", "runs side by side on this machine (1: one after another, "
              "in this process)", short="-j", type=_jobs,
              default_help=f"one per core: {executor.cores()} here")
SCHEDULER = Option("--scheduler", "tcp://HOST:8786",
                   "run on the workers of this Dask distributed cluster instead "
                   "(docs/harness.md: workers need the same checkout, built)")


# ---------------------------------------------------------------- commands

@dataclass(frozen=True)
class Command:
    name: str
    help: str
    handler: Callable[[argparse.Namespace], int]
    options: tuple[Option, ...] = ()
    # Anything else, added by hand: (flags, argparse keyword arguments)
    extra: tuple[tuple[tuple[str, ...], dict[str, Any]], ...] = ()
    # What the command checks of its input beyond each option's own check
    # (files it names, options together), before it builds or boots
    # anything; --check-only runs just this (the Makefile's check-args).
    check: Callable[[argparse.Namespace], None] | None = None


def _machine_and_profile(args: argparse.Namespace) -> tuple[machines.Machine, profiles.Profile]:
    return machines.get(args.arch), profiles.load(args.profile)


def cmd_run(args: argparse.Namespace) -> int:
    if args.remote and args.suite == "measure":   # 002's remote file read
        check_run(args)
        final, _, text = rfsread.run_remote_read(args.arch, args.profile, args.remote,
                                                 Path(args.out), args.tag, args.timeout, _say)
        print(text, end="")
        _say(f"harness: wrote {final}/: {', '.join(sorted(p.name for p in final.iterdir()))}")
        return EXIT_OK
    if args.remote:                          # two machines, a remote file system
        check_run(args)
        final, _, text = rfsrun.run_remote(args.arch, args.profile, args.remote,
                                           Path(args.out), args.tag, args.bench,
                                           args.timeout, _say)
        print(text, end="")
        _say(f"harness: wrote {final}/: {', '.join(sorted(p.name for p in final.iterdir()))}")
        return EXIT_OK
    benches = suite.choose(args.bench, args.suite)
    if args.suite == "net":                  # two machines (harness/net/run.py)
        final, _, text = netrun.run_net(args.arch, args.profile, Path(args.out), args.tag,
                                        args.timeout, _say)
        print(text, end="")
        _say(f"harness: wrote {final}/: {', '.join(sorted(p.name for p in final.iterdir()))}")
        return EXIT_OK
    # The measure suite's runs are kept apart from the paper suite's:
    # results/ARCH-PROFILE-measure/ unless tagged otherwise.
    if args.suite == "measure" and not args.tag:
        args.tag = "measure"
    machine, profile = _machine_and_profile(args)
    out = Path(args.out)
    machine.check()                          # built? (SetupError saying what to run)
    provenance.verify(machine, profile)      # and not older than its sources?
    with rundir.RunDir(out, rundir.run_name(args.arch, args.profile, args.tag)) as d:
        log_path, hw_log = d.path("console.log"), d.path("hwmodel.log")
        # Each benchmark on a machine booted for it (runs.Fresh): its
        # numbers do not depend on what ran before it.
        fresh = runs.Fresh(machine, profile, log_path, hw_log)
        record = runrecord.new(machine, profile, args.tag, fresh.argv)
        _say(f"harness: booting {args.arch} (profile {args.profile}) once per benchmark: "
             f"{' '.join(fresh.argv)}")

        def progress(run: suite.BenchRun) -> None:
            _say(f"harness: {run.bench.name}: {len(run.results)} result(s) "
                 f"in {run.seconds:.1f} s of host time")

        try:
            done = suite.run_suite(fresh, benches, timeout=args.timeout, progress=progress)
        except HarnessError as e:
            where = (f"console log: {log_path}; the last complete run's results, if any, "
                     f"are still in {d.final}/")
            e.detail = "\n".join(x for x in (e.detail, where) if x)
            raise
        record.boot = fresh.boot_record
        record.results = suite.all_results(done)
        if profile.model:
            runs.attach_counters(record, profile, hw_log, _say)
        if args.suite == "measure":
            runrecord.add_final_table(record, profile.data)
        text = runrecord.report_text(record)
        print(text, end="")
        runrecord.write(d, record, text)
    _say(f"harness: wrote {d.final}/: {', '.join(sorted(p.name for p in d.final.iterdir()))}")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    programs = args.program or list(checks.TEST_PROGRAMS)
    machine, profile = _machine_and_profile(args)
    log_path = Path(args.out) / f"{args.arch}-{args.profile}-check.log"
    failed = []
    with runs.start(machine, profile, log_path) as guest:
        guest.boot(timeout=machine.boot_timeout)
        for name in programs:  # a panic or hang stops here, with the console tail
            run = checks.run_check(guest, name, timeout=args.timeout or checks.DEFAULT_TIMEOUT)
            problems = run.problems()
            status = "ok" if not problems else "FAILED: " + "; ".join(problems)
            print(f"{name:14} {len(run.passes):3} pass {len(run.fails):3} fail "
                  f"{len(run.skips):3} skip  {status}")
            if problems:
                failed.append(name)
    if failed:
        raise HarnessError(f"{len(failed)} of {len(programs)} test programs failed: "
                           + ", ".join(failed))
    return EXIT_OK


def cmd_shell(args: argparse.Namespace) -> int:
    machine, profile = _machine_and_profile(args)
    if args.nodes == 2:                      # two machines on a wire (harness/net/shell.py)
        os.chdir(ROOT)
        return netshell.run_shell(args.arch, profile, ROOT / "results", _say)
    stem = f"{args.arch}-{args.profile}-shell"
    argv = runs.argv(machine, profile, ROOT / "results" / f"{stem}.hw.log", interactive=True)
    provenance.verify(machine, profile)            # refuses a stale build
    err_path = Path("results") / f"{stem}.stderr"          # under ROOT, after the chdir
    _say(f"harness: {' '.join(argv)}")
    quit_key = ("Ctrl-E, then `quit`, to leave SIMH" if isinstance(machine.emulator, machines.Simh)
                else "Ctrl-A x to quit QEMU")
    _say(f"harness: type `halt` at the guest prompt to power off, or {quit_key}; "
         "Ctrl-C stops the guest's running program")
    os.chdir(ROOT)
    status = run_on_terminal(argv, err_path)
    return EXIT_OK if status in (0, machine.halt_status) else 1


def run_on_terminal(argv: list[str], err_path: Path) -> int:
    """Run the emulator with the guest's console on this terminal, and its
    own messages (stderr) in err_path, shown once it exits.  Left on the
    terminal they would land in the middle of the guest's lines: QEMU says
    "icount sleep disabled and no active timers" the first time the guest
    idles, which is at its first prompt.  Returns the exit status."""
    err_path.parent.mkdir(parents=True, exist_ok=True)
    with open(err_path, "wb") as err:
        # The emulator owns the terminal: a key that makes the tty send
        # SIGINT (SIMH's Ctrl-E) is for it, not for us.
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            proc = subprocess.Popen(argv, stderr=err, preexec_fn=_default_sigint)
            status = proc.wait()
        finally:
            signal.signal(signal.SIGINT, old)
    said = [line for line in err_path.read_text(errors="replace").splitlines() if line.strip()]
    for line in said:
        _say(f"harness: (emulator) {line}")
    if said:
        _say(f"harness: (the emulator's messages are kept in {err_path})")
    return status


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _load_run(spec: str, out: str) -> tuple[Path, report.RunRecord]:
    path = Path(spec)
    if path.is_file():                     # a results.json given by name
        return path.parent, report.load_json(path)
    run = rundir.find_run(spec, Path(out))
    return run, report.load_json(run / rundir.RESULTS)


def cmd_report(args: argparse.Namespace) -> int:
    print(runrecord.report_text(_load_run(args.run, args.out)[1]), end="")
    return EXIT_OK


def cmd_table8(args: argparse.Namespace) -> int:
    paths = [Path(r) for r in args.run] or rfstable8.default_runs(Path(args.out))
    if not paths:
        raise UsageError(f"no remote runs in {args.out}/ ({rfstable8.DEFAULT_RUNS}: "
                         f"make run ARCH=... PROFILE=... REMOTE=both first)")
    print(rfstable8.format_all(rfstable8.load(paths)), end="")
    return EXIT_OK


def cmd_rfscrash(args: argparse.Namespace) -> int:
    out = Path(args.out) / "rfscrash"
    _, text = rfscrash.run_all(out, tuple(args.protocol or rfsrun.PROTOCOLS), args.arch, _say,
                               unsafe=args.unsafe)
    print(text, end="")
    _say(f"harness: wrote {out}/")
    return EXIT_OK


def cmd_compare(args: argparse.Namespace) -> int:
    (pa, a), (pb, b) = _load_run(args.a, args.out), _load_run(args.b, args.out)
    cmp = compare.compare(a, b, allow_mismatch=args.allow_mismatch)
    print(compare.text(cmp), end="")
    path = Path(args.csv) if args.csv else Path(args.out) / f"compare-{a.name}-vs-{b.name}.csv"
    tables.write_csv(path, *compare.csv_table(cmp))
    _say(f"harness: compared {pa} with {pb}; wrote {path}")
    return EXIT_OK


def cmd_machines(args: argparse.Namespace) -> int:
    rows = [("arch", "emulator", "loads", "model", "tests' profile", "notes")]
    for m in machines.MACHINES.values():
        rows.append((m.arch, m.emulator.name, m.kernel, m.model or "-", m.model_profile or "-",
                     m.notes))
    for line in tables.format_table(None, rows, left=len(rows[0]), free_last=True):
        print(line)
    return EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    changed = docs.generate(results=Path(args.out).resolve(), from_results=args.from_results,
                            say=_say)
    _say(f"harness: docs: {len(changed)} file(s) rewritten")
    return EXIT_OK


def _executor(args: argparse.Namespace) -> executor.Executor:
    check_executor(args)
    return executor.executor(args.jobs, args.scheduler, say=_say)


def cmd_calibrate(args: argparse.Namespace) -> int:
    names = args.profile or list(calibrate.CALIBRATED)
    calibrate.calibrate(names, write=not args.no_write, out=Path(args.out), say=_say,
                        ex=_executor(args))
    return EXIT_OK


def check_sweep(args: argparse.Namespace) -> None:
    if (args.param2 is None) != (args.values2 is None):
        raise UsageError("a grid sweep needs both --param2 and --values2")
    if rfssweep.asked(args.bench):           # Table 8's remote penalty (harness/rfs/sweep.py)
        rfssweep.check(args.arch, args.profile, args.param,
                       sweeprows.parse_values(args.values), args.bench, args.param2)
        return
    sweep.check(args.profile, args.param, sweeprows.parse_values(args.values),
                args.bench or list(sweep.DEFAULT_BENCHES), args.param2,
                sweeprows.parse_values(args.values2) if args.values2 else None)


def check_run(args: argparse.Namespace) -> None:
    if args.remote:                          # two machines: on the wire? (harness/rfs/run.py)
        if args.suite == "measure":          # 002's remote file read (harness/rfs/fileread.py)
            if args.bench:
                raise UsageError("--suite measure --remote runs 002's remote file read "
                                 "alone, not --bench")
            rfsrun.check(args.arch, args.profile, args.remote)
            return
        if args.suite != "paper":
            raise UsageError(f"--remote runs the paper's file benchmarks, or with --suite "
                             f"measure 002's remote file read, not --suite {args.suite}")
        rfsrun.check(args.arch, args.profile, args.remote, args.bench)
        return
    suite.choose(args.bench, args.suite)


def check_rfscrash(args: argparse.Namespace) -> None:
    """Two machines of the ISA's own model: on the wire? (Pair's check)"""
    rfsrun.check(args.arch, rfscrash.model_of(args.arch), "both")


def check_executor(args: argparse.Namespace) -> None:
    if args.scheduler and args.jobs is not None:
        raise UsageError("give -j (local workers) or --scheduler (a Dask cluster), not both")


def check_profiles(names: Sequence[str]) -> None:
    """Every profile a command will boot, read and checked before anything is
    built: a bad value is refused in a second, naming its file and field."""
    for name in names:
        profiles.load(name)


def check_calibrate(args: argparse.Namespace) -> None:
    check_executor(args)
    check_profiles(args.profile or list(calibrate.CALIBRATED))


def check_figure1(args: argparse.Namespace) -> None:
    check_executor(args)
    check_profiles([profile for _, profile in figure1.MACHINES])


def cmd_sweep(args: argparse.Namespace) -> int:
    check_sweep(args)
    if rfssweep.asked(args.bench):
        rfssweep.run_sweep(args.profile, args.param, sweeprows.parse_values(args.values),
                           Path(args.out), arch=args.arch, say=_say, ex=_executor(args))
        return EXIT_OK
    sweep.run_sweep(args.profile, args.param, sweeprows.parse_values(args.values),
                    args.bench or list(sweep.DEFAULT_BENCHES), Path(args.out), arch=args.arch,
                    say=_say, param2=args.param2,
                    values2=sweeprows.parse_values(args.values2) if args.values2 else None,
                    ex=_executor(args))
    return EXIT_OK


def cmd_attribute(args: argparse.Namespace) -> int:
    if suite.needs_pair(args.bench) and not args.command:
        # a benchmark of two machines: one round trip's parts, on the client
        if args.region:
            raise UsageError(f"attribute --bench {args.bench}: --region is for one "
                             f"machine's benchmarks; give --case")
        attribute.check_functions(args.arch, suite.BY_NAME[args.bench].command_line,
                                  args.function or [], args.objdump)
        rt = roundtrip.measure_case(args.profile, args.case or nettable.CASES[0],
                                    arch=args.arch)
        print(roundtrip.format_roundtrip(rt, args.top), end="")
        for name in args.function or []:
            print()
            print(attribute.annotate(rt.attribution, name, args.objdump), end="")
        return EXIT_OK
    command = args.command or suite.BY_NAME[args.bench].short_command
    attribute.check_functions(args.arch, command.split()[0], args.function or [], args.objdump)
    att = attribute.collect(args.profile, command, args.region, arch=args.arch, case=args.case)
    print(attribute.format_costs(attribute.by_function(att), att.meta, args.top), end="")
    for name in args.function or []:
        print()
        print(attribute.annotate(att, name, args.objdump), end="")
    return EXIT_OK


def cmd_figure1(args: argparse.Namespace) -> int:
    text, where = figure1.figure1(Path(args.out), say=_say, ex=_executor(args))
    print(text, end="")
    _say(f"wrote {where}/: figure1.txt, figure1.csv, figure1.json, figure1.png, figure1.svg")
    return EXIT_OK


def cmd_figure4(args: argparse.Namespace) -> int:
    text, paths = figure4.figure4(args.profile, Path(args.out), say=_say)
    print(text, end="")
    _say(f"wrote {', '.join(str(p) for p in paths)}")
    return EXIT_OK


def cmd_overhead(args: argparse.Namespace) -> int:
    if not args.lockstep and not profiles.is_model(args.profile):
        raise UsageError(f"overhead: profile {args.profile!r} has no model to time "
                         f"(choose one of {', '.join(profiles.model_names())}, or --lockstep)")
    if not args.share_core and not args.lockstep:
        raise UsageError("overhead: --no-share-core is about two machines: only with --lockstep")
    if args.lockstep:
        name = f"lockstep-overhead-{args.profile}{'' if args.share_core else '-apart'}.txt"
        text, path = overhead.lockstep(args.profile, args.arch, args.repeat,
                                       Path(args.out) / name, say=_say,
                                       share_core=args.share_core)
        print(text, end="")
        _say(f"wrote {path}")
        return EXIT_OK
    text, path = overhead.overhead(args.profile, args.repeat, args.bench,
                                   Path(args.out) / f"hwmodel-overhead-{args.profile}.txt",
                                   floor=args.floor, say=_say)
    print(text, end="")
    _say(f"wrote {path}")
    return EXIT_OK


def cmd_crashtest(args: argparse.Namespace) -> int:
    from .crashtest import report as crashreport
    text, where = crashreport.crashtest(Path(args.out), args.arch,
                                        args.profile or "", args.max_points,
                                        args.workload, args.policy, say=_say)
    print(text, end="")
    _say(f"wrote {where}/: crashtest.txt, crashtest.json, risk-delayed.png")
    return EXIT_OK


def check_grade(args: argparse.Namespace) -> None:
    numbers = args.lab or list(labs.LABS)
    if args.predictions and len(numbers) != 1:
        raise UsageError("--predictions names one lab's file: give one --lab")
    if args.write_baseline and args.arch:
        raise UsageError("--write-baseline measures every ISA of the lab: leave out --arch")
    # Every lab's predictions before anything is built or booted: a typo is
    # refused in a second, not after the builds and the boots.
    for n in numbers:
        grade.load_predictions(labs.get(n), args.policy,
                               Path(args.predictions) if args.predictions else None)
        check_profiles(labs.get(n).profiles())


def cmd_grade(args: argparse.Namespace) -> int:
    check_grade(args)
    numbers = args.lab or list(labs.LABS)
    grader = grade.Grader(build=not args.no_build, arches=args.arch, policy=args.policy,
                          say=_say, predictions=Path(args.predictions) if args.predictions
                          else None, ex=_executor(args))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = []
    for n in numbers:
        lab = labs.get(n)
        g = grader.grade(lab)
        print(grade.format_grade(g), flush=True)
        path = out / f"grade-lab{n}.json"
        path.write_text(json.dumps(grade.to_json(g), indent=1) + "\n")
        _say(f"harness: wrote {path}")
        if args.write_baseline:
            _say(f"harness: wrote {grade.write_baseline(g, force=args.force)}")
        if not g.passed:
            failed.append(n)
    if len(numbers) > 1:
        print("labs " + ", ".join(map(str, numbers)) + ": " +
              ("every correctness check passed" if not failed else
               "correctness FAILED in lab " + ", ".join(map(str, failed))))
    return EXIT_OK if not failed else 1


def cmd_gdb(args: argparse.Namespace) -> int:
    extra = list(args.gdb_args or [])
    if extra and extra[0] == "--":
        extra = extra[1:]
    return debug.run_gdb(args.arch, args.program, extra, say=_say)


def _tag(text: str) -> str:
    try:
        return rundir.check_tag(text)
    except HarnessError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _lab_number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n not in labs.LABS:
        raise argparse.ArgumentTypeError(f"no lab {text!r} (the labs: "
                                         f"{', '.join(map(str, labs.LABS))})")
    return n


def _policy_name(text: str) -> str:
    """Lab 4's policy name, typed at the guest's shell: a word of lowercase
    letters, digits and _ (the names policy.c knows look like that)."""
    import re
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,15}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a policy name: lowercase letters, "
                                         f"digits and _, a letter first, at most 16")
    return text


def _positive_int(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number >= 1")
    return n


COMMANDS: tuple[Command, ...] = (
    Command("run", "boot, run the benchmark suite, print the paper's tables; write "
            "the run's directory OUT/ARCH-PROFILE[-TAG]/ (results.json, results.csv, "
            "report.txt, console.log)", cmd_run,
            (ARCH, PROFILE, BENCH, OUT, TIMEOUT.but(default_help="per benchmark")),
            ((("--tag",), dict(type=_tag, metavar="TAG",
                               help="name this run: OUT/ARCH-PROFILE-TAG/, kept apart from "
                               "untagged and other tags' runs (letters, digits, . _ + -)")),
             (("--suite",), dict(choices=list(suite.SUITES), default="paper", metavar="SUITE",
                                 help="which suite: " + ", ".join(suite.SUITES) +
                                 " (default paper: the 1989 paper's eight; measure: the "
                                 "standard OS measurements of docs/measure.md, tagged "
                                 "`measure` unless --tag is given; net: the network's, "
                                 "two machines on a modelled Ethernet, docs/network.md, "
                                 "tagged `net`)")),
             (("--remote",), dict(choices=list(rfsrun.CHOICES), metavar="PROTO",
                                  help="the paper's Local and Remote configurations on two "
                                  "machines, node a a diskless client of node b: "
                                  + ", ".join(rfsrun.CHOICES) + " (openclose, createdelete "
                                  "and andrew; Tables 7-10; docs/remote-files.md; tagged "
                                  "`remote-PROTO`); with --suite measure, 002's remote "
                                  "file read beside the local one (docs/measure.md; "
                                  "tagged `measure-remote-PROTO`)")))),
    Command("check", "boot and run the failure-case test programs (t_*)", cmd_check,
            (ARCH, PROFILE, OUT, TIMEOUT.but(default=checks.DEFAULT_TIMEOUT)),
            ((("--program",), dict(action="append", metavar="NAME",
                                   help="run only this test program (repeatable; default "
                                   "all: " + ", ".join(checks.TEST_PROGRAMS) + ")")),)),
    Command("shell", "boot to the guest's shell, its console on this terminal",
            cmd_shell, (ARCH, PROFILE),
            ((("--nodes",), dict(type=int, choices=(1, 2), default=1, metavar="N",
                                 help="1, or 2: two machines on a modelled Ethernet, both "
                                 "consoles here, a prefix per line (docs/network.md; "
                                 "default: 1)")),)),
    Command("report", "print the tables again from a run that `run` wrote",
            cmd_report, (OUT.but(help="where to look for runs named by tag"),),
            ((("run",), dict(metavar="RUN", help="a run directory, its results.json, "
                             f"a run's name ({machines.DEFAULT_ARCH}-none) or a tag")),)),
    Command("table8", "the paper's Table 8 (MIPS-relative speed, remote penalty) from our "
            "remote runs of several machines (docs/remote-files.md)", cmd_table8,
            (OUT.but(help="where to look for the runs"),),
            ((("run",), dict(nargs="*", metavar="RUN", help="run directories or their "
                             "results.json (default: every OUT/" + rfstable8.DEFAULT_RUNS +
                             ")")),)),
    Command("rfscrash", "what a server crash costs each remote file system: the client "
            "retries, Sprite's recovery, the data lost (docs/remote-files.md; OUT/rfscrash/)",
            cmd_rfscrash, (ARCH.but(default=machines.DEFAULT_ARCH, default_help=""), OUT),
            ((("--protocol",), dict(action="append", choices=list(rfsrun.PROTOCOLS),
                                    metavar="PROTO", help="only this one (repeatable; "
                                    "default both: " + ", ".join(rfsrun.PROTOCOLS) + ")")),
             (("--async",), dict(action="store_true", dest="unsafe",
                                 help="the server answers nfs's writes before its disk has "
                                 "them (rfsd -async: lab 7's unsafe server, which its "
                                 "change adds)")))),
    Command("compare", "two runs side by side, per benchmark and case: both values, "
            "their ratio and the model's counters; write OUT/compare-A-vs-B.csv", cmd_compare,
            (OUT.but(help="where to look for runs named by tag, and to write the CSV"),),
            ((("a",), dict(metavar="A", help="the first run: a directory, a run's name "
                           "or a tag")),
             (("b",), dict(metavar="B", help="the second run, the same way")),
             (("--csv",), dict(metavar="FILE", help="write the CSV here instead")),
             (("--allow-mismatch",), dict(action="store_true",
                                          help="compare even runs of different ISAs, "
                                          "profiles or benchmark cases (the cases both "
                                          "have; what differs is printed first)")))),
    Command("machines", "list the ISAs: emulator, image, hardware-model back end",
            cmd_machines),
    Command("calibrate", "fit CPI and memory bandwidth of hardware models to the "
            "paper's Tables 1 and 5; write OUT/calibration-PROFILE.json", cmd_calibrate,
            (MODEL.but(required=False, repeat=True,
                       default_help="the paper's machines: " + ", ".join(calibrate.CALIBRATED)),
             OUT, JOBS, SCHEDULER),
            ((("--no-write",), dict(action="store_true",
                                    help="do not write the fitted values into the profile")),)),
    Command("sweep", "vary one hardware-model parameter (or two: a grid) and rerun "
            "benchmarks; write OUT/sweep-PROFILE-PARAM[-PARAM2]/ (sweep.csv, .json, and "
            "sweep.png, .svg, or a grid's heatmap-BENCH.png, .svg); with --bench remote, Table 8's "
            "remote penalty under nfs and sprite (OUT/sweep-PROFILE-PARAM-remote/)", cmd_sweep,
            (MODEL, ARCH, BENCH.but(default_help=", ".join(sweep.DEFAULT_BENCHES),
                                   choices=lambda: _bench_names() + [rfssweep.BENCH]), OUT,
             JOBS, SCHEDULER),
            ((("--param",), dict(default="memory.bandwidth_mbs", metavar="SECTION.FIELD",
                                 help="profile field to vary (default: memory.bandwidth_mbs)")),
             (("--values",), dict(default="1,2,4,8,16,32,64", metavar="V1,V2,...",
                                  help="values to try (default: 1,2,4,8,16,32,64)")),
             (("--param2",), dict(metavar="SECTION.FIELD",
                                  help="a second field to vary: a grid of every pair of "
                                  "values, a heat map per benchmark (needs --values2)")),
             (("--values2",), dict(metavar="V1,V2,...",
                                   help="the second field's values")))),
    Command("attribute", "where a benchmark's modelled time goes, by guest function",
            cmd_attribute,
            (MODEL, ARCH, BENCH.but(repeat=False, default="getpid", default_help=""),
             CASE.but(default_help="the first; each case is a timed region")),
            ((("--command",), dict(metavar="'PROGRAM ARGS'",
                                   help="the exact command to run instead of the "
                                   "benchmark's (then --region picks the region)")),
             (("--region",), dict(type=int, help="timed region: 2 for the first case, "
                                  "4 for the second, ... (default: 2, or --case's)")),
             (("--top",), dict(type=int, default=25,
                               help="functions to list (default: 25)")),
             (("--function",), dict(action="append", metavar="NAME",
                                    help="also show this function instruction by "
                                    "instruction: executions, execution and stall cycles "
                                    "beside each (repeatable)")),
             (("--objdump",), dict(metavar="PROGRAM",
                                   help="the ISA's objdump, to disassemble a guest "
                                   "program's function (the kernel's comes from the "
                                   "build's build/ARCH/kernel.asm)")))),
    Command("grade", "grade a lab (docs/labs/): build, run its checks on every ISA it "
            "uses, measure it, compare with the unmodified kernel's numbers; write "
            "OUT/grade-labN.json", cmd_grade,
            (ARCH.but(repeat=True, default_help="every ISA the lab uses"), OUT, JOBS, SCHEDULER),
            ((("--lab",), dict(type=_lab_number, action="append", metavar="N",
                               help="the lab (repeatable; default: all: "
                               + ", ".join(map(str, labs.LABS)) + ")")),
             (("--no-build",), dict(action="store_true",
                                    help="grade what is built; do not run make")),
             (("--policy",), dict(default=grade.DEFAULT_POLICY, metavar="NAME", type=_policy_name,
                                  help="lab 4: the name of your write policy (default: "
                                  f"{grade.DEFAULT_POLICY})")),
             (("--predictions",), dict(metavar="FILE", help="your predictions (default: "
                                       "docs/labs/predictions/labN.toml)")),
             (("--write-baseline",), dict(action="store_true",
                                          help="write the measured values as the lab's "
                                          "baseline (the unmodified kernel's numbers)")),
             (("--force",), dict(action="store_true",
                                 help="with --write-baseline: even with local changes")))),
    Command("gdb", "the kernel stopped at its first instruction under gdb (QEMU's "
            "gdbstub), or under SIMH's own debugger on the VAX (docs/debugging.md)",
            cmd_gdb, (ARCH.but(default=machines.DEFAULT_ARCH, default_help=""),),
            ((("--program",), dict(metavar="NAME", help="also load this guest program's "
                                   "symbols, e.g. getpid")),
             (("gdb_args",), dict(nargs=argparse.REMAINDER, metavar="-- GDB-ARGS",
                                  help="more arguments for gdb, e.g. -- -batch -ex "
                                  "'break trap_entry' -ex continue")))),
    Command("crashtest", "crash consistency under each write policy: log every disk write, "
            "replay every crash point onto the image, fsck and fsck -y each, count the "
            "acknowledged data lost; write OUT/crashtest/ (docs/crashtest.md)", cmd_crashtest,
            (ARCH.but(default=machines.DEFAULT_ARCH, default_help=""), OUT),
            ((("--profile",), dict(default=None, metavar="NAME",
                                   help="the model that records the log (default: the "
                                   "ISA's own, its registry entry's model_profile)")),
             (("--max-points",), dict(type=_positive_int, default=400, metavar="N",
                                      help="crash states tried per log, of each kind "
                                      "(default: 400)")),
             (("--workload",), dict(action="append", metavar="NAME",
                                    choices=list(crashrun.WORKLOADS),
                                    help=", ".join(crashrun.WORKLOADS) + " (repeatable; "
                                    "default: all)")),
             (("--policy",), dict(action="append", metavar="NAME",
                                  choices=suite.POLICIES,
                                  help=", ".join(suite.POLICIES) + " (repeatable; "
                                  "default: all)")))),
    Command("figure1", "the paper's Figure 1 (OS speed against MIPS), ours beside it; "
            "write OUT/figure1/ (figure1.txt, .csv, .json, .png, .svg)", cmd_figure1,
            (OUT, JOBS, SCHEDULER)),
    Command("figure4", "Chen et al.'s Figure 4: cycles per memory reference against array "
            "size, one curve per page-allocation policy; write OUT/figure4.csv, .png, .json "
            "(OUT/figure4-PROFILE.* for a profile other than pc-p5)", cmd_figure4,
            (MODEL.but(default="pc-p5", required=False, default_help="pc-p5, Chen et al.'s "
                       "Pentium"), OUT)),
    Command("docs", "rewrite the tables of results in README.md, docs/ and "
            "hw-models/README.md (their <!-- docs: NAME --> blocks) from results files, "
            "first running what makes the missing ones (harness/docs/)", cmd_docs,
            (OUT.but(help="where the results files are"),),
            ((("--from-results",), dict(action="store_true",
                                        help="run nothing: rewrite from the results files "
                                        "there are, and fail naming any that is missing")),)),
    Command("overhead", "what the hardware model costs in host time (a benchmark: run "
            "it on an idle machine); write OUT/hwmodel-overhead-PROFILE.txt", cmd_overhead,
            (PROFILE.but(help="the machine's hardware model (hw-models/profiles/NAME.toml); "
                          "none only with --lockstep", default=None, default_help="",
                          required=True), ARCH, BENCH, OUT),
            ((("--repeat",), dict(type=_positive_int, default=3,
                                  help="runs of each; the best counts (default: 3)")),
             (("--floor",), dict(action="store_true",
                                 help="also time the floor plugin: the model's callbacks "
                                      "left empty (QEMU machines; hw-models/floor/floor.c)")),
             (("--lockstep",), dict(action="store_true",
                                    help="instead, what two machines on the modelled "
                                         "Ethernet cost against one (docs/network.md)")),
             (("--no-share-core",), dict(dest="share_core", action="store_false",
                                         help="with --lockstep: the two machines never share "
                                              "a host core (hw-models/core/wire.c; written to "
                                              "lockstep-overhead-PROFILE-apart.txt)")))),
)


# Each command's check of its input beyond its options' own (Command.check).
_CHECKS: dict[str, Callable[[argparse.Namespace], None]] = {
    "run": check_run, "rfscrash": check_rfscrash, "sweep": check_sweep, "grade": check_grade,
    "calibrate": check_calibrate, "figure1": check_figure1}
COMMANDS = tuple(dataclasses.replace(c, check=_CHECKS.get(c.name, c.check)) for c in COMMANDS)


class _Version(argparse.Action):
    """--version: computed only when asked (it runs git)."""

    def __init__(self, option_strings: list[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        where = provenance.short_git(provenance.git_state(ROOT))
        print(f"python3 -m harness {__version__} ({where}; results format {report.FORMAT})")
        parser.exit()


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's, but a line never breaks inside a hyphenated name
    (ds3100-riscv, modern-vax), which the help lists as choices."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser, and each command's own (for its usage errors)."""
    p = argparse.ArgumentParser(prog="python3 -m harness", epilog=EXIT_STATUS,
                                formatter_class=_HelpFormatter,
                                description="Boot the kernel under an emulator, run the "
                                "paper's benchmarks, print the paper's tables; time them "
                                "with hardware models of the paper's machines.")
    p.add_argument("--version", action=_Version)
    p.add_argument("--check-only", action="store_true",
                   help="check the command line and the files it names (profiles, "
                   "predictions), then exit without building or booting anything: "
                   "status 0 if all is good, 2 if not (make runs this first)")
    sub = p.add_subparsers(dest="command_name", required=True, metavar="COMMAND")
    parsers = {}
    for c in COMMANDS:
        sp = sub.add_parser(c.name, help=c.help, description=c.help, epilog=EXIT_STATUS,
                            formatter_class=_HelpFormatter)
        for o in c.options:
            o.add_to(sp)
        for flags, kw in c.extra:
            sp.add_argument(*flags, **kw)
        sp.set_defaults(func=c.handler)
        parsers[c.name] = sp
    return p, parsers


def resolve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """The rules between options, before anything is built or booted:
    --arch from the profile, and --case against the benchmark's cases."""
    profile = getattr(args, "profile", None)
    if "arch" in vars(args) and isinstance(profile, str):
        isa = profiles.load(profile).isa if profiles.is_model(profile) else None
        if args.arch is None:
            args.arch = isa or machines.DEFAULT_ARCH
        elif isa is not None and isa != args.arch:
            parser.error(f"profile {profile} models a {isa} machine, not {args.arch}: "
                         f"use --arch {isa}, or leave --arch out")
    if getattr(args, "case", None) is not None:
        if getattr(args, "region", None) is not None:
            parser.error("give --case or --region, not both")
        if getattr(args, "command", None):
            return                      # its cases are known when it has run
        cases = suite.BY_NAME[args.bench].short_case_names
        if args.case not in cases:
            parser.error(f"argument --case: invalid choice for {args.bench}: {args.case!r} "
                         f"(choose from {', '.join(cases)})")


def _terminate(signum: int, frame: object) -> None:
    # Turn SIGTERM into an exception so `with guest:` blocks kill the emulator.
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    parser, parsers = build_parser()
    args = parser.parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        resolve(args, parsers[args.command_name])
        if args.check_only:
            check = next(c.check for c in COMMANDS if c.name == args.command_name)
            if check is not None:
                check(args)
            return EXIT_OK
        return int(args.func(args))
    except HarnessError as e:
        if e.detail:
            _say(e.detail)
        _say(f"harness: {e}")
        return e.exit_code
    except KeyboardInterrupt:
        _say("harness: interrupted")
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
