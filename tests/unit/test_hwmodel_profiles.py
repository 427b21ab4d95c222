"""Hardware-model profiles: loading, validation, plugin arguments, the log join.

No QEMU here: the model itself is checked in tests/integration/test_hwmodel_plugin.py.
"""

import re
from pathlib import Path

import pytest

from harness.errors import UsageError, HarnessError, SetupError
from harness.guest import machines
from harness.guest.protocol import parse_line
from harness.bench import counters, mipsscale
from harness.model import modelargs, modellog, profiles, schema

import hwmodel_ref

GOOD = (profiles.PROFILE_DIR / "ds3100.toml").read_text()
RISCV = machines.get("riscv")


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "t.toml"
    p.write_text(text)
    return p


def load_text(tmp_path: Path, text: str, overrides=None):
    return profiles.load("t", overrides=overrides, path=write(tmp_path, text))


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize("name", profiles.names())
def test_every_shipped_profile_loads(name):
    hw = profiles.load(name)
    assert hw.name == name
    p = profiles.load(name)
    assert p.name == name and p.mips > 0


def test_paper_profiles_match_table1():
    from harness.bench import paper
    for name in ("ds3100", "sun4", "m2000", "sun3", "mvax2", "vax8800"):
        hw = profiles.load(name)
        assert hw.mips == paper.TABLE1[hw.data["paper"]].mips, name


def test_free_parameters_are_marked():
    for name in ("ds3100", "sun4", "m2000"):
        text = (profiles.PROFILE_DIR / f"{name}.toml").read_text()
        assert re.search(r"^cpi = .*# CALIBRATED", text, re.M), name
        assert re.search(r"^bandwidth_mbs = .*# CALIBRATED", text, re.M), name


def test_sun4_is_physically_plausible():
    """The Sun-4/280 on its own ISA: a memory that takes time to answer,
    and a fitted bandwidth the 32-bit memory bus could carry (one word per
    60 ns cycle: 66.7 MB/s), as its profile says."""
    hw = profiles.load("sun4")
    assert hw.isa == "sparc"
    mem, cpu = hw.data["memory"], hw.data["cpu"]
    assert mem["latency_ns"] > 0
    assert 0 < mem["bandwidth_mbs"] <= mem["bus_bytes"] * cpu["clock_mhz"]
    assert cpu["mul_extra"] == 0 and cpu["div_extra"] == 0      # V7: no such instructions


def test_ds3100_is_physically_plausible():
    """The DECstation on MIPS with its fitted write cycle: a memory that takes
    time to answer a read, a read path the 32-bit 16.67 MHz bus could carry
    (66.7 MB/s), and a word written more slowly than one read streams in
    (the reason the profile has a write cycle at all), within its range."""
    hw = profiles.load("ds3100")
    mem, cpu = hw.data["memory"], hw.data["cpu"]
    assert hw.isa == "mips" and mem["latency_ns"] > 0
    assert 0 < mem["bandwidth_mbs"] <= mem["bus_bytes"] * cpu["clock_mhz"]
    read_word_ns = mem["bus_bytes"] / mem["bandwidth_mbs"] * 1000
    assert read_word_ns < mem["write_ns"]
    assert schema.load().params["memory.write_ns"].problem(mem["write_ns"]) is None
    assert hw.data["calibration"]["not_within_5_percent"] == []


@pytest.mark.parametrize("old, new, message", [
    ("cpi = ", "# cpi = ", r"\[cpu\] cpi is missing"),
    ("line = 4\nassoc = 1\nwrite_policy", "line = 24\nassoc = 1\nwrite_policy",
     r"\[dcache\] line = 24 is not a power of two"),
    ("size = 65536\nline = 4\nassoc = 1\n\n[dcache]", "size = 2\nline = 4\nassoc = 1\n\n[dcache]",
     r"\[icache\] size = 2 is smaller than one line \(4 bytes\)"),
    ("bandwidth_mbs = ", "bandwidth_mbs = 0 #", r"\[memory\] bandwidth_mbs = 0 must be a number > 0"),
    ("bandwidth_mbs = ", "bandwidth_mbs = -5 #", r"\[memory\] bandwidth_mbs = -5 must be"),
    ('write_policy = "write-through"', 'write_policy = "write-around"',
     r"\[dcache\] write_policy = 'write-around' must be"),
    ("mips = 13", "mips = 13\ncolour = 1", r"unknown field 'colour'"),
    ("trap_extra = 5", "trap_extra = 5\ntrap_extar = 5", r"\[cpu\] unknown field 'trap_extar'"),
    ("size = 65536\nline = 4\nassoc = 1\nwrite_policy",
     "size = 49152\nline = 4\nassoc = 1\nwrite_policy", r"\[dcache\] size = 49152 gives 12288 sets"),
    ("write_buffer = 4", "write_buffer = 1.5", r"\[dcache\] write_buffer = 1.5 must be a whole"),
    # the optional fields, outside their documented ranges
    ("trap_extra = 5", "trap_extra = 5\ndword_extra = 9",
     r"\[cpu\] dword_extra = 9 must be a number from 0 to 4"),
    ("trap_extra = 5", "trap_extra = 5\nword_extra = 1", r"\[cpu\] unknown field 'word_extra'"),
])
def test_bad_profiles_name_the_field(tmp_path, old, new, message):
    with pytest.raises(SetupError, match=message):
        load_text(tmp_path, edit(GOOD, old, new))


def test_missing_section(tmp_path):
    with pytest.raises(SetupError, match=r"section \[disk\] is missing"):
        load_text(tmp_path, GOOD[:GOOD.index("[disk]")])


def test_not_toml(tmp_path):
    with pytest.raises(SetupError, match="not valid TOML"):
        load_text(tmp_path, "cpi = = 1")


def test_unknown_profile():
    with pytest.raises(SetupError, match=r"unknown profile 'vax11780' \(known: .*ds3100"):
        profiles.load("vax11780")
    with pytest.raises(SetupError, match="unknown profile 'vax11780'"):
        profiles.load("vax11780")


def test_no_cache_needs_only_size(tmp_path):
    text = edit(GOOD, "size = 65536\nline = 4\nassoc = 1\n\n[dcache]", "size = 0\n\n[dcache]")
    hw = load_text(tmp_path, text)
    args = modelargs.plugin_args(hw, RISCV, Path("/tmp/x.log"))
    assert [a for a in args if a.startswith("icache.")] == ["icache.size=0"]


def test_overrides_are_validated(tmp_path):
    hw = load_text(tmp_path, GOOD, {"memory.bandwidth_mbs": 2.5})
    assert hw.get("memory.bandwidth_mbs") == 2.5
    with pytest.raises(SetupError, match=r"bandwidth_mbs = 0 must be"):
        load_text(tmp_path, GOOD, {"memory.bandwidth_mbs": 0})


def test_wrong_isa_refused_before_qemu():
    hw = profiles.load("sun3")
    with pytest.raises(SetupError, match="models a m68k machine, not riscv"):
        modelargs.emulator_args(hw, RISCV, Path("/tmp/x.log"))
    with pytest.raises(SetupError, match="models a m68k machine, not vax"):
        modelargs.emulator_args(hw, machines.get("vax"), Path("/tmp/x.log"))


def test_none_profile_has_no_model():
    hw = profiles.load("none")
    assert not hw.model
    assert modelargs.emulator_args(hw, RISCV, Path("/tmp/x.log")) == []


def test_plugin_args():
    hw = profiles.load("ds3100")
    args = modelargs.plugin_args(hw, RISCV, Path("/tmp/ds.log"))
    # every field under its own name, the profile's spelling of the value
    assert "out=/tmp/ds.log" in args and "cpu.clock_mhz=16.67" in args
    assert "dcache.write_policy=write-through" in args
    assert "dcache.write_allocate=true" in args and "dcache.write_buffer=4" in args
    assert "memory.bandwidth_mbs=25.873" in args
    sun4 = modelargs.plugin_args(profiles.load("sun4"), RISCV, Path("/tmp/s.log"))
    assert "dcache.unified=true" in sun4 and "dcache.write_policy=write-back" in sun4
    # and every one of them is a parameter of params.def
    names = set(schema.load().params) | set(schema.load().runargs)
    assert all(a.partition("=")[0] in names for a in args + sun4)


def test_optional_fields_reach_the_model_only_when_given(tmp_path):
    """A profile without dword_extra or write_ns gives the model the same
    arguments as before they existed (its results stay byte-identical); one
    with them passes them on."""
    plain = edit(GOOD, "bus_bytes = 4", "bus_bytes = 4")
    for opt in ("write_ns", "dword_extra"):
        plain = re.sub(rf"^{opt} = [^\n]*\n", "", plain, flags=re.M)
    args = modelargs.plugin_args(load_text(tmp_path, plain), RISCV, Path("/tmp/x.log"))
    assert not any(a.startswith(("cpu.dword_extra=", "memory.write_ns=")) for a in args)
    both = edit(edit(plain, "bus_bytes = 4", "bus_bytes = 4\nwrite_ns = 390"),
                "trap_extra = 5", "trap_extra = 5\ndword_extra = 1")
    args = modelargs.plugin_args(load_text(tmp_path, both), RISCV, Path("/tmp/x.log"))
    assert "memory.write_ns=390" in args and "cpu.dword_extra=1" in args
    hw = load_text(tmp_path, plain, {"memory.write_ns": 250})    # as a sweep would
    assert "memory.write_ns=250" in modelargs.plugin_args(hw, RISCV, Path("/tmp/x.log"))
    assert "write_ns" not in load_text(tmp_path, GOOD, {"memory.write_ns": None}).data["memory"]
    for bad in (40, 1000, "slow"):
        with pytest.raises(SetupError, match=rf"\[memory\] write_ns = {bad!r} must be a "
                                             r"number from 100 to 600 \(memory write cycle"):
            load_text(tmp_path, plain, {"memory.write_ns": bad})


def test_model_arguments_come_from_the_registry(tmp_path, monkeypatch):
    """RAM window and back end are the machine's; the back ends differ only
    in how the same key=value arguments reach the model."""
    ds = profiles.load("ds3100-riscv")
    args = modelargs.plugin_args(ds, RISCV, Path("/tmp/ds.log"))
    assert "ram_base=0x80000000" in args and f"ram_size={128 << 20:#x}" in args
    vax = machines.get("vax")
    mvax2 = modelargs.plugin_args(profiles.load("mvax2"), vax, Path("/tmp/v.log"))
    assert not any(a.startswith(("ram_", "trap_pc=")) for a in mvax2)   # SIMH knows them
    [simh_arg] = modelargs.emulator_args(profiles.load("mvax2"), vax, tmp_path / "v.log")
    assert simh_arg.split(",")[0] == f"out={tmp_path / 'v.log'}"
    # SIMH runs the same engine as the plugin: trace= and attrib= reach it too
    [traced] = modelargs.emulator_args(profiles.load("mvax2"), vax, tmp_path / "v.log",
                                     ["trace=x", "trace_region=2"])
    assert traced == simh_arg + ",trace=x,trace_region=2"
    monkeypatch.setattr(modelargs, "PLUGIN", tmp_path / "libhwmodel.so")
    with pytest.raises(SetupError, match="libhwmodel.so is missing: run `make hwmodel`"):
        modelargs.emulator_args(ds, RISCV, tmp_path / "ds.log")
    (tmp_path / "libhwmodel.so").write_bytes(b"")
    argv = modelargs.emulator_args(ds, RISCV, tmp_path / "ds.log")
    assert argv[0] == "-plugin" and argv[1].startswith(f"{tmp_path / 'libhwmodel.so'},out=")
    # an ISA the model has no instruction classes for yet
    bare = machines.Machine("riscv", RISCV.emulator, "no model yet")
    with pytest.raises(SetupError, match="no riscv instruction classes yet"):
        modelargs.emulator_args(ds, bare, tmp_path / "ds.log")


@pytest.mark.parametrize("text, message", [
    ('name = "t"\nmachine = "m"\nisa = "any"\nmodel = false\nmips = 1000\n', "note is missing"),
    ('name = "t"\nmachine = "m"\nisa = "any"\nmodel = false\nmips = 0\nnote = "n"\n',
     "mips = 0 must be a number > 0"),
    ('name = "t"\nmachine = "m"\nisa = "any"\nmodel = false\nmips = 1\nnote = "n"\n'
     '[cpu]\ncpi = 1\n', "unknown field 'cpu' .a profile with model = false has no model"),
])
def test_a_profile_without_model_is_checked_too(tmp_path, text, message):
    with pytest.raises(SetupError, match=message):
        load_text(tmp_path, text)


def region(seq, id, clock_ns, **f):
    fields = {k: 0 for k in modellog.COUNTERS}
    fields.update(f, clock_ns=clock_ns, clock_reads=2)
    return modellog.Region(seq, id, fields)


def test_join_pairs_results_with_regions():
    r1 = parse_line("RESULT bench=getpid case=call iters=10 ns=500 loop_ns=100 insns=9 loop_insns=1")
    regions = [region(1, 2, 500, insns=1700, cycles=3000), region(2, 3, 100, insns=90, cycles=200)]
    [j] = modellog.join([r1], regions)
    assert j.per_op("insns") == 161 and j.per_op("cycles") == 280
    table = counters.format_counter_table("ds3100", "DECstation", 13, [(j.result, j.counters())])
    assert "getpid call" in table and "161" in table


def test_join_refuses_a_disagreeing_clock():
    r1 = parse_line("RESULT bench=getpid case=call iters=10 ns=501 loop_ns=100 insns=9 loop_insns=1")
    with pytest.raises(HarnessError, match="guest time and model log disagree"):
        modellog.join([r1], [region(1, 2, 500), region(2, 3, 100)])


def test_reference_simulator_by_hand():
    # 2 sets x 2 ways of 16-byte lines, write-back, write-allocate
    c = hwmodel_ref.Cache(64, 16, 2, write_back=True, write_allocate=True)
    trace = ["B 2", "W 0 4", "R 20 4", "R 40 4",      # lines 0, 1, 2: set 0, 1, 0
             "R 80 4",                                 # line 4 -> set 0, evicts line 0 (dirty)
             "R 0 4", "R e 4"]                         # line 0 again: miss; 0xe..0x11 spans 0 and 1
    [n] = hwmodel_ref.replay(trace, None, c)
    assert (n.dmiss, n.dmiss_w, n.writebacks) == (6, 1, 1)


def test_calibration_targets_come_from_tables_1_and_5():
    from harness.model import calibrate
    t = calibrate.targets(profiles.load("ds3100"))
    assert (t.mips, t.bcopy_cached, t.bcopy_uncached) == (13, 10.2, 5.1)
    t = calibrate.targets(profiles.load("sun4"))
    assert (t.mips, t.bcopy_uncached, t.row) == (9, 4.7, "Sun4 SunOS 4.0")
    with pytest.raises(HarnessError, match="no Table 1 machine"):
        calibrate.targets(profiles.load("modern-riscv"))
    # Table 5 has only a Sprite row for the Sun3: a copy measures the machine
    t = calibrate.targets(profiles.load("sun3"))
    assert (t.mips, t.bcopy_cached, t.bcopy_uncached, t.row) == (1.8, 5.6, 5.5, "Sun3 Sprite")
    # write-through: a cached copy reaches memory; write-back: it does not
    assert calibrate.cached_copy_uses_memory(profiles.load("ds3100"))
    assert not calibrate.cached_copy_uses_memory(profiles.load("sun4"))


def test_bandwidth_floor_is_what_the_paper_copies_imply():
    from harness.model import calibrate
    m2000 = profiles.load("m2000")           # write-through: 39 cached, 20 uncached
    assert calibrate.bandwidth_floor(m2000, calibrate.targets(m2000)) == 40
    sun3 = profiles.load("sun3")             # no cache: 5.6 cached, 5.5 uncached
    assert calibrate.bandwidth_floor(sun3, calibrate.targets(sun3)) == pytest.approx(11.2)
    sun4 = profiles.load("sun4")             # write-back: 4.7 uncached
    assert calibrate.bandwidth_floor(sun4, calibrate.targets(sun4)) == pytest.approx(9.4)


def test_calibration_writes_only_the_two_free_parameters(tmp_path):
    from harness.model import calibrate
    path = tmp_path / "ds3100.toml"
    path.write_text(GOOD)
    hw = profiles.load("ds3100", path=path)
    p = calibrate.Point(cpi=1.2345, bandwidth_mbs=9.876, mips=13.0, bcopy_cached=10.0,
                        bcopy_uncached=5.0)
    t = calibrate.targets(hw)
    calibrate.write_back(hw, calibrate.Fit(p, [p], t, ["cached", "uncached"]), "2000-01-01")
    bound = calibrate.Fit(p, [p], t, ["uncached"],
                          processor_bound="the copy is processor-bound " * 4)
    calibrate.write_back(profiles.load("ds3100", path=path), bound, "2000-01-02")
    new = profiles.load("ds3100", path=path)
    assert new.get("cpu.cpi") == 1.2345 and new.get("memory.bandwidth_mbs") == 9.876
    assert new.data["calibration"]["date"] == "2000-01-02"
    # 10.0 is within 5% of the paper's cached 10.2, 5.0 of its uncached 5.1
    assert new.data["calibration"]["not_within_5_percent"] == []
    assert "# Out of reach: the copy is processor-bound" in path.read_text()
    assert "bcopy (DS3100 Ultrix 3.1): the uncached column only" in path.read_text()
    old = profiles.load("ds3100").data
    for section in ("icache", "dcache", "disk"):
        assert new.data[section] == old[section]
    assert len(re.findall(r"^\[calibration\]$", path.read_text(), re.M)) == 1
    assert "# Facts and where they come from" in path.read_text()


def test_calibration_writes_the_write_cycle_where_it_is_fitted(tmp_path):
    """The DS3100's memory.write_ns is a third free parameter, fitted to the
    cached column; it goes back into its line like cpi and bandwidth_mbs."""
    from harness.model import calibrate
    path = tmp_path / "ds3100.toml"
    path.write_text(GOOD)
    hw = profiles.load("ds3100", path=path)
    assert calibrate.fits_write_cycle(hw)
    assert not calibrate.fits_write_cycle(profiles.load("m2000"))
    assert not calibrate.fits_write_cycle(profiles.load("sun4"))   # write-back
    p = calibrate.Point(cpi=1.9, bandwidth_mbs=27.5, mips=13.0, bcopy_cached=10.2,
                        bcopy_uncached=5.1, write_ns=388.25)
    calibrate.write_back(hw, calibrate.Fit(p, [p], calibrate.targets(hw),
                                           ["cached", "uncached"]), "2000-01-01")
    text = path.read_text()
    new = profiles.load("ds3100", path=path)
    assert new.get("memory.write_ns") == 388.2 or new.get("memory.write_ns") == 388.3
    assert re.search(r"^write_ns = 388\.[23] +# CALIBRATED 2000-01-01", text, re.M)
    assert "Fitted: cpu.cpi, memory.bandwidth_mbs and memory.write_ns" in text
    assert new.data["calibration"]["write_ns"] == new.get("memory.write_ns")


def test_calibration_changes_the_fitted_fields_and_no_other_byte(tmp_path):
    """write_back goes through a TOML library (tomlkit): the fitted fields
    change in their own sections (a [calibration] with a write_ns of its
    own placed first does not catch the new value, as a line regex did),
    and every byte outside them and the rewritten [calibration] stays."""
    from harness.model import calibrate
    cal = GOOD[GOOD.index("\n[calibration]\n") + 1:]
    head = GOOD[:GOOD.index("\n[calibration]\n") + 1]
    at = head.index("\n[cpu]\n") + 1
    first = head[:at] + cal + "\n" + head[at:]           # [calibration] before [cpu]
    path = tmp_path / "ds3100.toml"
    path.write_text(first)
    hw = profiles.load("ds3100", path=path)
    p = calibrate.Point(cpi=1.5, bandwidth_mbs=30.25, mips=13.0, bcopy_cached=10.2,
                        bcopy_uncached=5.1, write_ns=300.0)
    calibrate.write_back(hw, calibrate.Fit(p, [p], calibrate.targets(hw),
                                           ["cached", "uncached"]), "2000-01-01")
    new = profiles.load("ds3100", path=path)
    assert (new.get("cpu.cpi"), new.get("memory.bandwidth_mbs"),
            new.get("memory.write_ns")) == (1.5, 30.25, 300.0)
    assert new.data["calibration"]["write_ns"] == 300.0       # written anew, at the end
    text = path.read_text()
    assert text.count("\n[calibration]\n") == 1
    old_lines = head.splitlines()
    new_lines = text[:text.index("\n[calibration]\n") + 1].splitlines()
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert [b.split("#")[0].rstrip() for _, b in changed] == \
        ["cpi = 1.5000", "bandwidth_mbs = 30.250", "write_ns = 300.0"]
    for a, b in changed:              # the note in the same column as before
        assert a.index("# CALIBRATED") == b.index("# CALIBRATED 2000-01-01")


def test_mips_rating_reference():
    # The 780 does one iteration in VAX_MIPS_INSNS_PER_ITER / 0.47 us; a
    # machine that takes a tenth of that per iteration is rated 10, whatever
    # its ISA; one that takes as long as the 780 is rated 1.
    per_iter_780_ns = mipsscale.VAX_MIPS_INSNS_PER_ITER / 0.47e6 * 1e9
    assert mipsscale.mips_rating(1000, round(1000 * per_iter_780_ns / 10)) == pytest.approx(10.0, rel=1e-6)
    assert mipsscale.mips_rating(7, round(7 * per_iter_780_ns)) == pytest.approx(1.0, rel=1e-6)


def test_sweep_values_and_refusals():
    from harness.model import sweep, sweeprows
    assert sweeprows.parse_values("1,2, 4.5,write-back") == [1, 2, 4.5, "write-back"]
    with pytest.raises(HarnessError, match="no values"):
        sweeprows.parse_values(" , ")
    # a bad value is the sweep's, not the profile file's: named as such
    with pytest.raises(UsageError, match=r"--values: 0 is not a possible value "
                       r"\(\[memory\] bandwidth_mbs = 0 must be a number > 0\)") as e:
        sweep.sweep("ds3100", "memory.bandwidth_mbs", [4, 0], ["bcopy"])
    assert "ds3100.toml" not in str(e.value)
    with pytest.raises(HarnessError, match="unknown benchmark 'lat_fs'"):
        sweep.sweep("ds3100", "memory.bandwidth_mbs", [4], ["lat_fs"])


def _fake_ds3100(monkeypatch, cached_words_per_write=1.0):
    """calibrate.measure replaced by a write-through machine in closed form:
    MIPS inversely proportional to the CPI, a cached copy paced by the
    write cycle, an uncached one by the write cycle, 100 ns and a word at
    the bandwidth."""
    from harness.model import calibrate
    calls = []

    def measure(name, cpi, bw, arch="riscv", write_ns=None):
        calls.append((cpi, bw, write_ns))
        cached = 4e3 / (write_ns * cached_words_per_write)
        uncached = 4e3 / (write_ns + 100 + 4e3 / bw)
        return calibrate.Point(cpi, bw, 13 * 1.9 / cpi, cached, uncached, write_ns)
    monkeypatch.setattr(calibrate, "measure", measure)
    return calibrate, calls


def test_write_cycle_fit_meets_all_three_targets(monkeypatch):
    calibrate, calls = _fake_ds3100(monkeypatch)
    f = calibrate.fit("ds3100", say=lambda *_: None, arch="mips")
    p = f.point
    assert f.processor_bound == "" and f.columns == ["cached", "uncached"]
    assert p.mips == pytest.approx(13, rel=0.01)
    assert p.bcopy_cached == pytest.approx(10.2, rel=0.01)
    assert p.bcopy_uncached == pytest.approx(5.1, rel=0.01)
    assert p.write_ns == pytest.approx(4e3 / 10.2, rel=0.01)      # 392 ns
    assert all(w is not None for _, _, w in calls)


def test_write_cycle_fit_refuses_an_implausible_value(monkeypatch):
    """A cached copy that would need a write cycle under 100 ns: the fit
    stays in the documented range and says why it missed."""
    calibrate, calls = _fake_ds3100(monkeypatch, cached_words_per_write=5.0)
    f = calibrate.fit("ds3100", say=lambda *_: None, arch="mips")
    assert "edge of the documented ranges" in f.processor_bound
    assert min(w for _, _, w in calls) >= 100 - 1e-9
    assert "bcopy_cached" in calibrate.misses(profiles.load("ds3100"), f)


def test_a_fit_that_misses_the_mips_rating_is_not_written(tmp_path, monkeypatch):
    """A Table 5 target out of reach can pull the fit off Table 1 (the
    DS3100's cached bcopy on a fresh boot led it to CPI 2.72, 9.3 MIPS for
    13): the profile stays as it was, and calibrate says so and fails."""
    from harness.errors import HarnessError
    from harness.model import calibrate
    path = tmp_path / "ds3100.toml"
    path.write_text(GOOD)
    hw = profiles.load("ds3100", path=path)
    monkeypatch.setattr(calibrate.profiles, "load", lambda name, **kw: hw)
    t = calibrate.targets(hw)
    bad = calibrate.Point(cpi=2.72, bandwidth_mbs=4.77, mips=9.30, bcopy_cached=4.34,
                          bcopy_uncached=2.76)
    said = []
    rec = calibrate.record("ds3100", calibrate.Fit(bad, [bad], t, ["cached", "uncached"]),
                           {}, "2000-01-01", True, tmp_path, said.append)
    assert "mips" in rec["not_within_5_percent"]
    assert path.read_text() == GOOD
    assert any("NOT written" in s for s in said), said
    monkeypatch.setattr(calibrate, "run_jobs", lambda jobs, ex, say, what, each: each(
        0, (calibrate.Fit(bad, [bad], t, ["cached", "uncached"]), {})))
    with pytest.raises(HarnessError, match="missed Table 1's MIPS"):
        calibrate.calibrate(["ds3100"], write=True, out=tmp_path, say=said.append)
    assert path.read_text() == GOOD
    good = calibrate.Point(cpi=1.9, bandwidth_mbs=25.9, mips=13.0, bcopy_cached=10.1,
                           bcopy_uncached=5.1)
    calibrate.record("ds3100", calibrate.Fit(good, [good], t, ["cached", "uncached"]),
                     {}, "2000-01-02", True, tmp_path, said.append)
    assert path.read_text() != GOOD
