"""Calibration: fit each machine's two free parameters, and nothing else.

    python3 -m harness calibrate --profile ds3100 [--profile sun4 ...] [--no-write]

A profile's facts (clock, caches, write policy, instruction-class costs)
come from documentation.  Two numbers do not: the average cycles per
instruction (`cpu.cpi`) and the memory bandwidth (`memory.bandwidth_mbs`).
They are fitted to exactly two of the paper's numbers per machine:

  - Table 1's MIPS rating, from our integer benchmark (guests/bin/mips.c),
    which fixes the CPI;
  - Table 5's bcopy rates (the row of the OS the profile names), which fix
    the bandwidth.  On a write-through machine both columns measure the
    memory (a cached copy still writes every word through to memory), so
    the bandwidth is fitted to both, in the least-squares sense on their
    logarithms (one parameter, two numbers: neither is met exactly).  On a
    write-back machine the cached copy never reaches memory, only the
    uncached column depends on the bandwidth, and it alone is fitted; the
    cached column is then a prediction, printed beside the paper's.

A write-through machine whose memory writes a word more slowly than it
streams one in (the DECstation 3100: profile field `memory.write_ns`) has a
third free parameter, and it is fitted like the others: its cached copy is
paced by the write cycle alone and its uncached one by reads and writes, so
the write time is fitted to the cached column and the bandwidth, now the
read path's, to the uncached one.  Each stays within its documented range
(hw-models/core/params.def); a fit that would need a value outside it stops
there and says so.

Everything else the model produces is a prediction: getpid, cswitch,
select, read from the file cache, and the rest.

MIPS "relative to a VAX-11/780 = 1" needs the 780's time for our benchmark:
the VAX build of `mips` executes mipsscale.VAX_MIPS_INSNS_PER_ITER instructions
per iteration, and the 780 ran 0.47 million VAX instructions per second
(Emer & Clark, ISCA 1984: 10.6 cycles of 200 ns).  Every model, whatever its
ISA, is rated by that same 780 time for the same number of iterations
(mipsscale.mips_rating), so the MicroVAX II fitted to 0.9 reads 0.9 and the
others are on its scale.

The fit is Broyden's method on the logarithms of the parameters; each
step boots QEMU once (a few seconds).  It writes the fitted values back
into the profile (with a [calibration] section saying what was fitted, to
what, and what came out) and everything to results/calibration-<name>.json.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import textwrap
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import ROOT
from ..bench import mipsscale, paper, suite
from ..errors import HarnessError
from . import profiles, schema
from .executor import Executor, Job, run_jobs
from .runs import run_model

CALIBRATED = ("ds3100", "sun4", "m2000",    # the paper's machines, on the ISA each runs on
              "sun3", "mvax2", "vax8800",
              "ds3100-riscv")                 # the DS3100 on another ISA, to compare
TOLERANCE = 0.01          # stop within 1% of both targets (the goal is 5%)
MAX_STEPS = 14
BW_CAP = 2000.0           # MB/s, far above any 1989 memory: see fit()
MIPS_CMD = suite.BY_NAME["mips"].short_command
BCOPY_CMD = suite.BY_NAME["bcopy"].short_command     # 1 MB: bigger than any of the caches


rating = mipsscale.mips_rating       # MIPS relative to a VAX-11/780


WRITE_NS = "memory.write_ns"
# memory.write_ns's documented range (params.def): the fit keeps to it
WRITE_NS_RANGE = (schema.load().params[WRITE_NS].check.lo,
                  schema.load().params[WRITE_NS].check.hi)
# The fitted fields, each (parameter, decimals it is written with); the
# write cycle only where fits_write_cycle().
FITTED = (("cpu.cpi", 4), ("memory.bandwidth_mbs", 3))
FITTED_WRITE = (WRITE_NS, 1)
NOTE_COLUMN = 28          # where a fitted line's "# CALIBRATED" note starts


@dataclass
class Point:
    cpi: float
    bandwidth_mbs: float
    mips: float
    bcopy_cached: float
    bcopy_uncached: float
    write_ns: float | None = None   # fitted only where the profile has memory.write_ns


@dataclass
class Targets:
    mips: float
    bcopy_cached: float
    bcopy_uncached: float
    row: str


def targets(hw: profiles.Profile) -> Targets:
    machine, os_name = hw.data.get("paper", ""), hw.data.get("paper_os", "")
    if not machine or machine not in paper.TABLE1:
        raise HarnessError(f"profile {hw.name!r} has no Table 1 machine to calibrate against")
    try:
        row = paper.TABLE5.row(machine, os_name)
    except KeyError:
        # Table 5 has one row for some machines (the Sun3: Sprite only);
        # a bcopy measures the machine's memory, whichever OS it ran under
        rows = [r for r in paper.TABLE5.rows if r.machine == machine]
        if len(rows) != 1:
            raise HarnessError(f"profile {hw.name!r}: Table 5 has no {machine} "
                               f"{os_name} row to calibrate against") from None
        row = rows[0]
    cached, uncached = row.values[0], row.values[1]
    assert cached is not None and uncached is not None
    return Targets(paper.TABLE1[machine].mips, cached, uncached, row.config)


# What produced the last measurement (harness/bench/provenance.py), for the
# calibration's record.
last_provenance: dict = {}


def measure(name: str, cpi: float, bw: float, arch: str,
            write_ns: float | None = None) -> Point:
    overrides = {"cpu.cpi": cpi, "memory.bandwidth_mbs": bw}
    if write_ns is not None:
        overrides[WRITE_NS] = write_ns
    run = run_model(name, [MIPS_CMD, BCOPY_CMD], arch=arch, tag="calibrate",
                    overrides=overrides)
    last_provenance.clear()
    last_provenance.update(run.provenance)
    m = run.result("mips", "integer")
    mips = rating(m.iters, m.net_ns)
    cached = run.result("bcopy", "cached").mb_per_s
    uncached = run.result("bcopy", "uncached").mb_per_s
    assert cached is not None and uncached is not None
    return Point(cpi, bw, mips, cached, uncached, write_ns)


def fits_write_cycle(hw: profiles.Profile) -> bool:
    """Whether memory.write_ns is fitted too: a write-through cache whose
    memory has its own write time, so the cached copy measures the writes
    and the uncached one the reads besides."""
    dc = hw.data["dcache"]
    return ("write_ns" in hw.data["memory"] and dc["size"] != 0
            and dc["write_policy"] == "write-through")


def cached_copy_uses_memory(hw: profiles.Profile) -> bool:
    dc = hw.data["dcache"]
    return dc["size"] == 0 or dc["write_policy"] == "write-through"


def bandwidth_floor(hw: profiles.Profile, t: Targets) -> float:
    """The least memory bandwidth the paper's own copy rates imply: an
    uncached copy reads and writes every byte; a cached copy on a
    write-through machine writes every byte through, and with no cache at
    all it reads and writes every byte too."""
    dc = hw.data["dcache"]
    if dc["size"] == 0:
        return 2 * max(t.bcopy_cached, t.bcopy_uncached)
    if dc["write_policy"] == "write-through":
        return max(t.bcopy_cached, 2 * t.bcopy_uncached)
    return 2 * t.bcopy_uncached


@dataclass
class Fit:
    point: Point
    history: list[Point]
    targets: Targets
    columns: list[str]              # the Table 5 columns the bandwidth was fitted to
    # "" when the bandwidth was fitted to all of fitted_columns(); else why not
    processor_bound: str = ""


def fit(name: str, say=print, *, arch: str) -> Fit:
    """Fit CPI and bandwidth to Table 1 and the Table 5 columns that depend
    on memory (fitted_columns).

    A copy column can be out of reach: if the model's copy does not beat
    the paper's by 5% with BW_CAP of memory, the model's processor, at the
    CPI Table 1 asks for, cannot copy that fast with any real memory.  That
    is found first, at BW_CAP with the CPI fitted alone (fitting both while
    a column is out of reach only wanders).  The bandwidth is then fitted to
    the columns that are within reach, and if none is, set to
    bandwidth_floor() with the CPI alone fitted (fit_cpi).  Either way the
    result says so."""
    hw = profiles.load(name)
    t = targets(hw)
    history: list[Point] = []
    columns = fitted_columns(hw)
    if fits_write_cycle(hw):
        return _fit_with_write_cycle(hw, t, history, say, arch)
    probe = fit_cpi(name, BW_CAP, hw.get("cpu.cpi"), t, history, say, arch)
    slow = [c for c in columns if getattr(probe, f"bcopy_{c}") < getattr(t, f"bcopy_{c}") * 1.05]
    reach = [c for c in columns if c not in slow]
    why = ""
    if slow:
        plural = len(slow) > 1
        why = (f"with {BW_CAP:g} MB/s of memory the {' and '.join(slow)} "
               f"{'copies still run' if plural else 'copy still runs'} at or below the "
               f"paper's rate: at the CPI that gives Table 1's MIPS the processor cannot copy "
               f"that fast")
        if not reach:
            floor = bandwidth_floor(hw, t)
            why += (f"; the bandwidth is set to {floor:g} MB/s, the least the paper's copy "
                    f"rates imply")
            say(f"  {why}")
            p = fit_cpi(name, floor, probe.cpi, t, history, say, arch)
            return Fit(p, history, t, [], why)
        why += f"; the bandwidth is fitted to the {' and '.join(reach)} column alone"
        say(f"  {why}")
    x = [math.log(hw.get("cpu.cpi")), math.log(hw.get("memory.bandwidth_mbs"))]
    p, converged = _broyden(name, x, reach, t, history, say, arch)
    if not converged:
        raise HarnessError(f"calibration of {name} did not converge: last {_progress(p, t)}")
    return Fit(p, history, t, reach, why)


def _fit_with_write_cycle(hw: profiles.Profile, t: Targets, history: list[Point],
                          say, arch: str) -> Fit:
    """CPI to Table 1, write time to the cached column, bandwidth to the
    uncached one (fits_write_cycle), within the write time's documented
    range and BW_CAP; where the fit runs into a bound it stops and says so."""
    lo, hi = WRITE_NS_RANGE
    x = [math.log(hw.get("cpu.cpi")), math.log(hw.get("memory.bandwidth_mbs")),
         math.log(min(max(hw.get(WRITE_NS), lo), hi))]
    bounds = [(-math.inf, math.inf), (-math.inf, math.log(BW_CAP)),
              (math.log(lo), math.log(hi))]
    # the cached copy is paced by the write time (slope about -1 once
    # write-bound), the uncached one by reads and writes alike
    jac = [[-1.0, 0.0, 0.0], [-0.3, 0.5, -0.5], [-0.3, 0.0, -0.9]]
    p, converged = _broyden(hw.name, x, ["uncached", "cached"], t, history, say, arch,
                            jac, bounds)
    why = ""
    if not converged:
        why = (f"the fit stopped at the edge of the documented ranges (memory.write_ns "
               f"{lo:g}-{hi:g} ns, bandwidth up to {BW_CAP:g} MB/s): meeting Table 5 would "
               f"need a value outside them, which the profile does not take")
        say(f"  {why}")
    return Fit(p, history, t, ["cached", "uncached"], why)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (n is 2 or 3)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-9:
            raise HarnessError("calibration: the fit lost its way (singular Jacobian)")
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col:
                k = m[r][col] / m[col][col]
                m[r] = [v - k * w for v, w in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def _broyden(name: str, x: list[float], columns: list[str], t: Targets,
             history: list[Point], say, arch: str,
             jac: list[list[float]] | None = None,
             bounds: list[tuple[float, float]] | None = None) -> tuple[Point, bool]:
    """Broyden's method on the logarithms of the parameters x (cpi,
    bandwidth[, write time]) -> the log errors (MIPS, then the bcopy
    `columns`).  With two parameters the second error is the mean of the
    columns' (columns scale alike with bandwidth, so the least-squares
    bandwidth zeroes their mean error); with three, one error per column,
    in the order given.  (last point, converged?): within 1% of the
    targets, or within 5% when the steps run out.  Stops early when the
    bandwidth is at BW_CAP and the copy still too slow, or when a step
    would leave `bounds` (then not converged)."""
    n = len(x)
    cap = math.log(BW_CAP)
    bounds = bounds or [(-math.inf, math.inf), (-math.inf, cap)]

    def f(p: Point) -> list[float]:
        errs = [math.log(getattr(p, f"bcopy_{c}") / getattr(t, f"bcopy_{c}")) for c in columns]
        head = [math.log(p.mips / t.mips)]
        return head + errs if n == 3 else head + [sum(errs) / len(errs)]

    def at(x: list[float]) -> Point:
        return measure(name, math.exp(x[0]), math.exp(x[1]), arch,
                       math.exp(x[2]) if n == 3 else None)

    # d(log MIPS)/d(log cpi) is about -1; the copy rate rises with bandwidth
    # and falls a little with CPI.
    jac = [row[:] for row in (jac or [[-1.0, 0.0], [-0.3, 0.8]])]
    p = at(x)
    history.append(p)
    fx = f(p)
    say(_progress(p, t))
    for _ in range(MAX_STEPS):
        if all(abs(v) < math.log1p(TOLERANCE) for v in fx):
            return p, True
        dx = [-d for d in _solve(jac, fx)]
        limit = math.log(3.0)
        dx = [max(-limit, min(limit, d)) for d in dx]
        if x[1] >= cap - 1e-9 and dx[1] >= 0 and fx[1] < 0:
            return p, False             # more memory would not help: processor-bound
        for i, (lo, hi) in enumerate(bounds):
            dx[i] = min(max(x[i] + dx[i], lo), hi) - x[i]
        if sum(d * d for d in dx) < 1e-12:
            return p, False             # at the edge of the ranges, pushing on
        x = [x[i] + dx[i] for i in range(n)]
        p = at(x)
        history.append(p)
        fnew = f(p)
        say(_progress(p, t))
        df = [fnew[i] - fx[i] for i in range(n)]
        norm = sum(d * d for d in dx)
        for i in range(n):
            resid = df[i] - sum(jac[i][j] * dx[j] for j in range(n))
            for j in range(n):
                jac[i][j] += resid * dx[j] / norm
        fx = fnew
    return p, all(abs(v) < math.log1p(0.05) for v in fx)


def fit_cpi(name: str, bw: float, cpi: float, t: Targets, history: list[Point],
            say, arch: str) -> Point:
    """The CPI alone, to Table 1's MIPS, with the bandwidth fixed (secant
    method on the logarithms)."""
    x, slope = math.log(cpi), -1.0
    p = measure(name, cpi, bw, arch)
    history.append(p)
    say(_progress(p, t))
    fx = math.log(p.mips / t.mips)
    for _ in range(MAX_STEPS):
        if abs(fx) < math.log1p(TOLERANCE):
            return p
        dx = -fx / slope
        x += dx
        p = measure(name, math.exp(x), bw, arch)
        history.append(p)
        say(_progress(p, t))
        fnew = math.log(p.mips / t.mips)
        if abs(dx) > 1e-9 and fnew != fx:
            slope = (fnew - fx) / dx
        fx = fnew
    raise HarnessError(f"calibration of {name}: the CPI fit did not converge: last {_progress(p, t)}")


def _progress(p: Point, t: Targets) -> str:
    wns = f"  write {p.write_ns:.1f} ns/word" if p.write_ns is not None else ""
    return (f"  cpi {p.cpi:.4f}  bandwidth {p.bandwidth_mbs:.3f} MB/s{wns}  ->  "
            f"MIPS {p.mips:.3f} ({t.mips:g}), bcopy cached {p.bcopy_cached:.3f} "
            f"({t.bcopy_cached:g}), uncached {p.bcopy_uncached:.3f} ({t.bcopy_uncached:g}) MB/s")


def reference() -> str:
    """What "VAX-11/780 = 1" means, in words."""
    return (f"the 780's time for the same iterations of guests/bin/mips.c: "
            f"{mipsscale.VAX_MIPS_INSNS_PER_ITER} VAX instructions each at "
            f"{mipsscale.VAX_780_INSNS_PER_SECOND / 1e6:g} million per second")


def error(value: float, target: float) -> float:
    return (value - target) / target


def fitted_columns(hw: profiles.Profile) -> list[str]:
    """The Table 5 columns the bandwidth is fitted to (the others are predictions)."""
    return ["cached", "uncached"] if cached_copy_uses_memory(hw) else ["uncached"]


def misses(hw: profiles.Profile, f: Fit) -> list[str]:
    """The targets the result is not within 5% of, e.g. ['bcopy_cached']: Table 1,
    and the Table 5 columns that depend on memory, fitted or out of reach."""
    p, t = f.point, f.targets
    out = [] if abs(error(p.mips, t.mips)) <= 0.05 else ["mips"]
    for col in fitted_columns(hw):
        got, want = getattr(p, f"bcopy_{col}"), getattr(t, f"bcopy_{col}")
        if abs(error(got, want)) > 0.05:
            out.append(f"bcopy_{col}")
    return out


def write_back(hw: profiles.Profile, f: Fit, today: str) -> None:
    """Put the fitted values into the profile, keeping its comments, and
    replace its [calibration] section."""
    p, t = f.point, f.targets
    note = f"# CALIBRATED {today} by `python3 -m harness calibrate`: see [calibration]"
    values = {"cpu.cpi": p.cpi, "memory.bandwidth_mbs": p.bandwidth_mbs}
    fields = list(FITTED)
    if p.write_ns is not None:
        values[WRITE_NS] = p.write_ns
        fields.append(FITTED_WRITE)
    text = set_fields(hw.path.read_text(), {name: (f"{values[name]:.{decimals}f}", note)
                                            for name, decimals in fields}, hw.path)
    fitted_cols = {2: "both columns, least squares",
                   1: f"the {''.join(f.columns)} column only", 0: "neither column"}[len(f.columns)]
    if not cached_copy_uses_memory(hw):
        fitted_cols += "; the cached one is a prediction (write-back cache)"
    bound = ""
    if f.processor_bound:
        bound = "\n# Out of reach: " + "\n#   ".join(textwrap.wrap(f.processor_bound, 66)) + "."
    missed = misses(hw, f)
    fitted = "cpu.cpi and memory.bandwidth_mbs" if f.columns else "cpu.cpi"
    write_line = ""
    if p.write_ns is not None:
        fitted = "cpu.cpi, memory.bandwidth_mbs and memory.write_ns"
        fitted_cols = ("both columns, one parameter each\n# (the cached, write-bound, to "
                       "memory.write_ns; the uncached to memory.bandwidth_mbs)")
        write_line = f"write_ns = {p.write_ns:.1f}\n"
    section = f"""
[calibration]
# Written by `python3 -m harness calibrate --profile {hw.name}`; do not edit.
# Fitted: {fitted}, nothing else.  Targets: Table 1
# MIPS and Table 5 bcopy ({t.row}): {fitted_cols}.{bound}
# MIPS reference: {reference()} (harness/bench/mipsscale.py).
date = "{today}"
not_within_5_percent = {json.dumps(missed)}
mips_target = {t.mips:g}
mips = {p.mips:.3f}
bcopy_uncached_target = {t.bcopy_uncached:g}
bcopy_uncached = {p.bcopy_uncached:.3f}
bcopy_cached_paper = {t.bcopy_cached:g}
bcopy_cached = {p.bcopy_cached:.3f}
{write_line}"""
    hw.path.write_text(text.rstrip("\n") + "\n" + section)
    profiles.load(hw.name, path=hw.path)   # still valid?


def set_fields(text: str, values: dict[str, tuple[str, str]], where: Path) -> str:
    """The profile `text` with each field section.key of `values` set to its
    (TOML value, comment), by a TOML library that keeps every other byte
    (tomlkit), and without its [calibration] section, which write_back
    writes anew.  The comment starts at NOTE_COLUMN, as in the files."""
    try:
        import tomlkit                    # only here: the rest of the harness reads TOML
    except ImportError:
        raise HarnessError("calibrate needs the tomlkit module: run `make deps`") from None
    doc = tomlkit.parse(text)
    for name, (value, comment) in values.items():
        section, key = name.split(".")
        if section not in doc or key not in doc[section]:
            raise HarnessError(f"{where}: no field {key} in [{section}] to write the fit to")
        item = tomlkit.value(value)
        item.trivia.comment_ws = " " * max(1, NOTE_COLUMN - len(f"{key} = {value}"))
        item.trivia.comment = comment
        doc[section][key] = item
    doc.pop("calibration", None)
    return tomlkit.dumps(doc)


def fit_job(name: str, say=print) -> tuple[Fit, dict]:
    """One machine's fit, a job of the executor (harness/model/executor.py):
    (the fit, what produced its last measurement)."""
    hw = profiles.load(name)
    say(f"calibrate {name} ({hw.machine}):")
    f = fit(name, say, arch=hw.isa)
    return f, dict(last_provenance)


def calibrate(names: list[str], write: bool = True, out: Path | None = None,
              say=print, ex: Executor | None = None) -> dict[str, dict]:
    """Fit each profile (side by side on `ex`; one after another if not
    given), and write each one's results as soon as its fit is done, here,
    never on a worker: the profiles changed are this checkout's."""
    today = _dt.date.today().isoformat()
    summary: dict[str, dict] = {}

    def finished(index: int, got: tuple[Fit, dict]) -> None:
        name = names[index]
        summary[name] = record(name, got[0], got[1], today, write, out, say)

    run_jobs([Job(f"calibrate {n}", fit_job, (n,)) for n in names], ex, say, "calibrate",
             each=finished)
    diverged = [n for n in names if "mips" in summary[n]["not_within_5_percent"]]
    if diverged:
        raise HarnessError(f"calibrate: the fit of {', '.join(diverged)} missed Table 1's MIPS "
                           f"by more than 5% (results/calibration-NAME.json has its steps); "
                           f"its profile was not written")
    return {n: summary[n] for n in names}


def record(name: str, f: Fit, made_by: dict, today: str, write: bool, out: Path | None,
           say) -> dict:
    """Report one machine's fit, write it back into its profile (if
    `write`) and to OUT/calibration-NAME.json; the record."""
    hw = profiles.load(name)
    p, t = f.point, f.targets
    rec = {"profile": name, "date": today, "fitted": asdict(p), "targets": asdict(t),
           "bcopy_columns_fitted": f.columns,
           "processor_bound": f.processor_bound,
           "errors": {"mips": error(p.mips, t.mips),
                      "bcopy_uncached": error(p.bcopy_uncached, t.bcopy_uncached),
                      "bcopy_cached": error(p.bcopy_cached, t.bcopy_cached)},
           "not_within_5_percent": misses(hw, f),
           "steps": [asdict(h) for h in f.history],
           "reference": reference(),
           "provenance": made_by}
    wns = f", write {p.write_ns:.1f} ns per word" if p.write_ns is not None else ""
    say(f"  fitted cpi = {p.cpi:.4f}, bandwidth = {p.bandwidth_mbs:.3f} MB/s{wns}; "
        f"MIPS {p.mips:.2f} vs {t.mips:g} ({error(p.mips, t.mips):+.1%}), "
        f"uncached {p.bcopy_uncached:.2f} vs {t.bcopy_uncached:g} "
        f"({error(p.bcopy_uncached, t.bcopy_uncached):+.1%}), cached "
        f"{p.bcopy_cached:.2f} vs {t.bcopy_cached:g} "
        f"({error(p.bcopy_cached, t.bcopy_cached):+.1%})")
    if rec["not_within_5_percent"]:
        say(f"  NOT within 5%: {', '.join(rec['not_within_5_percent'])}")
    if p.cpi < 1:
        say(f"  note: CPI {p.cpi:.3f} is below what a single-issue pipeline can do: "
            f"a class-cost estimate of the profile is probably high")
    # The CPI alone sets the MIPS, so a fit that misses Table 1 has gone
    # astray (a Table 5 target it cannot reach pulled it away): keep the
    # profile as it was.
    shown = hw.path.relative_to(ROOT) if hw.path.is_relative_to(ROOT) else hw.path
    if write and "mips" in rec["not_within_5_percent"]:
        say(f"  NOT written to {shown}: the fit missed the MIPS rating")
    elif write:
        write_back(hw, f, today)
        say(f"  wrote {shown}")
    path = (out or ROOT / "results") / f"calibration-{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rec, indent=2) + "\n")
    say(f"  wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return rec
