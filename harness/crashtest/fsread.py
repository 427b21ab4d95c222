"""Read the files of one of our file systems (kernel/include/fsformat.h,
read by harness/guest/fsformat.py) from an image in memory, the way a user
would after a crash: follow the directories from the root and read each
file.  It never trusts the image: block numbers out of range read as
zeros, a directory met twice is not entered again, and a damaged part is
skipped rather than raising.

files(image) -> {path: contents} for regular files, and the directories'
paths with None.
"""

from __future__ import annotations

import struct

from ..guest.fsformat import (BSIZE, DINODE, DIRENT, FS_MAGIC, IPB, NDIRECT, NINDIRECT,
                              ROOTINO, SUPERBLOCK, T_DIR, T_FILE)


class Image:
    def __init__(self, raw: bytes | bytearray) -> None:
        self.raw = raw
        for e in ("<", ">"):
            sb = struct.unpack_from(e + SUPERBLOCK.format, raw, BSIZE)
            if sb[0] == FS_MAGIC:
                self.e = e
                break
        else:
            raise ValueError("bad superblock magic")
        (_, _, self.nblocks, self.ninodes, self.bmapstart, self.inodestart,
         self.datastart) = sb

    def block(self, b: int) -> bytes:
        if not (self.datastart <= b < self.nblocks):
            return bytes(BSIZE)
        return bytes(self.raw[b * BSIZE:(b + 1) * BSIZE]).ljust(BSIZE, b"\0")

    def inode(self, i: int) -> tuple[int, int, int, tuple[int, ...]]:
        off = (self.inodestart + i // IPB) * BSIZE + (i % IPB) * DINODE.size
        typ, nlink, size, *addrs = struct.unpack_from(self.e + DINODE.format, self.raw, off)
        return typ, nlink, size, tuple(addrs)

    def _words(self, b: int) -> tuple[int, ...]:
        return struct.unpack(self.e + f"{NINDIRECT}I", self.block(b))

    def read(self, i: int, limit: int = 64 << 20) -> bytes:
        _, _, size, addrs = self.inode(i)
        size = min(size, limit)
        nb = (size + BSIZE - 1) // BSIZE
        blocks = list(addrs[:NDIRECT])
        if nb > NDIRECT:
            blocks += self._words(addrs[NDIRECT])
        if nb > NDIRECT + NINDIRECT:
            for ind in self._words(addrs[NDIRECT + 1]):
                blocks += self._words(ind)
                if len(blocks) >= nb:
                    break
        return b"".join(self.block(b) for b in blocks[:nb])[:size]


def files(raw: bytes | bytearray, top: str = "/") -> dict[str, bytes | None]:
    """The tree under directory `top` (all of it by default): each file's
    path and contents, each directory's path with None; {} if `top` is
    not there."""
    im = Image(raw)
    dinum = ROOTINO
    for part in [p for p in top.split("/") if p]:
        entries = dict(_entries(im, dinum))
        if part not in entries or im.inode(entries[part])[0] != T_DIR:
            return {}
        dinum = entries[part]
    top = "/" + "/".join(p for p in top.split("/") if p)
    out: dict[str, bytes | None] = {top: None}
    seen = {dinum}
    todo = [("" if top == "/" else top, dinum)]
    while todo:
        path, dinum = todo.pop()
        for name, inum in _entries(im, dinum):
            typ = im.inode(inum)[0]
            p = f"{path}/{name}"
            if typ == T_DIR and inum not in seen:
                seen.add(inum)
                out[p] = None
                todo.append((p, inum))
            elif typ == T_FILE:
                out[p] = im.read(inum)
    return out


def _entries(im: Image, dinum: int) -> list[tuple[str, int]]:
    """A directory's entries but "." and "..", those naming a valid inode number."""
    data = im.read(dinum, limit=1 << 20)
    out = []
    for off in range(0, len(data) - DIRENT.size + 1, DIRENT.size):
        inum, name = struct.unpack_from(im.e + DIRENT.format, data, off)
        name_s = name.split(b"\0")[0].decode("latin-1")
        if inum and 0 < inum < im.ninodes and name_s not in ("", ".", ".."):
            out.append((name_s, inum))
    return out


def differing(want: bytes, have: bytes) -> int:
    """How many bytes of `want` `have` lacks or holds differently."""
    n = max(0, len(want) - len(have))
    for off in range(0, min(len(want), len(have)), BSIZE):
        a, b = want[off:off + BSIZE], have[off:off + BSIZE]
        if a != b:
            n += sum(1 for x, y in zip(a, b) if x != y)
    return n


def lost(expected: dict[str, bytes | None], got: dict[str, bytes | None],
         intended: dict[str, bytes | None] | None = None
         ) -> tuple[int, list[tuple[str, int]]]:
    """The bytes of `expected`'s files that `got` lacks or holds
    differently, in all and per path (a missing directory is listed with
    0 bytes, a missing file with its size).  `intended`, if given, is the
    tree with the changes of the system calls still in progress: what they
    were doing is not a loss (a file being removed may be gone, a file being
    written may hold the new bytes or the old), so a path counts the fewer
    of its bytes missing against either, and nothing if it is being removed."""
    total = 0
    per: list[tuple[str, int]] = []
    for path, want in expected.items():
        have = got.get(path)
        if intended is not None and path not in intended:
            continue                                # being removed
        if want is None:                            # a directory
            if path not in got or have is not None:
                per.append((path, 0))
            continue
        have_b = have if isinstance(have, bytes) else b""
        n = differing(want, have_b)
        alt = intended.get(path) if intended is not None else None
        if n and isinstance(alt, bytes):
            n = min(n, differing(alt, have_b))
        if n or path not in got:
            total += n
            per.append((path, n))
    return total, per
