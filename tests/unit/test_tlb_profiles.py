"""The [tlb] section of a profile, its model arguments, the TLB counters in
the harness, and the reference TLB simulator by hand.  No QEMU here: the
model itself is checked in tests/integration/test_tlb_model.py.
"""

from pathlib import Path

import pytest

from harness.errors import SetupError
from harness.guest.protocol import parse_line
from harness.bench import counters
from harness.model import modelargs, modellog, profiles

import hwmodel_ref

P5 = (profiles.PROFILE_DIR / "pc-p5.toml").read_text()
# The machines of the paper: calibrated, and their results must not move.
PAPER = ("mvax2", "vax8800", "sun3", "sun4", "ds3100", "ds3100-riscv", "m2000")


def load_text(tmp_path: Path, text: str, name: str = "t"):
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    return profiles.load(name, path=p)


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize("name", PAPER)
def test_paper_profiles_have_no_tlb(name):
    assert "tlb" not in profiles.load(name).data


def test_pc_p5_has_the_pentium_tlbs():
    t = profiles.load("pc-p5").get("tlb")
    assert (t["itlb_entries"], t["itlb_assoc"], t["dtlb_entries"], t["dtlb_assoc"]) == \
        (32, 4, 64, 4)
    assert (t["page_size"], t["large_entries"], t["large_page_size"]) == (4096, 8, 4 << 20)
    assert t["refill"] == "walk"


@pytest.mark.parametrize("old, new, message", [
    ('refill = "walk"', 'refill = "magic"', 'refill = \'magic\' must be "walk" or "software"'),
    ("page_size = 4096", "page_size = 4000", "page_size = 4000 is not a power of two"),
    ("itlb_entries = 32", "itlb_entries = 30", "itlb_entries = 30 is not a whole number"),
    ("dtlb_assoc = 4", "dtlb_assoc = 0", "dtlb_assoc = 0 must be a whole number > 0"),
    ("dtlb_entries = 64", "dtlb_entries = 48", "dtlb_entries = 48 gives 12 sets"),
    ('replacement = "lru"', 'replacement = "random"', "replacement = 'random' must be \"lru\""),
    ("walk_cycles = 4 ", "walk_cycles = -1 ", "walk_cycles = -1 must be a number >= 0"),
    ("walk_cycles = 4 ", "walk_cycle = 4 ", "[tlb] unknown field 'walk_cycle'"),
    ("large_page_size = 4194304", "large_page_size = 2048",
     "large_page_size = 2048 must be larger than page_size"),
    ("large_assoc = 4\n", "", "large_assoc is missing"),
    ('refill = "walk"', 'refill = "software"', 'not modelled on x86 (only on mips)'),
    ("itlb_entries = 32", "unified = true\nitlb_entries = 32",
     "unified = true, so itlb_entries must be 0"),
])
def test_bad_tlb_values_name_the_field(tmp_path, old, new, message):
    with pytest.raises(SetupError) as e:
        load_text(tmp_path, edit(P5, old, new))
    assert message in str(e.value)
    assert "[tlb]" in str(e.value)


def test_software_refill_is_for_mips_and_needs_nothing_else(tmp_path):
    ds = (profiles.PROFILE_DIR / "ds3100.toml").read_text()
    text = ds + '\n[tlb]\nrefill = "software"\npage_size = 4096\n'
    hw = load_text(tmp_path, text.replace('name = "ds3100"', 'name = "t"'))
    assert hw.get("tlb")["refill"] == "software"
    with pytest.raises(SetupError, match=r"\[tlb\] dtlb_entries is not used"):
        load_text(tmp_path, text.replace('name = "ds3100"', 'name = "t"') +
                  "dtlb_entries = 64\n")


def test_walk_is_refused_where_the_model_knows_no_walk(tmp_path):
    sun4 = (profiles.PROFILE_DIR / "sun4.toml").read_text().replace('name = "sun4"', 'name = "t"')
    tail = P5[P5.index("[tlb]"):]
    with pytest.raises(SetupError, match="not modelled on sparc"):
        load_text(tmp_path, sun4 + "\n" + tail)


def tlb_args(hw):
    return [a for a in modelargs.profile_args(hw) if a.startswith("tlb.")]


def test_tlb_arguments_only_with_a_tlb_section():
    assert tlb_args(profiles.load("ds3100-riscv")) == []
    args = tlb_args(profiles.load("pc-p5"))
    assert "tlb.dtlb_entries=64" in args and "tlb.itlb_assoc=4" in args
    assert "tlb.large_page_size=4194304" in args and "tlb.walk_cycles=4" in args
    none = profiles.load("pc-p5", {"tlb": None})
    assert tlb_args(none) == []


def test_reference_tlb_by_hand():
    # 2 entries, 1 way (2 sets): pages 0 and 2 share set 0
    t = hwmodel_ref.Tlbs(12, hwmodel_ref.Tlbs.table(2, 1), hwmodel_ref.Tlbs.table(2, 1),
                         hwmodel_ref.Tlbs.table(1, 1), 22)
    trace = ["B 2", "T D 0 12", "T D 10 12", "T D 2000 12", "T D 0 12", "T D 1000 12",
             "T I 0 12", "T I 0 12", "T F 0 0", "T I 0 12",
             "T D 80000000 22", "T D 803ff000 22", "T D 80400000 22", "T D 80000000 22"]
    c, = hwmodel_ref.replay_tlb(trace, t)
    # D: 0 miss, 10 (page 0) hit, 2000 miss (evicts 0), 0 miss, 1000 miss (set 1);
    # large: 80000000 miss, 803ff000 hit (same 4 MB), 80400000 miss, 80000000 miss
    assert c.dtlb_miss == 4 + 3
    assert c.itlb_miss == 2                 # the flush empties it
    assert c.lookups == 12
    # the caches' replay skips the TLB lines
    assert len(hwmodel_ref.replay(trace, None, None)) == 1


def result(bench="getpid", case="call"):
    return parse_line(f"RESULT bench={bench} case={case} iters=10 ns=100 loop_ns=10 insns=50 loop_insns=5")


def test_chen_events_by_name():
    per_op = {k: 1.0 for k in modellog.COUNTERS}
    ev = modellog.chen_events(per_op, "riscv")
    assert list(ev) == ["cycles", "instructions", "data_reads", "data_writes",
                        "icache_misses", "dcache_misses", "itlb_misses", "dtlb_misses",
                        "segment_loads"]
    assert ev["itlb_misses"] is None and ev["segment_loads"] is None
    per_op.update(itlb_miss=2.0, dtlb_miss=3.0, segloads=4.0, insns=5.0)
    ev = modellog.chen_events(per_op, "x86")
    assert (ev["instructions"], ev["itlb_misses"], ev["dtlb_misses"], ev["segment_loads"]) == \
        (5.0, 2.0, 3.0, 4.0)
    assert modellog.chen_events(per_op, "m68k")["segment_loads"] is None


def test_counter_table_shows_tlb_columns_only_with_a_tlb():
    plain = {k: 1.0 for k in modellog.COUNTERS}
    text = counters.format_counter_table("p", "m", 1, [(result(), plain)])
    assert "DTLB-miss" not in text
    tlb = dict(plain, itlb_miss=0.5, dtlb_miss=0.25, segloads=7.0)
    text = counters.format_counter_table("p", "m", 1, [(result(), tlb)])
    head = text.splitlines()[1].split()
    assert head[head.index("D-miss") + 1:head.index("D-miss") + 4] == \
        ["ITLB-miss", "DTLB-miss", "seg-ld"]


def test_final_table_leaves_tlb_walks_out_of_exact_rows():
    """With a [tlb], a memory-read row whose ring is beyond the DTLB's reach
    (pc-p5: 64 x 4 KB) is a lower bound; within it, still exact."""
    from harness.bench import finaltable, report

    def line(case, size):
        return parse_line(f"RESULT bench=memlat case={case} iters=1000 ns=600000 "
                          f"loop_ns=0 insns=0 loop_insns=0 stride=128 size={size}")
    run = report.RunRecord(arch="x86", profile="pc-p5", mips=85.0, profile_note="",
                           results=[line("s128-8k", 8192), line("s128-256k", 256 << 10),
                                    line("s128-4m", 4 << 20)])
    kinds = {r.key: r.kind for r in finaltable.final_table(run, profiles.load(
        "pc-p5").data)}
    assert kinds == {"memlat/s128-8k": "=", "memlat/s128-256k": "=", "memlat/s128-4m": ">="}
    plain = {r.key: r.kind for r in finaltable.final_table(run, profiles.load(
        "pc-p5", {"tlb": None}).data)}
    assert plain["memlat/s128-4m"] == "="
