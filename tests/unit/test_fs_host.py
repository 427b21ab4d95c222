"""The kernel's file system compiled for the host and run under the sanitizers.

tests/host/fs_host.c drives the same kernel/port sources the guests run
(RAM disk, buffer cache, write policies, inodes, directories, system calls,
fsck) through their system-call functions, with tests/host/machine.h and
stubs.c standing in for the rest of the kernel, and an image made by
tools/mkfs linked in.  AddressSanitizer and UBSan check every access; the
driver checks results, error codes, device-write counts per policy and fsck.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FS_SOURCES = ["ramdisk", "bio", "writeback", "fs", "inode", "dir", "sysfile", "fsck", "file",
              "string", "priv", "rename"]


@pytest.fixture(scope="module")
def fs_host(tmp_path_factory, host_tools):
    cc = shutil.which(os.environ.get("HOSTCC", "gcc"))
    out = tmp_path_factory.mktemp("fs_host")
    tree = out / "tree"
    (tree / "tmp").mkdir(parents=True)
    (tree / "bin").mkdir()
    (tree / "bin" / "hello").write_bytes(b"hello\n" * 100)
    img = out / "fs.img"
    subprocess.run([host_tools / "mkfs", "-n", "4096", "-i", "256", img, tree], check=True,
                   capture_output=True)
    flags = ["-O1", "-g", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter", "-std=gnu11",
             "-Ikernel/include", "-Ikernel/port"]
    (out / "image.S").write_text(
        f'    .section .rodata\n    .balign 16\n    .globl fs_image, fs_image_end\n'
        f'fs_image:\n    .incbin "{img}"\nfs_image_end:\n')
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                "-fno-omit-frame-pointer"]
    cmd = [cc, *flags, *sanitize, "-ffreestanding", "-fno-builtin", "-Itests/host",
           "-o", out / "fs_host", "tests/host/fs_host.c", "tests/host/stubs.c", out / "image.S",
           *[f"kernel/port/{s}.c" for s in FS_SOURCES]]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0 and "sanitize" in r.stderr:
        pytest.skip(f"the host compiler cannot sanitize: {r.stderr[-300:]}")
    assert r.returncode == 0, r.stderr
    return out / "fs_host"


def test_fs_on_the_host(fs_host):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    r = subprocess.run([fs_host], capture_output=True, text=True, timeout=300, env=env)
    lines = r.stdout.splitlines()
    fails = [line for line in lines if line.startswith("FAIL")]
    assert r.returncode == 0 and not fails, "\n".join(fails + lines[-5:] + [r.stderr[-3000:]])
    assert lines[-1].startswith("done") and " 0 failed" in lines[-1]
    names = {line.split()[1] for line in lines if line.startswith("ok ")}
    for want in ("read_big", "enospc", "inodes_enospc", "writes_sync_102400",
                 "writes_delayed_10240", "writes_writethrough_102400", "no_lost_blocks",
                 "rename_replace", "rename_replaced_freed", "rename_cycle", "rename_no_leak"):
        assert want in names
