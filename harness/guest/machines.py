"""The ISA registry: one Machine record per ISA, holding everything the
harness and the tests need to know that differs between ISAs.

A record says how to start the emulator (QEMU with a board, or our SIMH with
a command script), what it loads, how long a boot may take, how the guest
powers off and how a hung one is stopped, where the kernel's trap vector and
guest RAM are (for the hardware model), which model back end times it, and
which profile the tests time it with.  Every entry follows the same rules:

  * guest time follows instructions (`-icount shift=0,sleep=off` on QEMU; on
    the VAX our SIMH's clock counts instructions), so runs are deterministic
    and 1 instruction = 1 ns of guest time;
  * the guest console (the UART) is the emulator's stdin/stdout, which the
    harness connects to a pty; the QEMU monitor is off (`-monitor none`) so no
    stray byte can reach it, and `signal=off` keeps a ^C byte for the guest;
  * the emulator exits when the guest powers off (the shell's `halt`).

A new ISA is one entry in MACHINES, and on the build side one folder
kernel/arch/<isa>/ with its arch.mk (tests/unit/test_machines.py checks that
the two lists agree); docs/porting.md lists the rest, file by file.  Code
elsewhere names no ISA: it asks the registry (tests/unit/test_isa_names.py
checks).  Nothing here runs at import time: the emulator is looked up when a
guest is started, and check() turns a missing emulator or kernel image into a
SetupError that says what to run.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Callable, Protocol

from .. import ROOT
from ..errors import SetupError
from .console import Guest


class Emulator(Protocol):
    """How to find and start an emulator (Qemu, Simh, or a test's fake)."""

    @property
    def name(self) -> str:
        """What to call it in a listing."""

    def locate(self) -> str | None:
        """The emulator's path, or None if it is missing."""

    def missing(self, arch: str) -> str:
        """What to say (and what to run) when it is missing."""

    def argv(self, exe: str, image: Path, interactive: bool,
             nic: tuple[str, ...] = ()) -> list[str]:
        """The command line that boots `image`, with the network card `nic`
        (from nic_on_wire), without the model's arguments."""

    def nic_on_wire(self, nic: tuple[str, ...], mac: str, local: Path,
                    remote: Path) -> tuple[str, ...]:
        """The machine's card `nic` (its registry entry), with Ethernet
        address `mac`, on a host-timed wire: frames arrive at the Unix
        datagram socket `local`, and go to `remote` (netpair.py)."""

    def version(self, exe: str) -> str | None:
        """One line naming the emulator's version, if it can tell."""

    def loads_too(self, image: Path) -> list[Path]:
        """Files beside `image` that the emulator loads as well (make builds them)."""


# Shared QEMU options: deterministic time, console on stdio, nothing else on it.
_QEMU_COMMON = ("-icount", "shift=0,sleep=off", "-display", "none", "-monitor", "none",
                "-no-reboot")


# A virtio-mmio card whose queue notifies are handled inside the guest's
# register write, on the vCPU's thread: with an ioeventfd (QEMU's default)
# the write only signals it and the main loop handles the notify later.
# The wire's model takes what the card sent right after the write
# (hw-models/qemu/net.c); with the card's tx=sync (the wire's QEMU) the
# frame has then been sent.
_VIRTIO_SYNC = ("-global", "virtio-mmio.ioeventfd=off")


@dataclass(frozen=True)
class Qemu:
    """A QEMU system emulator that boots the kernel image with -kernel."""

    binary: str                      # e.g. qemu-system-riscv32, looked up on PATH
    board: tuple[str, ...]           # machine, memory, devices: before the shared options
    # The board's firmware (-bios): a file make builds beside the kernel
    # image; "" for the board's own or none.
    firmware: str = ""
    # A script that builds this QEMU into the cache and says where
    # (`script --path`: its bin directory), rather than Debian's on PATH:
    # the wire's patched QEMU (wire_emulator()).
    build_script: str = ""

    @property
    def name(self) -> str:
        return self.binary

    @property
    def target(self) -> str:
        """QEMU's name for the target, e.g. riscv32 (the plugin sees this name)."""
        return self.binary.removeprefix("qemu-system-")

    def locate(self) -> str | None:
        if self.build_script:
            where = _built_path(self.build_script)
            return shutil.which(str(Path(where) / self.binary)) if where else None
        return shutil.which(self.binary)

    def missing(self, arch: str) -> str:
        if self.build_script:
            where = _built_path(self.build_script) or self.build_script
            return (f"the wire's QEMU ({where}/{self.binary}) is not built: run "
                    f"`{self.build_script}` (make test does)")
        return f"emulator {self.binary!r} not found on PATH: run `make deps`"

    def argv(self, exe: str, image: Path, interactive: bool,
             nic: tuple[str, ...] = ()) -> list[str]:
        # mux=on gives an interactive user QEMU's Ctrl-A escapes (Ctrl-A x
        # quits); the harness never needs them.
        chardev = "stdio,id=con,signal=off" + (",mux=on" if interactive else "")
        bios = [arg for f in self.loads_too(image) for arg in ("-bios", str(f))]
        return [exe, *self.board, *bios, *_QEMU_COMMON, "-chardev", chardev,
                "-serial", "chardev:con", "-kernel", str(image), *nic]

    def loads_too(self, image: Path) -> list[Path]:
        return [image.with_name(self.firmware)] if self.firmware else []

    def nic_on_wire(self, nic: tuple[str, ...], mac: str, local: Path,
                    remote: Path) -> tuple[str, ...]:
        # The card takes its frames from the netdev net0.  On a host-timed
        # wire a guest that waits must let host time pass (sleep=on, which
        # overrides _QEMU_COMMON's sleep=off): with sleep=off it would jump
        # to its next timer at once, and TCP would time out before the
        # other guest had run at all.
        netdev = (f"dgram,id=net0,local.type=unix,local.path={local},"
                  f"remote.type=unix,remote.path={remote}")
        return ("-netdev", netdev, *(a.format(mac=mac) for a in nic),
                "-icount", "shift=0,sleep=on")

    def version(self, exe: str) -> str | None:
        """First line of `qemu-system-... --version`: 'QEMU emulator version 10.0.2 (...)'."""
        try:
            out = subprocess.run([exe, "--version"], capture_output=True, text=True,
                                 timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        first = out.strip().splitlines()[0] if out.strip() else None
        if first and self.build_script:     # which patch: its build's hash
            first += f", patched by {self.build_script} ({Path(exe).parent.parent.name})"
        return first


@cache
def _built_path(script: str) -> str | None:
    # Asked once per process: the path names the hash of the build's sources.
    try:
        out = subprocess.run([str(ROOT / script), "--path"], capture_output=True, text=True,
                             timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out or None


@dataclass(frozen=True)
class Simh:
    """Our SIMH: a simulator that `build_script` builds into a cache directory
    named by the hash of its sources, and says where (`build_script --path`).
    It takes a command script, written next to the image, whose `model %1`
    receives the hardware model's arguments (the model lives in SIMH itself)."""

    build_script: str                # relative to the repository root
    script: str                      # the SIMH command script; {image} is filled in

    @property
    def name(self) -> str:
        return f"our SIMH ({self.build_script})"

    def locate(self) -> str | None:
        path = _built_path(self.build_script)
        return shutil.which(path) if path else None

    def missing(self, arch: str) -> str:
        where = _built_path(self.build_script) or self.build_script
        return f"our SIMH ({where}) is not built: run `make ARCH={arch}`"

    def argv(self, exe: str, image: Path, interactive: bool,
             nic: tuple[str, ...] = ()) -> list[str]:
        # SIMH reads its console from the pty (never from a pipe: see the
        # notes) and takes a command script as its argument.  The pty turns
        # \r\n into \r\r\n, which the console code tolerates.  The
        # network card's commands go in the script (its arguments are the
        # model's): a script with them is named after its text, since two
        # nodes of a pair boot the same image with different cards.
        text = self.script.format(image=image, nic="".join(f"{c}\n" for c in nic))
        name = "harness.simh"
        if nic:
            name = f"harness-{hashlib.sha256(text.encode()).hexdigest()[:12]}.simh"
        script = image.with_name(name)
        # Several runs may boot this image at once (make figure1 -j2 runs
        # both VAXes side by side): never truncate the script under another
        # run's SIMH reading it; rewrite it whole, by rename, if it changed.
        if not script.is_file() or script.read_text() != text:
            tmp = script.with_name(f"{script.name}.{os.getpid()}.tmp")
            tmp.write_text(text)
            os.replace(tmp, script)
        return [exe, str(script)]

    def nic_on_wire(self, nic: tuple[str, ...], mac: str, local: Path,
                    remote: Path) -> tuple[str, ...]:
        # SIMH commands: the transport is vax_ether.c's dgram:LOCAL,REMOTE.
        return tuple(c.format(mac=mac, transport=f"dgram:{local},{remote}") for c in nic)

    def version(self, exe: str) -> str | None:
        # SIMH has no --version; ours lives in a directory named by the
        # hash of its sources (scripts/vax-simh.sh), which says which it is.
        return f"our SIMH, sources {Path(exe).parent.name}"

    def loads_too(self, image: Path) -> list[Path]:
        return []


@dataclass(frozen=True)
class Machine:
    arch: str                        # kernel/arch/<arch>, build/<arch>, --arch
    emulator: Emulator
    notes: str                       # one line for people: board and CPU
    # What the emulator loads, relative to the repository root; default
    # build/<arch>/kernel.elf.  The symbols are always in kernel.elf.
    image: str = ""
    boot_timeout: float = 30.0       # seconds from start to the first prompt
    # The emulator's exit status when the guest powers itself off.
    halt_status: int = 0
    # A key the harness types when the guest hangs, to make the emulator
    # stop it and report where it was (console.Guest's stop_key).
    stop_key: str | None = None
    line_ending: str = "\r"          # what Enter sends on a serial console
    # Whether the emulator warns "icount sleep disabled and no active
    # timers" when the guest first idles (tests/integration/test_shell.py:
    # after the session, never inside it).
    idle_warning: bool = False
    char_delay: float = 0.0          # seconds between typed characters
    # Whether user mode reads an instruction counter, so RESULT lines carry
    # insns= (docs/protocol.md); elsewhere only the model counts them.
    counts_insns: bool = False
    # The network card the kernel drives on this board, as emulator
    # arguments (QEMU: the device, taking its frames from the netdev
    # "net0"; SIMH: commands, {transport} what the XQ is attached to),
    # {mac} its Ethernet address; the emulator's nic_on_wire puts it on a
    # wire (harness/guest/netpair.py).  Empty: no driver.
    nic: tuple[str, ...] = ()

    # ---- the hardware model (harness/model/modelargs.py)
    # Its back end: "qemu-plugin" (build/hw-models/libhwmodel.so) or "simh"
    # (the model inside our SIMH); None while the model has no instruction
    # classes for the ISA.
    model: str | None = None
    model_isa: str = ""              # the ISA's name in the model's log (HWMODEL isa=); default arch
    # The kernel's trap vector, where every exception, interrupt and system
    # call enters: the plugin counts traps (and charges their cost) there.
    # None when the back end sees traps itself.
    trap_symbol: str | None = "trap_entry"
    # More entry points that are traps too (MIPS: the TLB refill vector,
    # tlb_refill, where a TLB miss enters the kernel).
    other_vectors: tuple[str, ...] = ()
    ram: tuple[int, int] | None = None   # guest RAM (base, size) the plugin translates
    # SPARC's register window overflow and underflow handlers: traps too,
    # which the plugin counts apart (wovf=, wunf= in its records).
    window_symbols: tuple[str, str] | None = None
    model_profile: str = ""          # the profile the tests time this ISA with
    # The TLB a profile's [tlb] section can model on this ISA
    # (hw-models/core/tlb.c): "walk", the hardware walks the page table and
    # the model charges the walk (the decoder, isa_<isa>.c, knows the MMU);
    # "software", the kernel refills it (at modelargs.TLB_REFILL_SYMBOL) and is
    # charged as the code it is; None: no [tlb] on this ISA.
    tlb_refill: str | None = None
    # Whether the model counts segment register loads (Chen et al.'s event;
    # the decoder's loads_segment), else that event reads "not modelled".
    segment_loads: bool = False

    # ---- the Final Results Table's predictions (harness/bench/finaltable.py)
    # Instructions per load of measure.c's pointer chase (p = *p, 16 in a
    # row), where the ISA's compiled code is not one instruction a load.
    chase_insns: float = 1.0
    # What the TLB maps at once when the kernel refills it in software and
    # the model has no TLB: a memory-read prediction for more is a lower
    # bound (the refills are left out); 0: not such a TLB.
    software_tlb_reach: int = 0

    # The file whose presence means "this ISA is ported"; default
    # kernel/arch/<arch>/arch.mk.
    port_file: str = ""
    # make stamps what it built the image from, and the harness refuses a
    # stale one (harness/guest/buildstamp.py); False only for the tests' fake.
    build_stamp: bool = True

    def __post_init__(self) -> None:
        if not self.image:
            object.__setattr__(self, "image", f"build/{self.arch}/kernel.elf")
        if not self.model_isa:
            object.__setattr__(self, "model_isa", self.arch)

    @property
    def test_programs(self) -> tuple[str, ...]:
        """Test programs of this ISA's own, run like bench.checks.TEST_PROGRAMS:
        guests/tests/<arch>/*.c, which the Makefile builds into its image."""
        return tuple(sorted(p.stem for p in (ROOT / "guests" / "tests" / self.arch).glob("*.c")))

    @property
    def kernel(self) -> str:
        """The image the emulator loads, relative to the repository root."""
        return self.image

    def kernel_path(self, root: Path = ROOT) -> Path:
        return root / self.image

    def elf_path(self, root: Path = ROOT) -> Path:
        """The kernel's ELF file, beside the image: its symbols and its entry point."""
        return root / Path(self.image).parent / "kernel.elf"

    def check(self, root: Path = ROOT) -> str:
        """Return the emulator's path, or raise SetupError saying what to run."""
        port_file = self.port_file or f"kernel/arch/{self.arch}/arch.mk"
        if not (root / port_file).exists():
            raise SetupError(f"arch {self.arch!r} is not ported yet (no {port_file})")
        exe = self.emulator.locate()
        if exe is None:
            raise SetupError(self.emulator.missing(self.arch))
        image = self.kernel_path(root)
        for path in [image, *self.emulator.loads_too(image)]:
            if not path.exists():
                raise SetupError(f"{'kernel image' if path == image else 'firmware'} "
                                 f"{path.relative_to(root)} is missing: run `make ARCH={self.arch}`")
        return exe

    def command(self, root: Path = ROOT, interactive: bool = False,
                extra: list[str] | tuple[str, ...] = (),
                nic: tuple[str, ...] = ()) -> list[str]:
        """The emulator's argv (check() first) with the network card `nic`
        (from nic_on_wire), then `extra` (the model's arguments)."""
        exe = self.check(root)
        return self.emulator.argv(exe, self.kernel_path(root), interactive, nic) + list(extra)

    def nic_on_wire(self, mac: str, local: Path, remote: Path) -> tuple[str, ...]:
        """This board's card on a host-timed wire (Emulator.nic_on_wire)."""
        if not self.nic:
            raise SetupError(f"arch {self.arch!r} has no network card driver yet")
        return self.emulator.nic_on_wire(self.nic, mac, local, remote)

    def guest(self, argv: list[str], log_path: Path | None = None, root: Path = ROOT,
              log_append: bool = False,
              on_input: Callable[[int], None] | None = None,
              halt_timeout: float = 5.0) -> Guest:
        """An unstarted Guest for `argv` (from command()), typed at the way
        this machine's console wants; `with` it, then boot(self.boot_timeout).
        halt_timeout: how long the shell's `halt` may take before the
        emulator is killed (and its model's records at exit lost)."""
        return Guest(argv, log_path=log_path, line_ending=self.line_ending,
                     char_delay=self.char_delay, cwd=root, stop_key=self.stop_key,
                     log_append=log_append, on_input=on_input, halt_timeout=halt_timeout)

    def emulator_version(self) -> str | None:
        exe = self.emulator.locate()
        return self.emulator.version(exe) if exe is not None else None


_SIMH_SCRIPT = """\
; written by harness/guest/machines.py: boot the raw kernel image at 0x1000
set cpu 64m
load -o {image} 1000
{nic}; the hardware model's arguments, if the profile has one (hw-models/simh/)
model %1
go 1000
; the kernel HALTs on `halt` (or Ctrl-E stopped a hung guest, and SIMH
; printed its PC): report instructions executed and leave
show time
exit
"""

# The ISA a command runs on when none is named (make's ARCH too: the
# Makefile reads this line).
DEFAULT_ARCH = "riscv"

# The registry, in the order the tests run the ISAs.
MACHINES: dict[str, Machine] = {m.arch: m for m in (
    Machine("riscv",
            Qemu("qemu-system-riscv32", ("-M", "virt", "-bios", "none", "-m", "128M",
                                         "-smp", "1")),
            "QEMU virt, rv32ima, M-mode kernel at 0x80000000, no firmware",
            counts_insns=True,                      # instret
            idle_warning=True,
            # virtio-net in a virtio-mmio slot, the modern interface
            # (kernel/dev/virtio_net.c says why): QEMU's virt board makes
            # legacy devices unless told.
            nic=("-global", "virtio-mmio.force-legacy=false", *_VIRTIO_SYNC,
                 "-device", "virtio-net-device,netdev=net0,mac={mac},tx=sync"),
            model="qemu-plugin", ram=(0x80000000, 128 << 20), model_profile="ds3100-riscv",
            tlb_refill="walk"),
    Machine("x86",
            # Multiboot ELF through -kernel; `halt` writes 0 to isa-debug-exit,
            # so QEMU exits with status (0 << 1) | 1 = 1.
            Qemu("qemu-system-i386", ("-M", "pc", "-m", "128M", "-smp", "1", "-nic", "none",
                                      "-device", "isa-debug-exit,iobase=0xf4,iosize=4")),
            "QEMU pc, multiboot v1 kernel",
            halt_status=1,
            # A PCnet-PCI in the first free slot (kernel/arch/x86/nic.c); no
            # option ROM (the BIOS would run its network boot code).
            nic=("-device", "pcnet,netdev=net0,mac={mac},romfile="),
            model="qemu-plugin", ram=(0, 128 << 20), model_profile="pc-p5",
            tlb_refill="walk", segment_loads=True),
    Machine("m68k",
            # The goldfish RTC follows icount only with clock=vm.
            Qemu("qemu-system-m68k", ("-M", "virt", "-m", "128M",
                                      "-rtc", "base=2000-01-01,clock=vm")),
            "QEMU virt, 68040",
            idle_warning=True,
            # virtio-net in a virtio-mmio slot (the board's are modern).
            nic=(*_VIRTIO_SYNC, "-device", "virtio-net-device,netdev=net0,mac={mac},tx=sync"),
            model="qemu-plugin", ram=(0, 128 << 20), model_profile="sun3",
            tlb_refill="walk"),
    Machine("mips",
            # Malta needs no firmware: QEMU's own boot stub jumps to the ELF
            # entry.  QEMU has no R2000/R3000: the 24Kc runs our MIPS I code, with
            # MIPS32's privileged architecture (kernel/arch/mips/mips.h says why
            # this core).
            # -nic none: without it QEMU puts its default card in slot 11.
            Qemu("qemu-system-mipsel", ("-M", "malta", "-cpu", "24Kc", "-m", "128M",
                                        "-nic", "none")),
            "QEMU malta, MIPS 24Kc running MIPS I code, little-endian",
            # A PCnet-PCI in slot 11, where the real Malta has its 79C973
            # (kernel/arch/mips/nic.c); no option ROM (nothing runs it).
            nic=("-device", "pcnet,netdev=net0,addr=0b,mac={mac},romfile="),
            # The kernel runs in kseg0: RAM at physical 0, seen at 0x80000000.
            model="qemu-plugin", other_vectors=("tlb_refill",), ram=(0, 128 << 20),
            model_profile="ds3100", tlb_refill="software",
            # A load has a delay slot, which the compiler fills with a nop
            # when the next instruction needs the value, and the model counts
            # that nop like any other; only the 16th slot gets other work (the
            # loop's): 1 + 15/16.
            chase_insns=1 + 15 / 16,
            # QEMU's 24Kc: 16 entries of two 4 KB pages each
            # (kernel/arch/mips/mips.h: NTLB), not the R2000's 64 single pages.
            software_tlb_reach=16 * 2 * 4096),
    Machine("sparc",
            # Sun's sun4m SPARCclassic: its MicroSPARC-I has the Sun-4/280's 7
            # register windows (the kernel is built for 7 and refuses any other
            # count), and the board has a LANCE Ethernet.  Our PROM (-bios)
            # jumps from reset to the kernel, which QEMU loads raw at 0x4000.
            Qemu("qemu-system-sparc", ("-M", "SPARCClassic", "-cpu", "TI-MicroSparc-I",
                                       "-m", "128M", "-vga", "none", "-nic", "none"),
                 firmware="prom.bin"),
            "QEMU sun4m SPARCclassic, MicroSPARC-I (SPARC V8) running V7 code, 7 windows",
            image="build/sparc/kernel.bin",
            # The board's own LANCE on the netdev net0; the boot argument
            # `ether` tells the kernel it is connected (QEMU's board has
            # it, connected or not: kernel/arch/sparc/nic.c).
            nic=("-net", "nic,model=lance,netdev=net0,macaddr={mac}", "-append", "ether"),
            model="qemu-plugin", ram=(0, 128 << 20), model_profile="sun4",
            window_symbols=("window_overflow", "window_underflow"),
            # The 16th load of the chase sits in the loop branch's delay slot,
            # where the empty loop that is subtracted has a nop: 15/16.
            chase_insns=15 / 16),
    Machine("vax",
            # Debian's MicroVAX 3900 with deterministic timers, the XFC markers
            # and the hardware model (hw-models/simh/); a stock /usr/bin/vax boots the
            # kernel too, but its clock follows the host's for long intervals.
            Simh("scripts/vax-simh.sh", _SIMH_SCRIPT),
            "SIMH MicroVAX 3900 (KA655)",
            image="build/vax/kernel.bin", boot_timeout=60.0,
            stop_key="\x05",                        # Ctrl-E: SIMH stops, prints the PC
            counts_insns=True,                      # SIMH's clock is its instruction count
            # SIMH sees every exception and knows its memory: no trap
            # vector or RAM window to pass.
            # The DELQA (SIMH's XQ) at its standard Q-bus address, on our
            # SIMH's own transport (hw-models/simh/vax_ether.c); the kernel
            # drives it only once it is attached (kernel/arch/vax/nic.c).
            nic=("set xq mac={mac}", "attach xq {transport}"),
            model="simh", trap_symbol=None, model_profile="mvax2",
            # It loads through memory in one instruction, `movl *0(r1),r1`
            # (deferred addressing: two loads), so 8 instructions make 16.
            chase_insns=0.5),
)}


def names() -> list[str]:
    """Every ISA in the registry, in its order."""
    return list(MACHINES)


def find(arch: str) -> Machine | None:
    """The entry for `arch`, or None (e.g. profile none's isa, "any")."""
    return MACHINES.get(arch)


def get(arch: str) -> Machine:
    try:
        return MACHINES[arch]
    except KeyError:
        known = ", ".join(sorted(MACHINES))
        raise SetupError(f"unknown arch {arch!r} (known: {known})") from None


# The tests' second kernel (the Makefile's TEST_KERNEL): the same kernel,
# its image holding guests/testimage/'s programs too, built into this
# directory beside each image.
TEST_IMAGE_DIR = "test"


# The wire's QEMU (scripts/qemu-wire.sh): Debian's QEMU 10.0.2 with
# hw-models/qemu/qemu-wire.patch, which two machines on the deterministic
# wire run (docs/network.md, "Why QEMU is patched").
WIRE_QEMU_SCRIPT = "scripts/qemu-wire.sh"


def wire_emulator(m: Machine) -> Machine:
    """`m` as a node of the deterministic wire runs it: a QEMU board on the
    wire's patched QEMU (the same board and arguments); SIMH as it is."""
    if isinstance(m.emulator, Qemu) and m.nic:
        return replace(m, emulator=replace(m.emulator, build_script=WIRE_QEMU_SCRIPT))
    return m


def wire_qemu_targets() -> list[str]:
    """QEMU's target names (riscv32 ...) of the boards wire_emulator()
    puts on the patched QEMU: what scripts/qemu-wire.sh builds."""
    return sorted({m.emulator.target for m in MACHINES.values()
                   if isinstance(m.emulator, Qemu) and m.nic})


def build_wire_qemu() -> None:
    """Build the wire's QEMU unless it is built (once per version of the
    patch: some 4 minutes on two cores; make test builds it first).  Asks
    the script only when a binary is missing: each pair would otherwise
    pay for its python start and hashing."""
    where = _built_path(WIRE_QEMU_SCRIPT)
    if where and all(os.access(Path(where) / f"qemu-system-{t}", os.X_OK)
                     for t in wire_qemu_targets()):
        return
    try:
        subprocess.run([str(ROOT / WIRE_QEMU_SCRIPT)], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise SetupError(f"{WIRE_QEMU_SCRIPT} failed ({e}): the wire needs its patched QEMU")


def test_image_path(image: str) -> str:
    """Where the test kernel's counterpart of `image` is."""
    p = Path(image)
    return str(p.parent / TEST_IMAGE_DIR / p.name)


def test_image(m: Machine) -> Machine:
    """`m` booting the test kernel, whose /bin has guests/testimage/'s programs."""
    return replace(m, image=test_image_path(m.image))


def parse_qemu_version(text: str | None) -> str | None:
    """'QEMU emulator version 10.0.2 (Debian ...)' -> '10.0.2'."""
    if not text:
        return None
    m = re.search(r"version\s+([0-9][0-9.]*)", text)
    return m.group(1) if m else None

