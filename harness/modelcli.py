"""The hardware model's commands, added to `python3 -m harness` by cli.py:

    calibrate   fit CPI and memory bandwidth to Table 1 and Table 5 (calibrate.py)
    sweep       vary one model parameter, rerun benchmarks, write CSV and PNG (sweep.py)
    attribute   a benchmark region's modelled cycles by guest function (attribute.py)
    figure1     the paper's Figure 1, ours beside it (figure1.py)

A profile models a machine of one ISA, so --arch defaults to the profile's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .model import attribute
from .model import calibrate
from .model import figure1
from .model import hwmodel
from .model import sweep


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def cmd_calibrate(args: argparse.Namespace) -> int:
    names = args.profile or calibrate.CALIBRATED
    calibrate.calibrate(names, write=not args.no_write, say=_say)
    return 0


def _arch(args: argparse.Namespace) -> str:
    return args.arch or hwmodel.load_profile(args.profile).isa


def cmd_sweep(args: argparse.Namespace) -> int:
    sweep.run_sweep(args.profile, args.param, sweep.parse_values(args.values),
                    args.bench or ["bcopy", "readcache", "getpid", "mips"], Path(args.out) if args.out else None,
                    arch=_arch(args), say=_say)
    return 0


def cmd_attribute(args: argparse.Namespace) -> int:
    command = args.command or sweep.COMMANDS.get(args.bench, args.bench)
    costs, meta = attribute.attribute(args.profile, command, args.region, arch=_arch(args))
    print(attribute.format_costs(costs, meta, args.top), end="")
    return 0


def cmd_figure1(args: argparse.Namespace) -> int:
    text, csv_path, png_path = figure1.figure1(Path(args.out) if args.out else None, say=_say)
    print(text, end="")
    _say(f"wrote {csv_path}, {png_path} and {csv_path.with_suffix('.txt')}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("calibrate", help="fit CPI and memory bandwidth of hardware models "
                        "to the paper's Tables 1 and 5")
    sp.add_argument("--profile", action="append", choices=hwmodel.names(), metavar="NAME",
                    help="profile to calibrate (repeatable; default: "
                    + ", ".join(calibrate.CALIBRATED) + ")")
    sp.add_argument("--no-write", action="store_true",
                    help="do not write the fitted values back into the profile")
    sp.set_defaults(func=cmd_calibrate)

    sp = sub.add_parser("sweep", help="vary one hardware-model parameter and rerun benchmarks "
                        "(CSV and PNG)")
    sp.add_argument("--arch", help="ISA (default: the profile's)")
    sp.add_argument("--profile", default="ds3100", choices=hwmodel.names(), metavar="NAME",
                    help="the machine (default ds3100)")
    sp.add_argument("--param", default="memory.bandwidth_mbs", metavar="SECTION.FIELD",
                    help="profile field to vary (default memory.bandwidth_mbs)")
    sp.add_argument("--values", default="1,2,4,8,16,32,64", metavar="V1,V2,...",
                    help="values to try (default 1,2,4,8,16,32,64)")
    sp.add_argument("--bench", action="append", choices=list(sweep.COMMANDS), metavar="NAME",
                    help="benchmark to run (repeatable; default bcopy, readcache, getpid and mips; known: "
                    + ", ".join(sweep.COMMANDS) + ")")
    sp.add_argument("--out", metavar="STEM",
                    help="output path without suffix (default results/sweep-PROFILE-PARAM)")
    sp.set_defaults(func=cmd_sweep)

    sp = sub.add_parser("attribute", help="where a benchmark's modelled time goes, "
                        "by guest function")
    sp.add_argument("--arch", help="ISA (default: the profile's)")
    sp.add_argument("--profile", default="ds3100", choices=hwmodel.names(), metavar="NAME",
                    help="the machine (default ds3100)")
    sp.add_argument("--bench", default="getpid", metavar="NAME",
                    help="benchmark program (default getpid; run with its sweep arguments: "
                    + "; ".join(f"{k}: {v!r}" for k, v in sweep.COMMANDS.items()) + ")")
    sp.add_argument("--command", metavar="'PROGRAM ARGS'",
                    help="the exact command to run instead")
    sp.add_argument("--region", type=int, default=2,
                    help="timed region: 2 for the first case, 4 for the second, ... (default 2)")
    sp.add_argument("--top", type=int, default=25, help="functions to list (default 25)")
    sp.set_defaults(func=cmd_attribute)

    sp = sub.add_parser("figure1", help="the paper's Figure 1 (OS speed against MIPS), "
                        "ours beside it")
    sp.add_argument("--out", metavar="STEM",
                    help="output path without suffix (default results/figure1)")
    sp.set_defaults(func=cmd_figure1)
