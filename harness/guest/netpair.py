"""Two guests on one wire: the network's development and functional runs.

    with NetPair("riscv", logdir) as pair:
        pair.server.begin("netd"); pair.server.wait_for("netd: ready")
        out = pair.client.run(f"netbench {pair.addr(SERVER)}")

or from a shell (netd on the server, each COMMAND on the client):

    python3 -m harness.guest.netpair [--arch ISA] [COMMAND ...]

Node 1 is the server, node 2 the client.  Each is its own emulator with the
board's network card (the registry's `nic`, harness/guest/machines.py);
node n's card has the Ethernet address 52:54:00:00:00:0n, and the kernel
makes its IPv4 address from that (kernel/port/net/netif.c): 10.0.0.n.

The wire is a pair of Unix datagram sockets in a directory of the run's
own (the emulator's nic_on_wire: QEMU's `-netdev dgram`, our SIMH's
`attach xq dgram:...`): each emulator sends every frame its card transmits
as one datagram to the other's socket, and takes every datagram that
arrives at its own as a received frame.  A host program can send frames
of its own there too (netflood.py).

This wire is not deterministic: a frame arrives when the host delivers it,
and the guests' clocks run on while they wait (QEMU's `sleep=on` here,
unlike every other run's `sleep=off`: with sleep=off a guest that waits
for the other jumps at once to its next timer, and TCP would time out
before the other guest had run at all).  Functions can be tested this way,
not timing: docs/network.md says what the deterministic link does instead.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..bench import provenance
from ..model import modelargs, profiles, runs
from . import machines
from .console import Guest

SERVER, CLIENT = 1, 2


def mac(node: int) -> str:
    return f"52:54:00:00:00:{node:02x}"


def addr(node: int) -> str:
    """The address the guest's kernel gives itself (kernel/port/net/netif.c)."""
    return f"10.0.0.{node}"


def socket_path(sockdir: Path, node: int) -> Path:
    """Where node's QEMU takes its frames from (a host program may send there)."""
    return sockdir / f"node{node}.sock"


def nic_args(machine: machines.Machine, node: int, sockdir: Path) -> tuple[str, ...]:
    """The emulator arguments that give node its card, wired to the other node."""
    other = CLIENT if node == SERVER else SERVER
    return machine.nic_on_wire(mac(node), socket_path(sockdir, node), socket_path(sockdir, other))


class NetPair:
    """A server and a client guest of one ISA, booted, on one wire."""

    def __init__(self, arch: str, logdir: Path, name: str = "netpair") -> None:
        self.machine = machines.get(arch)
        self.logdir = logdir
        self.name = name
        self.sockdir = Path(tempfile.mkdtemp(prefix="netpair-"))
        self.guests: dict[int, Guest] = {}

    def addr(self, node: int) -> str:
        return addr(node)

    def socket_path(self, node: int) -> Path:
        return socket_path(self.sockdir, node)

    @property
    def server(self) -> Guest:
        return self.guests[SERVER]

    @property
    def client(self) -> Guest:
        return self.guests[CLIENT]

    def __enter__(self) -> "NetPair":
        try:
            hw = profiles.load("none")
            provenance.verify(self.machine, hw)
            for node in (SERVER, CLIENT):
                log = self.logdir / f"{self.name}-node{node}.log"
                argv = (self.machine.command(nic=nic_args(self.machine, node, self.sockdir)) +
                        modelargs.emulator_args(hw, self.machine, runs.hw_log_for(log)))
                g = self.machine.guest(argv, log)
                g.start()
                self.guests[node] = g
            for g in self.guests.values():
                g.boot(timeout=self.machine.boot_timeout)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for g in self.guests.values():
            g.close()
        shutil.rmtree(self.sockdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """python3 -m harness.guest.netpair [--arch A] [COMMAND ...]: boot a
    pair, start netd on the server, run each COMMAND on the client (default:
    netbench against the server), print what both printed."""
    import argparse
    from .. import ROOT
    p = argparse.ArgumentParser(prog="python3 -m harness.guest.netpair",
                                description="two guests on a plain QEMU wire: netd on the "
                                            "server (10.0.0.1), COMMANDs on the client")
    with_nic = [a for a, m in machines.MACHINES.items() if m.nic]
    p.add_argument("--arch", default=with_nic[0], choices=with_nic,
                   help=f"an ISA whose board has a network card driver (default {with_nic[0]})")
    p.add_argument("--timeout", type=float, default=600.0, help="host seconds per command")
    p.add_argument("command", nargs="*", help=f"default: netbench {addr(SERVER)}")
    args = p.parse_args(argv)
    commands = args.command or [f"netbench {addr(SERVER)}"]
    logdir = ROOT / "build" / args.arch / "netpair"
    with NetPair(args.arch, logdir) as pair:
        pair.server.begin("netd")
        pair.server.wait_for("netd: ready", timeout=60)
        for c in commands:
            print(f"client$ {c}")
            for line in pair.client.run(c, timeout=args.timeout).lines:
                print(line)
        print("server$ netd")
        for line in pair.server.interrupt().lines:
            print(line)
    print(f"(console logs: {logdir}/netpair-node{SERVER}.log, -node{CLIENT}.log)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
