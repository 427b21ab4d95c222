"""The system-call fuzzer (guests/bin/fuzz.c) on the real kernel, every ISA:
a short seeded run leaves no panic, no hang, no process, no block, inode or
page behind, no open file, in-memory inode, pipe or busy buffer in the
kernel's tables, fsck clean and the shell alive (docs/protection.md, "The
fuzzer"); the same seed makes the same calls (the hash it prints)."""

import re

from booting import TIMEOUT
from harness.bench import checks

# The short run: issue 25's 20,000 calls per ISA.  A hang is caught by the
# timeout, which allows a call 5 ms, as `make fuzz` does (20,000 took 4-20 s
# on a loaded machine, docs/protection.md).
SEED, CALLS = 1, 20000
LINE = re.compile(r"^fuzz: seed=(\d+) calls=(\d+) workers=(\d+) hash=([0-9a-f]{8}) ")


def test_fuzz_short_run_keeps_the_kernel_whole(test_guest):
    run = checks.run_check(test_guest, f"fuzz -s {SEED} -n {CALLS}",
                           timeout=TIMEOUT + CALLS / 200)
    assert run.problems() == [], "\n".join(run.lines[-20:])
    assert {t.name for t in run.passes} >= {
        "fuzz.no_process_left", "fuzz.fsck_clean", "fuzz.blocks_back", "fuzz.inodes_back",
        "fuzz.pages_back", "fuzz.files_back", "fuzz.incore_inodes_back", "fuzz.pipes_back",
        "fuzz.buffers_back", "fuzz.net_buffers_back", "fuzz.shell_alive"}
    first = [m for m in map(LINE.match, run.lines) if m]
    assert first and first[0].group(1, 2) == (str(SEED), str(CALLS))
    again = checks.run_check(test_guest, f"fuzz -s {SEED} -n 200", timeout=TIMEOUT)
    other = checks.run_check(test_guest, f"fuzz -s {SEED + 1} -n 200", timeout=TIMEOUT)
    same = checks.run_check(test_guest, f"fuzz -s {SEED} -n 200", timeout=TIMEOUT)
    hashes = [next(m for m in map(LINE.match, r.lines) if m).group(4)
              for r in (again, other, same)]
    assert hashes[0] == hashes[2] != hashes[1]
    assert test_guest.run("echo alive", timeout=TIMEOUT).lines == ["alive"]
