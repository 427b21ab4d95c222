"""Function symbols from an ELF file, without binutils.

    syms = Symbols.load("build/riscv/kernel.elf")
    syms.address("trap_entry")       -> 0x80003908
    syms.lookup(0x80003910)          -> ("trap_entry", 8)   name, offset

The hardware model needs the kernel's trap vector (to count traps) and, for
attribution, the function that holds a program counter.  Reads the .symtab of
a 32- or 64-bit ELF file of either byte order (RISC-V and x86 are little-endian,
m68k big-endian); keeps FUNC symbols and the NOTYPE labels that assembly
files define (trap_entry is one), sorted by address.
"""

from __future__ import annotations

import bisect
import struct
from dataclasses import dataclass
from pathlib import Path

SHT_SYMTAB = 2
STT_NOTYPE, STT_FUNC = 0, 2
SHN_UNDEF = 0


@dataclass(frozen=True)
class Symbol:
    address: int
    size: int
    name: str
    function: bool = False          # STT_FUNC (a VAX one starts with its entry mask)


class Symbols:
    def __init__(self, symbols: list[Symbol]) -> None:
        self.symbols = sorted(symbols, key=lambda s: (s.address, -s.size, s.name))
        self._addrs = [s.address for s in self.symbols]
        self._by_name = {s.name: s for s in self.symbols}

    @classmethod
    def load(cls, path: str | Path) -> "Symbols":
        return cls(read_symbols(Path(path).read_bytes()))

    def address(self, name: str) -> int | None:
        s = self._by_name.get(name)
        return None if s is None else s.address

    def lookup(self, addr: int) -> tuple[str, int] | None:
        """The symbol at or below addr: (name, offset), or None."""
        i = bisect.bisect_right(self._addrs, addr) - 1
        if i < 0:
            return None
        s = self.symbols[i]
        return s.name, addr - s.address


PT_LOAD = 1


def load_segments(path: str | Path) -> list[tuple[int, int, int]]:
    """(virtual address, physical address, size in memory) of each PT_LOAD
    segment of a 32-bit ELF file."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise ValueError(f"{path}: not a 32-bit ELF file")
    end = "<" if data[5] == 1 else ">"
    phoff, = struct.unpack_from(end + "I", data, 0x1C)
    phentsize, phnum = struct.unpack_from(end + "HH", data, 0x2A)
    out = []
    for i in range(phnum):
        typ, _, vaddr, paddr, _, memsz, _, _ = struct.unpack_from(end + "IIIIIIII", data,
                                                                  phoff + i * phentsize)
        if typ == PT_LOAD and memsz:
            out.append((vaddr, paddr, memsz))
    return out


def load_range(path: str | Path) -> tuple[int, int]:
    """[first, last) physical address of what a 32-bit ELF file loads (its
    PT_LOAD segments, bss included): where a kernel image lies in RAM."""
    segments = load_segments(path)
    if not segments:
        raise ValueError(f"{path}: no loadable segment")
    return (min(p for _, p, _ in segments), max(p + m for _, p, m in segments))


def read_symbols(data: bytes) -> list[Symbol]:
    if data[:4] != b"\x7fELF":
        raise ValueError("not an ELF file")
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(end + "HH", data, 0x2E)

    def section(i: int) -> tuple[int, int, int, int, int]:
        """(type, offset, size, link, entsize) of section i."""
        base = shoff + i * shentsize
        if is64:
            _, typ, _, _, off, size, link, _, _, entsize = struct.unpack_from(
                end + "IIQQQQIIQQ", data, base)
        else:
            _, typ, _, _, off, size, link, _, _, entsize = struct.unpack_from(
                end + "IIIIIIIIII", data, base)
        return typ, off, size, link, entsize

    out: list[Symbol] = []
    for i in range(shnum):
        typ, off, size, link, entsize = section(i)
        if typ != SHT_SYMTAB or entsize == 0:
            continue
        _, stroff, _, _, _ = section(link)
        for k in range(size // entsize):
            base = off + k * entsize
            if is64:
                name_off, info, _, shndx, value, symsize = struct.unpack_from(
                    end + "IBBHQQ", data, base)
            else:
                name_off, value, symsize, info, _, shndx = struct.unpack_from(
                    end + "IIIBBH", data, base)
            kind = info & 0xF
            if shndx == SHN_UNDEF or kind not in (STT_FUNC, STT_NOTYPE) or name_off == 0:
                continue
            stop = data.index(b"\0", stroff + name_off)
            name = data[stroff + name_off:stop].decode("ascii", "replace")
            if name.startswith(".L") or name.startswith("$"):
                continue                    # local labels and mapping symbols
            out.append(Symbol(value, symsize, name, kind == STT_FUNC))
    return out
