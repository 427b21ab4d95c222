"""What produced a result: recorded in every result file the harness writes.

    verify(machine, hw)          # before booting: SetupError if a build is stale
    record(machine, hw, argv)    # the "provenance" object of a result file

A record says which code ran (the commit, whether the tree had local
changes and a hash of them), which images were booted (SHA-256 of the
kernel and of the file-system image, checked against the build's stamp:
harness/guest/buildstamp.py), on what (the emulator and its version, the
hardware-model plugin's hash, the profile's name and the hash of its file,
with any values a sweep or calibration put in its place), by which harness,
where and when.  Two runs are comparable when these agree, and `compare`
prints where they do not.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import platform
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from .. import ROOT, __version__, rel
from ..guest import buildstamp
from ..guest.machines import Machine, Qemu, parse_qemu_version


def now_utc() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    try:
        r = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r if r.returncode == 0 else None


def git_state(root: Path = ROOT) -> dict[str, Any]:
    """{"commit", "dirty", "diff_sha256", "untracked"}: the commit checked
    out; whether tracked files differ from it or new files (not ignored)
    exist; a SHA-256 over `git diff HEAD --binary` and the new files' names
    and contents (None when clean), so two dirty trees can be told apart.
    All None outside a git checkout."""
    head = _git(root, "rev-parse", "HEAD")
    if head is None:
        return {"commit": None, "dirty": None, "diff_sha256": None, "untracked": None}
    diff = _git(root, "diff", "HEAD", "--binary")
    others = _git(root, "ls-files", "-z", "--others", "--exclude-standard")
    untracked = sorted(n for n in (others.stdout.decode().split("\0") if others else []) if n)
    dirty = bool(diff and diff.stdout) or bool(untracked)
    h = None
    if dirty:
        sha = hashlib.sha256(diff.stdout if diff else b"")
        for name in untracked:
            path = root / name
            sha.update(f"\0new file {name}\0".encode())
            if path.is_file():
                sha.update(buildstamp.sha256_file(path).encode())
        h = sha.hexdigest()
    return {"commit": head.stdout.decode().strip(), "dirty": dirty, "diff_sha256": h,
            "untracked": untracked}


def short_git(g: dict[str, Any]) -> str:
    """'commit 1a2b3c4d5e6f' or '... with local changes (diff 9f8e7d6c)'."""
    if not g.get("commit"):
        return "not in a git checkout"
    text = f"commit {g['commit'][:12]}"
    if g.get("dirty"):
        text += f" with local changes (diff {str(g.get('diff_sha256'))[:8]})"
    return text


def uses_plugin(machine: Machine, hw: Any) -> bool:
    return bool(hw.model) and machine.model == "qemu-plugin"


def verify(machine: Machine, hw: Any) -> tuple[buildstamp.Fresh | None, buildstamp.Fresh | None]:
    """(kernel build, plugin build) if each matches its sources; SetupError
    with the command that fixes it otherwise.  A machine that make does not
    build (the tests' fake guest) has no stamp: (None, None)."""
    if not machine.build_stamp:
        return None, None
    kernel = buildstamp.check(buildstamp.kernel_target(machine.arch, machine.image))
    plugin = buildstamp.check(buildstamp.HWMODEL) if uses_plugin(machine, hw) else None
    return kernel, plugin


def emulator(machine: Machine) -> dict[str, Any]:
    """The emulator's name, version line and version number, path and hash."""
    exe = machine.emulator.locate()
    line = machine.emulator.version(exe) if exe else None
    return {"name": machine.emulator.name, "version_line": line,
            "version": parse_qemu_version(line) if isinstance(machine.emulator, Qemu) else
            (line.split()[-1] if line else None),
            "path": exe, "sha256": buildstamp.sha256_file(Path(exe)) if exe else None}


def profile(hw: Any, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The profile by name and by the hash of its file (a recalibrated
    profile keeps its name and changes its hash), and what was overridden."""
    return {"name": hw.name, "sha256": buildstamp.sha256_file(hw.path),
            "file": rel(hw.path), "model": bool(hw.model), "overrides": dict(overrides or {})}


def booted(kernel: buildstamp.Fresh, machine: Machine) -> dict[str, str]:
    """The stamped images beside the one booted: the stamp covers the
    tests' kernel too (machines.test_image), which a benchmark's boot does
    not use, and the other way round."""
    where = Path(machine.image).parent
    return {p: h for p, h in kernel.images.items() if Path(p).parent == where}


def record(machine: Machine, hw: Any, argv: list[str] | None = None,
           overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything that says what produced a result (verify()s the builds)."""
    kernel, plugin = verify(machine, hw)
    return {
        "git": git_state(),
        "build": None if kernel is None else {
            "sources_sha256": kernel.sources_sha256, "images": booted(kernel, machine)},
        "hwmodel_plugin": None if plugin is None else {
            "sources_sha256": plugin.sources_sha256, "images": plugin.images},
        "emulator": emulator(machine),
        "profile": profile(hw, overrides),
        "harness": {"version": __version__, "command": ["python3", "-m", "harness", *sys.argv[1:]]
                    if sys.argv and sys.argv[0].endswith("__main__.py") else list(sys.argv)},
        "emulator_command": list(argv or []),
        "host": {"name": socket.gethostname(), "system": platform.platform(),
                 "python": platform.python_version()},
        "created": now_utc(),
    }


def same(a: dict[str, Any] | None, b: dict[str, Any] | None) -> list[str]:
    """What differs between two records, in words (empty when the code,
    images, emulator and profile all agree)."""
    if not a or not b:
        return ["one run has no provenance (written by an older harness)"]
    out = []
    ga, gb = a.get("git", {}), b.get("git", {})
    if (ga.get("commit"), ga.get("diff_sha256")) != (gb.get("commit"), gb.get("diff_sha256")):
        out.append(f"code: {short_git(ga)} / {short_git(gb)}")
    ia = (a.get("build") or {}).get("images", {})
    ib = (b.get("build") or {}).get("images", {})
    for image in sorted(set(ia) | set(ib)):
        if ia.get(image) != ib.get(image):
            out.append(f"{image}: {str(ia.get(image))[:12]} / {str(ib.get(image))[:12]}")
    pa = (a.get("hwmodel_plugin") or {}).get("images", {})
    pb = (b.get("hwmodel_plugin") or {}).get("images", {})
    if pa != pb:
        out.append("the hardware-model plugin differs")
    ea, eb = a.get("emulator", {}), b.get("emulator", {})
    if (ea.get("version_line"), ea.get("sha256")) != (eb.get("version_line"), eb.get("sha256")):
        out.append(f"emulator: {ea.get('version_line')} / {eb.get('version_line')}")
    fa, fb = a.get("profile", {}), b.get("profile", {})
    if (fa.get("sha256"), fa.get("overrides")) != (fb.get("sha256"), fb.get("overrides")):
        out.append(f"profile {fa.get('name')}: file {str(fa.get('sha256'))[:12]} / "
                   f"{str(fb.get('sha256'))[:12]}"
                   + (f", overrides {fa.get('overrides')} / {fb.get('overrides')}"
                      if fa.get("overrides") != fb.get("overrides") else ""))
    return out
