#!/usr/bin/env bash
# Install what the project needs on a fresh Debian 12 machine, and nothing
# when it is already there.  Called by `make deps` (and so by `make run` and
# `make test`).  Uses sudo only when not root.
#
#   QEMU 10.0 (from bookworm-backports: Debian 12's own 7.2 is too old),
#   the cross compilers for RISC-V, x86 (i686: a 32-bit libgcc without
#   gcc-multilib, which conflicts with the m68k one), m68k, MIPS and SPARC
#   (sparc64-linux-gnu-gcc -m32: the SPARC kernel links no libgcc), NASM, GRUB
#   and xorriso for the bootable x86 image, gdb-multiarch for `make gdb`,
#   and the harness's Python packages (Dask's `distributed` among them: the
#   multi-run commands' --scheduler, and the test of that path on a local
#   cluster).  The VAX toolchain is built from source by its own script.
set -euo pipefail

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

need_apt=()
have() { command -v "$1" >/dev/null 2>&1; }

# QEMU 10 or newer: markers and icount behaviour were checked on 10.0.
qemu_ok() {
    local exe=${1:-qemu-system-riscv32} v
    have "$exe" || return 1
    v=$("$exe" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -1)
    [ -n "$v" ] && [ "$v" -ge 10 ]
}

backports_source=/etc/apt/sources.list.d/bookworm-backports.sources
add_backports() {
    [ -f "$backports_source" ] && return 0
    echo "deps: adding the bookworm-backports apt source for QEMU 10"
    $SUDO tee "$backports_source" >/dev/null <<'SRC'
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

apt_updated=0
apt_update() {
    [ "$apt_updated" -eq 1 ] && return 0
    $SUDO apt-get update -qq
    apt_updated=1
}

if ! qemu_ok; then
    add_backports
    apt_update
    echo "deps: installing QEMU 10 from bookworm-backports"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        -t bookworm-backports qemu-system-misc qemu-system-x86 >/dev/null
fi
# MIPS is a package of its own (qemu-system-misc has no mips).
if ! qemu_ok qemu-system-mipsel; then
    add_backports
    apt_update
    echo "deps: installing QEMU 10 for MIPS from bookworm-backports"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        -t bookworm-backports qemu-system-mips >/dev/null
fi
# So is SPARC.
if ! qemu_ok qemu-system-sparc; then
    add_backports
    apt_update
    echo "deps: installing QEMU 10 for SPARC from bookworm-backports"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        -t bookworm-backports qemu-system-sparc >/dev/null
fi

have riscv64-unknown-elf-gcc || need_apt+=(gcc-riscv64-unknown-elf)
have i686-linux-gnu-gcc || need_apt+=(gcc-i686-linux-gnu)
have m68k-linux-gnu-gcc || need_apt+=(gcc-m68k-linux-gnu)
have mipsel-linux-gnu-gcc || need_apt+=(gcc-mipsel-linux-gnu)
have sparc64-linux-gnu-gcc || need_apt+=(gcc-sparc64-linux-gnu)
have nasm || need_apt+=(nasm)
have grub-mkrescue || need_apt+=(grub-common)
[ -d /usr/lib/grub/i386-pc ] || need_apt+=(grub-pc-bin)
have xorriso || need_apt+=(xorriso)
have gdb-multiarch || need_apt+=(gdb-multiarch)   # make gdb (docs/debugging.md)
have mformat || need_apt+=(mtools)
have pkg-config || need_apt+=(pkg-config)
dpkg -s libglib2.0-dev >/dev/null 2>&1 || need_apt+=(libglib2.0-dev)
# The harness's Python modules `python3` cannot find, asked in one run and
# without importing them (importing pandas or distributed takes seconds, on
# every make run).
py_missing() {
    python3 -c 'import importlib.util as u, sys
print(" ".join(m for m in sys.argv[1:] if u.find_spec(m) is None))' "$@" 2>/dev/null || echo "$@"
}
# (module to import, its Debian package, its package on PyPI)
PY_DEPS="pexpect:python3-pexpect:pexpect pytest:python3-pytest:pytest
matplotlib:python3-matplotlib:matplotlib xdist:python3-pytest-xdist:pytest-xdist
pandas:python3-pandas:pandas distributed:python3-distributed:distributed"
# pandas: the tests read every CSV with it; distributed: --scheduler, a Dask cluster
py_mods() { for d in $PY_DEPS; do echo "${d%%:*}"; done; }
missing=" $(py_missing $(py_mods)) "
for d in $PY_DEPS; do
    mod=${d%%:*} rest=${d#*:}
    case "$missing" in *" $mod "*) need_apt+=("${rest%%:*}") ;; esac
done

if [ ${#need_apt[@]} -gt 0 ]; then
    apt_update
    echo "deps: installing ${need_apt[*]}"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Debian's python3-* packages land in /usr/lib/python3; a pyenv or venv python
# does not see them.  Fall back to pip for the interpreter `python3` names.
if [ "$missing" != "  " ]; then
    missing=" $(py_missing $(py_mods)) "
    for d in $PY_DEPS; do
        mod=${d%%:*} pkg=${d##*:}
        case "$missing" in
            *" $mod "*) echo "deps: pip-installing $pkg for $(command -v python3)"
                        python3 -m pip install -q "$pkg" ;;
        esac
    done
fi

qemu_ok || { echo "deps: QEMU 10 is still missing after install" >&2; exit 1; }
qemu_ok qemu-system-mipsel || { echo "deps: QEMU 10 for MIPS is still missing after install" >&2; exit 1; }
qemu_ok qemu-system-sparc || { echo "deps: QEMU 10 for SPARC is still missing after install" >&2; exit 1; }
