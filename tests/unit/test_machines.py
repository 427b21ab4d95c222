"""harness.guest.machines (the ISA registry) and harness.model.profiles:
command lines, setup errors, and the registry against the build's ISA list."""

import re
import shutil
import subprocess
import sys

import pytest

from harness import ROOT
from harness.errors import SetupError
from harness.guest import machines
from harness.model import modelargs, profiles

NONE = profiles.load("none")


def fake_root(tmp_path, arch="riscv", kernel=True):
    (tmp_path / "kernel" / "arch" / arch).mkdir(parents=True)
    (tmp_path / "kernel" / "arch" / arch / "arch.mk").write_text("")
    if kernel:
        k = tmp_path / machines.get(arch).kernel
        k.parent.mkdir(parents=True)
        k.write_bytes(b"\x7fELF")
        for f in machines.get(arch).emulator.loads_too(k):     # sparc: the PROM
            f.write_bytes(b"\0")
    return tmp_path


def test_riscv_command_line(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    root = fake_root(tmp_path)
    argv = machines.get("riscv").command(root=root)
    assert argv[0] == "/usr/bin/qemu-system-riscv32"
    joined = " ".join(argv)
    for part in ("-M virt", "-bios none", "-m 128M", "-smp 1", "-icount shift=0,sleep=off",
                 "-display none", "-monitor none", "-no-reboot",
                 "-chardev stdio,id=con,signal=off", "-serial chardev:con",
                 f"-kernel {root}/build/riscv/kernel.elf"):
        assert part in joined
    assert "-nographic" not in argv            # it would put the monitor on stdio
    assert "mux=on" not in joined
    inter = " ".join(machines.get("riscv").command(root=root, interactive=True))
    assert "-chardev stdio,id=con,signal=off,mux=on" in inter


def test_missing_emulator_says_make_deps(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(SetupError, match=r"qemu-system-riscv32.*not found.*`make deps`") as e:
        machines.get("riscv").check(fake_root(tmp_path))
    assert e.value.exit_code == 2


def test_missing_kernel_says_make_arch(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    with pytest.raises(SetupError, match=r"build/riscv/kernel.elf is missing: "
                                         r"run `make ARCH=riscv`"):
        machines.get("riscv").check(fake_root(tmp_path, kernel=False))


def test_missing_firmware(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    root = fake_root(tmp_path, "sparc")
    (root / "build" / "sparc" / "prom.bin").unlink()
    with pytest.raises(SetupError, match=r"firmware build/sparc/prom.bin is missing: "
                                         r"run `make ARCH=sparc`"):
        machines.get("sparc").check(root)


def test_unported_arch(tmp_path):
    with pytest.raises(SetupError, match=r"arch 'm68k' is not ported yet "
                                         r"\(no kernel/arch/m68k/arch.mk\)"):
        machines.get("m68k").check(tmp_path)


def test_other_arches_have_their_facts(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    x86 = " ".join(machines.get("x86").command(root=fake_root(tmp_path / "a", "x86")))
    assert "qemu-system-i386" in x86 and "isa-debug-exit,iobase=0xf4,iosize=4" in x86
    assert "-icount shift=0,sleep=off" in x86
    m68k = " ".join(machines.get("m68k").command(root=fake_root(tmp_path / "b", "m68k")))
    assert "qemu-system-m68k" in m68k and "-rtc base=2000-01-01,clock=vm" in m68k
    root = fake_root(tmp_path / "d", "sparc")
    sparc = " ".join(machines.get("sparc").command(root=root))
    assert "qemu-system-sparc" in sparc and "-M SPARCClassic -cpu TI-MicroSparc-I" in sparc
    assert f"-bios {root}/build/sparc/prom.bin" in sparc
    assert f"-kernel {root}/build/sparc/kernel.bin" in sparc
    assert "-icount shift=0,sleep=off" in sparc
    root = fake_root(tmp_path / "c", "vax")
    vax = machines.get("vax").command(root=root)
    assert "/simh/" in vax[0] and vax[0].endswith("/vax")   # our SIMH, in the cache
    script = (root / "build" / "vax" / "harness.simh").read_text()
    assert f"load -o {root}/build/vax/kernel.bin 1000" in script and "go 1000" in script


def test_unknown_arch_and_profile():
    known = ", ".join(sorted(machines.names()))
    with pytest.raises(SetupError, match=f"unknown arch 'pdp11' .known: {known}.$"):
        machines.get("pdp11")
    with pytest.raises(SetupError, match="unknown profile 'pdp10' .known: .*ds3100.*none"):
        profiles.load("pdp10")


def test_profile_none():
    assert NONE.mips == 1000.0
    assert not NONE.model
    assert "1 instruction = 1 ns" in NONE.note and "no memory model" in NONE.note
    # one source of truth: the file, not a built-in
    assert NONE.path == profiles.PROFILE_DIR / "none.toml"
    assert "none" in profiles.names() and "none" not in profiles.model_names()


def test_missing_simh_says_make_arch_vax(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(SetupError, match=r"our SIMH .* is not built: run `make ARCH=vax`"):
        machines.get("vax").check(fake_root(tmp_path, "vax", kernel=False))


# ---------------------------------------------------------------- the registry

def ported_isas():
    return {p.parent.name for p in (ROOT / "kernel" / "arch").glob("*/arch.mk")}


def test_registry_is_the_ported_isas():
    """A new ISA is an arch folder with its arch.mk and a registry entry:
    neither without the other."""
    assert set(machines.names()) == ported_isas()


def test_makefile_tests_every_ported_isa():
    # make prints its TEST_ARCHES (parsing the Makefile for riscv only)
    r = subprocess.run(["make", "-s", "--no-print-directory",
                        "--eval", "print-test-arches: ; @echo $(TEST_ARCHES)",
                        "print-test-arches"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert set(r.stdout.split()) == ported_isas()


@pytest.mark.parametrize("arch", machines.names())
def test_registry_entries_are_complete(arch):
    m = machines.get(arch)
    assert m.arch == arch and m.notes and m.boot_timeout > 0
    assert m.kernel.startswith(f"build/{arch}/")
    assert m.elf_path() == ROOT / "build" / arch / "kernel.elf"
    if m.model is not None:
        assert m.model in modelargs.BACKENDS
        # the tests' profile models this ISA
        assert profiles.load(m.model_profile).isa == arch
        # the trap vector, where there is one, has the one name every ISA uses
        assert m.trap_symbol in ("trap_entry", None)
        if m.trap_symbol is None:
            assert m.model == "simh"       # only SIMH sees traps by itself
    if isinstance(m.emulator, machines.Qemu):
        assert m.emulator.binary.startswith("qemu-system-")
    if m.model == "qemu-plugin":
        # the plugin's decoder for it (its model_isa in the log) names the
        # QEMU target this entry runs (hw-models/qemu/qemu_isa.h)
        src = (ROOT / "hw-models" / "qemu" / f"isa_{m.model_isa}.c").read_text()
        assert f'QEMU_TARGET("{m.emulator.target}", ' in src
        assert f'.name = "{m.model_isa}",' in src
    assert m.tlb_refill in (None, "walk", "software")
    if m.tlb_refill is not None or m.segment_loads:
        assert m.model is not None
    assert (m.software_tlb_reach > 0) == (m.tlb_refill == "software")
    assert m.chase_insns > 0


def test_every_qemu_target_the_plugin_decodes_is_a_registry_entry():
    """No decoder for a target the registry does not run (a stale or
    misspelt QEMU_TARGET), and none twice."""
    targets = re.findall(r'^QEMU_TARGET\("([^"]+)"', "".join(
        p.read_text() for p in sorted((ROOT / "hw-models" / "qemu").glob("isa_*.c"))), re.M)
    ours = [m.emulator.target for m in machines.MACHINES.values() if m.model == "qemu-plugin"]
    assert sorted(targets) == sorted(ours)


def test_trap_vector_is_trap_entry_in_every_kernel():
    """Each ISA whose model counts traps at a vector defines it under the one name."""
    for arch, m in machines.MACHINES.items():
        if m.trap_symbol is None:
            continue
        src = "".join(p.read_text() for p in (ROOT / "kernel" / "arch" / arch).glob("*.S"))
        assert re.search(rf"^{m.trap_symbol}:", src, re.M), arch


def test_nothing_runs_at_import():
    """Importing the harness starts no process and touches no emulator."""
    code = ("import subprocess, sys\n"
            "def no(*a, **k): raise SystemExit('a process was started at import: %r' % (a,))\n"
            "subprocess.run = subprocess.Popen = subprocess.check_output = no\n"
            "import harness.cli\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("text, version", [
    ("QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)", "10.0.2"),
    ("QEMU emulator version 7.2.0", "7.2.0"),
    ("", None), (None, None), ("something else", None),
])
def test_parse_qemu_version(text, version):
    assert machines.parse_qemu_version(text) == version
