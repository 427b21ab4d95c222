"""harness.bench.finaltable: the measure suite's predictions from a profile,
worked out here by hand from the profiles' numbers, and the table's rows."""

import json

import pytest

from harness.bench import finaltable, report, suite
from harness.bench.diskpredict import Disk
from harness.bench.finaltable import Hardware
from harness.guest.protocol import parse_line
from harness.model import profiles
from harness.tables import write_csv


def hw(name: str) -> Hardware:
    return Hardware.from_profile(profiles.load(name).data)


def test_pentium_memory_levels_by_hand():
    """pc-p5: 90 MHz, CPI 1.3; 8 KB L1 with 32-byte lines; 256 KB L2 at 40 ns;
    memory 120 ns + 32 bytes at 80 MB/s = 400 ns."""
    p5 = hw("pc-p5")
    load = 1.3 * 1000 / 90
    assert p5.load_ns(512, 128) == pytest.approx(load)
    assert p5.load_ns(8192, 128) == pytest.approx(load)               # fits the L1
    assert p5.load_ns(16384, 128) == pytest.approx(load + 40)         # the L2
    assert p5.load_ns(256 << 10, 128) == pytest.approx(load + 40)
    assert p5.load_ns(512 << 10, 128) == pytest.approx(load + 40 + 120 + 400)
    # one word at a time: one miss per 32-byte line, every 8th load
    assert p5.load_ns(16384, 4) == pytest.approx(load + 40 / 8)
    assert p5.load_ns(4 << 20, 4) == pytest.approx(load + (40 + 520) / 8)


def test_decstation_memory_level_and_bandwidth_by_hand():
    """ds3100: 16.67 MHz, one-word lines, no L2, write-through: every word
    written costs the memory's write cycle (memory.write_ns), every line
    read latency + 4 bytes at the bandwidth."""
    ds = hw("ds3100")
    data = profiles.load("ds3100").data
    cycle, cpi = 1000 / 16.67, data["cpu"]["cpi"]
    word = 4 * 1000 / data["memory"]["bandwidth_mbs"]
    # MIPS I: a dependent load is the load and the nop in its delay slot,
    # but for the last of measure.c's 16 in a row
    chase = (1 + 15 / 16) * cpi * cycle
    assert ds.load_ns(64 << 10, 128) == pytest.approx(chase)
    assert ds.load_ns(128 << 10, 128) == pytest.approx(chase + 100 + word)
    assert hw("ds3100-riscv").load_use_insns == 1
    mb = 4 << 20
    assert ds.read_ns(mb) == pytest.approx(mb / 4 * (100 + word))
    assert ds.write_ns(mb) == pytest.approx(mb / 4 * data["memory"]["write_ns"])
    assert data["memory"]["write_ns"] > word      # the write cycle is the slower path
    # the disk: 0.5 ms overhead + 1 KB at 1.25 MB/s; random adds 16 ms and half of 3600 rpm
    assert ds.disk_sequential_ns == pytest.approx(500e3 + 1024e3 / 1.25)
    assert ds.disk_random_ns == pytest.approx(500e3 + 1024e3 / 1.25 + 16e6 + 0.5 * 60e9 / 3600)


def test_microvax_has_no_cache_every_load_is_a_bus_word():
    mv = hw("mvax2")
    data = profiles.load("mvax2").data
    # two loads an instruction (movl *0(r1),r1), each a bus word
    load = data["cpu"]["cpi"] * 200 / 2 + 4 * 1000 / data["memory"]["bandwidth_mbs"]
    assert mv.load_ns(512, 128) == pytest.approx(load)
    assert mv.load_ns(4 << 20, 4) == pytest.approx(load)


def test_none_is_one_ns_per_instruction_and_free_memory():
    none = Hardware.from_profile(profiles.load("none").data)
    assert none.load_ns(4 << 20, 128) == 1.0
    assert none.insns(2, traps=1) == 2.0
    assert none.read_ns(4 << 20) == 0.0 and none.write_ns(4 << 20) == 0.0


def test_write_back_write_allocate_fetches_and_writes_back_each_line():
    data = profiles.load("ds3100").data
    data = {**data, "dcache": {**data["dcache"], "write_policy": "write-back", "line": 16}}
    h = Hardware.from_profile(data)
    word = 4 * 1000 / data["memory"]["bandwidth_mbs"]
    wword = data["memory"]["write_ns"]              # each written-back word: a write cycle
    assert h.write_ns(4096) == pytest.approx(4096 / 16 * ((100 + 4 * word) + 4 * wword))


def line(bench, case, iters, ns, loop_ns, extra=""):
    return parse_line(f"RESULT bench={bench} case={case} iters={iters} ns={ns} "
                      f"loop_ns={loop_ns} insns=0 loop_insns=0 {extra}".strip())


def run_of(*lines):
    return report.RunRecord(arch="riscv", profile="ds3100-riscv", mips=13.0, profile_note="",
                            results=list(lines))


def test_rows_software_is_measured_minus_hardware():
    run = run_of(line("syscall", "getpid", 100, 2_000_000, 100_000),
                 line("cswitch", "roundtrip", 10, 3_000_000, 0),
                 line("memlat", "s128-4m", 1000, 600_000, 50_000, "stride=128 size=4194304"),
                 line("metadata", "sync", 128, 128 * 50_000_000, 0,
                      "policy=sync dev_writes=256 sync_writes=256 dev_reads=0"))
    data = profiles.load("ds3100-riscv").data
    h = Hardware.from_profile(data)
    rows = {r.key: r for r in finaltable.final_table(run, data)}
    # only what was run
    assert set(rows) == {"syscall/getpid", "cswitch/roundtrip/2", "memlat/s128-4m",
                         "metadata/sync"}
    g = rows["syscall/getpid"]
    assert g.measured_ns == 19_000 and g.kind == ">="
    assert g.hardware_ns == pytest.approx(h.insns(2, traps=1))
    assert g.software_ns == pytest.approx(19_000 - g.hardware_ns)
    assert rows["cswitch/roundtrip/2"].measured_ns == 150_000      # half a round trip
    m = rows["memlat/s128-4m"]
    assert m.kind == "=" and m.measured_ns == 550
    assert m.hardware_ns == pytest.approx(h.load_ns(4 << 20, 128))
    md = rows["metadata/sync"]
    assert md.hardware_ns == pytest.approx(2 * h.insns(2, traps=1) + 2 * h.disk_random_ns)


def test_table_text_json_and_csv(tmp_path):
    run = run_of(line("syscall", "getpid", 100, 2_000_000, 100_000),
                 line("membw", "write", 1, 400_000_000, 0).__class__(
                     bench="membw", case="write", iters=1, ns=400_000_000, loop_ns=0,
                     insns=0, loop_insns=0, bytes=4 << 20))
    rows = finaltable.final_table(run, profiles.load("ds3100-riscv").data)
    text = finaltable.text(rows, run)
    assert "Final Results Table: riscv, profile ds3100-riscv" in text
    assert "system call: getpid" in text and ">= " in text
    assert "10.5 MB/s measured" in text                # 4194304 bytes in 0.4 s
    back = finaltable.from_json(json.loads(json.dumps(finaltable.to_json(rows))))
    assert back == rows
    write_csv(tmp_path / "final.csv", *finaltable.csv_table(rows))
    csv_text = (tmp_path / "final.csv").read_text()
    assert csv_text.splitlines()[0] == ",".join(finaltable.CSV_FIELDS)
    assert len(csv_text.splitlines()) == 1 + len(rows)


def test_measure_suite_names_match_the_program():
    assert suite.SUITES["measure"][0] == "timer"
    assert "cswitch" in suite.SUITES["measure"]            # reused from the paper suite
    memlat = suite.BY_NAME["memlat"]
    assert memlat.cases[0] == "s128-512" and memlat.cases[13] == "s128-4m"
    assert memlat.cases[-1] == "s4-4m" and len(memlat.cases) == 28
    assert [b.name for b in suite.choose(None, "measure")] == list(suite.SUITES["measure"])


# ---------------------------------------------------------------- 002's file system

def test_disk_requests_by_hand():
    """ds3100's RZ55: 0.5 ms a request, 1 KB at 1.25 MB/s, half of a 3600 rpm
    turn, a 16 ms seek, 540-sector cylinders (hw-models/core/disk.c)."""
    disk = Disk.from_profile(profiles.load("ds3100").data)
    assert disk.sequential_ns == pytest.approx(500e3 + 1024e3 / 1.25)
    assert disk.sequential_ns == pytest.approx(hw("ds3100").disk_sequential_ns)
    half_turn = 0.5 * 60e9 / 3600
    # a file of one cylinder or less: no seek at all when it starts one
    # (offset 0), the seek about as often as the boundary splits it later
    p = disk.same_cylinder(1 << 20)                  # 2048 sectors on 540-sector cylinders
    assert 0.2 < p < 0.3
    assert disk.random_ns(1 << 20) == pytest.approx(disk.sequential_ns + half_turn +
                                                   (1 - p) * 16e6)
    # the worst case, every request a seek, is what the meta-data rows charge
    assert disk.random_ns(1 << 30) < hw("ds3100").disk_random_ns
    none = Disk.from_profile(profiles.load("none").data)
    assert none.sequential_ns == none.random_ns(1 << 20) == 0


def test_same_cylinder_worked_out_on_a_tiny_disk():
    """Cylinders of 4 sectors, blocks of 2: a 2-block file (4 sectors) at
    offsets 0, 1, 2, 3 has its blocks' first sectors at (0, 2), (1, 3) --
    one cylinder -- and (2, 4), (3, 5) -- two: half the time the same."""
    assert Disk(0, 0, 0, 0, 4).same_cylinder(2048) == pytest.approx(0.5)
    assert Disk(0, 0, 0, 0, 4).same_cylinder(1024) == 1.0          # one block
    # 3-sector cylinders, 3 blocks (6 sectors): offset 0 -> sectors 0, 2, 4:
    # cylinders 0, 0, 1 (1 pair of 3); offset 1 -> 1, 3, 5: 0, 1, 1 (1 of 3);
    # offset 2 -> 2, 4, 6: 0, 1, 2 (none)
    assert Disk(0, 0, 0, 0, 3).same_cylinder(3072) == pytest.approx((1 / 3 + 1 / 3 + 0) / 3)
    assert Disk(0, 0, 0, 0, 540).same_cylinder(64 << 20) < 0.01    # many cylinders


def test_contention_bound_is_half_the_readers_plus_one():
    disk = Disk.from_profile(profiles.load("pc-p5").data)
    seq = 200e3 + 1024e3 / 5.0                        # pc-p5: 0.2 ms, 5 MB/s
    assert [disk.contention_bound_ns(n) for n in (1, 2, 3, 4)] == \
        pytest.approx([seq, 1.5 * seq, 2 * seq, 2.5 * seq])


def test_file_system_rows():
    """The knee rows pick the largest size the cache held and the next one
    it did not; every prediction is the profile's, per block."""
    fc = lambda case, size, reads: line(                                    # noqa: E731
        "filecache", case, size // 1024, size // 1024 * 300_000, 0,
        f"size={size} chunk=16384 dev_reads={reads} misses={reads}")
    run = run_of(fc("1m", 1 << 20, 0), fc("1792k", 1792 << 10, 0), fc("2m", 2 << 20, 2048),
                 line("fileread", "seq", 1024, 1024 * 1_900_000, 0,
                      "size=1048576 dev_reads=1029 misses=1029"),
                 line("fileread", "random", 1024, 1024 * 22_000_000, 0,
                      "size=1048576 dev_reads=1029 misses=1029"),
                 line("contention", "p1", 128, 128 * 2_000_000, 0,
                      "procs=1 proc_ns=256000000 dev_reads=132"),
                 line("contention", "p4", 128, 128 * 8_000_000, 0,
                      "procs=4 proc_ns=2560000000 dev_reads=519"))
    data = profiles.load("ds3100-riscv").data
    h, disk = Hardware.from_profile(data), Disk.from_profile(data)
    # the DECstation's write-through cache sends every store of the copy on
    # to memory; a write-back cache keeps the reused buffer (pc-p5 below)
    trap, copy = h.insns(2, traps=1), h.read_ns(1024) + h.write_ns(1024)
    rows = {r.key: r for r in finaltable.final_table(run, data)}
    assert set(rows) == {"filecache/1792k", "filecache/2m", "fileread/seq", "fileread/random",
                         "contention/p1", "contention/p4"}
    assert rows["filecache/1792k"].hardware_ns == pytest.approx(trap / 16 + copy)
    assert rows["filecache/2m"].hardware_ns == pytest.approx(trap / 16 + copy +
                                                             disk.sequential_ns)
    assert "1792 KB file, in the buffer cache" in rows["filecache/1792k"].operation
    assert rows["filecache/2m"].measured_ns == 300_000
    assert rows["fileread/seq"].hardware_ns == pytest.approx(
        2 * trap + copy + 1029 / 1024 * disk.sequential_ns)
    assert rows["fileread/random"].hardware_ns == pytest.approx(
        2 * trap + copy + 1029 / 1024 * disk.random_ns(1 << 20))
    assert {rows[k].kind for k in ("filecache/2m", "fileread/seq", "fileread/random")} == {"~"}
    p4 = rows["contention/p4"]
    assert p4.kind == ">=" and p4.hardware_ns == pytest.approx(2.5 * disk.sequential_ns)
    assert p4.measured_ns == pytest.approx(2_560_000_000 / (4 * 128))     # each reader's own
    p5 = profiles.load("pc-p5").data
    row = {r.key: r for r in finaltable.final_table(run, p5)}["filecache/1792k"]
    assert row.hardware_ns == pytest.approx(hw("pc-p5").insns(2, traps=1) / 16 +
                                            hw("pc-p5").read_ns(1024))


def test_page_fault_row_is_a_trap_and_a_page_of_zeros_written():
    """The page-fault row (002 2c, a minor fault): a lower bound of one trap
    and 4 KB written at the memory's write speed, from the profile alone."""
    run = run_of(line("pagefault", "write", 256, 256 * 40_000, 256 * 100, "faults=256"))
    for name in ("ds3100-riscv", "pc-p5", "mvax2"):
        data = profiles.load(name).data
        h = Hardware.from_profile(data)
        (row,) = finaltable.final_table(run, data)
        assert row.key == "pagefault/write" and row.kind == ">="
        assert row.measured_ns == 39_900
        assert row.hardware_ns == pytest.approx(h.insns(2, traps=1) + h.write_ns(4096))
        assert row.hardware_ns > h.insns(2, traps=1)        # the zeros cost something
