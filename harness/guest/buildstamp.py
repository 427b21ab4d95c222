"""What a build was made from, and whether it still matches its sources.

`make` ends every build of an ISA (and of the hardware-model plugin) with

    python3 -m harness.guest.buildstamp write riscv        # or: write hwmodel

which records, in build/<arch>/build-stamp.json, a SHA-256 of every source
file the build reads (SOURCES below) and of the images it made (the kernel
and the file-system image).  Before a command boots anything, check() hashes
the sources again: if one differs from the stamp, the kernel was built from
other code than the tree holds now, and the command refuses, naming the
files and the command that fixes it.  That catches what a clock cannot: an
edit reverted after a build leaves the tree clean at its commit while the
kernel still holds the edit.

Hashes decide, not dates.  Dates only say which fix to print: make rebuilds
from a file newer than the last build, but not from one whose content
changed under an older date (restored with `cp -p`, unpacked, `touch -d`):
for those the fix is `touch FILE && make`.  `write` refuses to stamp such
a build for the same reason: make cannot have rebuilt from that file.

The source set is deliberately wide (every file under kernel/ but other
ISAs' folders, guests/, tools/, the Makefile): a file the build does not
read costs at most a relink, never a stale kernel.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT
from ..errors import SetupError

STAMP_NAME = "build-stamp.json"
FORMAT = "ousterhout-build-stamp/1"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def digest(hashes: dict[str, str]) -> str:
    """One hash for a set of files: over the sorted `path hash` lines."""
    text = "".join(f"{h}  {p}\n" for p, h in sorted(hashes.items()))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Target:
    """One thing make builds and stamps: an ISA's kernel, or the plugin."""

    name: str                          # "riscv", ..., or "hwmodel"
    build_dir: str                     # where its stamp lives, relative to ROOT
    include: tuple[str, ...]           # git pathspecs of its sources
    exclude: tuple[str, ...]           # ... and what to leave out of them
    images: tuple[str, ...]            # what it makes, relative to ROOT
    fix: str                           # the command that builds it

    @property
    def stamp(self) -> Path:
        return ROOT / self.build_dir / STAMP_NAME


def _arches(root: Path = ROOT) -> list[str]:
    return sorted(p.parent.name for p in (root / "kernel" / "arch").glob("*/arch.mk"))


def kernel_target(arch: str, image: str = "", root: Path = ROOT) -> Target:
    """An ISA's kernel: the portable and its own kernel code, the guest
    programs (they are in the file-system image linked into the kernel),
    the host tools that make and check that image, and the Makefile."""
    from .machines import TEST_IMAGE_DIR, test_image_path
    others = [a for a in _arches(root) if a != arch]
    images = [f"build/{arch}/kernel.elf", f"build/{arch}/fs.img"] + ([image] if image else [])
    # and the tests' kernel of the same sources, beside each (the Makefile's TEST_KERNEL)
    images += [test_image_path(i) for i in images if Path(i).parent.name != TEST_IMAGE_DIR]
    images = list(dict.fromkeys(images))
    return Target(
        name=arch, build_dir=f"build/{arch}",
        include=("Makefile", "kernel", "guests", "tools", "scripts/mkfsroot.sh"),
        # tools/gdb: the debugger's command files (make gdb), not built
        exclude=("tools/gdb",) + tuple(f"{d}/{a}" for a in others
                                       for d in ("kernel/arch", "guests/lib/arch",
                                                 "guests/tests")),
        images=tuple(images), fix=f"make ARCH={arch}")


# The QEMU plugin: the model's C sources wherever they live under hw-models/
# (SIMH's copy is built into SIMH, whose cache directory is named by the
# hash of its own sources: harness/guest/machines.py).  `make hwmodel` also
# builds libfloor.so from hw-models/floor/, whose source is hashed here too,
# so a stale one is caught; it is not one of the model's images (a model
# run's provenance does not name it; `overhead --floor` records it).
HWMODEL = Target(name="hwmodel", build_dir="build/hw-models",
                 include=(":(glob)hw-models/**/*.c", ":(glob)hw-models/**/*.h", "Makefile"),
                 exclude=("hw-models/simh",),
                 images=("build/hw-models/libhwmodel.so",), fix="make hwmodel")


def target(name: str) -> Target:
    if name == "hwmodel":
        return HWMODEL
    if name not in _arches():
        raise SetupError(f"buildstamp: unknown target {name!r} "
                         f"(known: {', '.join(_arches())}, hwmodel)")
    from .machines import MACHINES          # the image the emulator loads (vax: kernel.bin)
    m = MACHINES.get(name)
    return kernel_target(name, m.image if m else "")


# ---------------------------------------------------------------- hashing

def source_files(t: Target, root: Path = ROOT) -> list[str]:
    """The target's source files, tracked or new (not ignored), that exist."""
    specs = list(t.include) + [f":(exclude){e}" for e in t.exclude]
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard", "--", *specs],
                             capture_output=True, timeout=30, check=True).stdout
        names = sorted({n for n in out.decode().split("\0") if n})
    except (OSError, subprocess.SubprocessError):
        names = _walk(t, root)                 # not a git checkout: every file there
    return [n for n in names if (root / n).is_file()]


def _walk(t: Target, root: Path) -> list[str]:
    out = []
    for spec in t.include:
        base = root / spec.split(")")[-1].split("*")[0]
        paths = [base] if base.is_file() else base.rglob("*") if base.is_dir() else []
        for p in paths:
            rel = str(p.relative_to(root))
            if p.is_file() and not any(rel.startswith(e + "/") for e in t.exclude) and \
                    not rel.startswith("build/"):
                if spec.endswith((".c", ".h")) and not rel.endswith(spec[-2:]):
                    continue
                out.append(rel)
    return sorted(set(out))


def hash_sources(t: Target, root: Path = ROOT) -> dict[str, str]:
    return {n: sha256_file(root / n) for n in source_files(t, root)}


def hash_images(t: Target, root: Path = ROOT) -> dict[str, str]:
    return {i: sha256_file(root / i) for i in t.images if (root / i).exists()}


def read_stamp(t: Target, root: Path = ROOT) -> dict | None:
    path = root / t.build_dir / STAMP_NAME
    try:
        d = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return d if isinstance(d, dict) and d.get("format") == FORMAT else None


def changed(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """Files added, removed or changed between two source hash sets."""
    return sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))


def _older_than(paths: list[str], when: float, root: Path) -> list[str]:
    """Those of `paths` (sources changed or added) dated no later than
    `when`: make cannot have seen them change."""
    return [p for p in paths if (root / p).exists() and (root / p).stat().st_mtime <= when]


def _touch_fix(t: Target, unseen: list[str]) -> str:
    return f"touch {' '.join(unseen)} && {t.fix}" if unseen else t.fix


# ---------------------------------------------------------------- write (make)

def write(t: Target, root: Path = ROOT) -> Path:
    """Stamp a finished build: the hashes of its sources and images.

    Refuses (SetupError) when a source's content changed since the last
    stamp while its date did not move past it: make did not rebuild from
    that file, so the build is not what its sources say."""
    path = root / t.build_dir / STAMP_NAME
    missing = [i for i in t.images if not (root / i).exists()]
    if missing:
        raise SetupError(f"buildstamp {t.name}: {', '.join(missing)} not built")
    sources = hash_sources(t, root)
    old = read_stamp(t, root)
    if old is not None:
        unseen = _older_than([p for p in changed(old.get("sources", {}), sources)
                              if p in sources], path.stat().st_mtime, root)
        if unseen:
            raise SetupError(
                f"{', '.join(unseen)} changed since the last build of {t.name} but "
                f"{'is' if len(unseen) == 1 else 'are'} dated no later than it, so make did "
                f"not rebuild from {'it' if len(unseen) == 1 else 'them'}: run "
                f"`{_touch_fix(t, unseen)}`")
    stamp = {"format": FORMAT, "target": t.name, "sources_sha256": digest(sources),
             "images": hash_images(t, root), "sources": sources}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)
    return path


# ---------------------------------------------------------------- check (harness)

@dataclass(frozen=True)
class Fresh:
    """A build that matches its sources: what provenance records of it."""

    target: str
    sources_sha256: str
    images: dict[str, str]             # path -> sha256, as booted


def check(t: Target, root: Path = ROOT) -> Fresh:
    """The build of `t` if it matches the sources in the tree now; else
    SetupError naming what changed and the command that fixes it."""
    stamp = read_stamp(t, root)
    if stamp is None:
        raise SetupError(f"{t.build_dir}/ has no build stamp ({STAMP_NAME}), so nothing says "
                         f"what it was built from: run `{t.fix}`")
    images = hash_images(t, root)
    for image in t.images:
        if image not in images:
            raise SetupError(f"{image} is missing: run `{t.fix}`")
        if stamp.get("images", {}).get(image) != images[image]:
            raise SetupError(f"{image} is not the one make built and stamped last "
                             f"(changed outside make?): run `{t.fix}`")
    sources = hash_sources(t, root)
    diff = changed(stamp.get("sources", {}), sources)
    if diff:
        when = (root / t.build_dir / STAMP_NAME).stat().st_mtime
        unseen = _older_than([p for p in diff if p in sources], when, root)
        shown = ", ".join(diff[:5]) + (f" and {len(diff) - 5} more" if len(diff) > 5 else "")
        raise SetupError(f"the {t.name} build in {t.build_dir}/ is older than its sources "
                         f"({shown} changed since it was built): run `{_touch_fix(t, unseen)}`")
    return Fresh(t.name, digest(sources), images)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("write", "check"):
        print("usage: python3 -m harness.guest.buildstamp write|check TARGET", file=sys.stderr)
        return 2
    try:
        t = target(argv[1])
        if argv[0] == "write":
            write(t)
        else:
            check(t)
    except SetupError as e:
        print(f"make: {e}" if argv[0] == "write" else f"harness: {e}", file=sys.stderr)
        return e.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
