"""The file system's disk layout, read from kernel/include/fsformat.h.

The header is the layout's one home: the kernel, mkfs and fsck compile it;
the harness reads it here, and nowhere else restates a number of it (the
block size the model charges a disk request for, the inode the crash
checker follows, the blocks a prediction counts).

    fsformat.BSIZE                  1024
    fsformat.DINODE.format          "HHI14I" (struct dinode; "<" or ">" in front)
    fsformat.DINODE.size            64
    fsformat.IPB                    inodes per block

The reader understands what the header uses: `#define NAME value` where the
value is a number or integer arithmetic (+ - * / and parentheses) of numbers,
earlier names and sizeof(struct X); and structs of unsigned int, unsigned
short and char fields, arrays included.  A struct that would need padding
is refused (its layout would depend on the ISA's alignment rules: the m68k
aligns an int to 2 bytes), and so is a name it cannot evaluate, loudly,
when it is asked for.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from pathlib import Path

from .. import ROOT, rel
from ..errors import SetupError

FSFORMAT_H = ROOT / "kernel" / "include" / "fsformat.h"

# C field types the layout uses: (struct module code, size)
_CTYPES = {"unsigned int": ("I", 4), "unsigned short": ("H", 2), "char": ("s", 1)}
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.FloorDiv: operator.floordiv}


@dataclass(frozen=True)
class Struct:
    """A C struct of the header, as Python's struct module reads it."""

    name: str
    fields: tuple[tuple[str, str, int], ...]      # (name, C type, count)

    @property
    def format(self) -> str:
        """Without byte order: prefix "<" or ">" (the image's)."""
        out = ""
        for _, ctype, n in self.fields:
            code = _CTYPES[ctype][0]
            out += f"{n}s" if code == "s" else (code if n == 1 else f"{n}{code}")
        return out

    @property
    def size(self) -> int:
        return sum(_CTYPES[t][1] * n for _, t, n in self.fields)


class Header:
    """The #defines and structs of one C header."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = rel(path)
        text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.S)
        self._values: dict[str, int] = {}
        self.defines: dict[str, str] = {}
        for m in re.finditer(r"^#define\s+(\w+)(\(?)[ \t]*(.*)$", text, re.M):
            if not m.group(2):                 # a function-like macro is no constant
                self.defines[m.group(1)] = m.group(3).strip()
        self.structs: dict[str, Struct] = {}
        for m in re.finditer(r"^struct\s+(\w+)\s*\{(.*?)\};", text, re.M | re.S):
            self.structs[m.group(1)] = self._struct(m.group(1), m.group(2))

    def _fail(self, why: str) -> SetupError:
        return SetupError(f"{self.where}: {why}")

    def _struct(self, name: str, body: str) -> Struct:
        fields = []
        offset = 0
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            m = re.fullmatch(r"(unsigned int|unsigned short|char) (\w+)(?:\[(\w+)\])?", decl)
            if not m:
                raise self._fail(f"struct {name}: cannot read the field {decl!r}")
            ctype, field, count = m.group(1), m.group(2), m.group(3)
            n = 1 if count is None else self.constant(count)
            align = _CTYPES[ctype][1]
            if offset % align:
                raise self._fail(f"struct {name}: {field} would be padded (its layout "
                                 f"would depend on the ISA)")
            fields.append((field, ctype, n))
            offset += align * n
        return Struct(name, tuple(fields))

    def constant(self, name: str) -> int:
        """#define name's value, evaluated; SetupError if it is not one."""
        if name not in self._values:
            if name not in self.defines:
                raise self._fail(f"no #define {name}")
            self._values[name] = self._eval(name, self.defines[name])
        return self._values[name]

    def _eval(self, name: str, text: str) -> int:
        expr = re.sub(r"\bsizeof\s*\(\s*struct\s+(\w+)\s*\)",
                      lambda m: str(self.struct(m.group(1)).size), text)
        expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uU]?\b", r"\1", expr).replace("/", "//")
        try:
            tree = ast.parse(expr, mode="eval").body
        except SyntaxError:
            raise self._fail(f"#define {name} {text}: not integer arithmetic") from None

        def value(node: ast.AST) -> int:
            if isinstance(node, ast.Constant) and isinstance(node.value, int):
                return node.value
            if isinstance(node, ast.Name):
                return self.constant(node.id)
            if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
                return _OPS[type(node.op)](value(node.left), value(node.right))
            raise self._fail(f"#define {name} {text}: not integer arithmetic")
        return value(tree)

    def struct(self, name: str) -> Struct:
        if name not in self.structs:
            raise self._fail(f"no struct {name}")
        return self.structs[name]


_FS = Header(FSFORMAT_H)

BSIZE = _FS.constant("BSIZE")              # bytes per block, and per disk request
FS_MAGIC = _FS.constant("FS_MAGIC")
ROOTINO = _FS.constant("ROOTINO")
NDIRECT = _FS.constant("NDIRECT")          # block numbers in the inode itself
NINDIRECT = _FS.constant("NINDIRECT")      # ... in an indirect block
NADDRS = _FS.constant("NADDRS")
DIRSIZ = _FS.constant("DIRSIZ")
T_FREE, T_FILE, T_DIR = (_FS.constant(n) for n in ("T_FREE", "T_FILE", "T_DIR"))
IPB = _FS.constant("IPB")                  # inodes per block
SUPERBLOCK = _FS.struct("superblock")
DINODE = _FS.struct("dinode")
DIRENT = _FS.struct("dirent_disk")


def header_constant(path: str | Path, name: str) -> int:
    """A #define of another kernel header (path from the repository's
    root), read the same way: e.g. the buffer cache's size."""
    return Header(ROOT / path).constant(name)
