#!/usr/bin/env bash
# Install what the project needs on a fresh Debian 12 machine, and nothing
# when it is already there.  Called by `make deps` (and so by `make run`,
# `make test` and the other commands) with the ISAs the command builds:
#
#   scripts/install-deps.sh [ISA...]        no ISA: every one (kernel/arch/*/)
#   scripts/install-deps.sh --list [ISA...] the Debian packages it would want
#                                           on a fresh machine; installs nothing
#
# Each ISA's own packages, its cross compiler and its emulator, are in its
# arch.mk (ARCH_DEPS), which this script asks make for; so a first
# `make run ARCH=riscv` installs RISC-V's and no other ISA's.  The common
# ones are listed here: pkg-config and GLib's headers for the model's QEMU
# plugin, gdb-multiarch for `make gdb`, and the harness's Python packages
# (Dask's `distributed` among them: the multi-run commands' --scheduler, and
# the test of that path on a local cluster).
#
# QEMU comes from bookworm-backports: a qemu-* package must be 10.0 or newer
# (markers and icount behaviour were checked on 10.0; Debian 12's own is
# 7.2).  The backports source is added whatever the ISAs: the plugin's
# header comes from its QEMU source (scripts/fetch-qemu-plugin-h.sh).
# Uses sudo only when not root.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/lib.sh"                # SUDO

COMMON="pkg-config libglib2.0-dev gdb-multiarch"
QEMU_MIN=1:10                           # Debian version of QEMU 10.0

list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi
if [ $# -eq 0 ]; then
    set -- $(cd "$ROOT/kernel/arch" && ls -d */ | tr -d /)
fi

# An ISA's ARCH_DEPS, as make reads its arch.mk (with none of the calling
# make's flags: its MAKEFLAGS may carry goals and --eval's of its own).
isa_deps() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$ROOT" \
        ARCH="$1" --eval 'print-arch-deps: ; @echo $(ARCH_DEPS)' print-arch-deps
}

# Whether a package is installed (a qemu-* package: version QEMU_MIN or newer).
installed() {
    local s
    s=$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null) || return 1
    case "$s" in "install ok installed "*) ;; *) return 1 ;; esac
    case "$1" in qemu-*) dpkg --compare-versions "${s##* }" ge "$QEMU_MIN" ;; esac
}

wanted=" "
for isa in "$@"; do
    deps=$(isa_deps "$isa")             # (a bad ISA stops here: make names the choices)
    for p in $deps; do
        case "$wanted" in *" $p "*) ;; *) wanted+="$p " ;; esac
    done
done
wanted+="$COMMON "

# (module to import, its Debian package, its package on PyPI)
PY_DEPS="pexpect:python3-pexpect:pexpect pytest:python3-pytest:pytest
matplotlib:python3-matplotlib:matplotlib xdist:python3-pytest-xdist:pytest-xdist
pandas:python3-pandas:pandas distributed:python3-distributed:distributed
tomlkit:python3-tomlkit:tomlkit"
# pandas: the tests read every CSV with it; distributed: --scheduler, a Dask cluster;
# tomlkit: calibrate rewrites a profile's fitted fields, keeping its comments

if [ "$list" -eq 1 ]; then
    for d in $PY_DEPS; do rest=${d#*:}; wanted+="${rest%%:*} "; done
    echo $wanted
    exit 0
fi

backports_source=/etc/apt/sources.list.d/bookworm-backports.sources
if [ ! -f "$backports_source" ]; then
    echo "deps: adding the bookworm-backports apt source for QEMU 10"
    $SUDO tee "$backports_source" >/dev/null <<'SRC'
Types: deb deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

apt_updated=0
apt_install() {                         # apt_install [apt-get options] PACKAGE...
    if [ "$apt_updated" -eq 0 ]; then
        $SUDO apt-get update -qq
        apt_updated=1
    fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

need_qemu=() need_apt=()
for p in $wanted; do
    installed "$p" && continue
    case "$p" in
        qemu-*) need_qemu+=("$p") ;;
        *)      need_apt+=("$p") ;;
    esac
done

# The harness's Python modules `python3` cannot find, asked in one run and
# without importing them (importing pandas or distributed takes seconds, on
# every make run).
py_missing() {
    python3 -c 'import importlib.util as u, sys
print(" ".join(m for m in sys.argv[1:] if u.find_spec(m) is None))' "$@" 2>/dev/null || echo "$@"
}
py_mods() { for d in $PY_DEPS; do echo "${d%%:*}"; done; }
missing=" $(py_missing $(py_mods)) "
for d in $PY_DEPS; do
    mod=${d%%:*} rest=${d#*:}
    case "$missing" in *" $mod "*) need_apt+=("${rest%%:*}") ;; esac
done

if [ ${#need_apt[@]} -gt 0 ]; then
    echo "deps: installing ${need_apt[*]}"
    apt_install "${need_apt[@]}"
fi
# QEMU last: `-t bookworm-backports` prefers backports for every package
# the transaction pulls in, so a library the packages above share with it
# (libelf1: gdb-multiarch needs bookworm's exactly) must be there already.
# Found on a fresh Debian 12 (debootstrap): QEMU first gave libelf1 0.192
# and gdb-multiarch could not be installed.
if [ ${#need_qemu[@]} -gt 0 ]; then
    echo "deps: installing ${need_qemu[*]} (QEMU 10) from bookworm-backports"
    apt_install -t bookworm-backports "${need_qemu[@]}"
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

for p in $wanted; do
    installed "$p" || { echo "deps: $p is still missing after install" >&2; exit 1; }
done
