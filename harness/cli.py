"""The command line: `python3 -m harness run|shell|report|check` (see docs/harness.md).

    run     boot, run the benchmark suite, print the paper-style tables, and
            write <out>/<arch>-<profile>.json, .csv and .log
    shell   boot to the guest's shell with the console on this terminal
    report  print the tables again from a .json file that `run` wrote
    check   boot and run the failure-case test programs (t_*)

Exit status: 0 when all went well; 1 when the guest or a benchmark failed
(kernel panic, hang, FAIL line, missing RESULT); 2 when something must be
installed or built first, or the command line is wrong.  A failure prints
context (the last console lines) and then one line starting "harness: ".
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Sequence

from .bench import checks
from .model import hwmodel
from .guest import machines
from . import modelcli
from .model import profiles
from .bench import report
from .bench import suite
from .guest.console import Guest
from .errors import HarnessError
from .guest.machines import ROOT


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _model_args(machine: machines.Machine, profile: profiles.Profile,
                hw_log: Path) -> list[str]:
    """QEMU arguments that load the hardware model, if the profile has one."""
    if profile.hw is None:
        return []
    return hwmodel.emulator_args(profile.hw, machine.arch, machine.kernel_path(), hw_log)


def _hw_log(log_path: Path) -> Path:
    return log_path.with_name(log_path.stem + ".hw.log")


def _start_guest(args: argparse.Namespace, log_path: Path | None) -> tuple[Guest, machines.Machine,
                                                                           profiles.Profile]:
    machine = machines.get(args.arch)
    profile = profiles.get(args.profile)
    argv = machine.command(profile)
    if log_path is not None:
        argv += _model_args(machine, profile, _hw_log(log_path))
    guest = Guest(argv, log_path=log_path, line_ending=machine.line_ending,
                  char_delay=machine.char_delay, cwd=ROOT, stop_key=machine.stop_key)
    return guest, machine, profile


def cmd_run(args: argparse.Namespace) -> int:
    benches = suite.choose(args.bench)
    out = Path(args.out)
    stem = f"{args.arch}-{args.profile}"
    log_path = out / f"{stem}.log"
    guest, machine, profile = _start_guest(args, log_path)
    _say(f"harness: booting {args.arch} (profile {args.profile}): {' '.join(guest.argv)}")

    def progress(run: suite.BenchRun) -> None:
        _say(f"harness: {run.bench.name}: {len(run.results)} result(s) "
             f"in {run.seconds:.1f} s of host time")

    try:
        with guest:
            boot = guest.boot(timeout=machine.boot_timeout)
            runs = suite.run_suite(guest, benches, timeout=args.timeout, progress=progress)
    except HarnessError as e:
        e.detail = "\n".join(x for x in (e.detail, f"console log: {log_path}") if x)
        raise

    commit, dirty = report.git_commit(ROOT)
    emulator = machine.emulator_version()
    record = report.RunRecord(
        arch=args.arch, profile=profile.name, mips=profile.mips, profile_note=profile.note,
        results=suite.all_results(runs), boot=boot,
        meta={"emulator": emulator, "qemu_version": machines.parse_qemu_version(emulator),
              "git_commit": commit, "git_dirty": dirty, "created": report.now_utc(),
              "command": guest.argv})
    if profile.hw is not None and profile.hw.model:
        joined = _join_model_log(record, _hw_log(log_path))
        print(report.format_report(record), end="")
        print()
        print(hwmodel.format_counters(profile.hw, joined), end="")
    else:
        print(report.format_report(record), end="")
    report.write_json(record, out / f"{stem}.json")
    report.write_csv(record, out / f"{stem}.csv")
    _say(f"harness: wrote {out / stem}.json, .csv and .log")
    return 0


def profile_data(name: str) -> dict:
    hw = profiles.get(name).hw
    return hw.data if hw is not None else {}


def _join_model_log(record: report.RunRecord, hw_log: Path) -> list[hwmodel.Joined]:
    """Pair each RESULT with the model's region records; keep them in the JSON."""
    regions, warnings = hwmodel.read_log(hw_log)
    for w in warnings:
        _say(f"harness: hardware model: {w}")
    joined = hwmodel.join(record.results, regions)
    record.meta["hwmodel"] = {
        "profile": record.profile, "log": str(hw_log),
        "params": profile_data(record.profile),
        "counters": [{"bench": j.result.bench, "case": j.result.case,
                      "timed": j.timed.fields, "empty": j.empty.fields,
                      "per_op": j.counters()} for j in joined],
    }
    return joined


def cmd_check(args: argparse.Namespace) -> int:
    programs = args.program or list(checks.TEST_PROGRAMS)
    log_path = Path(args.out) / f"{args.arch}-{args.profile}-check.log"
    guest, machine, _ = _start_guest(args, log_path)
    failed = []
    with guest:
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
    return 0


def cmd_shell(args: argparse.Namespace) -> int:
    machine = machines.get(args.arch)
    profile = profiles.get(args.profile)
    argv = machine.command(profile, interactive=True)
    argv += _model_args(machine, profile,
                        Path("results") / f"{args.arch}-{args.profile}-shell.hw.log")
    _say(f"harness: {' '.join(argv)}")
    _say("harness: type `halt` at the guest prompt to power off, or Ctrl-A x to quit QEMU")
    os.chdir(ROOT)
    os.execvp(argv[0], argv)
    return 0  # not reached


def cmd_report(args: argparse.Namespace) -> int:
    print(report.format_report(report.load_json(Path(args.file))), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python3 -m harness",
                                description="Boot the kernel under an emulator, run the "
                                "paper's benchmarks, print the paper's tables.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--arch", default="riscv", choices=sorted(machines.MACHINES),
                        help="which ISA to boot (default riscv)")
        sp.add_argument("--profile", default="none", choices=profiles.names(),
                        help="timing profile (default none: plain -icount, 1 insn = 1 ns)")

    sp = sub.add_parser("run", help="run the benchmark suite and print the tables")
    common(sp)
    sp.add_argument("--out", default="results", metavar="DIR",
                    help="where to write <arch>-<profile>.json/.csv/.log (default results)")
    sp.add_argument("--bench", action="append", choices=list(suite.BY_NAME), metavar="NAME",
                    help="run only this benchmark (repeatable; default all: "
                    + ", ".join(suite.BY_NAME) + ")")
    sp.add_argument("--timeout", type=float, metavar="SECONDS",
                    help="host seconds allowed per benchmark (default: per benchmark)")
    sp.set_defaults(func=cmd_run)

    sp = sub.add_parser("check", help="run the failure-case test programs")
    common(sp)
    sp.add_argument("--out", default="results", metavar="DIR",
                    help="where to write the console log (default results)")
    sp.add_argument("--program", action="append", metavar="NAME",
                    help="run only this test program (repeatable; default all: "
                    + ", ".join(checks.TEST_PROGRAMS) + ")")
    sp.add_argument("--timeout", type=float, metavar="SECONDS",
                    help=f"host seconds allowed per program (default {checks.DEFAULT_TIMEOUT:g})")
    sp.set_defaults(func=cmd_check)

    sp = sub.add_parser("shell", help="boot to the guest shell on this terminal")
    common(sp)
    sp.set_defaults(func=cmd_shell)

    sp = sub.add_parser("report", help="print the tables from a results .json file")
    sp.add_argument("file", metavar="FILE.json")
    sp.set_defaults(func=cmd_report)

    modelcli.add_commands(sub)          # calibrate, sweep, attribute (hardware models)
    return p


def _terminate(signum: int, frame: object) -> None:
    # Turn SIGTERM into an exception so `with guest:` blocks kill the emulator.
    raise SystemExit(128 + signum)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return int(args.func(args))
    except HarnessError as e:
        if e.detail:
            _say(e.detail)
        _say(f"harness: {e}")
        return e.exit_code
    except KeyboardInterrupt:
        _say("harness: interrupted")
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)
