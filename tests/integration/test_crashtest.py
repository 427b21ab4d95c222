"""Crash testing on the real riscv kernel (docs/crashtest.md):

- the hardware model's write log (writelog=) records real device writes,
  under QEMU (riscv) and under our SIMH (vax), and turning it on changes no
  modelled time;
- a short crash test: the metadata workload under sync has no inconsistent
  crash point (the kernel's write order), under delayed acknowledged data
  is at risk; the rename workload under sync never leaves its name missing
  or holding a partial file;
- fsck -y in the guest repairs a damaged file system: a kernel booted with
  a damaged image (the image linked into kernel.elf, patched here) comes up,
  fsck -y makes it clean, and the repaired inodes are what the kernel uses
  afterwards.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from booting import TIMEOUT, logs
from harness import ROOT
from harness.crashtest import fsread, report, run, wlog
from harness.guest import fsformat, machines
from harness.guest.elfsyms import Symbols
from harness.guest.protocol import Result, parse_lines
from harness.model import profiles, runs

ARCH = "riscv"


def _built(arch: str) -> machines.Machine:
    m = machines.get(arch)
    if not m.kernel_path().exists():
        pytest.skip(f"{arch} is not built")
    return m


@pytest.fixture
def machine():
    return _built(ARCH)


def _results(machine, extra, tmp_path, name):
    hw = profiles.load(machine.model_profile)
    g = runs.start(machine, hw, tmp_path / f"{name}.log", tmp_path / f"{name}.hw.log", extra)
    with g:
        g.boot(timeout=machine.boot_timeout)
        lines = g.run("createdelete -p sync -n 2", timeout=TIMEOUT).lines
        g.halt()
    return [r.line for r in parse_lines(lines) if isinstance(r, Result)]


# One ISA for each of the model's back ends: QEMU's plugin, our SIMH.
BACK_ENDS = {m.model: a for a, m in reversed(machines.MACHINES.items()) if m.model}


@pytest.mark.parametrize("arch", sorted(BACK_ENDS.values()))
def test_write_log_records_writes_and_changes_no_time(arch, tmp_path):
    machine = _built(arch)
    log = tmp_path / "w.wlog"
    plain = _results(machine, [], tmp_path, "plain")
    logged = _results(machine, run.writelog_args(machine, log), tmp_path, "logged")
    assert len(plain) == 3 and plain == logged
    bsize, records = wlog.read(log)
    assert bsize == fsformat.BSIZE
    kinds = {k: sum(1 for r in records if r.kind == k) for k in "WDA"}
    # createdelete -n 2 under sync: (2 warm-up + 2) files of each size; the
    # 100 KB ones alone are 108 device writes each
    assert kinds["W"] >= 4 * 108 and kinds["D"] > 0 and kinds["A"] > 0
    assert all(r.blockno < 4096 for r in records if r.kind != "A")


def test_short_crashtest(machine, tmp_path):
    text, where = report.crashtest(tmp_path, ARCH, max_points=60, workloads=["metadata"],
                                   policies=["sync", "delayed"], say=lambda s: None)
    rows = {r["policy"]: r for r in __import__("json").loads(
        (where / "crashtest.json").read_text())["rows"]}
    assert rows["sync"]["tried"] > 50
    assert rows["sync"]["inconsistent"] == 0, text
    assert rows["sync"]["leaks"] > 0                  # crashes do leave lost space
    assert rows["delayed"]["max_at_risk_bytes"] > 0
    assert (where / "risk-delayed.png").stat().st_size > 1000


def test_rename_keeps_a_whole_file_under_its_name(machine, tmp_path):
    """The rename workload under sync, every crash state: the name it
    replaces by rename always holds one whole version (docs/crashtest.md).
    (A rename that cleared the name before writing the new entry showed 4
    states with the name gone.)"""
    text, where = report.crashtest(tmp_path, ARCH, max_points=1000, workloads=["rename"],
                                   policies=["sync"], say=lambda s: None)
    row = __import__("json").loads((where / "crashtest.json").read_text())["rows"][0]
    assert row["tried"] == row["states"] > 100, text
    assert row["inconsistent"] == 0, text
    assert row["name_missing"] == "0" and row["name_partial"] == "0", text
    judged = [p for p in row["points"] if p["name"]]
    assert len(judged) > 80 and all(p["name"] == "whole" for p in judged), text
    assert "name gone" in text and "inconsistent" in text   # the legend names the columns


def _image_offset(elf: Path) -> int:
    """Where fs_image (fsimage.S) lies in the ELF file."""
    addr = Symbols.load(elf).address("fs_image")
    data = elf.read_bytes()
    phoff, = struct.unpack_from("<I", data, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    for i in range(phnum):
        typ, off, vaddr, _, filesz, _, _, _ = struct.unpack_from("<8I", data, phoff + i * phentsize)
        if typ == 1 and vaddr <= addr < vaddr + filesz:
            return off + addr - vaddr
    raise AssertionError("fs_image is in no loaded segment")


def test_guest_fsck_y_repairs(machine, tmp_path):
    elf = machine.elf_path()
    image = (ROOT / "build" / ARCH / "fs.img").read_bytes()
    off = _image_offset(elf)
    raw = bytearray(elf.read_bytes())
    assert raw[off:off + len(image)] == image
    fs = bytearray(image)
    im = fsread.Image(fs)
    ioff = im.inodestart * fsformat.BSIZE + fsformat.ROOTINO * fsformat.DINODE.size
    typ, nlink = struct.unpack_from("<HH", fs, ioff)
    struct.pack_into("<H", fs, ioff + 2, nlink + 3)     # a link count too high
    bitmap = im.bmapstart * fsformat.BSIZE
    lost = im.nblocks - 1                               # far past anything mkfs used
    assert not fs[bitmap + lost // 8] >> (lost % 8) & 1
    fs[bitmap + lost // 8] |= 1 << (lost % 8)           # lost: marked used, used by nothing
    raw[off:off + len(image)] = fs
    damaged = tmp_path / "kernel.elf"
    damaged.write_bytes(raw)
    exe = machine.check()
    g = machine.guest(machine.emulator.argv(exe, damaged, False), logs(ARCH) / "fsck-y.log")
    with g:
        g.boot(timeout=machine.boot_timeout)
        before = g.run("fsck", timeout=TIMEOUT).lines
        assert f"fsck: leak: inode 1: link count {nlink + 3}, but {nlink} entries name it" \
            in before
        assert f"fsck: leak: block {lost} is lost: marked in use, used by nothing" in before
        assert before[-1].endswith("2 problems")
        fixed = g.run("fsck -y", timeout=TIMEOUT).lines
        assert fixed[-1] == "fsck: 2 repairs, 0 problems left"
        # the kernel uses the repaired root: a new directory counts from it
        g.run("mkdir /crashtest", timeout=TIMEOUT)
        after = g.run("fsck", timeout=TIMEOUT).lines
        assert after[-1].endswith(" 0 problems"), after
        g.halt()
