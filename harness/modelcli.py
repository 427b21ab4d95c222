"""The hardware model's commands, added to `python3 -m harness` by cli.py:

    calibrate   fit CPI and memory bandwidth to Table 1 and Table 5 (calibrate.py)
"""

from __future__ import annotations

import argparse
import sys

from . import calibrate, hwmodel


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def cmd_calibrate(args: argparse.Namespace) -> int:
    names = args.profile or calibrate.CALIBRATED
    calibrate.calibrate(names, write=not args.no_write, say=_say)
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
