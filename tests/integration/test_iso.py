"""The GRUB rescue image (make iso ARCH=x86) boots the same kernel to the shell.

QEMU's -kernel is a shortcut past the firmware and boot loader; this boots
build/x86/ousterhout.iso from a CD, through the PC BIOS and GRUB's multiboot
loader, and runs a benchmark on it.
"""

import pytest

from booting import TIMEOUT, logs
from harness import ROOT
from harness.guest import machines, protocol

ISO = ROOT / "build" / "x86" / "ousterhout.iso"


@pytest.mark.skipif(not ISO.exists(), reason="build/x86/ousterhout.iso missing: run `make iso ARCH=x86`")
def test_iso_boots_and_runs_getpid():
    m = machines.get("x86")
    argv = m.command()
    k = argv.index("-kernel")
    argv[k:k + 2] = ["-cdrom", str(ISO)]          # boot from the CD instead
    with m.guest(argv, logs("x86") / "iso.log") as g:
        g.boot(timeout=120)                      # BIOS + GRUB under -icount: ~10 s
        assert g.boot_record.arch == "x86"
        out = g.run("getpid -n 1000", timeout=TIMEOUT)
        [r] = [x for x in out.records() if isinstance(x, protocol.Result)]
        assert r.bench == "getpid" and r.iters == 1000
        assert 20 <= r.ns_per_op <= 2000
