#!/usr/bin/env python3
"""gensrc.py DIR: write the Andrew benchmark's source tree into DIR.

The modified Andrew benchmark (Ousterhout 1989, section 9) copies the source
tree of a program, stats and reads every file, and compiles it.  Our tree is
a program of about 300 KB of C in a few directories, written by this script
with a fixed pseudo-random sequence, so every build makes the same tree, and
kept within the C subset our compiler (guests/bin/cc.c) accepts: int and
char, pointers and arrays, the usual statements and operators, #include,
#define and include guards.

    DIR/include/defs.h          constants and common prototypes
    DIR/<part>/<part>.h         prototypes of the part's functions
    DIR/<part>/<part>N.c        functions, tables and counters

The program is never run, only compiled and linked, but it is a whole
program: every function called is defined somewhere, `main` included.
"""

from __future__ import annotations

import sys
from pathlib import Path

PARTS = ("lib", "kern", "fs", "net", "util")
FILES_PER_PART = 8
FUNCS_PER_FILE = 8


class Rand:
    """A small linear congruential generator: the same numbers everywhere."""

    def __init__(self, seed: int) -> None:
        self.x = seed

    def next(self) -> int:
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x >> 8

    def below(self, n: int) -> int:
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]


R = Rand(1989)

CONSTANTS = [("NBUF", 64), ("MAXNAME", 28), ("HASHSIZE", 127), ("BLOCKSIZE", 1024),
             ("NPROC", 32), ("NFILE", 100), ("TICKS", 60), ("MAGIC", 12345)]


class Func:
    def __init__(self, name: str, nparams: int) -> None:
        self.name = name
        self.nparams = nparams


def expression(vars_: list[str], depth: int, funcs: list[Func]) -> str:
    """An int expression over the given variables."""
    r = R.below(10)
    if depth <= 0 or r < 3:
        if R.below(3) == 0:
            return str(R.below(100))
        if R.below(5) == 0:
            return R.pick(CONSTANTS)[0]
        return R.pick(vars_)
    if r < 8:
        op = R.pick(["+", "-", "*", "&", "|", "^", "<<", ">>", "+", "-"])
        a = expression(vars_, depth - 1, funcs)
        b = expression(vars_, depth - 1, funcs)
        if op in ("<<", ">>"):
            b = str(R.below(8))
        return f"({a} {op} {b})"
    if r == 8 and funcs:
        f = R.pick(funcs)
        args = ", ".join(expression(vars_, depth - 2, []) for _ in range(f.nparams))
        return f"{f.name}({args})"
    return f"(-{expression(vars_, depth - 1, funcs)})"


def condition(vars_: list[str]) -> str:
    op = R.pick(["<", ">", "<=", ">=", "==", "!="])
    c = f"{R.pick(vars_)} {op} {expression(vars_, 1, [])}"
    if R.below(4) == 0:
        c = f"{c} && {R.pick(vars_)} != {R.below(50)}"
    elif R.below(4) == 0:
        c = f"{c} || {R.pick(vars_)} == {R.below(50)}"
    return c


def statements(vars_: list[str], arrays: list[tuple[str, int]], depth: int,
               funcs: list[Func], indent: str, count: int) -> list[str]:
    out = []
    for _ in range(count):
        r = R.below(12)
        v = R.pick(vars_)
        if r < 4 or depth == 0:
            op = R.pick(["=", "=", "+=", "-="])
            out.append(f"{indent}{v} {op} {expression(vars_, 3, funcs)};")
        elif r < 6 and arrays:
            a, n = R.pick(arrays)
            i = R.pick(vars_)
            if R.below(2):
                out.append(f"{indent}{a}[({i} & 0x7fffffff) % {n}] = {expression(vars_, 2, funcs)};")
            else:
                out.append(f"{indent}{v} = {v} + {a}[({i} & 0x7fffffff) % {n}];")
        elif r < 8:
            out.append(f"{indent}if ({condition(vars_)}) {{")
            out += statements(vars_, arrays, depth - 1, funcs, indent + "    ", 1 + R.below(3))
            if R.below(2):
                out.append(f"{indent}}} else {{")
                out += statements(vars_, arrays, depth - 1, funcs, indent + "    ", 1 + R.below(2))
            out.append(f"{indent}}}")
        elif r < 10:
            i = R.pick(vars_)
            out.append(f"{indent}for ({i} = 0; {i} < {2 + R.below(30)}; {i}++) {{")
            inner = [x for x in vars_ if x != i] or vars_
            out += statements(inner, arrays, depth - 1, funcs, indent + "    ", 1 + R.below(3))
            out.append(f"{indent}}}")
        elif r == 10:
            out.append(f"{indent}while ({v} > {R.below(20)}) {{")
            out += statements(vars_, arrays, depth - 1, funcs, indent + "    ", 1 + R.below(2))
            out.append(f"{indent}    {v} = {v} / 2 - 1;")
            out.append(f"{indent}}}")
        else:
            out.append(f"{indent}{v}++;")
    return out


def function(f: Func, callees: list[Func], arrays: list[tuple[str, int]], static: bool) -> list[str]:
    params = [f"p{i}" for i in range(f.nparams)]
    locals_ = ["i", "j", "k", "n", "sum"][: 2 + R.below(4)]
    head = ("static " if static else "") + "int " + f.name + "(" + \
        (", ".join(f"int {p}" for p in params) or "void") + ")"
    body = [head, "{", f"    int {', '.join(locals_)};"]
    if R.below(3) == 0:
        body.append(f"    char name[MAXNAME];")
        body.append(f"    char *s;")
    vars_ = params + locals_
    body += [f"    {v} = {R.below(10)};" for v in locals_]
    if "    char *s;" in body:
        body.append(f"    s = name;")
        body.append(f"    s[0] = 'a' + (i & 15);")
        body.append(f"    *(s + 1) = 0;")
    body += statements(vars_, arrays, 3, callees, "    ", 4 + R.below(6))
    body.append(f"    return {expression(vars_, 2, [])};")
    body.append("}")
    return body


def generate(root: Path) -> None:
    # Every function of the program, by file, decided first so that any file
    # may call any public function of a part "below" it.
    plan: dict[str, list[list[Func]]] = {}
    for part in PARTS:
        plan[part] = [[Func(f"{part}{n}_{k}", R.below(4)) for k in range(FUNCS_PER_FILE)]
                      for n in range(FILES_PER_PART)]

    inc = root / "include"
    inc.mkdir(parents=True, exist_ok=True)
    defs = ["/* defs.h: constants and the library every part uses. */",
            "#ifndef DEFS_H", "#define DEFS_H", ""]
    defs += [f"#define {name} {value}" for name, value in CONSTANTS]
    defs += ["", "int lib_strlen(char *s);", "int lib_hash(char *s, int n);",
             "int lib_copy(char *dst, char *src, int n);", "#endif", ""]
    (inc / "defs.h").write_text("\n".join(defs))

    lower: list[Func] = []
    for pi, part in enumerate(PARTS):
        d = root / part
        d.mkdir(parents=True, exist_ok=True)
        public = [f for file in plan[part] for f in file[: FUNCS_PER_FILE // 2]]
        hdr = [f"/* {part}.h: the {part} part's functions. */", f"#ifndef {part.upper()}_H",
               f"#define {part.upper()}_H", '#include "defs.h"', ""]
        for f in public:
            args = ", ".join(f"int a{i}" for i in range(f.nparams)) or "void"
            hdr.append(f"int {f.name}({args});")
        hdr += ["#endif", ""]
        (d / f"{part}.h").write_text("\n".join(hdr))

        for n, funcs in enumerate(plan[part]):
            lines = [f"/* {part}{n}.c */", '#include "defs.h"', f'#include "{part}.h"']
            for other in PARTS[:pi]:
                lines.append(f'#include "../{other}/{other}.h"')
            lines.append("")
            arrays = [(f"{part}{n}_table", 16 + R.below(48)), (f"{part}{n}_names", 64)]
            lines.append(f"int {arrays[0][0]}[{arrays[0][1]}];")
            lines.append(f"char {arrays[1][0]}[{arrays[1][1]}];")
            lines.append(f"int {part}{n}_count = {R.below(1000)};")
            lines.append(f'char *{part}{n}_id = "{part}{n}: generated for the Andrew benchmark";')
            lines.append("")
            # Private functions first (static, called only here), then public.
            half = FUNCS_PER_FILE // 2
            private = funcs[half:]
            for f in private:
                lines += function(f, lower[-12:], arrays, static=True)
                lines.append("")
            for f in funcs[:half]:
                lines += function(f, private + lower[-12:], arrays, static=False)
                lines.append("")
            if part == "lib" and n == 0:
                lines += LIBRARY
            if part == PARTS[-1] and n == FILES_PER_PART - 1:
                lines += main_function(plan)
            (d / f"{part}{n}.c").write_text("\n".join(lines))
        lower += public


LIBRARY = """int lib_strlen(char *s)
{
    int n;
    n = 0;
    while (s[n] != 0)
        n++;
    return n;
}

int lib_hash(char *s, int n)
{
    int h;
    h = 0;
    while (*s) {
        h = (h * 31 + *s) % n;
        s++;
    }
    return h;
}

int lib_copy(char *dst, char *src, int n)
{
    int i;
    for (i = 0; i < n && src[i] != 0; i++)
        dst[i] = src[i];
    dst[i] = 0;
    return i;
}
""".splitlines()


def main_function(plan: dict[str, list[list[Func]]]) -> list[str]:
    lines = ["int main(void)", "{", "    int total;", "    total = 0;"]
    for part in PARTS:
        f = plan[part][0][0]
        args = ", ".join(str(i + 1) for i in range(f.nparams))
        lines.append(f"    total = total + {f.name}({args});")
    lines += ['    total = total + lib_hash("andrew", HASHSIZE);', "    return total & 255;", "}", ""]
    return lines


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gensrc.py DIR")
    generate(Path(sys.argv[1]))
