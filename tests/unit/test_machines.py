"""harness.machines and harness.profiles: command lines and setup errors."""

import shutil

import pytest

from harness.guest import machines
from harness.model import profiles
from harness.errors import SetupError

NONE = profiles.get("none")


def fake_root(tmp_path, arch="riscv", kernel=True):
    (tmp_path / "kernel" / "arch" / arch).mkdir(parents=True)
    (tmp_path / "kernel" / "arch" / arch / "arch.mk").write_text("")
    if kernel:
        k = tmp_path / machines.get(arch).kernel
        k.parent.mkdir(parents=True)
        k.write_bytes(b"\x7fELF")
    return tmp_path


def test_riscv_command_line(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    root = fake_root(tmp_path)
    argv = machines.get("riscv").command(NONE, root=root)
    assert argv[0] == "/usr/bin/qemu-system-riscv32"
    joined = " ".join(argv)
    for part in ("-M virt", "-bios none", "-m 128M", "-smp 1", "-icount shift=0,sleep=off",
                 "-display none", "-monitor none", "-no-reboot",
                 "-chardev stdio,id=con,signal=off", "-serial chardev:con",
                 f"-kernel {root}/build/riscv/kernel.elf"):
        assert part in joined
    assert "-nographic" not in argv            # it would put the monitor on stdio
    assert "mux=on" not in joined
    inter = " ".join(machines.get("riscv").command(NONE, root=root, interactive=True))
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


def test_unported_arch(tmp_path):
    with pytest.raises(SetupError, match=r"arch 'm68k' is not ported yet "
                                         r"\(no kernel/arch/m68k/arch.mk\)"):
        machines.get("m68k").check(tmp_path)


def test_other_arches_have_their_facts(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    x86 = " ".join(machines.get("x86").command(NONE, root=fake_root(tmp_path / "a", "x86")))
    assert "qemu-system-i386" in x86 and "isa-debug-exit,iobase=0xf4,iosize=4" in x86
    assert "-icount shift=0,sleep=off" in x86
    m68k = " ".join(machines.get("m68k").command(NONE, root=fake_root(tmp_path / "b", "m68k")))
    assert "qemu-system-m68k" in m68k and "-rtc base=2000-01-01,clock=vm" in m68k
    root = fake_root(tmp_path / "c", "vax")
    vax = machines.get("vax").command(NONE, root=root)
    assert "/simh/" in vax[0] and vax[0].endswith("/vax")   # our SIMH, in the cache
    script = (root / "build" / "vax" / "harness.simh").read_text()
    assert f"load -o {root}/build/vax/kernel.bin 1000" in script and "go 1000" in script


def test_unknown_arch_and_profile():
    with pytest.raises(SetupError, match="unknown arch 'pdp11' .known: m68k, riscv, vax, x86."):
        machines.get("pdp11")
    with pytest.raises(SetupError, match="unknown profile 'pdp10' .known: .*ds3100.*none"):
        profiles.get("pdp10")


def test_profile_none():
    assert NONE.mips == 1000.0
    assert NONE.emulator_args == ()
    assert "1 instruction = 1 ns" in NONE.note and "no memory model" in NONE.note


@pytest.mark.parametrize("text, version", [
    ("QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)", "10.0.2"),
    ("QEMU emulator version 7.2.0", "7.2.0"),
    ("", None), (None, None), ("something else", None),
])
def test_parse_qemu_version(text, version):
    assert machines.parse_qemu_version(text) == version
