#!/usr/bin/env bash
# Build the VAX cross toolchain: binutils 2.40 and a C-only GCC 12.2 for
# vax-netbsdelf, from Debian bookworm's own source packages.  Debian ships no
# VAX cross compiler, so we make one.  Run by `make toolchain ARCH=vax`, and by
# `make ARCH=vax` when the toolchain is missing (its stamp file is a
# prerequisite of everything the VAX build compiles).
#
#   scripts/vax-toolchain.sh            build unless already built (stamp file)
#   scripts/vax-toolchain.sh --prefix   print the install prefix and exit
#   scripts/vax-toolchain.sh --stamp    print the stamp file's path and exit
#   scripts/vax-toolchain.sh --check    exit status 0 if it is built
#
# It installs into $OUSTERHOUT_CACHE/vax-toolchain (default
# ~/.cache/ousterhout/vax-toolchain, about 300 MB), outside the repository, so
# a machine builds it once.  The whole build log goes to
# $OUSTERHOUT_CACHE/vax-toolchain.log; on failure the last lines are shown.
# Takes about 10 minutes on two cores (621 s on a fresh two-core machine),
# almost all of it GCC; longer on a machine busy with other work.
#
# Why vax-netbsdelf: it is GCC's maintained ELF VAX target.  vax-linux-gnu
# builds too, but its freestanding stdint.h is broken.  We only use the
# compiler, the assembler, the linker and libgcc (64-bit division); NetBSD's
# C library is never involved.  Three snags, each handled below where it bites:
#   1. Debian's gcc tarball has the GFDL manuals stripped out; Debian's own
#      gcc-gfdl-build.diff makes the build not need them.
#   2. GCC's stddef.h includes <machine/ansi.h> on NetBSD targets and
#      defines size_t, ptrdiff_t and wchar_t only if that header announced
#      them (_BSD_SIZE_T_ ...): we provide a tiny one that does.
#   3. libgcc's enable-execute-stack for NetBSD wants <sys/mman.h>: VAX gets the
#      empty variant instead (our kernel never runs code from the stack).
set -euo pipefail

. "$(dirname "$0")/lib.sh"              # CACHE, SUDO, bookworm_sources
PREFIX=$CACHE/vax-toolchain
TARGET=vax-netbsdelf
BINUTILS_VERSION=2.40
GCC_VERSION=12.2.0
STAMP=$PREFIX/.built-binutils-$BINUTILS_VERSION-gcc-$GCC_VERSION
LOG=$CACHE/vax-toolchain.log
WORK=$CACHE/vax-toolchain-build
JOBS=$(nproc 2>/dev/null || echo 2)

case "${1:-}" in
    --prefix) echo "$PREFIX"; exit 0 ;;
    --stamp)  echo "$STAMP"; exit 0 ;;
    --check)  [ -f "$STAMP" ]; exit ;;
esac
if [ -f "$STAMP" ]; then
    echo "vax-toolchain: already built in $PREFIX"
    exit 0
fi

mkdir -p "$CACHE"
: > "$LOG"
step() { echo "vax-toolchain: $*"; echo "=== $* ($(date))" >> "$LOG"; }
fail() {
    echo "vax-toolchain: FAILED while: $current" >&2
    echo "vax-toolchain: last lines of $LOG:" >&2
    tail -n 25 "$LOG" >&2
    exit 1
}
current="starting"
trap fail ERR
start=$(date +%s)

# ---- host packages: GCC's prerequisites, and apt-get source
current="installing build dependencies"
step "$current"
need=()
for p in build-essential libgmp-dev libmpfr-dev libmpc-dev flex bison texinfo \
         dpkg-dev xz-utils patch; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    $SUDO apt-get update -qq >> "$LOG" 2>&1
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >> "$LOG" 2>&1
fi

# ---- sources: Debian's source packages for plain bookworm
current="fetching Debian source packages (binutils, gcc-12)"
step "$current"
bookworm_sources >> "$LOG" 2>&1
rm -rf "$WORK"
mkdir -p "$WORK/dl"
# apt-get exits non-zero when a piece is missing from the mirror; what we
# need is only the tarballs, checked right after.
(cd "$WORK/dl" && apt-get source --download-only binutils/bookworm gcc-12/bookworm >> "$LOG" 2>&1) || true
binutils_tar=$(ls "$WORK"/dl/binutils_$BINUTILS_VERSION.orig.tar.* 2>/dev/null | head -1)
gcc_orig=$(ls "$WORK"/dl/gcc-12_$GCC_VERSION.orig.tar.* 2>/dev/null | head -1)
gcc_debian=$(ls "$WORK"/dl/gcc-12_$GCC_VERSION-*.debian.tar.* 2>/dev/null | head -1)
for f in binutils_tar gcc_orig gcc_debian; do
    [ -n "${!f}" ] || { echo "missing download: $f" >> "$LOG"; false; }
done

# ---- binutils
current="building binutils $BINUTILS_VERSION"
step "$current"
tar xf "$binutils_tar" -C "$WORK"
mkdir -p "$WORK/build-binutils"
(cd "$WORK/build-binutils" &&
 ../binutils-$BINUTILS_VERSION/configure --target=$TARGET --prefix="$PREFIX" \
     --disable-nls --disable-werror --disable-gdb --disable-gdbserver --disable-sim \
     --disable-gprofng &&
 make -j"$JOBS" && make install) >> "$LOG" 2>&1

# ---- gcc: Debian's orig tarball wraps the upstream (dfsg) tarball
current="unpacking and patching gcc $GCC_VERSION"
step "$current"
tar xf "$gcc_orig" -C "$WORK"
tar xf "$WORK"/gcc-12-$GCC_VERSION/gcc-$GCC_VERSION-dfsg.tar.* -C "$WORK"
tar xf "$gcc_debian" -C "$WORK" debian/patches/gcc-gfdl-build.diff
GCC_SRC=$WORK/gcc-$GCC_VERSION
# Snag 1: build without the stripped GFDL documentation.
(cd "$GCC_SRC" && patch -p2 < "$WORK/debian/patches/gcc-gfdl-build.diff") >> "$LOG" 2>&1
# Snag 3: no <sys/mman.h> here, and no trampolines on the stack in our code.
sed -i '/^vax-\*-netbsdelf\*)/a\	enable_execute_stack=enable-execute-stack-empty.c' \
    "$GCC_SRC/libgcc/config.host"
# Snag 2: the header GCC's stddef.h includes on NetBSD targets.
mkdir -p "$PREFIX/$TARGET/sys-include/machine"
cat > "$PREFIX/$TARGET/sys-include/machine/ansi.h" <<'H'
/* Stand-in for NetBSD's <machine/ansi.h>, which GCC's stddef.h includes on
   NetBSD targets: stddef.h typedefs size_t, ptrdiff_t and wchar_t only when
   these say the types exist (written by scripts/vax-toolchain.sh). */
#define _BSD_SIZE_T_    unsigned int
#define _BSD_PTRDIFF_T_ int
#define _BSD_WCHAR_T_   int
H

current="building gcc $GCC_VERSION (C only; the long step)"
step "$current"
mkdir -p "$WORK/build-gcc"
(cd "$WORK/build-gcc" &&
 PATH="$PREFIX/bin:$PATH" "$GCC_SRC"/configure --target=$TARGET --prefix="$PREFIX" \
     --enable-languages=c --without-headers --with-newlib --disable-shared \
     --disable-threads --disable-libssp --disable-libquadmath --disable-libgomp \
     --disable-libatomic --disable-nls --disable-bootstrap --disable-multilib \
     --disable-lto &&
 PATH="$PREFIX/bin:$PATH" make -j"$JOBS" all-gcc all-target-libgcc &&
 PATH="$PREFIX/bin:$PATH" make install-gcc install-target-libgcc) >> "$LOG" 2>&1

current="checking the result"
step "$current"
"$PREFIX/bin/$TARGET-gcc" --version >> "$LOG" 2>&1
"$PREFIX/bin/$TARGET-gcc" -print-libgcc-file-name >> "$LOG" 2>&1

# The build trees are about 2 GB; the installed prefix is all we keep.
rm -rf "$WORK"
trap - ERR
touch "$STAMP"
step "done in $(( $(date +%s) - start )) s: $PREFIX"
