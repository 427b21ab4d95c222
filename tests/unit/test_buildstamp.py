"""harness.guest.buildstamp: a build is checked against its sources by
content, on a small git repository laid out like ours."""

import json
import os
import subprocess
import time

import pytest

from harness.errors import SetupError
from harness.guest import buildstamp


@pytest.fixture
def repo(tmp_path):
    """A checkout with two ISAs' folders, a Makefile and a 'built' kernel."""
    files = {"Makefile": "all:\n", "kernel/arch/riscv/arch.mk": "", "kernel/arch/x86/arch.mk": "",
             "kernel/port/sysproc.c": "int getpid(void) { return pid; }\n",
             "kernel/arch/x86/trap.c": "x86\n", "guests/bin/getpid.c": "main\n",
             "guests/tests/x86/t_x86.c": "x86 only\n",
             "tools/mkfs/mkfs.c": "mkfs\n", "README.md": "not a source\n",
             ".gitignore": "build/\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    build(tmp_path, "kernel built from the committed sources")
    return tmp_path


def build(root, content):
    """What `make` does here: (re)make the images, then stamp them."""
    (root / "build/riscv/test").mkdir(parents=True, exist_ok=True)
    for d in ("build/riscv", "build/riscv/test"):       # and the tests' kernel
        (root / d / "kernel.elf").write_text(content)
        (root / d / "fs.img").write_text("fs")
    return buildstamp.write(target(root), root)


def target(root):
    return buildstamp.kernel_target("riscv", root=root)


def age(path, seconds):
    """Date a file `seconds` into the past, as cp -p or an unpacked archive would."""
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_sources_are_this_isas_and_the_portable_ones(repo):
    names = buildstamp.source_files(target(repo), repo)
    assert names == ["Makefile", "guests/bin/getpid.c", "kernel/arch/riscv/arch.mk",
                     "kernel/port/sysproc.c", "tools/mkfs/mkfs.c"]
    stamp = json.loads((repo / "build/riscv/build-stamp.json").read_text())
    assert stamp["sources"]["kernel/port/sysproc.c"] == \
        buildstamp.sha256_file(repo / "kernel/port/sysproc.c")
    assert stamp["images"]["build/riscv/kernel.elf"] == \
        buildstamp.sha256_file(repo / "build/riscv/kernel.elf")


def test_a_fresh_build_passes(repo):
    fresh = buildstamp.check(target(repo), repo)
    assert fresh.images["build/riscv/fs.img"] == buildstamp.sha256_file(repo / "build/riscv/fs.img")
    assert fresh.sources_sha256 == buildstamp.digest(buildstamp.hash_sources(target(repo), repo))
    # another ISA's folder and a non-source file are not this build's sources
    (repo / "kernel/arch/x86/trap.c").write_text("changed\n")
    (repo / "guests/tests/x86/t_x86.c").write_text("changed\n")
    (repo / "README.md").write_text("changed\n")
    buildstamp.check(target(repo), repo)


def test_the_issues_case_an_edit_reverted_without_a_rebuild(repo):
    """Edit, build, revert: the tree is clean at its commit again, but the
    kernel holds the edit.  Refused, with the command that fixes it."""
    src = repo / "kernel/port/sysproc.c"
    original = src.read_text()
    src.write_text("int getpid(void) { volatile int p = pid; return p; }\n")
    build(repo, "kernel built from the edit")
    src.write_text(original)                      # reverted: a new date
    with pytest.raises(SetupError) as e:
        buildstamp.check(target(repo), repo)
    assert str(e.value) == ("the riscv build in build/riscv/ is older than its sources "
                            "(kernel/port/sysproc.c changed since it was built): "
                            "run `make ARCH=riscv`")


def test_a_change_under_an_old_date_is_caught_and_named(repo):
    """Dates cannot see a file restored with its old date (cp -p): hashes
    can, and the fix says to touch it, since make alone would not rebuild."""
    src = repo / "kernel/port/sysproc.c"
    original = src.read_text()
    src.write_text("int getpid(void) { volatile int p = pid; return p; }\n")
    stamp = build(repo, "kernel built from the edit")
    src.write_text(original)
    age(src, 3600)                                # older than the build
    assert src.stat().st_mtime < stamp.stat().st_mtime
    fix = "run `touch kernel/port/sysproc.c && make ARCH=riscv`"
    with pytest.raises(SetupError, match=f"kernel/port/sysproc.c changed.*{fix}"):
        buildstamp.check(target(repo), repo)
    # and make (the stamp step) refuses to bless the build make did not redo
    with pytest.raises(SetupError, match="dated no later than it, so make did not rebuild"):
        build(repo, "kernel built from the edit")
    src.touch()
    build(repo, "kernel built from the committed sources")
    buildstamp.check(target(repo), repo)


def test_a_file_that_stops_being_a_source_needs_no_touch(repo):
    """Moving a file out of the build (here: into another ISA's folder)
    changes the set, not anything make must redo."""
    src = repo / "kernel/port/sysproc.c"
    moved = repo / "kernel/arch/x86/sysproc.c"
    os.rename(src, moved)
    age(moved, 3600)
    with pytest.raises(SetupError, match=r"changed since it was built\): run `make ARCH=riscv`"):
        buildstamp.check(target(repo), repo)
    build(repo, "k")
    buildstamp.check(target(repo), repo)


def test_new_and_removed_sources_count(repo):
    (repo / "kernel/port/new.c").write_text("new\n")
    with pytest.raises(SetupError, match="kernel/port/new.c changed"):
        buildstamp.check(target(repo), repo)
    build(repo, "k")
    (repo / "kernel/port/new.c").unlink()
    with pytest.raises(SetupError, match="kernel/port/new.c changed"):
        buildstamp.check(target(repo), repo)


def test_an_image_changed_outside_make_is_refused(repo):
    (repo / "build/riscv/kernel.elf").write_text("copied from elsewhere")
    with pytest.raises(SetupError, match="kernel.elf is not the one make built"):
        buildstamp.check(target(repo), repo)


def test_no_stamp_is_refused(repo):
    (repo / "build/riscv/build-stamp.json").unlink()
    with pytest.raises(SetupError, match=r"no build stamp .* run `make ARCH=riscv`"):
        buildstamp.check(target(repo), repo)


def test_write_needs_the_images(repo):
    (repo / "build/riscv/test/fs.img").unlink()
    with pytest.raises(SetupError, match="test/fs.img not built"):
        buildstamp.write(target(repo), repo)
