"""tools/mkfs and tools/fsck on the host: images made from directory trees, read
back by an independent reader written here from fsformat.h (its numbers and
struct layouts as the harness reads them: harness/guest/fsformat.py), and
fsck finding the damage we do to them on purpose.

The tools are built once per session by the Makefile's own rules (host_tools,
conftest.py).
"""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import pytest

from harness.guest import fsformat
from harness.guest.fsformat import BSIZE, IPB, NDIRECT, NINDIRECT

MAGIC = fsformat.FS_MAGIC
DINODE = struct.Struct(fsformat.DINODE.format)     # type, nlink, size, addrs[NADDRS]
DIRENT = struct.Struct(fsformat.DIRENT.format)
SUPERBLOCK = fsformat.SUPERBLOCK.format


def mkfs(tools: Path, image: Path, tree: Path, *opts: str) -> subprocess.CompletedProcess:
    return subprocess.run([tools / "mkfs", *opts, image, tree], capture_output=True, text=True)


def fsck(tools: Path, image: Path) -> subprocess.CompletedProcess:
    return subprocess.run([tools / "fsck", image], capture_output=True, text=True)


def sample_tree(root: Path) -> dict[str, bytes]:
    """A tree with small, empty, indirect and double-indirect files."""
    files = {
        "bin/hello": b"hello, world\n",
        "bin/empty": b"",
        "src/a/b/c/deep.c": b"int main(void) { return 0; }\n" * 10,
        "src/medium": bytes(range(256)) * 200,                # 51 KB: indirect blocks
        "big": bytes((i * 7) & 0xFF for i in range(300 * 1024)),   # double indirect
    }
    (root / "tmp").mkdir(parents=True)
    for name, data in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return files


class Image:
    """An independent reader of the on-disk format (fsformat.h)."""

    def __init__(self, path: Path, endian: str = "<") -> None:
        self.raw = path.read_bytes()
        self.e = endian
        (self.magic, self.bsize, self.nblocks, self.ninodes, self.bmapstart, self.inodestart,
         self.datastart) = struct.unpack_from(self.e + SUPERBLOCK, self.block(1))

    def block(self, b: int) -> bytes:
        data = self.raw[b * BSIZE:(b + 1) * BSIZE]
        return data + bytes(BSIZE - len(data))          # past the end: zeros

    def inode(self, i: int) -> tuple:
        blk = self.block(self.inodestart + i // IPB)
        return struct.unpack_from(self.e + DINODE.format, blk, (i % IPB) * DINODE.size)

    def bmap(self, addrs, fb: int) -> int:
        if fb < NDIRECT:
            return addrs[fb]
        fb -= NDIRECT
        if fb < NINDIRECT:
            return struct.unpack_from(self.e + "I", self.block(addrs[NDIRECT]), 4 * fb)[0]
        fb -= NINDIRECT
        ind = struct.unpack_from(self.e + "I", self.block(addrs[NDIRECT + 1]), 4 * (fb // NINDIRECT))[0]
        return struct.unpack_from(self.e + "I", self.block(ind), 4 * (fb % NINDIRECT))[0]

    def read(self, i: int) -> bytes:
        _, _, size, *addrs = self.inode(i)
        out = b"".join(self.block(self.bmap(addrs, fb)) for fb in range((size + BSIZE - 1) // BSIZE))
        return out[:size]

    def entries(self, i: int) -> dict[str, int]:
        data = self.read(i)
        out = {}
        for off in range(0, len(data), DIRENT.size):
            inum, name = struct.unpack_from(self.e + DIRENT.format, data, off)
            if inum:
                out[name.split(b"\0")[0].decode()] = inum
        return out

    def lookup(self, path: str) -> int:
        inum = 1
        for part in path.split("/"):
            inum = self.entries(inum)[part]
        return inum


@pytest.mark.parametrize("endian", ["little", "big"])
def test_image_holds_the_tree(host_tools, tmp_path, endian):
    files = sample_tree(tmp_path / "tree")
    img = tmp_path / "fs.img"
    r = mkfs(host_tools, img, tmp_path / "tree", "-n", "2048", "-i", "128",
             *(["-B"] if endian == "big" else []))
    assert r.returncode == 0, r.stderr
    im = Image(img, "<" if endian == "little" else ">")
    assert (im.magic, im.bsize, im.nblocks, im.ninodes) == (MAGIC, BSIZE, 2048, 128)
    for name, data in files.items():
        assert im.read(im.lookup(name)) == data, name
    root = im.entries(1)
    assert root["."] == root[".."] == 1
    assert sorted(root) == [".", "..", "big", "bin", "src", "tmp"]
    # link counts: a directory has "." , its name, and each child's ".."
    assert im.inode(1)[1] == 2 + 3
    assert im.inode(im.lookup("src/a"))[1] == 3
    r = fsck(host_tools, img)
    assert r.returncode == 0, r.stdout
    assert "0 problems" in r.stdout
    assert ("other byte order" in r.stdout) == (endian == "big")


def test_image_is_only_the_used_front(host_tools, tmp_path):
    sample_tree(tmp_path / "tree")
    img = tmp_path / "fs.img"
    assert mkfs(host_tools, img, tmp_path / "tree", "-n", "8192").returncode == 0
    assert img.stat().st_size < 1024 * BSIZE           # not the whole 8 MB disk
    assert Image(img).nblocks == 8192


def test_same_tree_same_image(host_tools, tmp_path):
    sample_tree(tmp_path / "tree")
    a, b = tmp_path / "a.img", tmp_path / "b.img"
    mkfs(host_tools, a, tmp_path / "tree")
    os.utime(tmp_path / "tree" / "big", (0, 0))        # timestamps are not in the image
    mkfs(host_tools, b, tmp_path / "tree")
    assert a.read_bytes() == b.read_bytes()


def test_mkfs_refuses(host_tools, tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / ("x" * 28)).write_bytes(b"")
    r = mkfs(host_tools, tmp_path / "fs.img", tree)
    assert r.returncode == 1 and "name too long" in r.stderr
    (tree / ("x" * 28)).unlink()
    (tree / "huge").write_bytes(bytes(600 * 1024))
    r = mkfs(host_tools, tmp_path / "fs.img", tree, "-n", "256")
    assert r.returncode == 1 and "disk full" in r.stderr


# ---------------------------------------------------------------- fsck finds damage

@pytest.fixture
def image(host_tools, tmp_path):
    sample_tree(tmp_path / "tree")
    img = tmp_path / "fs.img"
    assert mkfs(host_tools, img, tmp_path / "tree", "-n", "2048", "-i", "128").returncode == 0
    raw = bytearray(img.read_bytes() + bytes(2048 * BSIZE - img.stat().st_size))
    return img, raw, Image(img)


def damaged(host_tools, img: Path, raw: bytearray) -> str:
    img.write_bytes(bytes(raw))
    r = fsck(host_tools, img)
    assert r.returncode == 1, r.stdout
    return r.stdout


def inode_offset(im: Image, i: int) -> int:
    return (im.inodestart + i // IPB) * BSIZE + (i % IPB) * DINODE.size


def test_fsck_lost_block(host_tools, image):
    img, raw, im = image
    free = im.nblocks - 1                               # far past anything mkfs used
    raw[im.bmapstart * BSIZE + free // 8] |= 1 << (free % 8)
    assert f"block {free} is lost" in damaged(host_tools, img, raw)


def test_fsck_used_block_marked_free(host_tools, image):
    img, raw, im = image
    b = im.inode(im.lookup("bin/hello"))[3]
    raw[im.bmapstart * BSIZE + b // 8] &= ~(1 << (b % 8))
    assert f"block {b} is in use but marked free" in damaged(host_tools, img, raw)


def test_fsck_block_used_twice(host_tools, image):
    img, raw, im = image
    hello, deep = im.lookup("bin/hello"), im.lookup("src/a/b/c/deep.c")
    b = im.inode(hello)[3]
    struct.pack_into("<I", raw, inode_offset(im, deep) + 8, b)   # deep's first block := hello's
    out = damaged(host_tools, img, raw)
    assert f"block {b} used twice" in out
    assert "is lost" in out                             # deep's own first block


def test_fsck_wrong_link_count(host_tools, image):
    img, raw, im = image
    i = im.lookup("src/medium")
    struct.pack_into("<H", raw, inode_offset(im, i) + 2, 2)
    assert f"inode {i}: link count 2, but 1 entries name it" in damaged(host_tools, img, raw)


def test_fsck_entry_names_free_inode(host_tools, image):
    img, raw, im = image
    i = im.lookup("bin/empty")
    raw[inode_offset(im, i):inode_offset(im, i) + DINODE.size] = bytes(DINODE.size)
    assert f"names free or bad inode {i}" in damaged(host_tools, img, raw)


def test_fsck_unreachable_directory(host_tools, image):
    img, raw, im = image
    root = im.inode(1)
    blk = root[3]                                       # the root's first block
    entries = im.entries(1)
    tmp = entries["tmp"]
    # blank the root's entry for tmp: tmp is still allocated but unnamed
    for off in range(0, BSIZE, DIRENT.size):
        inum, name = struct.unpack_from("<" + DIRENT.format, raw, blk * BSIZE + off)
        if inum == tmp and name.startswith(b"tmp\0"):
            raw[blk * BSIZE + off:blk * BSIZE + off + 4] = bytes(4)
    out = damaged(host_tools, img, raw)
    assert f"inode {tmp} cannot be reached from the root" in out


def test_fsck_bad_superblock(host_tools, tmp_path):
    img = tmp_path / "junk.img"
    img.write_bytes(bytes(4 * BSIZE))
    r = fsck(host_tools, img)
    assert r.returncode == 2 and "bad superblock" in r.stdout


# ---------------------------------------------------------------- fsck -y repairs

def repaired(host_tools, img: Path, raw: bytearray) -> str:
    """Damage the image, repair it with fsck -y, and check it is clean after."""
    img.write_bytes(bytes(raw))
    r = subprocess.run([host_tools / "fsck", "-y", img], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
    assert "0 problems left" in r.stdout
    again = fsck(host_tools, img)
    assert again.returncode == 0 and "0 problems" in again.stdout, again.stdout
    return r.stdout


def test_fsck_y_fixes_a_link_count(host_tools, image):
    img, raw, im = image
    i = im.lookup("src/medium")
    struct.pack_into("<H", raw, inode_offset(im, i) + 2, 3)
    out = repaired(host_tools, img, raw)
    assert f"leak: inode {i}: link count 3, but 1 entries name it" in out
    assert Image(img).inode(i)[1] == 1
    assert Image(img).read(i) == bytes(range(256)) * 200      # the data survives


def test_fsck_y_frees_an_orphan_and_its_blocks(host_tools, image):
    img, raw, im = image
    i = im.lookup("src/medium")
    blocks = im.inode(i)[3:3 + NDIRECT]
    # remove medium's entry from src: the inode and its 51 blocks are orphaned
    src = im.inode(im.lookup("src"))[3]
    for off in range(0, BSIZE, DIRENT.size):
        inum, name = struct.unpack_from("<" + DIRENT.format, raw, src * BSIZE + off)
        if inum == i:
            raw[src * BSIZE + off:src * BSIZE + off + 4] = bytes(4)
    out = repaired(host_tools, img, raw)
    assert f"inode {i} cannot be reached" in out
    fixed = Image(img)
    assert fixed.inode(i)[0] == 0                               # freed
    bitmap = fixed.block(fixed.bmapstart)
    assert not any(bitmap[b // 8] >> (b % 8) & 1 for b in blocks)


def test_fsck_y_clears_an_entry_naming_a_free_inode(host_tools, image):
    img, raw, im = image
    i = im.lookup("bin/hello")
    raw[inode_offset(im, i):inode_offset(im, i) + DINODE.size] = bytes(DINODE.size)
    repaired(host_tools, img, raw)
    assert "hello" not in Image(img).entries(im.lookup("bin"))


def test_fsck_y_cannot_fix_a_block_used_twice(host_tools, image):
    img, raw, im = image
    hello, deep = im.lookup("bin/hello"), im.lookup("src/a/b/c/deep.c")
    struct.pack_into("<I", raw, inode_offset(im, deep) + 8, im.inode(hello)[3])
    img.write_bytes(bytes(raw))
    r = subprocess.run([host_tools / "fsck", "-y", img], capture_output=True, text=True)
    assert r.returncode == 1
    assert "problems left" in r.stdout and "0 problems left" not in r.stdout


def test_fsck_y_drops_blocks_past_the_end(host_tools, image):
    """A crash between a block map and the inode's new size."""
    img, raw, im = image
    i = im.lookup("src/medium")                  # 51 KB: direct and indirect blocks
    struct.pack_into("<I", raw, inode_offset(im, i) + 4, 5 * BSIZE)
    out = repaired(host_tools, img, raw)
    assert f"leak: inode {i}: block" in out and "past the end of the file" in out
    fixed = Image(img)
    assert fixed.inode(i)[3 + NDIRECT] == 0                   # the indirect block is gone
    assert fixed.read(i) == (bytes(range(256)) * 200)[:5 * BSIZE]


def test_fsck_y_writes_missing_dot_entries(host_tools, image):
    """A directory's block lost (zeros) but its inode and name on the disk."""
    img, raw, im = image
    a = im.lookup("src/a")
    blk = im.inode(a)[3]
    raw[blk * BSIZE:blk * BSIZE + 2 * DIRENT.size] = bytes(2 * DIRENT.size)
    assert "names it" in damaged(host_tools, img, raw)
    repaired(host_tools, img, raw)
    entries = Image(img).entries(a)
    assert entries["."] == a and entries[".."] == im.lookup("src")
    assert Image(img).lookup("src/a/b/c/deep.c") == im.lookup("src/a/b/c/deep.c")


def test_fsck_y_frees_a_tree_cut_off(host_tools, image):
    """src/a's entry gone: a, b, c and deep.c are unreachable; b names a
    back (its ".."), so a is not an orphan but a tree cut off."""
    img, raw, im = image
    a, src = im.lookup("src/a"), im.lookup("src")
    blk = im.inode(src)[3]
    for off in range(0, BSIZE, DIRENT.size):
        inum, _ = struct.unpack_from("<" + DIRENT.format, raw, blk * BSIZE + off)
        if inum == a:
            raw[blk * BSIZE + off:blk * BSIZE + off + 4] = bytes(4)
    assert f"inode {a} cannot be reached" in damaged(host_tools, img, raw)
    repaired(host_tools, img, raw)
    fixed = Image(img)
    assert all(fixed.inode(i)[0] == 0 for i in (a, im.lookup("src/a/b/c/deep.c")))
    assert fixed.read(fixed.lookup("src/medium")) == bytes(range(256)) * 200
