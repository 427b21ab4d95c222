"""A suite run's record and its directory: `python3 -m harness run` makes
one, `python3 -m harness report DIR` prints it again.

    record = new(machine, profile, tag, guest.argv)    # what runs, on what
    ... record.boot, record.results (the suite), record.model (the model's counters)
    add_final_table(record, profile.data)             # the measure suite's
    text = report_text(record)                        # the tables `run` prints
    write(run_dir, record, text)                      # report.txt, results.json, ...

The record (report.RunRecord) is what every table is printed from, both
when the run ends and later from its results.json: the paper's tables
(report.py), the model's counters (counters.py) and the Final Results Table
(finaltable.py), in that order.  The files it writes are rundir.py's
(results.json, results.csv, report.txt; final.csv for the measure suite).
"""

from __future__ import annotations

from typing import Any

from ..guest.machines import Machine
from ..tables import write_csv
from . import counters, finaltable, provenance, report, rundir


def new(machine: Machine, profile: Any, tag: str | None, argv: list[str]) -> report.RunRecord:
    """The record of a run of `machine` under `profile` (profiles.Profile),
    booted with `argv`: no results yet."""
    return report.RunRecord(
        arch=machine.arch, profile=profile.name, mips=profile.mips,
        profile_note=profile.note, results=[], tag=tag,
        paper_machine=profile.data.get("paper", ""),
        paper_os=profile.data.get("paper_os", ""),
        provenance=provenance.record(machine, profile, argv))


def add_final_table(record: report.RunRecord, profile_data: dict[str, Any]) -> None:
    """The measure suite's Final Results Table, predicted from the profile
    and kept in the record (its JSON's "final_table")."""
    record.meta["suite"] = "measure"
    record.meta["final_table"] = finaltable.to_json(finaltable.final_table(record,
                                                                           profile_data))


def report_text(record: report.RunRecord) -> str:
    """The tables `run` prints: the paper's, then the model's counters and
    the Final Results Table where the record has them."""
    text = report.format_report(record)
    if record.model:
        text += "\n" + counters.counter_table(record)
    if record.meta.get("final_table"):
        text += "\n" + finaltable.text(finaltable.from_json(record.meta["final_table"]),
                                       record, final_note(record))
    return text


def final_note(record: report.RunRecord) -> str:
    """What the Final Results Table's hardware column is: the model's
    charges for the measure suite, the link's for the network's, both for
    the remote file read's."""
    if record.meta.get("suite") == "net":
        from ..net.table import NOTE        # here: harness/net imports this module
        return NOTE
    if record.meta.get("suite") == "measure-remote":
        from ..rfs.readpredict import NOTE  # the same: harness/rfs imports it
        return NOTE
    return finaltable.NOTE


def write(d: rundir.RunDir, record: report.RunRecord, text: str) -> None:
    """The run's files, into its (partial) directory."""
    d.path("report.txt").write_text(text)
    report.write_json(record, d.path(rundir.RESULTS))
    write_csv(d.path("results.csv"), *report.csv_table(record))
    if record.meta.get("final_table"):
        write_csv(d.path("final.csv"), *finaltable.csv_table(
            finaltable.from_json(record.meta["final_table"])))
