"""The tables `make docs` writes into the docs, each from its results files.

Each Table has a name (the block's, `<!-- docs: NAME -->`), the files it
reads (Source: the path and the command that writes it) and a function
from their contents to Markdown lines.  A table computes nothing the
harness did not already record: it picks values out of results.json,
figure1.json, sweep.json or a profile's [calibration] section, rounds
them and lays them out.

Numbers are shown to three significant digits (a whole number from 100
up), instruction counts whole with a space between thousands, the paper's
numbers as the paper printed them.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from typing import Any, Callable

from .. import ROOT
from ..bench.suite import POLICIES
from ..errors import SetupError
from ..model.sweep import dir_name as sweep_dir
from ..rfs.sweep import dir_name as remote_sweep_dir, words as swept_words
from .sources import Source


@dataclass(frozen=True)
class Table:
    name: str
    sources: tuple[Source, ...]
    render: Callable[..., list[str]]     # one argument per source, its contents


# ---------------------------------------------------------------- formatting

def sig(v: float | None, digits: int = 3) -> str:
    """v to `digits` significant digits, whole from 10**(digits-1) up:
    29.0432 -> 29.0, 0.57115 -> 0.571, 1007.4 -> 1007."""
    if v is None:
        return "-"
    if v == 0:
        return "0"
    if abs(v) >= 10 ** (digits - 1):
        return str(round(v))
    places = digits - 1 - math.floor(math.log10(abs(v)))
    text = f"{v:.{places}f}"
    # rounding may carry into a new digit (9.996 -> 10.00): one place fewer
    if len(text.replace("-", "").replace(".", "").lstrip("0")) > digits:
        text = f"{v:.{max(places - 1, 0)}f}"
    return text


def count(v: float | None) -> str:
    """An instruction count, whole, thousands apart: 2834.1 -> '2 834'."""
    if v is None:
        return "-"
    return f"{round(v):,}".replace(",", " ")


def paper_num(v: Any) -> str:
    return "-" if v is None else f"{v:g}"


def pct(ours: float, target: float) -> str:
    """The error against a target, bold beyond 5%: '-4.4%', '**+23.2%**'."""
    e = ours / target - 1
    text = f"{e:+.1%}"
    return f"**{text}**" if abs(e) > 0.05 else text


def markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cells) + " |"
    return [line(header), "|" + "---|" * len(header), *[line(r) for r in rows]]


# ---------------------------------------------------------------- reading runs

def result(run: dict[str, Any], bench: str, case: str) -> dict[str, Any]:
    """One case of a run's results.json; SetupError naming the run if absent."""
    for r in run.get("results", []):
        if r.get("bench") == bench and r.get("case") == case:
            return r
    raise SetupError(f"results of {run.get('run', '?')}: no case {bench} {case} "
                     f"(run the whole suite: `make run ARCH={run.get('arch')} "
                     f"PROFILE={run.get('profile')}`)")


def value(run: dict[str, Any], bench: str, case: str) -> float:
    """The case in the paper's unit (results.json's derived value)."""
    return result(run, bench, case)["derived"]["value"]


def paper(run: dict[str, Any], bench: str, case: str) -> float | None:
    """The paper's number for the profile's own row, if it has one."""
    p = result(run, bench, case).get("paper")
    return p["value"] if p else None


def insns(run: dict[str, Any], bench: str, case: str) -> float:
    """Instructions per operation: the guest's own count where the ISA
    has one, else the model's, else (profile none, 1 instruction = 1 ns)
    the time."""
    r = result(run, bench, case)
    if r["derived"].get("insns_per_op") is not None:
        return r["derived"]["insns_per_op"]
    model = r.get("model")
    if model:
        return model["per_op"]["insns"]
    if run.get("profile") == "none":
        return r["derived"]["ns_per_op"]
    raise SetupError(f"results of {run.get('run')}: {bench} {case} counts no instructions")


def per_op(run: dict[str, Any], bench: str, case: str, counter: str) -> float:
    model = result(run, bench, case).get("model")
    if not model or counter not in model["per_op"]:
        raise SetupError(f"results of {run.get('run')}: {bench} {case} has no model "
                         f"counter {counter!r} (a run under a hardware model has)")
    return model["per_op"][counter]


def run_source(arch: str, profile: str) -> Source:
    return Source(f"{arch}-{profile}/results.json", f"make run ARCH={arch} PROFILE={profile}")


def both(run: dict[str, Any], bench: str, cases: tuple[str, ...], fmt=sig) -> str:
    """'ours / ours (paper / paper)' over a benchmark's cases."""
    ours = " / ".join(fmt(value(run, bench, c)) for c in cases)
    theirs = [paper(run, bench, c) for c in cases]
    if all(t is None for t in theirs):
        return ours
    return f"{ours} ({' / '.join(paper_num(t) for t in theirs)})"


def whole(v: float | None) -> str:
    return "-" if v is None else str(round(v))


# ---------------------------------------------------------------- Figure 1

FIGURE1 = Source("figure1/figure1.json", "make figure1")


def _profile_names(fig: dict[str, Any]) -> list[tuple[str, str, float]]:
    """(machine, profile, MIPS) in the figure's order."""
    out: list[tuple[str, str, float]] = []
    for p in fig["points"]:
        key = (p["machine"], p["profile"], p["mips"])
        if key not in out:
            out.append(key)
    return out


def _speed(fig: dict[str, Any], machine: str, source: str, bench: str) -> list[float]:
    return [p["mips_relative"] for p in fig["points"]
            if p["machine"] == machine and p["source"] == source and p["benchmark"] == bench]


def _policies(fig: dict[str, Any], machine: str) -> str:
    """The write policies of a machine's point (Andrew, create-delete)."""
    return ", ".join(str(p.get("policy") or "").replace("/", ", ") for p in fig["points"]
                     if p["machine"] == machine and p["source"] == "ours"
                     and p["benchmark"] == "geomean") or "-"


def figure1(fig: dict[str, Any]) -> list[str]:
    rows = []
    for machine, profile, mips in _profile_names(fig):
        ours = _speed(fig, machine, "ours", "geomean")
        theirs = _speed(fig, machine, "paper", "geomean")
        rows.append([f"{machine} (`{profile}`)", f"{mips:g}", f"{ours[0]:.2f}", f"{theirs[0]:.2f}",
                     _policies(fig, machine)])
    return markdown(["machine (profile)", "MIPS", "ours", "paper",
                     "write policy (Andrew, create-delete)"], rows)


def figure1_detail(fig: dict[str, Any]) -> list[str]:
    benches = list(dict.fromkeys(p["benchmark"] for p in fig["points"]
                                 if p["benchmark"] != "geomean"))
    rows = []
    for machine, profile, mips in _profile_names(fig):
        for source in ("ours", "paper"):
            cells = ["/".join(f"{v:.2f}" for v in _speed(fig, machine, source, b)) or "-"
                     for b in benches]
            mean = _speed(fig, machine, source, "geomean")
            rows.append([machine if source == "ours" else "", f"{mips:g}" if source == "ours"
                         else "", source, *cells, f"{mean[0]:.2f}"])
    return markdown(["machine", "MIPS", "", *benches, "geo. mean"], rows)


# ---------------------------------------------------------------- instructions by ISA

def isa_runs() -> tuple[Source, ...]:
    """Each ISA's run under the profile its tests are timed with (the
    registry's model_profile), in the registry's order: the model's
    instruction counter counts what the processor issued, on every ISA."""
    from ..guest import machines
    return tuple(run_source(m.arch, m.model_profile) for m in machines.MACHINES.values())


def isa_costs(*runs: dict[str, Any]) -> list[str]:
    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> list[str]:
        return [label, *[cell(r) for r in runs]]

    def per_byte(r: dict[str, Any], case: str) -> str:
        res = result(r, "bcopy", case)
        v = res["bytes"] / insns(r, "bcopy", case)
        return count(v) if v >= 1000 else sig(v)          # the VAX's MOVC3: 4 056

    def windows(r: dict[str, Any]) -> str:
        res = result(r, "cswitch", "roundtrip").get("model") or {}
        pc = res.get("per_op", {})
        if "wovf" not in pc:
            return ""
        return f"{count(pc['wovf'])} + {count(pc['wunf'])}"

    rows = [
        row("getpid, whole call", lambda r: count(insns(r, "getpid", "call"))),
        row("cswitch round trip", lambda r: count(insns(r, "cswitch", "roundtrip"))),
        row("select, 1 empty / 10 empty / 10 full",
            lambda r: " / ".join(count(insns(r, "select", c))
                                 for c in ("1empty", "10empty", "10full"))),
        row("bcopy, bytes per instruction (cached / uncached)",
            lambda r: f"{per_byte(r, 'cached')} / {per_byte(r, 'uncached')}"),
        row("read 16 KB from the file cache", lambda r: count(insns(r, "readcache", "1mb"))),
        row("register window traps per cswitch round trip (overflow + underflow)", windows),
    ]
    return markdown(["", *[f"{r['arch']} (`{r['profile']}`)" for r in runs]], rows)


# ---------------------------------------------------------------- a round trip by ISA

def net_runs() -> tuple[Source, ...]:
    """SUITE=net under profile none on every board the registry puts on the
    wire (harness/net/pair.py: on_wire), in the registry's order."""
    from ..guest import machines
    from ..net.pair import on_wire
    return tuple(Source(f"{m.arch}-none-net/results.json", f"make run ARCH={m.arch} SUITE=net")
                 for m in machines.MACHINES.values() if on_wire(m))


def net_insns(*runs: dict[str, Any]) -> list[str]:
    """The client's instructions per operation, as its model counted them
    (under none the model is loaded with 1 ns a cycle so the wire can keep
    time: harness/net/pair.py's none_as_model), the same counter on every
    ISA."""
    def client(r: dict[str, Any], case: str) -> float:
        return per_op(r, "net", case, "insns")

    rows = [
        ["UDP round trip, 64 bytes, user to user", *[count(client(r, "udp-rtt")) for r in runs]],
        ["TCP round trip, 64 bytes, user to user", *[count(client(r, "tcp-rtt")) for r in runs]],
        ["ICMP echo (the far kernel answers)", *[count(client(r, "icmp-rtt")) for r in runs]],
        ["TCP connection set up and torn down", *[count(client(r, "tcp-connect")) for r in runs]],
        ["TCP bulk transfer, per block of 8 KB", *[count(client(r, "tcp-bulk")) for r in runs]],
        ["... per byte", *[sig(client(r, "tcp-bulk") / result(r, "net", "tcp-bulk")["bytes"])
                           for r in runs]],
    ]
    return markdown(["client's instructions", *[r["arch"] for r in runs]], rows)


# ---------------------------------------------------------------- predictions

PAPER_MACHINES = ("mvax2", "vax8800", "sun3", "sun4", "ds3100", "m2000")


def _isa_of(profile: str) -> str:
    """The ISA a profile's machine runs: its file's `isa`."""
    path = ROOT / "hw-models" / "profiles" / f"{profile}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))["isa"]


def model_run(profile: str) -> Source:
    return run_source(_isa_of(profile), profile)


def predictions_cpu(*runs: dict[str, Any]) -> list[str]:
    rows = [[r["profile"],
             both(r, "getpid", ("call",)),
             both(r, "cswitch", ("roundtrip",)),
             both(r, "select", ("1empty", "10empty", "10full"), whole),
             both(r, "bcopy", ("cached", "uncached")),
             both(r, "readcache", ("1mb",))] for r in runs]
    return markdown(["", "getpid (us)", "cswitch (ms)", "select 1 / 10 empty / 10 full (us)",
                     "bcopy cached / uncached (MB/s)", "read file cache (MB/s)"], rows)


def predictions_fs(*runs: dict[str, Any]) -> list[str]:
    def andrew(r: dict[str, Any]) -> str:
        ours = f"{sig(value(r, 'andrew', 'copy-sync'))} + {sig(value(r, 'andrew', 'compile-sync'))}"
        theirs = [paper(r, "andrew", c) for c in ("copy-sync", "compile-sync")]
        if None in theirs:
            return ours
        return f"{ours} ({paper_num(theirs[0])} + {paper_num(theirs[1])})"

    sizes = ("0k", "10k", "100k")
    rows = [[r["profile"],
             both(r, "openclose", ("foo", "/a/b/c/foo")),
             both(r, "createdelete", tuple(f"{s}-sync" for s in sizes)),
             both(r, "createdelete", tuple(f"{s}-delayed" for s in sizes)),
             andrew(r)] for r in runs]
    return markdown(["", "open-close foo / a/b/c/foo (ms)",
                     "create-delete 0 / 10 / 100 KB, `sync` (ms)", "the same, `delayed`",
                     "Andrew copy + compile, `sync` (s)"], rows)


def sun4_windows(run: dict[str, Any]) -> list[str]:
    def time(bench: str, case: str) -> str:
        r = result(run, bench, case)
        unit = r["derived"]["unit"]
        return f"{sig(r['derived']['value'])} {unit}"

    rows = []
    for label, bench, case in (("getpid", "getpid", "call"),
                               ("cswitch round trip", "cswitch", "roundtrip"),
                               ("select, 10 full pipes", "select", "10full"),
                               ('open-close "foo"', "openclose", "foo")):
        unit = result(run, bench, case)["derived"]["unit"]
        rows.append([label, count(insns(run, bench, case)),
                     count(per_op(run, bench, case, "wovf")),
                     count(per_op(run, bench, case, "wunf")), time(bench, case),
                     f"{paper_num(paper(run, bench, case))} {unit}"])
    return markdown(["", "instructions", "window overflow traps", "underflow traps", "time",
                     "SunOS 4.0"], rows)


# ---------------------------------------------------------------- calibration

CALIBRATED = ("mvax2", "vax8800", "sun3", "sun4", "ds3100", "m2000", "ds3100-riscv")


def profile_source(name: str) -> Source:
    return Source(f"hw-models/profiles/{name}.toml",
                  f"python3 -m harness calibrate --profile {name}", in_tree=True)


def calibration(*profiles: dict[str, Any]) -> list[str]:
    from types import SimpleNamespace
    from ..model.calibrate import cached_copy_uses_memory
    rows = []
    for name, p in zip(CALIBRATED, profiles):
        c = p.get("calibration")
        if not c:
            raise SetupError(f"hw-models/profiles/{name}.toml has no [calibration] section: "
                             f"run `python3 -m harness calibrate --profile {name}`")
        bandwidth = sig(p["memory"]["bandwidth_mbs"])
        if "write_ns" in c:
            bandwidth += f" read; {whole(c['write_ns'])} ns per word written"
        cached = (f"{sig(c['bcopy_cached'])} ({paper_num(c['bcopy_cached_paper'])}) "
                  f"{pct(c['bcopy_cached'], c['bcopy_cached_paper'])}")
        if not cached_copy_uses_memory(SimpleNamespace(data=p)):
            cached += ", predicted"      # write-back: the cached copy never reaches memory
        rows.append([f"{name} ({p['isa']})", sig(p["cpu"]["cpi"], 4), bandwidth,
                     f"{sig(c['mips'])} ({paper_num(c['mips_target'])})", cached,
                     f"{sig(c['bcopy_uncached'])} ({paper_num(c['bcopy_uncached_target'])}) "
                     f"{pct(c['bcopy_uncached'], c['bcopy_uncached_target'])}"])
    return markdown(["profile (ISA)", "fitted CPI", "MB/s", "MIPS", "bcopy cached",
                     "bcopy uncached"], rows)


# ---------------------------------------------------------------- sweeps

def sweep_source(param: str, values: str = "") -> Source:
    make = "make sweep" + (f" SWEEP_PARAM={param} SWEEP_VALUES={values}" if values else "")
    return Source(f"sweep-ds3100-{param.replace('.', '-')}/sweep.json", make)


def sweep(s: dict[str, Any]) -> list[str]:
    def cell(v: Any, bench: str, case: str) -> str:
        got = [r["measured"] for r in s["rows"]
               if r["value"] == v and r["bench"] == bench and r["case"] == case]
        return sig(got[0]) if got else "-"

    words = {"memory.bandwidth_mbs": "MB/s", "memory.write_ns": "ns per word written"}
    rows = []
    for v in s["values"]:
        label = f"{v:g}" + (" (profile)" if v == s.get("profile_value") else "")
        rows.append([label, cell(v, "bcopy", "cached"), cell(v, "bcopy", "uncached"),
                     cell(v, "readcache", "1mb"), cell(v, "mips", "integer"),
                     cell(v, "getpid", "call")])
    return markdown([words.get(s["param"], s["param"]), "bcopy cached (MB/s)",
                     "bcopy uncached (MB/s)", "read file cache (MB/s)", "mips (MIPS)",
                     "getpid (us)"], rows)


# The wire's bit rate swept under two DECstations (docs/sweeps.md).
LINK_PROFILE = "ds3100-riscv"
LINK_SWEEP = Source(f"{sweep_dir(LINK_PROFILE, 'link.bandwidth_mbps')}/sweep.json",
                    f"make sweep SWEEP_PROFILE={LINK_PROFILE} SWEEP_PARAM=link.bandwidth_mbps "
                    "SWEEP_VALUES=1,2,5,10,20,50,100 SWEEP_BENCH=net")


def link_sweep(s: dict[str, Any]) -> list[str]:
    """Each network case at each bit rate, measured / the hardware's share."""
    def cell(v: Any, case: str) -> str:
        got = [r for r in s["rows"] if r["value"] == v and r["bench"] == "net"
               and r["case"] == case]
        if not got:
            return "-"
        r = got[0]
        return sig(r["measured"]) + (f" / {sig(r['hardware'])}"
                                     if r.get("hardware") is not None else "")
    rows = []
    for v in s["values"]:
        label = f"{v:g}" + (" (profile)" if v == s.get("profile_value") else "")
        rows.append([label] + [cell(v, c) for c in ("udp-rtt", "tcp-rtt", "icmp-rtt",
                                                    "tcp-connect", "tcp-bulk")])
    return markdown(["Mb/s", "UDP round trip (us)", "TCP round trip (us)", "ICMP echo (us)",
                     "TCP setup and teardown (us)", "TCP bulk (MB/s)"], rows)


# Table 8's remote penalty swept under two DECstations (docs/remote-files.md,
# "Sweeps of the remote penalty"): block name -> (field, values).
REMOTE_SWEEPS = {
    "sweep-remote-bandwidth": ("link.bandwidth_mbps", "1,2,5,10,20,50,100"),
    "sweep-remote-latency": ("link.latency_ns", "1000,10000,100000,300000,1000000"),
    "sweep-remote-cpu": ("cpu.clock_mhz", "8.335,16.67,33.34,66.68,133.36"),
}


def remote_sweep_source(name: str, png: bool = False) -> Source:
    param, values = REMOTE_SWEEPS[name]
    return Source(f"{remote_sweep_dir(LINK_PROFILE, param)}/sweep.{'png' if png else 'json'}",
                  f"make sweep SWEEP_PROFILE={LINK_PROFILE} SWEEP_PARAM={param} "
                  f"SWEEP_VALUES={values} SWEEP_BENCH=remote")


def remote_sweep(s: dict[str, Any]) -> list[str]:
    """Andrew local and remote, and the penalty, per protocol at each point."""
    def cells(v: Any, protocol: str) -> list[str]:
        got = [r for r in s["rows"] if r["value"] == v and r["protocol"] == protocol]
        if not got:
            return ["-"] * 3
        r = got[0]
        return [sig(r["local_s"]), sig(r["remote_s"]), f"{r['penalty_pct']:.1f}"]
    rows = []
    for v in s["values"]:
        label = swept_words(v) + (" (profile)" if v == s.get("profile_value") else "")
        rows.append([label, *cells(v, "nfs"), *cells(v, "sprite")])
    words = {"link.bandwidth_mbps": "Mb/s", "link.latency_ns": "cable latency (ns)",
             "cpu.clock_mhz": "CPU clock (MHz)"}
    return markdown([words.get(s["param"], s["param"]), "local sync (s)", "nfs (s)",
                     "nfs penalty (%)", "local delayed (s)", "sprite (s)",
                     "sprite penalty (%)"], rows)


# ---------------------------------------------------------------- crash test

CRASHTEST = Source("crashtest/crashtest.json", "make crashtest CRASH_POINTS=100000")


def nbytes(n: int) -> str:
    """Bytes as the crash test's table prints them: 102400 B."""
    return f"{n} B"


def binary(n: int) -> str:
    """Bytes in KB or MB of 1024 and 1024 * 1024: 327488 -> '320 KB'."""
    if n == 0:
        return "0"
    if n >= 1 << 20:
        return f"{sig(n / (1 << 20))} MB"
    return f"{sig(n / 1024)} KB"


def crashtest(ct: dict[str, Any]) -> list[str]:
    """Every row; with the rename workload's two columns (its name gone or
    partial, "-" for a workload that watches no name) when the results have
    them (crash tests since rename(2) was added)."""
    named = any("name_missing" in r for r in ct["rows"])
    rows = [[r["workload"], r["policy"], str(r["writes"]), str(r["tried"]),
             str(r["reordered"]), str(r["consistent"]), str(r["leaks"]),
             str(r["inconsistent"]), str(r["after_repair"]), str(r["points_losing_data"]),
             nbytes(r["max_lost_bytes"]), nbytes(r["max_at_risk_bytes"])]
            + ([str(r.get("name_missing", "-")), str(r.get("name_partial", "-"))] if named else [])
            for r in ct["rows"]]
    return markdown(["workload", "policy", "writes", "tried", "reord", "consistent", "leaks",
                     "inconsistent", "after -y", "lose data", "max lost", "max at risk"]
                    + (["name gone", "name partial"] if named else []), rows)


def crashtest_summary(ct: dict[str, Any], run: dict[str, Any]) -> list[str]:
    """Per policy: what create-delete costs (the run) and what the crash
    states of every workload come to (the crash test)."""
    rows = []
    for pol in POLICIES:
        mine = [r for r in ct["rows"] if r["policy"] == pol]
        if not mine:
            continue
        tried = sum(r["tried"] for r in mine)
        reord = sum(r["reordered"] for r in mine)
        risk = max(r["max_at_risk_bytes"] for r in mine)
        rows.append([f"`{pol}`", both(run, "createdelete", tuple(f"{s}-{pol}" for s in
                                                                  ("0k", "10k", "100k"))),
                     count(tried) + (f" ({count(reord)} reordered)" if reord else ""),
                     count(sum(r["consistent"] for r in mine)),
                     count(sum(r["leaks"] for r in mine)),
                     count(sum(r["inconsistent"] for r in mine)),
                     count(sum(r["after_repair"] for r in mine)),
                     binary(risk)])
    return markdown(["policy", "create-delete 0 / 10 / 100 KB (ms)", "crash states",
                     "consistent", "only leaks (`fsck -y` reclaims)", "inconsistent",
                     "inconsistent after `fsck -y`", "most acknowledged data at risk"], rows)


# ---------------------------------------------------------------- the measure suite

# The machines whose Final Results Table docs/measure.md shows.
MEASURE_PROFILES = ("ds3100-riscv", "pc-p5", "ds3100", "mvax2")


def measure_source(profile: str) -> Source:
    arch = _isa_of(profile)
    return Source(f"{arch}-{profile}-measure/results.json",
                  f"make run ARCH={arch} PROFILE={profile} SUITE=measure")


def final_table(run: dict[str, Any]) -> list[str]:
    """The Final Results Table the run computed (harness/bench/finaltable.py)."""
    from ..bench.finaltable import _t as time
    if not run.get("final_table"):
        raise SetupError(f"results of {run.get('run')}: no final_table (a run of the measure "
                         f"suite has one: SUITE=measure)")
    mark = {"=": "", ">=": "≥ ", "~": "~ "}
    rows = [[r["operation"], r["source"], mark[r["kind"]] + time(r["hardware_ns"]),
             time(r["measured_ns"]), time(r["software_ns"])] for r in run["final_table"]]
    return markdown(["operation", "source", "hardware (predicted)", "measured", "software"], rows)


# ---------------------------------------------------------------- figures

# The plots the docs show, each a copy of the one a run drew: (where the run
# writes it, the copy in the tree).
IMAGES = (
    (Source("figure1/figure1.png", FIGURE1.command), "docs/figure1.png"),
    (Source("sweep-ds3100-memory-bandwidth_mbs/sweep.png", "make sweep"),
     "docs/sweep-ds3100-bandwidth.png"),
    (Source("crashtest/risk-delayed.png", CRASHTEST.command), "docs/crashtest-delayed.png"),
    *((remote_sweep_source(name, png=True), f"docs/{name}.png") for name in REMOTE_SWEEPS),
)


# ---------------------------------------------------------------- the list

def tables() -> dict[str, Table]:
    """Every table, by block name (computed when asked: the predictions'
    sources name each profile's ISA, read from its file)."""
    out = [
        Table("figure1", (FIGURE1,), figure1),
        Table("figure1-detail", (FIGURE1,), figure1_detail),
        Table("isa-costs", isa_runs(), isa_costs),
        Table("net-insns", net_runs(), net_insns),
        Table("calibration", tuple(profile_source(n) for n in CALIBRATED), calibration),
        Table("predictions-cpu", tuple(model_run(p) for p in PAPER_MACHINES), predictions_cpu),
        Table("predictions-fs", tuple(model_run(p) for p in PAPER_MACHINES), predictions_fs),
        Table("sun4-windows", (model_run("sun4"),), sun4_windows),
        Table("sweep-bandwidth", (sweep_source("memory.bandwidth_mbs"),), sweep),
        Table("crashtest", (CRASHTEST,), crashtest),
        Table("crashtest-summary", (CRASHTEST, model_run("ds3100-riscv")),
              crashtest_summary),
        Table("sweep-write", (sweep_source("memory.write_ns", "100,150,200,300,386.1,500,600"),),
              sweep),
        Table("sweep-link", (LINK_SWEEP,), link_sweep),
        *(Table(name, (remote_sweep_source(name),), remote_sweep) for name in REMOTE_SWEEPS),
    ]
    out += [Table(f"measure-{_isa_of(p)}-{p}", (measure_source(p),), final_table)
            for p in MEASURE_PROFILES]
    return {t.name: t for t in out}
