#!/usr/bin/env python3
"""A stand-in for "QEMU running our kernel", for testing the harness without QEMU.

It sets its terminal the way QEMU's stdio console does (raw input, no echo by
the tty, output processing left on so \\r\\n leaves the pty as \\r\\r\\n), prints
a BOOT line and a `$ ` prompt, echoes what it is sent, and answers a few
commands with canned protocol lines.  Options make it misbehave:

  --boot ok|hang|panic|exit   how booting goes (hang: never prints BOOT)
  --stubborn                  ignore SIGTERM, SIGHUP and SIGINT, like a livelocked vCPU
  --no-halt                   `halt` does nothing (a wedged machine)
  --newline crlf|lf           what ends each printed line (default crlf)
  --no-echo                   do not echo typed characters
  --late-echo N --late-s S    the Nth character typed echoes S seconds late
  --hang-on CMD               treat CMD like `hang` (repeatable)
  --slower CMD                CMD's results take twice the time and instructions (repeatable)
  --pidfile PATH              write our pid there (tests check it is gone)

Commands: getpid cswitch select bcopy readcache openclose createdelete andrew mips
(canned RESULT lines, values in CANNED below), echo WORDS, t_ok, t_bad, t_fault, t_nosummary,
t_shellkill, policy [NAME], noresult,
failbench, badresult, zeronet, killedbench, hang, panic, slow SECONDS, exit,
garbage, halt, serve [SECONDS] (a server: "serve: ready", then "serve: done"
after SECONDS, or "^C" when sent Ctrl-C).  Anything else: "exec NAME failed".
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import termios
import time

# The canned benchmark output: the unit tests check derived values against these.
CANNED = {
    "getpid": [
        "RESULT bench=getpid case=call iters=1000 ns=350000 loop_ns=50000 insns=350000 loop_insns=50000",
        "getpid: 300 ns per call",
    ],
    "cswitch": [
        "RESULT bench=cswitch case=roundtrip iters=100 ns=2500500 loop_ns=500 insns=2500500 loop_insns=500",
        "cswitch: 25000 ns per round trip",
    ],
    "select": [
        "RESULT bench=select case=1empty iters=100 ns=120000 loop_ns=20000 insns=120000 loop_insns=20000",
        "RESULT bench=select case=10empty iters=100 ns=520000 loop_ns=20000 insns=520000 loop_insns=20000",
        "RESULT bench=select case=10full iters=100 ns=620000 loop_ns=20000 insns=620000 loop_insns=20000",
        "select: done",
    ],
    "bcopy": [
        "RESULT bench=bcopy case=cached iters=200 bytes=8192 ns=1648000 loop_ns=9600 insns=1648000 loop_insns=9600",
        "RESULT bench=bcopy case=uncached iters=10 bytes=1048576 ns=20971520 loop_ns=0 insns=20971520 loop_insns=0",
        "bcopy: done",
    ],
    "readcache": [
        "RESULT bench=readcache case=1mb iters=64 bytes=16384 ns=2097152 loop_ns=0 insns=2097152 "
        "loop_insns=0 misses=0 dev_reads=0",
    ],
    "openclose": [
        "RESULT bench=openclose case=foo iters=100 ns=200000 loop_ns=0 insns=200000 loop_insns=0",
        "RESULT bench=openclose case=/a/b/c/foo iters=100 ns=500000 loop_ns=0 insns=500000 "
        "loop_insns=0",
    ],
    "createdelete": [
        f"RESULT bench=createdelete case={kb}k-{p} iters=10 ns={1000000 * (kb + 1)} loop_ns=0 "
        f"insns={1000000 * (kb + 1)} loop_insns=0 policy={p} dev_writes={0 if p == 'delayed' else 40} "
        f"sync_writes={0 if p == 'delayed' else 40} dev_reads=0"
        for p in ("sync", "delayed", "writethrough") for kb in (0, 10, 100)
    ],
    "andrew": [
        f"RESULT bench=andrew case={ph}-{p} iters=1 ns={1000000 if ph == 'copy' else 9000000} "
        f"loop_ns=10 insns=0 loop_insns=0 policy={p} dev_writes=0 sync_writes=0 dev_reads=0 "
        "files=46 kbytes=346"
        for p in ("sync", "delayed", "writethrough") for ph in ("copy", "compile")
    ],
    "mips": ["RESULT bench=mips case=integer iters=20000 ns=13000000 loop_ns=40000 "
             "insns=13000000 loop_insns=40000"],
    "t_ok": ["t_ok: starting", "PASS name=one", "PASS name=two",
             "SUMMARY passed=2 failed=0 skipped=0"],
    "t_bad": ["PASS name=one", "FAIL name=two why=got_3_wanted_4",
              "SUMMARY passed=1 failed=1 skipped=0"],
    "t_fault": ["kernel: killed pid=7 name=t_fault why=load_page_fault pc=0x1a2c addr=0x0",
                "PASS name=null_load_killed", "SKIP name=misaligned why=not_on_this_isa",
                "SUMMARY passed=1 failed=0 skipped=1"],
    "t_nosummary": ["PASS name=one"],
    "t_shellkill": ["PASS name=one", "kernel: killed pid=3 name=sh why=load_fault pc=0x10 addr=0x0"],
    "noresult": ["this benchmark forgot its RESULT line"],
    "failbench": ["RESULT bench=getpid case=call iters=10 ns=200 loop_ns=100 insns=200 loop_insns=100",
                  "FAIL name=getpid_value why=wrong_pid"],
    "badresult": ["RESULT bench=getpid case=call iters=10 loop_ns=100 insns=200 loop_insns=100"],
    "zeronet": ["RESULT bench=getpid case=call iters=10 ns=100 loop_ns=100 insns=200 loop_insns=100"],
    "killedbench": ["kernel: killed pid=3 name=getpid why=store_page_fault pc=0x10 addr=0x4",
                    "RESULT bench=getpid case=call iters=10 ns=200 loop_ns=100 insns=200 loop_insns=100"],
}


class Console:
    def __init__(self, newline: str, echo: bool, late_echo: int = 0,
                 late_s: float = 0.0) -> None:
        self.newline = newline
        self.echo = echo
        self.late_echo = late_echo        # the nth typed character (1-based) echoes late
        self.late_s = late_s
        self.typed = 0

    def write(self, text: str) -> None:
        os.write(1, text.encode())

    def line(self, text: str) -> None:
        self.write(text + self.newline)

    def prompt(self) -> None:
        self.write("$ ")

    def readline(self) -> str | None:
        """Read one typed line, echoing it; None at end of input."""
        buf = b""
        while True:
            ch = os.read(0, 1)
            if not ch:
                return None
            if ch in (b"\r", b"\n"):
                if self.echo:
                    self.write(self.newline)
                return buf.decode(errors="replace")
            self.typed += 1
            if self.typed == self.late_echo:
                time.sleep(self.late_s)
            if self.echo:
                os.write(1, ch)
            buf += ch


def slower(line: str) -> str:
    """A RESULT line whose timed loop took twice as long (net of its empty loop)."""
    if not line.startswith("RESULT "):
        return line
    f = dict(w.split("=", 1) for w in line.split()[1:])
    for key, loop in (("ns", "loop_ns"), ("insns", "loop_insns")):
        if int(f[key]):
            line = line.replace(f" {key}={f[key]} ", f" {key}={2 * int(f[key]) - int(f[loop])} ")
    return line


def like_qemu_stdio() -> None:
    """Terminal settings QEMU's stdio chardev uses: raw input, output processing on."""
    if not os.isatty(0):
        return
    attrs = termios.tcgetattr(0)
    iflag, oflag, cflag, lflag = attrs[0], attrs[1], attrs[2], attrs[3]
    iflag &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON)
    oflag |= termios.OPOST | termios.ONLCR
    lflag &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
    attrs[0], attrs[1], attrs[2], attrs[3] = iflag, oflag, cflag, lflag
    attrs[6][termios.VMIN] = 1
    attrs[6][termios.VTIME] = 0
    termios.tcsetattr(0, termios.TCSANOW, attrs)


def serve(con: Console, seconds: float | None) -> None:
    """A server in the foreground: ready, then done after `seconds` (None:
    never), or stopped by Ctrl-C as the kernel's console does."""
    import select
    con.line("serve: ready")
    deadline = None if seconds is None else time.monotonic() + seconds
    while True:
        wait = None if deadline is None else max(deadline - time.monotonic(), 0)
        if not select.select([0], [], [], wait)[0]:
            con.line("serve: done")
            return
        if os.read(0, 1) == b"\x03":
            con.line("^C")
            con.line("sh: serve killed")
            return


def forever() -> None:
    while True:
        time.sleep(3600)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boot", default="ok", choices=["ok", "hang", "panic", "exit"])
    ap.add_argument("--stubborn", action="store_true")
    ap.add_argument("--no-halt", action="store_true")
    ap.add_argument("--newline", default="crlf", choices=["crlf", "lf"])
    ap.add_argument("--no-echo", action="store_true")
    ap.add_argument("--late-echo", type=int, default=0,
                    help="the Nth typed character echoes --late-s seconds late")
    ap.add_argument("--late-s", type=float, default=0.0)
    ap.add_argument("--pidfile")
    ap.add_argument("--hang-on", action="append", default=[])
    ap.add_argument("--slower", action="append", default=[])
    args = ap.parse_args()

    if args.pidfile:
        with open(args.pidfile, "w") as f:
            f.write(str(os.getpid()))
    if args.stubborn:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
    like_qemu_stdio()
    con = Console("\r\n" if args.newline == "crlf" else "\n", not args.no_echo,
                  args.late_echo, args.late_s)

    con.line("fake firmware 1.0")
    if args.boot == "hang":
        forever()
    if args.boot == "exit":
        return 3
    if args.boot == "panic":
        con.line("panic: kvminit: out of memory")
        forever()
    con.line("BOOT arch=fake ram=134217728 hz=100")
    con.line("fake kernel: starting sh")
    con.prompt()

    while True:
        line = con.readline()
        if line is None:
            return 0
        words = line.split()
        cmd = words[0] if words else ""
        if cmd in args.hang_on:
            forever()
        if cmd == "":
            pass
        elif cmd in CANNED:
            for text in CANNED[cmd]:
                con.line(slower(text) if cmd in args.slower else text)
        elif cmd == "echo":
            con.line(" ".join(words[1:]))
        elif cmd == "policy":           # the unmodified kernel's three policies
            if len(words) > 1 and words[1] not in ("sync", "delayed", "writethrough"):
                con.line("usage: policy [sync|delayed|writethrough] [-age MS]")
            else:
                con.line(f"policy={words[1] if len(words) > 1 else 'sync'} age_ms=30000")
        elif cmd == "hang":
            forever()
        elif cmd == "panic":
            con.write("partial output ")
            con.line("panic: usertrap: unexpected scause 0xf")
            con.line("  sepc=0x80001234 stval=0x0")
            forever()
        elif cmd == "slow":
            time.sleep(float(words[1]))
            con.line("slept")
        elif cmd == "serve":
            serve(con, float(words[1]) if len(words) > 1 else None)
        elif cmd == "exit":
            return 5
        elif cmd == "garbage":
            os.write(1, b"bad bytes \xff\xfe here" + con.newline.encode())
        elif cmd == "halt":
            if args.no_halt:
                forever()
            con.line("halting")
            return 0
        else:
            con.line(f"exec {cmd} failed")
        con.prompt()


if __name__ == "__main__":
    sys.exit(main())
