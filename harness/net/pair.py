"""Two machines of one profile on one modelled Ethernet: node a (the
client) and node b (the server), each its own emulator with its own
hardware model, kept in step on modelled time through a shared file
(hw-models/core/wire.c; docs/network.md).

    with Pair("riscv", profiles.load("ds3100-riscv"), logdir) as pair:
        pair.b.begin("netd"); pair.b.wait_for("netd: ready")
        out = pair.a.run(f"netbench {pair.address('b')}")

Each node runs the wire's patched QEMU (machines.wire_emulator: built
once by scripts/qemu-wire.sh) with the board's network card (the
registry's `nic`) on a `-netdev dgram` named net0, which sends what the
card sends to its model's socket (net_sock=); frames due enter the card
through net0 from the model itself (hw-models/qemu/net.c).  Our SIMH's
DELQA is attached to the model's wire itself (`attach xq wire`:
hw-models/simh/vax_ether.c, vax_wire.c), with no socket.  The files live
in a directory of the pair's own, removed at the end.  The stations' Ethernet and IPv4 addresses are those
of harness/guest/netpair.py (the server is station 1: 10.0.0.1).

Under profile none (no model) each node still gets the model, with nothing
in it but 1 ns per instruction (none_as_model): the frames need a clock
to arrive by, and that clock is then the instruction count, as the guest's
own is.  The profile's [link] (with the tests' overrides, such as
{"link.drop_every": 7}) goes to each model as its other parameters do;
the malformed frames of a garbage.Schedule are the run's.  Every
character typed at a node is counted in the shared file before it goes (Wire.typed), so that an idle node waits for it.

With record=True each node's model writes down the frames its guest
takes (wire_record=, hw-models/core/replay.h) beside its log
(Pair.recording); Alone runs one node again by itself, its peer that
recording: the same frames at the same points of its execution, the
same instructions, no lockstep (what harness/model/overhead.py weighs
the lockstep against).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..errors import SetupError
from ..guest import buildstamp, machines
from ..guest.console import Guest
from ..guest.elfsyms import Symbols
from ..guest.netpair import CLIENT, SERVER, addr, mac
from ..model import modelargs, profiles
from ..bench import provenance
from . import garbage, link
from .wire import Wire

# Node name -> (its index on the wire, its station number).
NODES = {"a": (0, CLIENT), "b": (1, SERVER)}
ROLES = {"a": "client", "b": "server"}

# The kernel's seams for the model (kernel/port/net/netif.c, console.c).
TX_SYMBOL = "net_tx_kicked"
IDLE_SYMBOL = "net_idle"
CONSOLE_SYMBOL = "console_intr"
HALT_SYMBOL = "arch_halt"
# Our SIMH's XQ on the model's wire (hw-models/simh/vax_ether.c): the
# registry's {transport}.
SIMH_TRANSPORT = "wire"
# Host seconds a node's `halt` may take.  Its model writes HWNET and
# HWTOTAL as the emulator exits, and a node on the wire moves no further in
# modelled time than its peer lets it: on a loaded host the last steps to
# power off took more than the one-machine 5 s (a garbage test's node a
# printed "kernel: halt", was killed, and left no HWNET record).
HALT_TIMEOUT = 120.0


# The model's back ends that have a wire front end (hw-models/qemu/net.c,
# hw-models/simh/vax_wire.c).
FRONT_ENDS = ("qemu-plugin", "simh")


def on_wire(machine: machines.Machine) -> bool:
    """Whether two of this board can run on the wire: a card the kernel
    drives, and a front end that can hand it frames at their times (QEMU's
    runs on the wire's patched QEMU: machines.wire_emulator)."""
    return bool(machine.nic) and machine.model in FRONT_ENDS


def none_as_model(hw: profiles.Profile, arch: str) -> profiles.Profile:
    """Profile none as a model of an `arch` machine: `mips` instructions per
    microsecond, one cycle each, memory and disk that cost nothing (its
    note), its [link]."""
    free = 1e9                              # MB/s: a bus word in 0 millicycles
    data: dict[str, Any] = {
        "name": hw.name, "machine": hw.machine, "isa": arch, "paper": "", "paper_os": "",
        "mips": hw.mips,
        "cpu": {"clock_mhz": hw.mips, "cpi": 1, "load_extra": 0, "store_extra": 0,
                "branch_extra": 0, "mul_extra": 0, "div_extra": 0, "trap_extra": 0},
        "icache": {"size": 0}, "dcache": {"size": 0},
        "memory": {"latency_ns": 0, "bandwidth_mbs": free, "bus_bytes": 4},
        "disk": {"overhead_us": 0, "seek_ms": 0, "rpm": 0, "transfer_mbs": free,
                 "cylinder_sectors": 1},
        "link": hw.data["link"]}
    problem = profiles.validate(data)
    if problem:
        raise SetupError(f"profile {hw.name!r} as a model of {arch}: {problem}")
    return profiles.Profile(hw.name, hw.path, data)


def recording_of(hw_log: Path) -> Path:
    """The recording (record=True) beside a node's model log:
    pair-a.hw.log -> pair-a.frames."""
    return hw_log.with_suffix("").with_suffix(".frames")


def kernel_symbol(syms: Symbols, name: str, elf: Path) -> int:
    a = syms.address(name)
    if a is None:
        raise SetupError(f"{elf}: no symbol {name!r}: a kernel without the network's seams "
                         f"for the model (kernel/port/net/netif.c)")
    return a


class Pair:
    """A client (a) and a server (b) of one ISA and profile, on one wire."""

    def __init__(self, arch: str, hw: profiles.Profile, logdir: Path,
                 names: tuple[str, str] = ("pair-{node}.log", "pair-{node}.hw.log"),
                 overrides: dict[str, Any] | None = None,
                 flood: garbage.Schedule | None = None, test_image: bool = False,
                 share_core: bool = True, record: bool = False) -> None:
        """names: each node's console log and model log in logdir, {node}
        its name.  overrides: the profile's fields by their dotted names
        (the tests' {"link.drop_every": 7}), checked as a profile's are.
        flood: malformed frames for each machine.  test_image: boot the
        tests' kernel (machines.test_image), whose /bin has guests/testimage/.
        share_core=False: the nodes never pin each other to one host core
        (hw-models/core/wire.c, "Sharing a core"; host time only).
        record: each node writes down the frames it takes (recording())."""
        self.machine = machines.get(arch)
        if test_image:
            self.machine = machines.test_image(self.machine)
        if "link" not in hw.data:
            raise SetupError(f"profile {hw.name!r} has no [link] section: two machines of it "
                             f"have no Ethernet between them (hw-models/core/params.def)")
        self.overrides = dict(overrides or {})
        if overrides:
            hw = profiles.load(hw.name, overrides, path=hw.path)
        self.profile = hw
        self.logdir = logdir
        self.names = names
        self.schedule = flood.check() if flood else None
        self.share_core = share_core
        self.record = record
        self.replay: Path | None = None           # Alone's recording
        self.nodes: tuple[str, ...] = tuple(NODES)
        if self.machine.model not in FRONT_ENDS:
            raise SetupError(f"arch {arch!r}: the wire has no {self.machine.model} front end "
                             f"yet (docs/network.md)")
        if not on_wire(self.machine):
            raise SetupError(f"arch {arch!r}: no network card driver for two machines yet "
                             f"(harness/guest/machines.py: nic)")
        self.simh = self.machine.model == "simh"
        if not self.simh:
            machines.build_wire_qemu()
            self.machine = machines.wire_emulator(self.machine)
        self.model = hw if hw.model else none_as_model(hw, arch)
        self.guests: dict[str, Guest] = {}
        self.argv: dict[str, list[str]] = {}
        self.hw_logs: dict[str, Path] = {}
        self.garbage: dict[str, garbage.Flood] = {}
        self.wire: Wire | None = None
        self.dir: Path | None = None

    # ------------------------------------------------------------ names
    @staticmethod
    def address(node: str) -> str:
        return addr(NODES[node][1])

    @property
    def a(self) -> Guest:
        return self.guests["a"]

    @property
    def b(self) -> Guest:
        return self.guests["b"]

    # ------------------------------------------------------------ command lines
    def _net_args(self, node: str) -> tuple[list[str], list[str]]:
        """(the emulator's network arguments, the model's) for one node."""
        assert self.dir is not None and self.wire is not None
        if self.simh:
            return self._simh_net_args(node)
        station = NODES[node][1]
        qemu_sock = self.dir / f"{node}-qemu.sock"
        model_sock = self.dir / f"{node}-model.sock"
        netdev = (f"dgram,id=net0,local.type=unix,local.path={qemu_sock},"
                  f"remote.type=unix,remote.path={model_sock}")
        emulator = ["-netdev", netdev] + [a.format(mac=mac(station)) for a in self.machine.nic]
        elf = self.machine.elf_path()
        syms = Symbols.load(elf)
        run = {"net_sock": model_sock, "net_dev": "net0",
               "net_tx_pc": kernel_symbol(syms, TX_SYMBOL, elf),
               "net_idle_pc": kernel_symbol(syms, IDLE_SYMBOL, elf),
               "net_cons_pc": kernel_symbol(syms, CONSOLE_SYMBOL, elf),
               "net_halt_pc": kernel_symbol(syms, HALT_SYMBOL, elf)}
        return emulator, self._model_args(node, run)

    def _simh_net_args(self, node: str) -> tuple[list[str], list[str]]:
        """Our SIMH's: the XQ's commands for its script (Emulator.argv's
        nic), and the model's arguments: no sockets, no transmit hook (the
        XQ sends from inside the guest's register write)."""
        station = NODES[node][1]
        nic = [c.format(mac=mac(station), transport=SIMH_TRANSPORT) for c in self.machine.nic]
        elf = self.machine.elf_path()
        syms = Symbols.load(elf)
        run = {"net_idle_pc": kernel_symbol(syms, IDLE_SYMBOL, elf),
               "net_cons_pc": kernel_symbol(syms, CONSOLE_SYMBOL, elf)}
        return nic, self._model_args(node, run)

    def _model_args(self, node: str, run: dict[str, Any]) -> list[str]:
        """The wire's, the garbage's and the front end's `run` arguments."""
        assert self.dir is not None and self.wire is not None
        index, station = NODES[node]
        g = self.schedule
        if g and g.frames:
            flood = garbage.write(self.dir / f"{node}-garbage.bin", mac(station), g.frames,
                                  g.seed)
            self.garbage[node] = flood
            run.update(garbage=flood.path, garbage_start_ns=g.start_ns,
                       garbage_every_ns=g.every_ns)
        if not self.share_core:
            run["wire_share_core"] = False
        if self.record:
            run["wire_record"] = self.recording(node)
        if self.replay is not None:
            run["wire_replay"] = self.replay
        # The [link]'s fields are the profile's, passed with the others
        # (modelargs.profile_args); these are the run's.
        return self.wire.model_args(index) + [modelargs.arg(k, v) for k, v in run.items()]

    def console_log(self, node: str) -> Path:
        return self.logdir / self.names[0].format(node=node)

    def hw_log(self, node: str) -> Path:
        return self.logdir / self.names[1].format(node=node)

    def recording(self, node: str) -> Path:
        """Where node's model writes down its frames (record=True)."""
        return recording_of(self.hw_log(node))

    # ------------------------------------------------------------ life
    def start(self) -> None:
        """Start both emulators (boot() waits for their prompts)."""
        provenance.verify(self.machine, self.profile)
        if not self.simh:                             # (our SIMH carries its model)
            buildstamp.check(buildstamp.HWMODEL)      # the model runs under none too
        self.dir = Path(tempfile.mkdtemp(prefix="ousterhout-pair-"))
        self.wire = Wire()
        for node in self.nodes:
            emulator, model = self._net_args(node)
            # QEMU's card is on its command line; SIMH's in its script.
            argv = (self.machine.command(nic=tuple(emulator)) if self.simh
                    else self.machine.command(extra=emulator))
            argv += modelargs.emulator_args(self.model, self.machine, self.hw_log(node), model)
            index = NODES[node][0]
            g = self.machine.guest(argv, self.console_log(node),
                                   on_input=lambda n, i=index: self.wire.typed(i, n),
                                   halt_timeout=HALT_TIMEOUT)
            self.argv[node] = argv
            self.guests[node] = g
            g.start()

    def boot(self) -> None:
        for g in self.guests.values():
            g.boot(timeout=self.machine.boot_timeout * 2)

    def __enter__(self) -> "Pair":
        try:
            self.start()
            self.boot()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        # The client first: the server's model then runs on alone.
        for node in ("a", "b"):
            if node in self.guests:
                self.guests[node].close()
        if self.wire is not None:
            self.wire.close()
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)

    def provenance(self) -> dict[str, Any]:
        """Both nodes' records; the first node's at the top, for the tools
        that read one (compare), and each under "nodes"."""
        recs = {node: provenance.record(self.machine, self.profile, self.argv.get(node),
                                        self.overrides) for node in NODES}
        plugin = None if self.simh else buildstamp.check(buildstamp.HWMODEL)
        for node, rec in recs.items():
            if plugin is not None:
                rec["hwmodel_plugin"] = {"sources_sha256": plugin.sources_sha256,
                                         "images": plugin.images}
            rec["node"] = {"name": node, "role": ROLES[node], "address": self.address(node),
                           "wire_index": NODES[node][0]}
        return {**recs["a"], "nodes": recs}
