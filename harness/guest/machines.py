"""How to boot each ISA: one table entry per architecture.

An entry names the emulator binary, the kernel image the build leaves behind,
and the emulator's command line.  Every entry follows the same rules:

  * guest time follows instructions (`-icount shift=0,sleep=off` on QEMU), so
    runs are deterministic and 1 instruction = 1 ns of guest time;
  * the guest console (the UART) is the emulator's stdin/stdout, which the
    harness connects to a pty; the QEMU monitor is off (`-monitor none`) so no
    stray byte can reach it, and `signal=off` keeps a ^C byte for the guest;
  * the emulator exits when the guest powers off (the shell's `halt`).

`check()` turns a missing emulator or kernel image into a SetupError that
says what to run.  riscv, x86 and m68k run under QEMU; vax (under SIMH) is
refused until kernel/arch/vax/arch.mk exists.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import SetupError
from ..model.profiles import Profile

ROOT = Path(__file__).resolve().parents[2]

# Shared QEMU options: deterministic time, console on stdio, nothing else on it.
_QEMU_COMMON = ("-icount", "shift=0,sleep=off", "-display", "none", "-monitor", "none",
                "-no-reboot")


def _qemu_console(interactive: bool) -> tuple[str, ...]:
    # mux=on gives an interactive user QEMU's Ctrl-A escapes (Ctrl-A x quits);
    # the harness never needs them.
    chardev = "stdio,id=con,signal=off" + (",mux=on" if interactive else "")
    return ("-chardev", chardev, "-serial", "chardev:con")


@dataclass(frozen=True)
class Machine:
    arch: str
    emulator: str                    # binary looked up on PATH
    kernel: str                      # image, relative to the repository root
    # (emulator path, kernel path, interactive) -> argv without the profile's args
    argv: Callable[[str, Path, bool], list[str]]
    boot_timeout: float = 30.0       # seconds from start to the first prompt
    line_ending: str = "\r"          # what Enter sends on a serial console
    char_delay: float = 0.0          # seconds between typed characters
    version_args: tuple[str, ...] | None = ("--version",)
    notes: str = ""
    # The file whose presence means "this ISA is ported"; default
    # kernel/arch/<arch>/arch.mk.
    port_file: str = ""
    # The emulator's exit status when the guest powers itself off.
    halt_status: int = 0
    # A key the harness types when the guest hangs, to make the emulator
    # stop it and report where it was (console.Guest's stop_key).
    stop_key: str | None = None

    def kernel_path(self, root: Path = ROOT) -> Path:
        return root / self.kernel

    def check(self, root: Path = ROOT) -> str:
        """Return the emulator's path, or raise SetupError saying what to run."""
        port_file = self.port_file or f"kernel/arch/{self.arch}/arch.mk"
        if not (root / port_file).exists():
            raise SetupError(f"arch {self.arch!r} is not ported yet (no {port_file})")
        exe = shutil.which(self.emulator)
        if exe is None:
            raise SetupError(f"emulator {self.emulator!r} not found on PATH: run `make deps`")
        kernel = self.kernel_path(root)
        if not kernel.exists():
            raise SetupError(f"kernel image {self.kernel} is missing: "
                             f"run `make ARCH={self.arch}`")
        return exe

    def command(self, profile: Profile, root: Path = ROOT,
                interactive: bool = False) -> list[str]:
        """The full argv: check, then build the command line for this profile."""
        exe = self.check(root)
        return self.argv(exe, self.kernel_path(root), interactive) + list(profile.emulator_args)

    def emulator_version(self) -> str | None:
        """First line of `emulator --version`, e.g. 'QEMU emulator version 10.0.2 (...)'."""
        exe = shutil.which(self.emulator)
        if exe is None or self.version_args is None:
            return None
        try:
            out = subprocess.run([exe, *self.version_args], capture_output=True, text=True,
                                 timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        first = out.strip().splitlines()[0] if out.strip() else ""
        return first or None


def _riscv(exe: str, kernel: Path, interactive: bool) -> list[str]:
    return [exe, "-M", "virt", "-bios", "none", "-m", "128M", "-smp", "1",
            *_QEMU_COMMON, *_qemu_console(interactive), "-kernel", str(kernel)]


def _x86(exe: str, kernel: Path, interactive: bool) -> list[str]:
    # Multiboot ELF through -kernel; `halt` writes 0 to isa-debug-exit, so QEMU
    # exits with status (0 << 1) | 1 = 1 (halt_status below).
    return [exe, "-M", "pc", "-m", "128M", "-smp", "1", "-nic", "none",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
            *_QEMU_COMMON, *_qemu_console(interactive), "-kernel", str(kernel)]


def _m68k(exe: str, kernel: Path, interactive: bool) -> list[str]:
    # The goldfish RTC follows icount only with clock=vm.
    return [exe, "-M", "virt", "-m", "128M", "-rtc", "base=2000-01-01,clock=vm",
            *_QEMU_COMMON, *_qemu_console(interactive), "-kernel", str(kernel)]


_SIMH_SCRIPT = """\
; written by harness/machines.py: boot the raw kernel image at 0x1000
set cpu 64m
load -o {kernel} 1000
; the hardware model's arguments, if the profile has one (simh/vax_model.c)
model %1
go 1000
; the kernel HALTs on `halt` (or Ctrl-E stopped a hung guest, and SIMH
; printed its PC): report instructions executed and leave
show time
exit
"""


def simh_vax() -> str:
    """Our SIMH: Debian's MicroVAX 3900 with deterministic timers, the XFC
    markers and the hardware model.  scripts/vax-simh.sh builds it (`make
    ARCH=vax` runs that) into a cache directory named by the hash of its
    sources, and says where.  A stock /usr/bin/vax boots the kernel too, but
    its clock follows the host's for long intervals."""
    script = ROOT / "scripts" / "vax-simh.sh"
    try:
        out = subprocess.run([str(script), "--path"], capture_output=True, text=True,
                             timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out = ""
    return out or "vax"


def _vax(exe: str, kernel: Path, interactive: bool) -> list[str]:
    # SIMH reads its console from the pty (never from a pipe: see the notes)
    # and takes a command script as its argument.  The pty turns \r\n into
    # \r\r\n, which the console code tolerates.
    script = kernel.with_name("harness.simh")
    script.write_text(_SIMH_SCRIPT.format(kernel=kernel))
    return [exe, str(script)]


MACHINES: dict[str, Machine] = {
    "riscv": Machine("riscv", "qemu-system-riscv32", "build/riscv/kernel.elf", _riscv,
                     notes="QEMU virt, rv32ima, M-mode kernel at 0x80000000, no firmware"),
    "x86": Machine("x86", "qemu-system-i386", "build/x86/kernel.elf", _x86,
                   halt_status=1, notes="QEMU pc, multiboot v1 kernel"),
    "m68k": Machine("m68k", "qemu-system-m68k", "build/m68k/kernel.elf", _m68k,
                    notes="QEMU virt, 68040"),
    "vax": Machine("vax", simh_vax(), "build/vax/kernel.bin", _vax, version_args=None,
                   boot_timeout=60.0, stop_key="\x05",   # Ctrl-E: SIMH stops, prints the PC
                   notes="SIMH MicroVAX 3900 (KA655)"),
}


def get(arch: str) -> Machine:
    try:
        return MACHINES[arch]
    except KeyError:
        known = ", ".join(sorted(MACHINES))
        raise SetupError(f"unknown arch {arch!r} (known: {known})") from None


def parse_qemu_version(text: str | None) -> str | None:
    """'QEMU emulator version 10.0.2 (Debian ...)' -> '10.0.2'."""
    if not text:
        return None
    m = re.search(r"version\s+([0-9][0-9.]*)", text)
    return m.group(1) if m else None
