"""Debugging the kernel: `python3 -m harness gdb --arch ISA` (`make gdb`).

Under QEMU (every ISA but the VAX): the emulator starts stopped before its
first instruction, with its gdbstub on a free local port and the guest's
console on a Unix socket; gdb-multiarch starts in the foreground with
tools/gdb/<isa>.gdb (the architecture, the kernel's symbols, a few
commands), connects, loads the chosen program's symbols and shows the
console in its own terminal (tools/gdb/console.py: `guest LINE` types at
the guest's shell).  When gdb exits, the emulator is stopped.

Under SIMH (vax) there is no gdbstub: SIMH has a debugger of its own
(BREAK, STEP, EXAMINE with -m to disassemble and -v for virtual addresses,
DEPOSIT, SHOW HISTORY).  The command prints the kernel's main symbols
(SIMH knows none), loads the kernel, sets a breakpoint at the trap entry
and leaves you at SIMH's sim> prompt: `go 1000` boots.

docs/debugging.md walks through a session.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from .. import ROOT
from ..errors import HarnessError, SetupError
from ..guest import machines
from ..guest.elfsyms import Symbols

GDB = "gdb-multiarch"
# The VAX symbols worth a breakpoint, printed for SIMH (which knows none).
VAX_SYMBOLS = ("trap_entry", "trap_common", "trap", "syscall", "sys_getpid", "trap_return",
               "trap_user_return", "swtch", "sched", "wakeup", "sleep", "pipe_read",
               "pipe_write", "copyin", "copyout", "memcpy", "panic")


def gdb_file(arch: str) -> Path:
    return ROOT / "tools" / "gdb" / f"{arch}.gdb"


def free_port() -> int:
    """A TCP port on localhost nobody listens on now (the machine is shared)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def qemu_argv(machine: machines.Machine, console_sock: Path, port: int) -> list[str]:
    """The machine's usual command line with the console moved from stdio
    to a Unix socket (gdb owns the terminal), stopped at the first
    instruction (-S) with the gdbstub on `port`."""
    argv = machine.command()
    try:
        i = argv.index("-chardev")
    except ValueError:
        raise HarnessError(f"{machine.arch}: no -chardev console in {argv}") from None
    argv[i + 1] = f"socket,id=con,path={console_sock},server=on,wait=off"
    return argv + ["-S", "-gdb", f"tcp:127.0.0.1:{port}"]


def gdb_argv(arch: str, port: int, console_sock: Path, console_log: Path,
             program: str | None, extra: list[str]) -> list[str]:
    cmd = [GDB, "-q", "-x", str(gdb_file(arch).relative_to(ROOT)),
           "-ex", f"target remote 127.0.0.1:{port}"]
    if program:
        path = program_path(arch, program)
        cmd += ["-ex", f"add-symbol-file {path.relative_to(ROOT)}"]
    cmd += ["-ex", f"guest-console {console_sock} {console_log}"]
    return cmd + extra


def program_path(arch: str, program: str) -> Path:
    for sub in ("bin", "tests"):
        p = ROOT / "build" / arch / "guests" / sub / program
        if p.exists():
            return p
    raise SetupError(f"no program {program!r} in build/{arch}/guests/bin or tests: "
                     f"run `make ARCH={arch}` (or pick one of the programs in /bin)")


def run_gdb(arch: str, program: str | None = None, extra: list[str] | None = None,
            say=print) -> int:
    machine = machines.get(arch)
    if isinstance(machine.emulator, machines.Simh):
        return run_simh(machine, program, say)
    if shutil.which(GDB) is None:
        raise SetupError(f"{GDB} is not installed: run `make deps` "
                         "(or apt-get install gdb-multiarch)")
    if not gdb_file(arch).exists():
        raise SetupError(f"no gdb command file for {arch}: {gdb_file(arch)}")
    if program:
        program_path(arch, program)                      # refuse a bad name first
    where = ROOT / "build" / arch / "gdb"
    where.mkdir(parents=True, exist_ok=True)
    sock, log, qlog = where / "console.sock", where / "console.log", where / "qemu.log"
    if sock.exists():
        sock.unlink()
    log.write_bytes(b"")
    port = free_port()
    argv = qemu_argv(machine, sock, port)
    say(f"harness: {' '.join(argv)}")
    with open(qlog, "wb") as err:
        qemu = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                cwd=ROOT, start_new_session=True)
    try:
        _wait_for(sock, qemu, qlog)
        cmd = gdb_argv(arch, port, sock, log, program, extra or [])
        say(f"harness: {' '.join(cmd)}")
        say("harness: the guest's console shows here; `guest LINE` types at its shell, "
            f"`continue` runs it; it is kept in {log.relative_to(ROOT)}")
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is gdb's
        try:
            status = subprocess.call(cmd, cwd=ROOT,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                      signal.SIG_DFL))
        finally:
            signal.signal(signal.SIGINT, old)
    finally:
        _stop(qemu)
        if sock.exists():
            sock.unlink()
    return status


def _wait_for(sock: Path, proc: subprocess.Popen, log: Path, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not sock.exists():
        if proc.poll() is not None:
            raise HarnessError(f"the emulator exited ({proc.returncode}): "
                               f"{log.read_text(errors='replace').strip()[-500:]}")
        if time.monotonic() > end:
            raise HarnessError(f"the emulator made no console socket in {seconds:g} s")
        time.sleep(0.05)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()                 # a livelocked vCPU ignores SIGTERM
            proc.wait()


# ------------------------------------------------------------------ SIMH


def simh_script(machine: machines.Machine, trap_addr: int) -> str:
    image = machine.kernel_path()
    return f"""\
; written by harness/course/debug.py (`make gdb ARCH={machine.arch}`): the kernel
; loaded, a breakpoint at its trap entry, and SIMH's prompt.
set cpu 64m
set cpu history=1000
load -o {image} 1000
break {trap_addr:x}
echo
echo The kernel is loaded; `go 1000` boots it.  A breakpoint is set at the
echo trap entry ({trap_addr:x}): the first trap stops there, and SIMH shows
echo the instruction at the pc.  Then, for example:
echo   step                       one instruction (step 5: five)
echo   ex r0-r11,ap,fp,sp,psl     registers
echo   ex -v -m ADDR-ADDR         disassemble (-v: a virtual address; the kernel's all are)
echo   ex -v -l ADDR-ADDR         longwords, e.g. the stack from sp up
echo   show cpu history=20        the last 20 instructions, with their operands
echo   nobreak {trap_addr:x}          then `break ADDR` and `cont`: stop somewhere else
echo                              (the addresses printed above are first instructions)
echo   Ctrl-E                     stop the running guest;   quit   leave SIMH
echo
"""


def first_insn(sym) -> int:
    """Where a VAX symbol's first instruction is: a procedure (a function
    symbol, called with CALLS or CALLG) starts with a two-byte register
    mask, which CALLS skips; a label (trap_common) is its own address."""
    return sym.address + 2 if sym.function else sym.address


def run_simh(machine: machines.Machine, program: str | None, say=print) -> int:
    exe = machine.check()
    syms = Symbols.load(machine.elf_path())
    table = {s.name: s for s in syms.symbols}
    trap = next((first_insn(table[n]) for n in ("trap_entry", "trap_common") if n in table),
                None)
    if trap is None:
        raise HarnessError("the VAX kernel has no trap_entry or trap_common symbol")
    say("The kernel's symbols, at their first instruction (a procedure's entry mask,\n"
        "two bytes, comes before it: CALLS jumps past it, and so must a breakpoint):")
    for name in VAX_SYMBOLS:
        if name in table:
            say(f"  {first_insn(table[name]):08x}  {name}")
    if program:
        psyms = Symbols.load(program_path(machine.arch, program))
        say(f"{program}'s (user space; every program is linked at the same addresses):")
        for sym in psyms.symbols:
            if sym.name in ("main", "getpid", "_start", program):
                say(f"  {first_insn(sym):08x}  {sym.name}")
    say(f"(every symbol: build/{machine.arch}/kernel.asm, the disassembly the build writes)")
    script = machine.kernel_path().with_name("debug.simh")
    script.write_text(simh_script(machine, trap))
    say(f"harness: {exe} {script}")
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-E and Ctrl-C are SIMH's
    try:
        return subprocess.call([exe, str(script)], cwd=ROOT,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    finally:
        signal.signal(signal.SIGINT, old)
