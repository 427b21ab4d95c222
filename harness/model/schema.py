"""The hardware model's parameters, read from hw-models/core/params.def.

params.def is the one home of every parameter: its name (a profile's
section.field, e.g. memory.bandwidth_mbs, which is also its name on the
model's command line and in its log), type, allowed values, unit, default
and doc line.  The engine includes the file as C (hw-models/core/options.c);
this module parses it, strictly: a line it does not understand is an error
naming the line, never skipped, so the two readers cannot drift apart
silently.

    s = schema.load()
    p = s.params["memory.bandwidth_mbs"]
    p.problem(-1)          -> "must be a number > 0"
    p.text(25.873)         -> "25.873", as the model's command line has it
    s.runargs["trap_pc"]   -> the run's arguments (files, kernel addresses)

What a profile as a whole must satisfy (a cache's size divisible into sets,
which fields a software-refilled TLB takes) is profiles.py's; what each
field must be is here.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import ROOT, rel
from ..errors import SetupError

PARAMS_DEF = ROOT / "hw-models" / "core" / "params.def"

PARAM_TYPES = ("F64", "U32", "U64", "I64", "BOOL", "CHOICE")
RUNARG_TYPES = ("STR", "U32", "U64", "I64", "PC", "BOOL")
CHECKS = ("ANY", "GT0", "GE0", "POW2")
_LIMIT = {"U32": 2**32 - 1, "U64": 2**64 - 1, "I64": 2**63 - 1}


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class Check:
    kind: str                          # ANY, GT0, GE0, POW2, IN, ONEOF
    lo: float = 0.0                    # IN
    hi: float = 0.0
    words: tuple[str, ...] = ()        # ONEOF


@dataclass(frozen=True)
class Section:
    name: str
    required: bool
    doc: str


@dataclass(frozen=True)
class Param:
    """One PARAM line: a field of a profile, and the model's argument of the same name."""

    name: str                          # "memory.bandwidth_mbs"
    type: str                          # PARAM_TYPES
    check: Check
    required: bool                     # REQ: every model profile has it
    field: str | None                  # the engine's (hw.p.FIELD), None: NOFIELD
    unit: str
    default: str                       # as the model's text; "": zero
    doc: str
    line: int                          # in params.def

    @property
    def section(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def key(self) -> str:
        return self.name.split(".", 1)[1]

    @property
    def label(self) -> str:
        """The doc line with its unit, unless it names it: "memory bandwidth
        (MB/s)", "extra cycles per trap" (a plot's axis)."""
        return self.doc if not self.unit or self.unit in self.doc else \
            f"{self.doc} ({self.unit})"

    def problem(self, v: Any) -> str | None:
        """Why v is not a value of this parameter, as the end of a message
        that names the field first ("[memory] bandwidth_mbs = -1 " + this)."""
        c, t = self.check, self.type
        if t == "BOOL":
            return None if isinstance(v, bool) else "must be true or false"
        if t == "CHOICE":
            if v in c.words:
                return None
            if len(c.words) == 1:
                return f'must be "{c.words[0]}" (the only one modelled)'
            return "must be " + " or ".join(f'"{w}"' for w in c.words)
        if t == "F64":
            if c.kind == "IN":
                ok = _number(v) and c.lo <= v <= c.hi
                return None if ok else \
                    f"must be a number from {c.lo:g} to {c.hi:g} ({self.doc})"
            if not _number(v):
                return {"GT0": "must be a number > 0", "GE0": "must be a number >= 0"}.get(
                    c.kind, "must be a number")
            if c.kind == "GT0" and not v > 0:
                return "must be a number > 0"
            if c.kind == "GE0" and not v >= 0:
                return "must be a number >= 0"
            return None
        # whole numbers
        if c.kind == "POW2":
            if not _whole(v) or v <= 0:
                return "must be a power of two"
            if v & (v - 1):
                return "is not a power of two"
        floor = {"GT0": 1, "GE0": 0}.get(c.kind, 0 if t != "I64" else -_LIMIT["I64"] - 1)
        if not _whole(v) or v < floor:
            return {1: "must be a whole number > 0", 0: "must be a whole number >= 0"}.get(
                floor, "must be a whole number")
        if v > _LIMIT[t]:
            return f"must be at most {_LIMIT[t]}"
        return None

    def text(self, v: Any) -> str:
        """v as the model's command line and log write it (v already checked)."""
        if isinstance(v, bool):
            return "true" if v else "false"
        return str(v)

    def value(self, text: str) -> Any:
        """The model's text back as a value (the HWMODEL line, a default)."""
        if self.type == "BOOL":
            if text not in ("true", "false"):
                raise ValueError(f"{self.name}: {text!r} is not true or false")
            return text == "true"
        if self.type == "CHOICE":
            if text not in self.check.words:
                raise ValueError(f"{self.name}: {text!r} is not one of {self.check.words}")
            return text
        if self.type == "F64":
            return float(text or 0)
        return int(text or 0, 0)


@dataclass(frozen=True)
class RunArg:
    """One RUNARG line: an argument of the run, not of the machine."""

    name: str
    type: str                          # RUNARG_TYPES
    field: str | None
    default: str
    doc: str
    line: int

    def text(self, v: Any) -> str:
        """v as the model's command line has it: addresses and sizes in hex."""
        if self.type in ("U64", "PC"):
            if not _whole(v) or not 0 <= v <= _LIMIT["U64"]:
                raise SetupError(f"model argument {self.name}={v!r}: not an address")
            return f"{v:#x}"
        if self.type == "I64":
            if not _whole(v):
                raise SetupError(f"model argument {self.name}={v!r}: not a whole number")
            return str(v)
        if self.type == "U32":
            if not _whole(v) or not 0 <= v <= _LIMIT["U32"]:
                raise SetupError(f"model argument {self.name}={v!r}: not a whole number "
                                 f"from 0 to {_LIMIT['U32']}")
            return str(v)
        if self.type == "BOOL":
            if not isinstance(v, bool):
                raise SetupError(f"model argument {self.name}={v!r}: not true or false")
            return "true" if v else "false"
        s = str(v)
        if "," in s:
            raise SetupError(f"model argument {self.name}={s!r} contains a comma")
        return s


@dataclass(frozen=True)
class Schema:
    sections: dict[str, Section]
    params: dict[str, Param]           # by name, in params.def's order
    runargs: dict[str, RunArg]

    def section_params(self, section: str) -> dict[str, Param]:
        """The parameters of one section, by their key within it."""
        return {p.key: p for p in self.params.values() if p.section == section}

    def param(self, name: str) -> Param:
        try:
            return self.params[name]
        except KeyError:
            raise SetupError(f"no model parameter {name!r} (hw-models/core/params.def)") \
                from None


# ------------------------------------------------------------------ the reader

_CALL = re.compile(r"([A-Z]+)\(")


class _Reader:
    """params.def as a list of (line, macro, [argument texts])."""

    def __init__(self, text: str, where: str) -> None:
        self.text, self.where, self.i = text, where, 0

    def fail(self, why: str, at: int | None = None) -> SetupError:
        line = self.text.count("\n", 0, self.i if at is None else at) + 1
        return SetupError(f"{self.where}:{line}: {why}")

    def skip(self) -> None:
        """Whitespace and /* comments */."""
        while self.i < len(self.text):
            if self.text[self.i].isspace():
                self.i += 1
            elif self.text.startswith("/*", self.i):
                end = self.text.find("*/", self.i + 2)
                if end < 0:
                    raise self.fail("a comment that does not end")
                self.i = end + 2
            else:
                return

    def calls(self) -> list[tuple[int, str, list[str]]]:
        out = []
        while True:
            self.skip()
            if self.i >= len(self.text):
                return out
            start = self.i
            m = _CALL.match(self.text, self.i)
            if not m:
                snippet = self.text[self.i:].split("\n", 1)[0][:40]
                raise self.fail(f"not a call of SECTION, PARAM or RUNARG: {snippet!r}")
            self.i = m.end()
            out.append((self.text.count("\n", 0, start) + 1, m.group(1), self.arguments()))

    def arguments(self) -> list[str]:
        """Up to the call's closing parenthesis: its arguments, split at the
        commas outside strings and inner parentheses."""
        args, depth, begin = [], 0, self.i
        while self.i < len(self.text):
            ch = self.text[self.i]
            if ch == '"':
                end = self.text.find('"', self.i + 1)
                if end < 0 or "\n" in self.text[self.i:end] or "\\" in self.text[self.i:end]:
                    raise self.fail("a string must end on its line, without backslashes")
                self.i = end + 1
                continue
            if self.text.startswith("/*", self.i):
                raise self.fail("no comments inside a call")
            if ch == "(":
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
            elif ch in ",)" and depth == 0:
                args.append(self.text[begin:self.i].strip())
                self.i += 1
                begin = self.i
                if ch == ")":
                    return args
                continue
            self.i += 1
        raise self.fail("a call that does not end")


_STRING = re.compile(r'"([^"\\\n]*)"')
_FIELD = re.compile(r"FIELD\(\s*([A-Za-z_][\w.\[\]]*)\s*\)")
_NUM = r"-?\d+(?:\.\d+)?"
_IN = re.compile(rf"IN\(\s*({_NUM})\s*,\s*({_NUM})\s*\)")
_ONEOF = re.compile(r'ONEOF\(\s*"([^"\\\n]*)"\s*\)')
_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _string(arg: str, what: str, fail) -> str:
    m = _STRING.fullmatch(arg)
    if not m:
        raise fail(f"{what} must be one string literal, not {arg!r}")
    return m.group(1)


def _field(arg: str, fail) -> str | None:
    if arg == "NOFIELD":
        return None
    m = _FIELD.fullmatch(arg)
    if not m:
        raise fail(f"field must be FIELD(path) or NOFIELD, not {arg!r}")
    return m.group(1)


def _check(arg: str, type_: str, fail) -> Check:
    if arg in CHECKS:
        check = Check(arg)
    elif m := _IN.fullmatch(arg):
        check = Check("IN", float(m.group(1)), float(m.group(2)))
        if check.lo > check.hi:
            raise fail(f"{arg}: an empty range")
    elif m := _ONEOF.fullmatch(arg):
        words = tuple(m.group(1).split("|"))
        if not 1 <= len(words) <= 2 or not all(words):
            raise fail(f"{arg}: one or two words (C keeps the index as a bool)")
        check = Check("ONEOF", words=words)
    else:
        raise fail(f"check must be one of {', '.join(CHECKS)}, IN(lo, hi) or "
                   f"ONEOF(\"a|b\"), not {arg!r}")
    fits = {"ONEOF": type_ == "CHOICE", "IN": type_ == "F64",
            "POW2": type_ in ("U32", "U64"), "GT0": type_ not in ("BOOL", "CHOICE"),
            "GE0": type_ not in ("BOOL", "CHOICE"), "ANY": type_ != "CHOICE"}
    if not fits[check.kind]:
        raise fail(f"check {arg} does not go with type {type_}")
    return check


def _presence(arg: str, fail) -> bool:
    if arg not in ("REQ", "OPT"):
        raise fail(f"presence must be REQ or OPT, not {arg!r}")
    return arg == "REQ"


def parse(text: str, where: str = "params.def") -> Schema:
    """The schema in params.def's text; SetupError naming the line of
    anything it does not understand."""
    reader = _Reader(text, where)
    sections: dict[str, Section] = {}
    params: dict[str, Param] = {}
    runargs: dict[str, RunArg] = {}
    for line, macro, args in reader.calls():
        def fail(why: str, line: int = line) -> SetupError:
            return SetupError(f"{where}:{line}: {why}")
        arity = {"SECTION": 3, "PARAM": 8, "RUNARG": 5}.get(macro)
        if arity is None:
            raise fail(f"unknown macro {macro} (SECTION, PARAM or RUNARG)")
        if len(args) != arity:
            raise fail(f"{macro} takes {arity} arguments, not {len(args)}")
        name = _string(args[0], "the name", fail)
        if name in sections or name in params or name in runargs:
            raise fail(f"{name!r} is defined twice")
        if macro == "SECTION":
            if not _NAME.fullmatch(name):
                raise fail(f"section name {name!r}: lower case, digits and _")
            sections[name] = Section(name, _presence(args[1], fail),
                                     _string(args[2], "the doc line", fail))
            continue
        type_ = args[1]
        types = PARAM_TYPES if macro == "PARAM" else RUNARG_TYPES
        if type_ not in types:
            raise fail(f"a {macro}'s type must be one of {', '.join(types)}, not {type_!r}")
        if macro == "RUNARG":
            if not _NAME.fullmatch(name):
                raise fail(f"run argument {name!r}: a plain lower-case word")
            runargs[name] = RunArg(name, type_, _field(args[2], fail),
                                   _string(args[3], "the default", fail),
                                   _string(args[4], "the doc line", fail), line)
            continue
        section, dot, key = name.partition(".")
        if not dot or not _NAME.fullmatch(key):
            raise fail(f"parameter {name!r} must be section.field")
        if section not in sections:
            raise fail(f"parameter {name!r}: no SECTION(\"{section}\", ...) above it")
        p = Param(name, type_, _check(args[2], type_, fail), _presence(args[3], fail),
                  _field(args[4], fail), _string(args[5], "the unit", fail),
                  _string(args[6], "the default", fail),
                  _string(args[7], "the doc line", fail), line)
        if p.default:
            try:
                why = p.problem(p.value(p.default))
            except ValueError as e:
                why = str(e)
            if why:
                raise fail(f"{name}: default {p.default!r} {why}")
        params[name] = p
    if not params:
        raise SetupError(f"{where}: no PARAM lines")
    return Schema(sections, params, runargs)


def load(path: Path | None = None) -> Schema:
    """params.def (PARAMS_DEF unless given), parsed once per process."""
    return _load(path or PARAMS_DEF)


@functools.cache
def _load(path: Path) -> Schema:
    try:
        text = path.read_text()
    except OSError as e:
        raise SetupError(f"cannot read the model's parameters: {e}") from None
    return parse(text, rel(path))
