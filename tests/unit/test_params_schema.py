"""The model's parameters have one home, hw-models/core/params.def: the
harness's reader of it (harness/model/schema.py) is strict, every profile
field and every model argument the harness writes is one of its lines, a
line added there is a profile field the harness checks and passes on, and
the disk layout comes from kernel/include/fsformat.h alone
(harness/guest/fsformat.py).

No emulator here; tests/integration/test_schema_plugin.py builds the
plugin with a made-up parameter and boots it.
"""

import re
import tomllib
from pathlib import Path

import pytest

from harness.errors import SetupError
from harness.guest import fsformat, machines
from harness.model import modelargs, profiles, schema

DEF = schema.PARAMS_DEF.read_text()
MADE_UP = ('PARAM("cpu.made_up", F64, IN(1, 10), OPT, NOFIELD, "cycles", "",\n'
           '      "a parameter made up by the tests")\n')


def test_every_profile_field_is_a_parameter():
    """Each field of each shipped model profile's sections is a PARAM, and
    each REQ parameter of a section every profile has is in every profile."""
    s = schema.load()
    for path in sorted(profiles.PROFILE_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("model", True) is False:
            continue
        for section, fields in data.items():
            if section in s.sections:
                for key in fields:
                    assert f"{section}.{key}" in s.params, (path.name, section, key)


def test_the_c_option_table_names_the_same_parameters():
    """options.c has no key of its own: every key it knows comes from
    params.def (the table is the file, included)."""
    c = (schema.PARAMS_DEF.parent / "options.c").read_text()
    assert '#include "params.def"' in c
    assert not re.search(r'\{\s*"[a-z_.]+"\s*,\s*T_', c)     # no hand-written row


@pytest.mark.parametrize("text, message", [
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F64, GT0, REQ, NOFIELD, "", "", "d")\n'
     'int x;\n', r":3: not a call of SECTION, PARAM or RUNARG"),
    ('PARAM("cpu.a", F64, GT0, REQ, NOFIELD, "", "", "d")\n',
     r':1: parameter \'cpu.a\': no SECTION\("cpu", ...\) above it'),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F64, GT0, REQ, NOFIELD, "", "")\n',
     r":2: PARAM takes 8 arguments, not 7"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F32, GT0, REQ, NOFIELD, "", "", "d")\n',
     r":2: a PARAM's type must be one of"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", BOOL, POW2, REQ, NOFIELD, "", "", "d")\n',
     r":2: check POW2 does not go with type BOOL"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F64, GT0, MAYBE, NOFIELD, "", "", "d")\n',
     r":2: presence must be REQ or OPT"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F64, GT0, REQ, hw.p.a, "", "", "d")\n',
     r":2: field must be FIELD\(path\) or NOFIELD"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F64, GT0, REQ, NOFIELD, "", "-1", "d")\n',
     r":2: cpu.a: default '-1' must be a number > 0"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", F64, GT0, REQ, NOFIELD, "", "", "d")\n'
     'PARAM("cpu.a", F64, GT0, REQ, NOFIELD, "", "", "d")\n', r":3: 'cpu.a' is defined twice"),
    ('SECTION("cpu", REQ, "x")\nPARAM("cpu.a", CHOICE, ONEOF("a|b|c"), REQ, NOFIELD, "", "",'
     ' "d")\n', r":2: .*one or two words"),
    ('SECTION("cpu", REQ, "x")\n/* unfinished\n', r":2: a comment that does not end"),
    ('SECTION("cpu", REQ, "x" "y")\n', r":1: the doc line must be one string literal"),
])
def test_the_reader_refuses_what_it_does_not_understand(text, message):
    with pytest.raises(SetupError, match=message):
        schema.parse(text, "params.def")


def test_the_real_file_reads():
    s = schema.load()
    p = s.params["memory.bandwidth_mbs"]
    assert (p.type, p.check.kind, p.required, p.unit, p.field) == \
        ("F64", "GT0", True, "MB/s", "mem.mem_mbs")
    assert s.params["dcache.write_policy"].check.words == ("write-through", "write-back")
    assert s.params["memory.write_ns"].check == schema.Check("IN", 100.0, 600.0)
    assert not s.sections["l2"].required and s.sections["cpu"].required
    assert s.runargs["trap_pc"].type == "PC"


@pytest.fixture
def made_up(tmp_path, monkeypatch):
    """params.def with one line more, as the harness's schema."""
    path = tmp_path / "params.def"
    path.write_text(DEF + "\n" + MADE_UP)
    monkeypatch.setattr(schema, "PARAMS_DEF", path)
    return path


def test_a_new_line_is_a_field_the_harness_checks_and_passes_on(made_up, tmp_path):
    text = (profiles.PROFILE_DIR / "ds3100-riscv.toml").read_text()
    good = text.replace("trap_extra = ", "made_up = 3\ntrap_extra = ", 1)
    path = tmp_path / "t.toml"
    path.write_text(good)
    hw = profiles.load("t", path=path)
    args = modelargs.plugin_args(hw, machines.get("riscv"), Path("/tmp/x.log"))
    assert "cpu.made_up=3" in args
    path.write_text(good.replace("made_up = 3", "made_up = 11"))
    with pytest.raises(SetupError, match=r"\[cpu\] made_up = 11 must be a number from 1 to 10 "
                                         r"\(a parameter made up by the tests\)"):
        profiles.load("t", path=path)
    # and without the line, the same field is unknown
    assert "cpu.made_up" not in schema.parse(DEF).params


def test_an_argument_params_def_does_not_know_is_refused():
    with pytest.raises(SetupError, match="no model argument 'mem_mbs'"):
        modelargs.arg("mem_mbs", 3.0)
    with pytest.raises(SetupError, match=r"model argument memory.bandwidth_mbs = -1 must be"):
        modelargs.arg("memory.bandwidth_mbs", -1)
    assert modelargs.arg("trap_pc", 0x80000100) == "trap_pc=0x80000100"
    assert modelargs.arg("dcache.unified", True) == "dcache.unified=true"
    # a run argument that is true or false (fast=: the model's fast paths)
    assert modelargs.arg("fast", False) == "fast=false"
    with pytest.raises(SetupError, match=r"model argument fast='no': not true or false"):
        modelargs.arg("fast", "no")


def test_software_refilled_tlb_takes_only_its_fields(tmp_path):
    ds = (profiles.PROFILE_DIR / "ds3100.toml").read_text().replace('name = "ds3100"',
                                                                  'name = "t"')
    path = tmp_path / "t.toml"
    path.write_text(ds + '\n[tlb]\nrefill = "software"\n')
    with pytest.raises(SetupError, match=r"\[tlb\] page_size is missing"):
        profiles.load("t", path=path)


# ------------------------------------------------------------------ the disk layout

def test_the_disk_layout_is_the_headers():
    h = (fsformat.FSFORMAT_H).read_text()
    assert f"#define BSIZE        {fsformat.BSIZE}" in h
    assert fsformat.NINDIRECT == fsformat.BSIZE // 4 and fsformat.NADDRS == fsformat.NDIRECT + 2
    assert fsformat.DINODE.format == f"HHI{fsformat.NADDRS}I" and fsformat.DINODE.size == 64
    assert fsformat.IPB == fsformat.BSIZE // fsformat.DINODE.size
    assert fsformat.DIRENT.size == 4 + fsformat.DIRSIZ
    assert fsformat.FS_MAGIC == 0x4F555354


def test_the_header_reader_refuses_what_it_cannot_read(tmp_path):
    h = tmp_path / "x.h"
    h.write_text("#define A (B * 2)\n#define B 3u\n#define C strlen(x)\n"
                 "struct s {\n    unsigned short a;\n    unsigned int b;\n};\n")
    with pytest.raises(SetupError, match="struct s: b would be padded"):
        fsformat.Header(h)
    h.write_text("#define A (B * 2)\n#define B 3u\n#define C strlen(x)\n")
    r = fsformat.Header(h)
    assert r.constant("A") == 6
    with pytest.raises(SetupError, match="#define C strlen.x.: not integer arithmetic"):
        r.constant("C")
    with pytest.raises(SetupError, match="no #define D"):
        r.constant("D")


def test_no_one_restates_the_disk_layout():
    """The block size and the inode layout appear in Python only as
    fsformat.py reads them: no module of the harness or test writes them."""
    root = schema.PARAMS_DEF.parents[2]
    pattern = re.compile(r"BSIZE\s*=\s*\d|\"[<>]?HHI|I28s|NDIRECT\s*=\s*\d|0x4F555354\b",
                         re.I)
    found = [f"{p.relative_to(root)}:{n}" for d in ("harness", "tests", "tools")
             for p in (root / d).rglob("*.py")
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if pattern.search(line)
             and p.name not in ("test_params_schema.py", "fsformat.py")]
    assert found == []
